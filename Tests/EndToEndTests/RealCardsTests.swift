// Calls on real sound cards, end to end. These machines have no sound
// cards, so the host's test boots the Bluetooth VM (scripts/run-in-vm) with
// snd-dummy and snd-aloop and runs the suite `InsideTheVMWithCards` there,
// with this same binary, on each server: the dummy card gets an accessory's
// Bluetooth properties (PulseAudio's module-alsa-card, or WirePlumber's
// ALSA monitor with rules), so it has a real output-only profile and a real
// duplex one, and the loopback card is the built-in microphone
// (TestSupport's ALSAHeadset). accessoryd decides, the server switches.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Calls on real sound cards")
struct RealCardsTests {
  // Not a skip: on the host this boots the VM and fails if it cannot;
  // inside the VM the same binary runs InsideTheVMWithCards instead.
  @Test(
    "In a VM with ALSA cards: a call switches the worn headset's profile and microphone, and gives them back",
    .enabled(if: !BluetoothVM.isInside), .timeLimit(.minutes(10)))
  func inTheVM() async throws {
    let failure = try await BluetoothVM.failure(
      ofTest: "InsideTheVMWithCards/calls", named: InsideTheVMWithCards.name,
      modules: ALSAHeadset.modules)
    #expect(failure == nil, Comment(rawValue: failure ?? ""))
  }
}

/// The suite that runs inside the VM with sound cards only;
/// ``RealCardsTests/inTheVM()`` runs it there and requires it to pass.
@Suite(
  "InsideTheVMWithCards", .enabled(if: BluetoothVM.isInside), .serialized)
struct InsideTheVMWithCards {
  /// The name ``calls(_:)`` passes under, with each server.
  static let name =
    "ALSA card as a headset: a call while worn, a probe, a level meter, the person's microphone, not worn"

  @Test(
    "ALSA card as a headset: a call while worn, a probe, a level meter, the person's microphone, not worn",
    arguments: SoundServerKind.allCases)
  func calls(_ kind: SoundServerKind) async throws {
    try await ALSAHeadset.withServer(kind, address: budsAddress) {
      try await Self.calls(on: $0, $1)
    }
  }

  /// The calls, on a server with the headset card and the laptop's
  /// microphone.
  private static func calls(
    on server: SoundServer, _ headset: ALSAHeadset
  ) async throws {
    let cards = Cards(server: server, headset: headset)
    let laptop = headset.laptopMicrophone
    let music = ALSAHeadset.outputOnly
    let duplex = ALSAHeadset.duplex
    let tone = try #require(try await server.startStreams(1).first)
    defer { tone.stop() }

    let daemon = try await DaemonFixture.start(on: server, policy: nil)
    defer { daemon.shutDown() }
    let rig = Rig(server: server, daemon: daemon)
    do {
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventually("the default and the stream on the buds") {
        headset.isSink($0.defaultSink)
          && $0.streams.allSatisfy { headset.isSink($0.sink) }
      }

      // A call while worn: after 0.5 s the duplex profile, and the buds'
      // microphone as the input; the music stays with the buds (on PipeWire
      // the profile makes their sink again, under a new name).
      var call = try await server.startRecording(
        from: laptop, properties: ["media.role": "phone"])
      try await cards.eventually("the headset profile and its microphone") {
        $0.profile == duplex && headset.isMicrophone($0.input)
      }
      try await rig.eventually("the default and the stream still on the buds") {
        headset.isSink($0.defaultSink)
          && $0.streams.allSatisfy { headset.isSink($0.sink) }
      }
      var route = try await rig.json(["route"])
      #expect(route["call"] == "active")
      #expect(headset.isMicrophone(route["input"]?.stringValue))
      guard case .array(let records)? = route["callProfiles"] else {
        throw RigFailure("route --json has no callProfiles: \(route)")
      }
      #expect(records.first?["card"]?.stringValue == headset.card)
      #expect(records.first?["previousProfile"]?.stringValue == music)
      let explained = try await rig.ok(["route", "--explain"]).stdout
      #expect(explained.contains("for the call"), "\(explained)")

      // It ends: 2 s later, at the end delay's timer, both come back.
      call.stop()
      try await cards.eventually(
        "the music profile and the laptop's microphone"
      ) {
        $0.profile == music && $0.input == laptop
      }
      let changes = try await rig.routeChanges()
      #expect(
        changes.contains { $0["trigger"] == "a grace time ended" },
        "given back at once, not after the end delay: \(changes)")
      try await rig.eventually("the default and the stream back on the buds") {
        headset.isSink($0.defaultSink)
          && $0.streams.allSatisfy { headset.isSink($0.sink) }
      }

      // A 100 ms probe, and a level meter that records on: no switch.
      try await server.recordBriefly(
        from: laptop, properties: ["media.role": "phone"],
        for: .milliseconds(100))
      let meter = try await server.startRecording(
        from: laptop,
        properties: [
          "media.role": "phone", "application.id": "org.PulseAudio.pavucontrol",
        ])
      try await cards.consistently("no switch for a probe or a level meter") {
        $0.profile == music && $0.input == laptop
      }
      meter.stop()

      // The person picks the laptop's microphone during a call: kept.
      call = try await server.startRecording(
        from: laptop, properties: ["media.role": "phone"])
      try await cards.eventually("the headset profile for the second call") {
        $0.profile == duplex && headset.isMicrophone($0.input)
      }
      // It holds through the call; past the second a server takes to settle
      // its defaults after devices came, the person's change is theirs.
      try await cards.consistently("the headset's microphone in the call") {
        $0.profile == duplex && headset.isMicrophone($0.input)
      }
      _ = try await server.pactl(["set-default-source", laptop])
      try await cards.consistently("the person's microphone kept") {
        $0.input == laptop
      }
      call.stop()
      try await cards.eventually("the music profile after the second call") {
        $0.profile == music && $0.input == laptop
      }

      // Taken off: a call uses the laptop's microphone and switches nothing.
      try await rig.place(budsAddress, "offHead")
      try await rig.eventually("another output once the buds are off") {
        !headset.isSink($0.defaultSink)
      }
      call = try await server.startRecording(
        from: laptop, properties: ["media.role": "phone"])
      try await cards.consistently("no headset profile for headphones off") {
        $0.profile == music && $0.input == laptop
      }
      route = try await rig.json(["route"])
      #expect(route["call"] == "active")
      #expect(route["input"]?.stringValue == laptop)
      call.stop()
    } catch {
      throw RigFailure("\(error)", details: await rig.diagnostics())
    }
    await #expect(
      daemon.stop() == 0,
      "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
  }
}

/// The headset card's profile and the default input, watched.
private struct Cards {
  let server: SoundServer
  let headset: ALSAHeadset

  /// Polls until a condition holds, for 20 s at most.
  func eventually(
    _ what: String, _ condition: (ALSAHeadset.Observed) -> Bool
  ) async throws {
    try await headset.waitUntil(server, what, condition)
  }

  /// Requires a condition to hold at every look for 1.5 s: three times
  /// the start delay, so a switch it should not make would show.
  func consistently(
    _ what: String, _ condition: (ALSAHeadset.Observed) -> Bool
  ) async throws {
    let end = ContinuousClock.now + .milliseconds(1500)
    while ContinuousClock.now < end {
      let observed = try await headset.observe(server)
      guard condition(observed) else {
        throw RigFailure("\(what) did not hold: \(observed)")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
