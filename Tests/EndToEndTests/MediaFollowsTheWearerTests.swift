// Media follows the wearer, end to end: real mpv players on a private
// session bus playing to each sound server; the buds taken off pause
// exactly the players that play on them before the output changes, and
// nothing of theirs is ever audible on the speaker; put back on, exactly
// those resume.

import AccessoryControl
import Foundation
import MPRIS
import PulseAudio
import Synchronization
import TestSupport
import Testing

/// An independent libpulse client that checks, at every change of the
/// streams, that no stream of the watched processes plays audibly (not
/// corked, not muted) on a sink.
final class AudibilityWatch: Sendable {
  private let connection: PulseConnection
  private let moments = Mutex<[String]>([])
  private let task = Mutex<Task<Void, Never>?>(nil)

  private init(connection: PulseConnection) {
    self.connection = connection
  }

  /// Starts watching a sink for the streams of some processes.
  static func start(
    _ server: SoundServer, sink: String, processes: Set<Int32>
  ) async throws -> AudibilityWatch {
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "audibility-watch"))
    let watch = AudibilityWatch(connection: connection)
    let events = connection.events
    let check: @Sendable () async -> Void = {
      guard let sinks = try? await connection.sinks(),
        let index = sinks.first(where: { $0.name == sink })?.index,
        let inputs = try? await connection.sinkInputs()
      else { return }
      for input in inputs
      where input.sinkIndex == index && !input.isCorked && !input.isMuted
        && processes.contains(input.processID ?? -1)
      {
        watch.moments.withLock {
          $0.append("stream #\(input.index) of \(input.clientName ?? "?")")
        }
      }
    }
    await check()
    watch.task.withLock {
      $0 = Task {
        for await event in events
        where event.facility == .sinkInput || event.facility == .sink {
          await check()
        }
      }
    }
    return watch
  }

  /// The playback streams of a process now.
  func streams(of process: Int32) async throws -> [SinkInput] {
    try await connection.sinkInputs().filter {
      $0.processID == process
    }
  }

  /// Stops watching and returns every audible moment seen.
  func stop() -> [String] {
    task.withLock { $0?.cancel() }
    connection.close()
    return moments.withLock { $0 }
  }
}

/// The rig of these tests: the buds worn and playing three players, two
/// playing and one paused by the person.
struct MediaRig {
  let bus: PrivateBus
  let server: SoundServer
  let daemon: DaemonFixture
  let watcher: MPRISClient
  let playing: [MediaPlayerProcess]
  let paused: MediaPlayerProcess

  /// The bus names of players by process.
  func busName(of player: MediaPlayerProcess) -> String? {
    watcher.players().first { $0.processID == player.processID }?.busName
  }

  /// The status of a player, as an independent MPRIS client sees it.
  func status(of player: MediaPlayerProcess) -> MediaPlayer.PlaybackStatus? {
    watcher.players().first { $0.processID == player.processID }?
      .playbackStatus
  }

  /// Waits until the players have these statuses, as the watcher sees.
  func waitForStatuses(
    _ expected: [(MediaPlayerProcess, MediaPlayer.PlaybackStatus)],
    _ what: String, within limit: Duration = .seconds(10)
  ) async throws {
    try await waitUntil(what, within: limit) {
      expected.allSatisfy { status(of: $0.0) == $0.1 }
    }
  }

  func acctl(_ arguments: [String]) async throws -> AcctlResult {
    let result = try await daemon.acctl(arguments)
    guard result.status == 0 else {
      throw FixtureError("acctl failed: \(result)", logTail: daemon.logTail())
    }
    return result
  }
}

/// Waits until a sink is the server's default.
func waitForDefault(_ server: SoundServer, _ sink: String) async throws {
  try await waitUntil("the default sink \(sink)", within: .seconds(10)) {
    try await server.defaultSinkName() == sink
  }
}

/// Runs a test with a private session bus, a sound server with the speaker
/// and the buds, and a daemon that follows the bus's players.
func withSessionBus(
  _ kind: SoundServerKind, policy: String? = nil,
  _ body: (PrivateBus, SoundServer, DaemonFixture) async throws -> Void
) async throws {
  let bus = try await PrivateBus.start()
  defer { bus.stop() }
  let server = try await SoundServer.start(
    kind, sinks: sinks(kind, phones: false))
  defer { server.stop() }
  let daemon = try await DaemonFixture.start(
    on: server, policy: policy, sessionBusAddress: bus.address)
  defer { daemon.shutDown() }
  try await body(bus, server, daemon)
}

/// Runs a test with the buds worn and three players on them, two playing
/// and one the person paused.
func withMediaRig(
  _ kind: SoundServerKind, policy: String? = nil,
  _ body: (MediaRig) async throws -> Void
) async throws {
  try await withSessionBus(kind, policy: policy) { bus, server, daemon in
    try await withPlayers(bus, server, daemon, body)
  }
}

