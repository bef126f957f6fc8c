// Calls on real sound cards, end to end. These machines have no sound
// cards, so the host's test boots the Bluetooth VM (scripts/run-in-vm) with
// snd-dummy and snd-aloop and runs the suite `InsideTheVMWithCards` there,
// with this same binary: a private PulseAudio loads the dummy card with
// module-alsa-card and an accessory's Bluetooth properties, so the card has
// a real output-only profile and a real duplex one, and the loopback card
// is the built-in microphone. accessoryd decides, PulseAudio switches.

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
  /// The name ``calls()`` passes under.
  static let name =
    "PulseAudio's ALSA card as a headset: a call while worn, a probe, a level meter, the person's microphone, not worn"

  typealias Headset = ALSAHeadset

  @Test(
    "PulseAudio's ALSA card as a headset: a call while worn, a probe, a level meter, the person's microphone, not worn"
  )
  func calls() async throws {
    let server = try await SoundServer.start(
      .pulseAudio,
      sinks: [.speaker(name: "speaker", description: "Built-in Speaker")])
    defer { server.stop() }
    try await Headset.load(into: server, address: budsAddress)
    let cards = Cards(server: server)

    let daemon = try await DaemonFixture.start(on: server, policy: nil)
    defer { daemon.shutDown() }
    let rig = Rig(server: server, daemon: daemon)
    try await rig.pairAndRegister(budsAddress, placement: "inEar")
    try await rig.eventually("the default on the buds") {
      $0.defaultSink == Headset.sink
    }

    // A call while worn: after 0.5 s the duplex profile, and the buds'
    // microphone as the input.
    var call = try await server.startRecording(
      from: Headset.laptopMicrophone, properties: ["media.role": "phone"])
    try await cards.eventually("the headset profile and its microphone") {
      $0.profile == Headset.duplex && $0.input == Headset.microphone
    }
    var route = try await rig.json(["route"])
    #expect(route["call"] == "active")
    #expect(route["input"]?.stringValue == Headset.microphone)
    guard case .array(let records)? = route["callProfiles"] else {
      throw RigFailure("route --json has no callProfiles: \(route)")
    }
    #expect(records.first?["card"]?.stringValue == Headset.card)
    #expect(
      records.first?["previousProfile"]?.stringValue == Headset.outputOnly)
    #expect(try await server.defaultSinkName() == Headset.sink)
    let explained = try await rig.ok(["route", "--explain"]).stdout
    #expect(explained.contains("for the call"), "\(explained)")

    // It ends: 2 s later, at the end delay's timer, both come back.
    call.stop()
    try await cards.eventually("the music profile and the laptop's microphone")
    {
      $0.profile == Headset.outputOnly && $0.input == Headset.laptopMicrophone
    }
    let changes = try await rig.routeChanges()
    #expect(
      changes.first?["trigger"] == "a grace time ended",
      "given back at once, not after the end delay: \(changes)")
    #expect(try await server.defaultSinkName() == Headset.sink)

    // A 100 ms probe, and a level meter that records on: no switch.
    let probe = try await server.startRecording(
      from: Headset.laptopMicrophone, properties: ["media.role": "phone"])
    try await Task.sleep(for: .milliseconds(100))
    probe.stop()
    let meter = try await server.startRecording(
      from: Headset.laptopMicrophone,
      properties: [
        "media.role": "phone", "application.id": "org.PulseAudio.pavucontrol",
      ])
    try await cards.consistently("no switch for a probe or a level meter") {
      $0.profile == Headset.outputOnly && $0.input == Headset.laptopMicrophone
    }
    meter.stop()

    // The person picks the laptop's microphone during a call: kept.
    call = try await server.startRecording(
      from: Headset.laptopMicrophone, properties: ["media.role": "phone"])
    try await cards.eventually("the headset profile for the second call") {
      $0.profile == Headset.duplex && $0.input == Headset.microphone
    }
    _ = try await server.pactl(["set-default-source", Headset.laptopMicrophone])
    try await cards.consistently("the person's microphone kept") {
      $0.input == Headset.laptopMicrophone
    }
    call.stop()
    try await cards.eventually("the music profile after the second call") {
      $0.profile == Headset.outputOnly && $0.input == Headset.laptopMicrophone
    }

    // Taken off: a call uses the laptop's microphone and switches nothing.
    try await rig.place(budsAddress, "offHead")
    try await rig.eventually("the speaker once the buds are off") {
      $0.defaultSink == "speaker"
    }
    call = try await server.startRecording(
      from: Headset.laptopMicrophone, properties: ["media.role": "phone"])
    try await cards.consistently("no headset profile for headphones off") {
      $0.profile == Headset.outputOnly && $0.input == Headset.laptopMicrophone
    }
    route = try await rig.json(["route"])
    #expect(route["call"] == "active")
    #expect(route["input"]?.stringValue == Headset.laptopMicrophone)
    call.stop()

    await #expect(
      daemon.stop() == 0,
      "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
  }
}

/// The headset card's profile and the default input, watched.
private struct Cards {
  let server: SoundServer

  /// Polls until a condition holds, for 20 s at most.
  func eventually(
    _ what: String, _ condition: (ALSAHeadset.Observed) -> Bool
  ) async throws {
    try await ALSAHeadset.waitUntil(server, what, condition)
  }

  /// Requires a condition to hold at every look for 1.5 s: three times
  /// the start delay, so a switch it should not make would show.
  func consistently(
    _ what: String, _ condition: (ALSAHeadset.Observed) -> Bool
  ) async throws {
    let end = ContinuousClock.now + .milliseconds(1500)
    while ContinuousClock.now < end {
      let observed = try await ALSAHeadset.observe(server)
      guard condition(observed) else {
        throw RigFailure("\(what) did not hold: \(observed)")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
