// The rig of the media tests: a private session bus, a sound server with the
// speaker and the buds, a daemon that follows the bus's players, and real mpv
// players on the buds, two playing and one paused.

import AccessoryControl
import Foundation
import MPRIS
import TestSupport
import Testing

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
    _ what: String, within limit: Duration = .seconds(30)
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
    try await waitUntil("the server done with \(old)", within: .seconds(30)) {
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
    // A new sink is made again only when the environment failed in a way
    // it names: WirePlumber logged that it could not take the node, the
    // server never listed the sink, or the daemon switched the output to
    // it and the server never showed it as the default (WirePlumber 0.4
    // failing without a word). A sink the daemon never switched to is
    // the daemon's failure, and the test's own wait says so. Six tries: on
    // a machine busy with the whole suite, four WirePlumber failures in a
    // row have been seen.
    let attempts = 6
    for attempt in 1...attempts {
      let attemptName = attempt == 1 ? name : "\(name)-\(attempt)"
      let failures = wirePlumberFailures
      let logLines = daemon.log.split(separator: "\n").count
      let module = try await server.loadNullSink(
        .bluetoothHeadphones(
          name: attemptName, address: budsAddress, description: "Studio Buds",
          deviceAPI: server.kind.bluetoothDeviceAPI))
      guard server.kind == .pipeWire else { return attemptName }
      try? await waitUntil("\(attemptName) the default", within: .seconds(10)) {
        try await server.defaultSinkName() == attemptName
          || wirePlumberFailures > failures
      }
      let isDefault = try await server.defaultSinkName() == attemptName
      let isListed = try await server.sinks().contains {
        $0.name == attemptName
      }
      let wasSwitched = daemon.log.split(separator: "\n").dropFirst(logLines)
        .contains {
          $0.contains("Output switched")
            && $0.contains("route.output=\(attemptName) ")
        }
      let failure =
        wirePlumberFailures > failures
        ? "WirePlumber logged a failure"
        : !isListed
          ? "the server never listed it"
          : wasSwitched
            ? "the daemon switched to it and the server never showed it"
            : nil
      guard !isDefault, let failure, attempt < attempts else {
        return attemptName
      }
      print("\(attemptName) did not take (\(failure)); making it again")
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

  /// Waits until the daemon lists both playing players as Playing, with
  /// their streams on `output`.
  func waitForThePlayers(
    on output: String, within limit: Duration = .seconds(30)
  ) async throws {
    try await waitUntil(
      "the players Playing, in the daemon's view, on \(output)", within: limit
    ) {
      let list = try JSONDecoder().decode(
        MediaPlayerList.self,
        from: Data(try await acctl(["players", "--json"]).stdout.utf8))
      return playing.allSatisfy { player in
        guard
          let seen = list.players.first(where: {
            $0.processID == player.processID
          })
        else { return false }
        // The daemon pauses only a player it has seen Playing; one it has
        // not yet seen so would be muted instead.
        return seen.playbackStatus == "Playing"
          && seen.streams.contains { $0.output == output }
      }
    }
  }

  /// Replaces the daemon's policy and waits until it took it.
  func reloadPolicy(_ text: String) async throws {
    let reloads = daemon.log.components(separatedBy: "Policy reloaded").count
    try daemon.writePolicy(text)
    daemon.signal(SIGHUP)
    try await waitUntil("the policy reloaded", within: .seconds(30)) {
      daemon.log.components(separatedBy: "Policy reloaded").count > reloads
    }
  }

  /// Waits until a stream no player owns plays on the buds.
  func waitForTheTone(_ tone: PacatStream) async throws {
    try await waitUntil("the tone on the buds", within: .seconds(30)) {
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
      // The server's side too: what its sinks and its session manager
      // said, for a default neither the daemon nor the server chose.
      let sinks = (try? await server.sinks().map(\.name)) ?? []
      // And why the daemon routes where it does.
      let explained =
        (try? await daemon.acctl(["route", "--explain"]).stdout) ?? ""
      throw FixtureError(
        "\(error); the server lists \(sinks)",
        logTail: daemon.logTail() + "\n==> acctl route --explain <==\n"
          + explained + "\n==> the server's log <==\n"
          + server.logTail(lines: 60))
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
  try await waitUntil("the default sink \(sink)", within: .seconds(30)) {
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
  _ kind: SoundServerKind, policy: String? = nil, bluez: BlueZMock? = nil,
  _ body: (PrivateBus, SoundServer, DaemonFixture) async throws -> Void
) async throws {
  let bus = try await PrivateBus.start()
  defer { bus.stop() }
  let server = try await SoundServer.start(
    kind, sinks: sinks(kind, phones: false))
  defer { server.stop() }
  let daemon = try await DaemonFixture.start(
    on: server, policy: policy, systemBusAddress: bluez?.busAddress,
    sessionBusAddress: bus.address)
  defer { daemon.shutDown() }
  try await body(bus, server, daemon)
}

/// Runs a test with the buds worn and three players on them, two playing
/// and one the person paused.
///
/// - Parameters:
///   - kind: The server.
///   - policy: The daemon's policy text, or nil for the default.
///   - registered: Whether the buds are paired and registered worn, or,
///     as an ordinary headset nobody registered, made the default by the
///     person (as in the desktop's sound settings).
///   - bluez: BlueZ's mock, for the daemon's system bus; without it the
///     daemon has no BlueZ.
///   - body: The test.
func withMediaRig(
  _ kind: SoundServerKind, policy: String? = nil, registered: Bool = true,
  bluez: BlueZMock? = nil, _ body: (MediaRig) async throws -> Void
) async throws {
  try await withSessionBus(kind, policy: policy, bluez: bluez) {
    bus, server, daemon in
    try await withPlayers(bus, server, daemon, registered: registered, body)
  }
}

private func withPlayers(
  _ bus: PrivateBus, _ server: SoundServer, _ daemon: DaemonFixture,
  registered: Bool, _ body: (MediaRig) async throws -> Void
) async throws {
  if registered {
    _ = try await daemon.acctl(["pair", budsAddress])
    _ = try await daemon.acctl([
      "register", budsAddress, "--capabilities", "audioSwitching,placement",
      "--placement", "inEar",
    ])
  } else {
    _ = try await server.pactl(["set-default-sink", "buds"])
  }
  try await waitForDefault(server, "buds")
  if !registered {
    // The daemon guards the headset the person made the default: what
    // these tests take as given, and the daemon says so itself.
    try await waitUntil("the headset listed as guarded", within: .seconds(30)) {
      try await daemon.acctl(["list"]).stdout.split(separator: "\n").contains {
        $0.contains(budsAddress) && $0.contains("guarded")
      }
    }
  }
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
    // mpv starts slowly on a machine busy with other tests (a minute, seen
    // with the whole suite starting at once on two cores).
    within: .seconds(60))
  try await rig.waitForThePlayers(on: "buds", within: .seconds(60))
  try await body(rig)
  for player in playing + [paused] { await player.stop() }
  #expect(await daemon.stop() == 0, "\(daemon.logTail())")
}
