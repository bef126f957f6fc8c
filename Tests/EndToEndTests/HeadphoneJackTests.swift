// Wired headphones on a real sound card, end to end. These machines have no
// sound cards, so the host's test boots the Bluetooth VM (scripts/run-in-vm)
// with snd-dummy and runs the suite `InsideTheVMWithAJack` there, with this
// same binary, on each server: the dummy card gets a headphone jack
// (TestSupport's ALSAJack), an mpv player and a tone play on the headphones,
// and the test pulls the jack and plugs it back by writing its control, as
// the codec's driver does.

import AccessoryControl
import Foundation
import MPRIS
import TestSupport
import Testing

@Suite("Wired headphones on a real sound card")
struct HeadphoneJackTests {
  // Not a skip: on the host this boots the VM and fails if it cannot;
  // inside the VM the same binary runs InsideTheVMWithAJack instead.
  @Test(
    "In a VM with a headphone jack: pulled, nothing is heard and the player pauses; plugged back, it plays on; plugged in beside another output, the output follows",
    .enabled(if: !BluetoothVM.isInside), .timeLimit(.minutes(10)))
  func inTheVM() async throws {
    let failure = try await BluetoothVM.failure(
      ofTest: "InsideTheVMWithAJack/jack", named: InsideTheVMWithAJack.name,
      modules: ALSAJack.modules)
    #expect(failure == nil, Comment(rawValue: failure ?? ""))
  }
}

/// The suite that runs inside the VM with the card;
/// ``HeadphoneJackTests/inTheVM()`` runs it there and requires it to pass.
@Suite("InsideTheVMWithAJack", .enabled(if: BluetoothVM.isInside), .serialized)
struct InsideTheVMWithAJack {
  /// The name ``jack(_:)`` passes under, with each server.
  static let name =
    "A headphone jack pulled while a player and a tone play, then plugged back"

  @Test(
    "A headphone jack pulled while a player and a tone play, then plugged back",
    arguments: SoundServerKind.allCases)
  func jack(_ kind: SoundServerKind) async throws {
    try await ALSAJack.withServer(kind) { server, jack in
      let bus = try await PrivateBus.start()
      defer { bus.stop() }
      // A short grace time, and what a disconnect paused resumes.
      let policy = try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"
      ).replacingOccurrences(
        of: "resumeOnReconnect: false,", with: "resumeOnReconnect: true,")
      let daemon = try await DaemonFixture.start(
        on: server, policy: policy, sessionBusAddress: bus.address)
      defer { daemon.shutDown() }
      do {
        try await Self.pullAndPlug(server, jack, bus, daemon)
      } catch {
        throw FixtureError(
          "\(error)", logTail: daemon.logTail() + "\n" + server.logTail())
      }
    }
  }

  private static func pullAndPlug(
    _ server: SoundServer, _ jack: ALSAJack, _ bus: PrivateBus,
    _ daemon: DaemonFixture
  ) async throws {
    let watcher = try await MPRISClient.connect(busAddress: bus.address)
    defer { watcher.close() }
    let player = try await MediaPlayerProcess.start(
      on: bus, server: server, clientName: "music")
    let tone = try #require(try await server.startStreams(1).first)
    defer { tone.stop() }
    let status = { @Sendable in
      watcher.players().first { $0.processID == player.processID }?
        .playbackStatus
    }
    try await waitUntil("the player playing", within: .seconds(30)) {
      status() == .playing
    }
    let processes = Set([player.processID, tone.processIdentifier])
    // Both streams on the headphones, the player's known to the daemon.
    try await waitUntil("the tone on the headphones", within: .seconds(30)) {
      try await server.sinkInputs().contains {
        $0.clientName == tone.clientName && $0.sinkName == jack.sink
      }
    }
    try await waitUntil("the daemon following the player", within: .seconds(30))
    {
      let list = try JSONDecoder().decode(
        MediaPlayerList.self,
        from: Data(try await daemon.acctl(["players", "--json"]).stdout.utf8))
      return list.players.contains {
        $0.processID == player.processID
          && $0.streams.contains { $0.output == jack.sink }
      }
    }
    let watch = try await AudibilityWatch.start(
      server, sink: jack.sink, processes: processes,
      headphonePort: ALSAJack.headphonePort)
    defer { _ = watch.stop() }

    // Pulled: the card plays on its speakers. Muted as the port switches,
    // the player paused at once (a jack has no profile switch), the tone
    // kept muted.
    try await jack.plug(false)
    try await jack.awaitActivePort(ALSAJack.speakerPort, on: server)
    try await waitUntil("the player paused", within: .seconds(15)) {
      status() == .paused
    }
    try await waitUntil("the tone muted", within: .seconds(30)) {
      try await watch.streams(of: tone.processIdentifier).allSatisfy(\.isMuted)
    }
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    let paused = try await daemon.acctl(["route", "--explain"])
    #expect(
      paused.stdout.contains("jack:\(jack.sink)"), "\(paused.stdout)")

    // Plugged back: on the headphones again, the player resumed
    // (media.resumeOnReconnect), the tone unmuted there.
    try await jack.plug(true)
    try await jack.awaitActivePort(ALSAJack.headphonePort, on: server)
    try await waitUntil("the player playing again", within: .seconds(15)) {
      status() == .playing
    }
    try await waitUntil("the tone unmuted", within: .seconds(30)) {
      try await watch.streams(of: tone.processIdentifier).allSatisfy {
        !$0.isMuted
      }
    }
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    try await followsThePlug(server, jack, tone: tone, daemon)
    await player.stop()
  }

  /// Plugging headphones in counts as headphones arriving: with another
  /// output chosen as the default, the jack pulled and, after the grace
  /// time, plugged in again takes the output, the streams with it.
  private static func followsThePlug(
    _ server: SoundServer, _ jack: ALSAJack, tone: PacatStream,
    _ daemon: DaemonFixture
  ) async throws {
    _ = try await server.loadNullSink(
      .speaker(name: "usb_speaker", description: "USB Speaker"))
    try await jack.plug(false)
    try await jack.awaitActivePort(ALSAJack.speakerPort, on: server)
    // Away for longer than the grace time (1 s): plugged in again, the
    // headphones arrive rather than come back from a dropout. (A default
    // set within 1 s of a device coming is the server's own, so the
    // person's choice waits as long.)
    try await Task.sleep(for: .seconds(1.5))
    try await server.setDefaultSink("usb_speaker")
    try await waitUntil("the tone on the USB speaker", within: .seconds(15)) {
      try await server.sinkInputs().contains {
        $0.clientName == tone.clientName && $0.sinkName == "usb_speaker"
      }
    }
    try await jack.plug(true)
    try await jack.awaitActivePort(ALSAJack.headphonePort, on: server)
    try await waitUntil("the default on the headphones", within: .seconds(15)) {
      try await server.defaultSinkName() == jack.sink
    }
    try await waitUntil("the tone on the headphones", within: .seconds(15)) {
      try await server.sinkInputs().contains {
        $0.clientName == tone.clientName && $0.sinkName == jack.sink
      }
    }
    let explained = try await daemon.acctl(["route", "--explain"]).stdout
    #expect(
      explained.contains("jack:\(jack.sink), not registered"), "\(explained)")
    // Listed among the headphones accessoryd guards, known from the server.
    let listed = try await daemon.acctl(["list"]).stdout
    #expect(
      listed.split(separator: "\n").contains {
        $0.contains("jack:\(jack.sink)") && $0.contains("guarded")
      }, "\(listed)")
  }
}