private func withPlayers(
  _ bus: PrivateBus, _ server: SoundServer, _ daemon: DaemonFixture,
  _ body: (MediaRig) async throws -> Void
) async throws {
  _ = try await daemon.acctl(["pair", budsAddress])
  _ = try await daemon.acctl([
    "register", budsAddress, "--capabilities", "audioSwitching,placement",
    "--placement", "inEar",
  ])
  try await waitForDefault(server, "buds")
  let watcher = try await MPRISClient.connect(busAddress: bus.address)
  defer { watcher.close() }
  var playing: [MediaPlayerProcess] = []
  for name in ["first", "second"] {
    playing.append(
      try await MediaPlayerProcess.start(
        on: bus, server: server, clientName: name))
  }
  let paused = try await MediaPlayerProcess.start(
    on: bus, server: server, clientName: "third", paused: true)
  let rig = MediaRig(
    bus: bus, server: server, daemon: daemon, watcher: watcher,
    playing: playing, paused: paused)
  try await rig.waitForStatuses(
    [(playing[0], .playing), (playing[1], .playing), (paused, .paused)],
    "two players playing and one paused",
    // mpv starts slowly on a machine busy with other tests.
    within: .seconds(30))
  // Both playing players have their stream on the buds.
  try await waitUntil("the players' streams on the buds", within: .seconds(30))
  {
    let list = try JSONDecoder().decode(
      MediaPlayerList.self,
      from: Data(try await rig.acctl(["players", "--json"]).stdout.utf8))
    return playing.allSatisfy { player in
      list.players.first { $0.processID == player.processID }?.streams
        .contains { $0.output == "buds" } ?? false
    }
  }
  try await body(rig)
  for player in playing + [paused] { await player.stop() }
  #expect(await daemon.stop() == 0, "\(daemon.logTail())")
}

@Suite("Media follows the wearer, end to end", .timeLimit(.minutes(3)))
struct MediaFollowsTheWearerTests {
  @Test(
    "Taken off: the players pause, unheard on the speaker; back on: they resume",
    arguments: SoundServerKind.allCases)
  func pauseAndResume(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind) { rig in
      // A stream no player owns: muted, not moved audibly.
      let tone = try #require(try await rig.server.startStreams(1).first)
      defer { tone.stop() }
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker",
        processes: Set(
          (rig.playing + [rig.paused]).map(\.processID)
            + [tone.processIdentifier]))
      try await waitUntil("the tone on the buds", within: .seconds(10)) {
        try await rig.server.sinkInputs().contains {
          $0.clientName == tone.clientName && $0.sinkName == "buds"
        }
      }
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      // The answer comes once the players reported Paused.
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.playing[1]) == .paused)
      #expect(rig.status(of: rig.paused) == .paused)
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy(
          \.isMuted)
      )
      try await waitForDefault(rig.server, "speaker")
      try await waitUntil("the streams on the speaker", within: .seconds(10)) {
        try await rig.server.sinkInputs().filter { $0.sinkName == "speaker" }
          .count >= 2
      }

      let explained = try await rig.acctl(["route", "--explain"]).stdout
      #expect(
        explained.contains(
          "when \(budsAddress) was taken off; put back on "
            + "within"), "\(explained)")
      let names = rig.watcher.players().filter {
        $0.processID == rig.playing[0].processID
      }.map(\.displayName)
      #expect(names.allSatisfy { explained.contains("Paused \($0)") })

      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .playing), (rig.playing[1], .playing)],
        "the two paused players playing again")
      #expect(rig.status(of: rig.paused) == .paused)
      try await waitForDefault(rig.server, "buds")
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy {
          !$0.isMuted
        })
      let audible = watch.stop()
      #expect(audible.isEmpty, "audible on the speaker: \(audible)")
      let log = rig.daemon.log
      #expect(log.contains("Paused media players"))
      #expect(log.contains("Resumed media players"))
      #expect(log.contains("Muted streams no player can pause"))
      #expect(log.contains("Unmuted streams"))
    }
  }

  @Test(
    "A player the person plays meanwhile, or one that quits, is left alone")
  func thePersonsOwnChoiceIsLeftAlone() async throws {
    try await withMediaRig(.pulseAudio) { rig in
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both paused")
      let first = try #require(rig.busName(of: rig.playing[0]))
      try await rig.playing[0].call("Play", busName: first)
      try await rig.waitForStatuses(
        [(rig.playing[0], .playing)], "the first played by the person")
      // The person pauses it again: still theirs, not accessoryd's.
      try await rig.playing[0].call("Pause", busName: first)
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused)], "the first paused by the person")
      // The second quits meanwhile.
      let second = try #require(rig.busName(of: rig.playing[1]))
      await rig.playing[1].stop()
      try await waitUntil("the second gone", within: .seconds(10)) {
        rig.watcher.players().allSatisfy { $0.busName != second }
      }
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      // Resuming is decided and done before the answer.
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.paused) == .paused)
      let log = rig.daemon.log
      #expect(!log.contains("Resumed media players"), "\(rig.daemon.logTail())")
      #expect(!log.contains("did not resume"), "\(rig.daemon.logTail())")
    }
  }

  @Test("Unpairing the accessory unmutes the streams it muted")
  func unpairingUnmutes() async throws {
    try await withMediaRig(.pulseAudio) { rig in
      let tone = try #require(try await rig.server.startStreams(1).first)
      defer { tone.stop() }
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker", processes: [])
      defer { _ = watch.stop() }
      try await waitUntil("the tone on the buds", within: .seconds(10)) {
        try await rig.server.sinkInputs().contains {
          $0.clientName == tone.clientName && $0.sinkName == "buds"
        }
      }
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy(
          \.isMuted)
      )
      _ = try await rig.acctl(["unpair", budsAddress])
      try await waitUntil("the tone unmuted", within: .seconds(10)) {
        try await watch.streams(of: tone.processIdentifier).allSatisfy {
          !$0.isMuted
        }
      }
    }
  }

  @Test("Put back on after the window: nothing resumes")
  func afterTheWindowNothingResumes() async throws {
    let policy = try DaemonFixture.policyText().replacingOccurrences(
      of: "resumeWhenPutBackWithinSeconds: 60,",
      with: "resumeWhenPutBackWithinSeconds: 0.5,")
    try await withMediaRig(.pulseAudio, policy: policy) { rig in
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both paused")
      try await Task.sleep(for: .seconds(1))
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      // The decision is made before the answer, and logged.
      #expect(rig.daemon.log.contains("Not resuming media players"))
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.playing[1]) == .paused)
    }
  }
}
