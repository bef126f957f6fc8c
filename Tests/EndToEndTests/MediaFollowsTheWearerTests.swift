// Media follows the wearer, end to end: real mpv players on a private
// session bus playing to each sound server; the buds taken off pause
// exactly the players that play on them before the output changes, and
// nothing of theirs is ever audible on the speaker; put back on, exactly
// those resume.

import AccessoryControl
import ConcurrencyHelpers
import Foundation
import MPRIS
import PulseAudio
import TestSupport
import Testing

/// An independent libpulse client that checks, at every change of the
/// streams, that no stream of the watched processes plays audibly (not
/// corked, not muted) on a sink.
final class AudibilityWatch: Sendable {
  private let connection: PulseConnection
  private let moments = Mutex<[String]>([])
  /// How a watched stream was seen: on another sink, on none (unlinked),
  /// or on the watched sink, audible, corked or muted.
  enum Sighting { case elsewhere, nowhere, audible, corked, muted }
  /// Each sighting of a watched stream, in order.
  private let sightings = Mutex<[(stream: UInt32, seen: Sighting)]>([])
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
      for input in inputs where processes.contains(input.processID ?? -1) {
        guard input.sinkIndex == index else {
          let linked = sinks.contains { $0.index == input.sinkIndex }
          watch.sightings.withLock {
            $0.append((input.index, linked ? .elsewhere : .nowhere))
          }
          continue
        }
        let audible = !input.isCorked && !input.isMuted
        watch.sightings.withLock {
          $0.append(
            (input.index, input.isMuted ? .muted : audible ? .audible : .corked)
          )
        }
        guard audible else { continue }
        watch.moments.withLock {
          $0.append("stream #\(input.index) of \(input.clientName ?? "?")")
        }
      }
    }
    let task = await following(events, of: [.sinkInput, .sink], check)
    watch.task.withLock { $0 = task }
    return watch
  }

  /// The playback streams of a process now.
  func streams(of process: Int32) async throws -> [SinkInput] {
    try await streams(of: [process])
  }

  /// The playback streams of some processes now.
  func streams(of processes: Set<Int32>) async throws -> [SinkInput] {
    try await connection.sinkInputs().filter {
      processes.contains($0.processID ?? -1)
    }
  }

  /// Where the streams of some processes play now, by sink name, and
  /// whether they are muted.
  func placements(
    of processes: Set<Int32>
  ) async throws -> [(sink: String?, muted: Bool)] {
    let sinks = try await connection.sinks()
    return try await connection.sinkInputs().filter {
      processes.contains($0.processID ?? -1)
    }.map { input in
      (sinks.first { $0.index == input.sinkIndex }?.name, input.isMuted)
    }
  }

  /// The streams seen audible on the sink after they were seen muted
  /// there, in one stay on it: a mute that did not hold. (PipeWire may
  /// show a stream it moves corked for a moment before it plays.)
  func audibleAfterMuted() -> Set<UInt32> {
    var muted: Set<UInt32> = []
    var again: Set<UInt32> = []
    for (stream, seen) in sightings.withLock({ $0 }) {
      switch seen {
      case .elsewhere, .nowhere: muted.remove(stream)
      case .muted: muted.insert(stream)
      case .corked: continue
      case .audible: if muted.contains(stream) { again.insert(stream) }
      }
    }
    return again
  }

  /// The streams seen on the sink and never muted or corked there.
  func neverSilenced() -> Set<UInt32> {
    let all = sightings.withLock { $0 }.filter {
      $0.seen != .elsewhere && $0.seen != .nowhere
    }
    return Set(all.map(\.stream)).subtracting(
      all.filter { $0.seen == .muted || $0.seen == .corked }.map(\.stream))
  }

  /// Whether a watched stream was seen on no sink, as WirePlumber 0.5
  /// holds the streams of a sink that went.
  var sawAStreamOnNoSink: Bool {
    sightings.withLock { $0.contains { $0.seen == .nowhere } }
  }

  /// Every audible moment seen so far.
  var audibleMoments: [String] { moments.withLock { $0 } }

  /// Stops watching and returns every audible moment seen.
  func stop() -> [String] {
    task.withLock { $0?.cancel() }
    connection.close()
    return moments.withLock { $0 }
  }
}

/// Checks once, then again at each of a server's events of some kinds,
/// until the returned task is cancelled.
func following(
  _ events: AsyncStream<ServerEvent>, of facilities: Set<ServerEvent.Facility>,
  _ check: @escaping @Sendable () async -> Void
) async -> Task<Void, Never> {
  await check()
  return Task {
    for await event in events where facilities.contains(event.facility) {
      await check()
    }
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
    do {
      try await waitUntil(what, within: limit) {
        expected.allSatisfy { status(of: $0.0) == $0.1 }
      }
    } catch {
      throw FixtureError("\(error)", logTail: daemon.logTail())
    }
  }

  /// The module that owns a sink.
  func module(of sinkName: String) async throws -> Int {
    let sink = try await server.sinks().first { $0.name == sinkName }
    guard let module = sink?.ownerModule else {
      throw FixtureError("no module owns the sink \(sinkName)")
    }
    return module
  }

  /// Switches the buds' card to another profile: their sink goes and
  /// another, with the same address, comes; returns the new sink's name.
  func flip(
    from old: String, to new: String,
    settled: () async throws -> Bool = { true }
  ) async throws -> String {
    try await server.unloadModule(try await module(of: old))
    // As a card does, the new profile's sink comes once the server has
    // settled the old one's going, its streams moved (PipeWire 0.3.65 with
    // WirePlumber 0.4 may otherwise never take the new sink as the
    // default).
    try await waitUntil("the server done with \(old)", within: .seconds(10)) {
      guard try await server.defaultSinkName() != old else { return false }
      return try await settled()
    }
    return try await loadBudsSink(new)
  }

  /// Loads a sink with the buds' address, which accessoryd makes the
  /// default since they are worn; returns the name it has.
  ///
  /// WirePlumber 0.4.13 sometimes fails to take a node made while another
  /// goes ("failed to activate item: Object activation aborted", or
  /// nothing at all), and then never makes it the default; such a sink is
  /// made again, as a card's profile would be switched again, under a name
  /// of its own (PipeWire 0.3.65 may never report as the default a sink
  /// made again under a name WirePlumber failed on).
  func loadBudsSink(_ name: String) async throws -> String {
    for attempt in 1...4 {
      let attemptName = attempt == 1 ? name : "\(name)-\(attempt)"
      let failures = wirePlumberFailures
      let module = try await server.loadNullSink(
        .bluetoothHeadphones(
          name: attemptName, address: budsAddress, description: "Studio Buds",
          deviceAPI: server.kind.bluetoothDeviceAPI))
      guard server.kind == .pipeWire else { return attemptName }
      // Taken when it becomes the default; not taken when WirePlumber says
      // so, or stays silent and never makes it the default.
      try? await waitUntil("\(attemptName) the default", within: .seconds(5)) {
        try await server.defaultSinkName() == attemptName
          || wirePlumberFailures > failures
      }
      guard attempt < 4,
        try await server.defaultSinkName() != attemptName
      else { return attemptName }
      try await server.unloadModule(module)
    }
    return name
  }

  /// How often WirePlumber said it could not take a node, in its log's
  /// tail.
  private var wirePlumberFailures: Int {
    server.logTail(lines: 400).components(
      separatedBy: "failed to activate item"
    )
    .count - 1
  }

  /// The buds connect again: their A2DP sink comes back, under a name of
  /// its own (PipeWire 0.3.65 may not report a default sink made a third
  /// time under the same name); returns the name it has.
  func connectBuds(as name: String = "buds") async throws -> String {
    try await loadBudsSink(name)
  }

  /// Replaces the daemon's policy and waits until it took it.
  func reloadPolicy(_ text: String) async throws {
    let reloads = daemon.log.components(separatedBy: "Policy reloaded").count
    try daemon.writePolicy(text)
    daemon.signal(SIGHUP)
    try await waitUntil("the policy reloaded", within: .seconds(10)) {
      daemon.log.components(separatedBy: "Policy reloaded").count > reloads
    }
  }

  /// Waits until a stream no player owns plays on the buds.
  func waitForTheTone(_ tone: PacatStream) async throws {
    try await waitUntil("the tone on the buds", within: .seconds(10)) {
      try await server.sinkInputs().contains {
        $0.clientName == tone.clientName && $0.sinkName == "buds"
      }
    }
  }

  /// Waits until a sink is the server's default; the daemon's log says
  /// why not.
  func waitForDefault(_ sink: String) async throws {
    do {
      try await TestSupportDefault.wait(server, sink)
    } catch {
      throw FixtureError("\(error)", logTail: daemon.logTail())
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

/// Waits for the server's default, for ``MediaRig/waitForDefault(_:)``.
enum TestSupportDefault {
  static func wait(_ server: SoundServer, _ sink: String) async throws {
    try await waitForDefault(server, sink)
  }
}

/// Waits until a sink is the server's default.
func waitForDefault(_ server: SoundServer, _ sink: String) async throws {
  try await waitUntil("the default sink \(sink)", within: .seconds(10)) {
    try await server.defaultSinkName() == sink
  }
}

/// Runs a test on PulseAudio with the media rig and a stream no player
/// owns on the buds, after the buds were taken off.
func withTheToneTakenOff(
  _ body: (MediaRig, PacatStream, AudibilityWatch) async throws -> Void
) async throws {
  try await withMediaRig(.pulseAudio) { rig in
    let tone = try #require(try await rig.server.startStreams(1).first)
    defer { tone.stop() }
    let watch = try await AudibilityWatch.start(
      rig.server, sink: "speaker", processes: [])
    defer { _ = watch.stop() }
    try await rig.waitForTheTone(tone)
    _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
    try await body(rig, tone, watch)
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

// One at a time: each runs a sound server and three mpv players, and
// beside the other suites on two busy cores they would starve them.
@Suite(
  "Media follows the wearer, end to end", .serialized, .timeLimit(.minutes(3)))
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
      try await rig.waitForTheTone(tone)
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
      #expect(
        audible.isEmpty,
        "audible on the speaker: \(audible)\n\(rig.daemon.logTail())")
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
    try await withTheToneTakenOff { rig, tone, watch in
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

  @Test("A muted stream the person moves is theirs: unmuted where they put it")
  func aStreamThePersonMovesIsUnmuted() async throws {
    try await withTheToneTakenOff { rig, tone, watch in
      try await waitForDefault(rig.server, "speaker")
      try await waitUntil(
        "the tone muted on the speaker", within: .seconds(10)
      ) {
        try await watch.placements(of: [tone.processIdentifier]).contains {
          $0.sink == "speaker" && $0.muted
        }
      }
      let index = try #require(
        try await watch.streams(of: tone.processIdentifier).first?.index)
      _ = try await rig.server.pactl(["move-sink-input", "\(index)", "buds"])
      try await waitUntil(
        "the tone unmuted where the person put it", within: .seconds(10)
      ) {
        try await watch.placements(of: [tone.processIdentifier]).contains {
          $0.sink == "buds" && !$0.muted
        }
      }
      // The server shows the unmute before the daemon logs it.
      try await waitUntil("the log of why", within: .seconds(10)) {
        rig.daemon.log.contains("media.reason=the person moved it")
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

  @Test(
    "A profile flip is never heard; a disconnect pauses, and resumes on reconnect only if asked",
    arguments: SoundServerKind.allCases)
  func flipsAndDisconnects(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind) { rig in
      let tone = try #require(try await rig.server.startStreams(1).first)
      defer { tone.stop() }
      try await rig.waitForTheTone(tone)
      let processes = Set(
        rig.playing.map(\.processID) + [tone.processIdentifier])
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker", processes: processes)
      defer { _ = watch.stop() }
      do {
        let headset = try await flipIsNeverHeard(rig, watch, processes)
        let buds = try await disconnectPausesWithoutResuming(
          rig, watch, tone, headset: headset)
        try await reconnectResumesWhenAsked(rig, buds: buds)
      } catch {
        throw FixtureError(
          "\(error)",
          logTail: rig.daemon.logTail() + "\nserver running: "
            + "\(rig.server.isRunning)\n" + rig.server.logTail())
      }
    }
  }

  /// The card switches from A2DP to the headset profile: the A2DP sink
  /// goes, and the headset's comes with the same address, within the
  /// reappear grace time.
  ///
  /// Returns the headset sink's name.
  private func flipIsNeverHeard(
    _ rig: MediaRig, _ watch: AudibilityWatch, _ processes: Set<Int32>
  ) async throws -> String {
    // Time for more switches, should the first not take.
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 30,"))
    let headset = try await rig.flip(from: "buds", to: "buds-headset") {
      // Moved to the speaker, and muted there.
      let streams = try await watch.placements(of: processes)
      return streams.count == processes.count
        && streams.allSatisfy { $0.sink == "speaker" && $0.muted }
    }
    try await rig.waitForDefault(headset)
    try await waitUntil(
      "every stream unmuted on the headset's output", within: .seconds(10)
    ) {
      let streams = try await watch.placements(of: processes)
      return streams.count == processes.count
        && streams.allSatisfy { $0.sink == headset && !$0.muted }
    }
    // The server moves the streams to the speaker before any client hears
    // that the sink went: accessoryd mutes them as the removal arrives,
    // before it fetches anything, and they stay muted there.
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    // A flip is not a disconnect: nothing was paused.
    #expect(rig.status(of: rig.playing[0]) == .playing)
    #expect(rig.status(of: rig.playing[1]) == .playing)
    let log = rig.daemon.log
    #expect(
      log.contains(
        "Muted the streams moved off an accessory's output that went away"),
      "\(rig.daemon.logTail())")
    #expect(!log.contains("Paused media players"))
    return headset
  }

  /// The headset's output goes for good: past a 1 s grace time the players
  /// pause and the tone stays muted; back, the tone plays on the buds
  /// again and the players stay paused.
  ///
  /// Returns the name of the buds' sink once back.
  private func disconnectPausesWithoutResuming(
    _ rig: MediaRig, _ watch: AudibilityWatch, _ tone: PacatStream,
    headset: String
  ) async throws -> String {
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"))
    try await rig.server.unloadModule(try await rig.module(of: headset))
    try await rig.waitForStatuses(
      [(rig.playing[0], .paused), (rig.playing[1], .paused)],
      "both players paused once the grace time ended")
    #expect(rig.status(of: rig.paused) == .paused)
    try await waitUntil("the tone still muted", within: .seconds(10)) {
      try await watch.streams(of: tone.processIdentifier).allSatisfy(\.isMuted)
    }
    let explained = try await rig.acctl(["route", "--explain"]).stdout
    #expect(
      explained.contains("output went away and did not come back"),
      "\(explained)")
    #expect(explained.contains("media.resumeOnReconnect is false"))

    let buds = try await rig.connectBuds()
    try await waitUntil("the tone unmuted on the buds", within: .seconds(10)) {
      try await watch.placements(of: [tone.processIdentifier]).contains {
        $0.sink == buds && !$0.muted
      }
    }
    try await waitUntil("the decision not to resume", within: .seconds(10)) {
      rig.daemon.log.contains(
        "Not resuming media players: the accessory disconnected since")
    }
    #expect(rig.status(of: rig.playing[0]) == .paused)
    #expect(rig.status(of: rig.playing[1]) == .paused)
    // Muted as the sink went, then paused: never heard once muted.
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    return buds
  }

  /// With `media.resumeOnReconnect`, the players a disconnect paused play
  /// again once the buds are back.
  private func reconnectResumesWhenAsked(
    _ rig: MediaRig, buds: String
  ) async throws {
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"
      ).replacingOccurrences(
        of: "resumeOnReconnect: false,", with: "resumeOnReconnect: true,"))
    for player in rig.playing {
      try await player.call(
        "Play", busName: try #require(rig.busName(of: player)))
    }
    try await rig.waitForStatuses(
      [(rig.playing[0], .playing), (rig.playing[1], .playing)],
      "both played again by the person")
    try await rig.server.unloadModule(try await rig.module(of: buds))
    try await rig.waitForStatuses(
      [(rig.playing[0], .paused), (rig.playing[1], .paused)],
      "both paused by the second disconnect")
    let again = try await rig.connectBuds(as: "buds-again")
    try await rig.waitForStatuses(
      [(rig.playing[0], .playing), (rig.playing[1], .playing)],
      "both resumed on the buds")
    #expect(rig.status(of: rig.paused) == .paused)
    try await rig.waitForDefault(again)
  }
}
