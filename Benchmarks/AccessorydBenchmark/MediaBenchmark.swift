// Measurement 7: the headphones taken off with media players playing on
// them. How long until every player is Paused (seen by an independent
// MPRIS client), until the route is on the speaker (seen by the
// independent libpulse observer), and how long any of the players' streams
// played audibly on the speaker (the target is 0 ms). Then their card
// flips between A2DP and the headset profile: how long the streams the
// server moves to the speaker play there unmuted before accessoryd's mute.

import AccessoryControl
import AudioAccessoryKit
import BenchmarkSupport
import ConcurrencyHelpers
import Foundation
import MPRIS
import TestSupport

/// The figures of one server and one number of players.
struct MediaFigure: Sendable {
  var kind: SoundServerKind
  var players: Int
  /// From `update(.offHead)` until the watcher saw every player Paused.
  var paused: Samples
  /// From `update(.offHead)` until the observer saw the route on the
  /// speaker.
  var routed: Samples
  /// The longest time, per repetition, any of the players' streams played
  /// uncorked and unmuted on the speaker.
  var audible: Samples
  /// Per profile flip, the time any of their streams played unmuted on
  /// the speaker, where the server moved them.
  var flipAudible = Samples()
  /// Per profile flip, from the old sink's removal until every stream
  /// played unmuted on the new one.
  var flipBack = Samples()
  /// Flips the daemon took for headphones gone for good (it paused the
  /// players) because the new sink came later than the profile switch's
  /// window: not measured, made again.
  var lateFlips = 0
  /// Whether the headphones were a headset nobody registered, which the
  /// person made the default.
  var unregistered = false
  /// Headphones gone for good: from the sink's removal until every
  /// stream of the players was muted (or corked).
  var goneSilent = Samples()
  /// The same, until every player was Paused.
  var gonePaused = Samples()
  /// The same, the time any of their streams played unmuted on the
  /// speaker.
  var goneAudible = Samples()
  /// The same, how far the players' positions (MPRIS `Position`) went on
  /// between the streams' silence and their Paused: what the person did
  /// not hear and the player counts as played, the most of any player.
  var gonePositionLost = Samples()
}

/// Measurement 7 on one server.
struct MediaBenchmark {
  let kind: SoundServerKind
  let options: Options
  let workspace: Workspace

  /// How many players each run plays.
  static let playerCounts = [1, 5]
  /// How long after the route is on the speaker the watch keeps looking.
  static let lateWatch = Duration.milliseconds(300)

  /// Measures each player count on a fresh server, bus and daemon: the
  /// registered headphones, then a headset nobody registered.
  func run() async throws -> [MediaFigure] {
    var figures: [MediaFigure] = []
    for count in Self.playerCounts {
      progress("media: \(kind), \(count) player(s)")
      figures.append(try await measure(players: count))
    }
    for count in Self.playerCounts {
      progress(
        "media: \(kind), \(count) player(s), a headset nobody registered")
      figures.append(try await measureUnregistered(players: count))
    }
    return figures
  }

  private func measure(players count: Int) async throws -> MediaFigure {
    try await withPlayers(
      count, stateName: "media-\(kind.identifier)",
      headphones: { rig, daemon in
        _ = try daemon.call(
          "accessory.pair", ["address": .string(Rig.headphonesAddress)])
        try await AccessoryControlDevice.register(
          benchmarkHeadphones,
          AccessoryControlDevice.Configuration(
            devicePlacement: .inEar,
            deviceCapabilities: [.audioSwitching, .placement]))
      }
    ) { rig, daemon, watcher, pids in
      var figure = try await repeatTakingOff(
        rig: rig, daemon: daemon, watcher: watcher, pids: pids,
        players: count)
      try await repeatFlipping(
        rig: rig, watcher: watcher, pids: pids, into: &figure)
      return figure
    }
  }

  /// Starts a bus, a server and the daemon, has `headphones` make the
  /// headphones the default, starts the players on them, runs `body`, and
  /// stops them all.
  ///
  /// - Parameters:
  ///   - count: How many players.
  ///   - stateName: The daemon's state directory's name.
  ///   - headphones: What makes the headphones the default.
  ///   - body: The measurements, with the players' process ids.
  func withPlayers(
    _ count: Int, stateName: String,
    headphones: (Rig, Daemon) async throws -> Void,
    _ body: (Rig, Daemon, MPRISClient, Set<Int32>) async throws -> MediaFigure
  ) async throws -> MediaFigure {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let rig = try await Rig.open(kind)
    var daemon: Daemon?
    var players: [MediaPlayerProcess] = []
    do {
      daemon = try await Daemon.start(
        for: rig.server, in: workspace, stateName: stateName,
        options: options, sessionBusAddress: bus.address)
      try await headphones(rig, daemon!)
      try await rig.observer.reach(Goal(defaultSink: Rig.headphones))
      let watcher = try await MPRISClient.connect(busAddress: bus.address)
      defer { watcher.close() }
      for index in 0..<count {
        players.append(
          try await MediaPlayerProcess.start(
            on: bus, server: rig.server, clientName: "bench-player-\(index)"))
      }
      let figure = try await body(
        rig, daemon!, watcher, Set(players.map(\.processID)))
      for player in players { await player.stop() }
      daemon!.stop()
      await rig.close()
      return figure
    } catch {
      for player in players { await player.stop() }
      if let daemon {
        progress("the end of the daemon log:\n\(daemon.logTail())")
        daemon.stop()
      }
      await rig.close()
      throw error
    }
  }

  private func repeatTakingOff(
    rig: Rig, daemon: Daemon, watcher: MPRISClient, pids: Set<Int32>,
    players count: Int
  ) async throws -> MediaFigure {
    var figure = MediaFigure(
      kind: kind, players: count, paused: Samples(), routed: Samples(),
      audible: Samples())
    let device = try AccessoryControlDevice.current(for: benchmarkHeadphones)
    var configuration = device.configuration
    let watch = try await AudibleTime.start(
      server: rig.server, sink: Rig.speaker, processes: pids)
    defer { watch.stop() }
    // Repetition 0 warms up and is not recorded.
    for repetition in 0...options.mediaRepetitions {
      try await waitForStatus(.playing, of: pids, on: watcher)
      try await waitForStreams(of: pids, on: Rig.headphones, rig: rig)
      try await waitUntilTheDaemonSees(pids, playingOn: Rig.headphones, daemon)
      let changes = watcher.changes()
      watch.reset()
      try await rig.observer.arm(Goal(defaultSink: Rig.speaker))
      configuration.devicePlacement = .offHead
      let start = ContinuousClock.now
      try await device.update(configuration)
      let pausedAt = try await firstTime(
        all: pids, reach: .paused, in: changes, on: watcher)
      let routedAt = try await rig.observer.wait(until: start + .seconds(5))
      try await Task.sleep(for: Self.lateWatch)
      let audible = watch.total()
      if repetition > 0 {
        figure.paused.append(pausedAt - start)
        if let routedAt {
          figure.routed.append(routedAt - start)
        } else {
          figure.routed.timeouts += 1
        }
        figure.audible.append(audible)
      }
      configuration.devicePlacement = .inEar
      try await device.update(configuration)
      try await rig.observer.reach(Goal(defaultSink: Rig.headphones))
      try await Task.sleep(for: options.settleInterval)
    }
    return figure
  }

  /// The headset sink a flip switches to, with the headphones' address.
  static let headsetSink = "bench_buds_headset"

  /// Flips the headphones' card between A2DP and the headset profile.
  ///
  /// Their sink goes and one with the same address comes. With BlueZ not
  /// asked, the daemon expects it back within the profile switch's window
  /// (`connection.profileSwitchSeconds`, 0.3 s): a flip this machine could
  /// not make that fast (the new sink loaded, or seen by the daemon, later
  /// than that after the old one's removal) may be taken for headphones
  /// gone for good, as it should. Each flip is decided by what the daemon
  /// did: if it paused the players (an independent MPRIS client sees it),
  /// the flip is counted in ``MediaFigure/lateFlips``, not measured, and
  /// made again once the players play again.
  ///
  /// - Returns: The name of the headphones' sink at the end.
  @discardableResult
  func repeatFlipping(
    rig: Rig, watcher: MPRISClient, pids: Set<Int32>,
    into figure: inout MediaFigure
  ) async throws -> String {
    let watch = try await AudibleTime.start(
      server: rig.server, sink: Rig.speaker, processes: pids)
    defer { watch.stop() }
    var current = Rig.headphones
    // Repetition 0 warms up and is not recorded.
    let flips = (options.mediaRepetitions + 1) / 2 * 2
    var repetition = 0
    while repetition <= flips {
      let next = current == Rig.headphones ? Self.headsetSink : Rig.headphones
      try await waitForStreams(of: pids, on: current, rig: rig)
      watch.reset()
      let start = try await removeSink(current, of: rig)
      // As a card does, the new profile's sink comes once the server has
      // let the old one go: PipeWire 0.3.65's WirePlumber 0.4 may never
      // take a node made while another goes.
      try await waitForTheServer(toLetGo: current, rig: rig)
      try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: next, address: Rig.headphonesAddress, description: "Bench Buds",
          deviceAPI: kind.bluetoothDeviceAPI))
      current = next
      let cameBack = try await waitForTheFlip(
        of: pids, on: next, rig: rig, watcher: watcher)
      let back = ContinuousClock.now
      try await Task.sleep(for: Self.lateWatch)
      guard cameBack, !anyPaused(pids, on: watcher) else {
        figure.lateFlips += 1
        guard figure.lateFlips <= Self.lateFlipLimit else {
          throw BenchmarkError(
            "the daemon took \(figure.lateFlips) flips for headphones gone "
              + "for good: this machine is too busy to bring a sink back "
              + "within the profile switch's window")
        }
        for player in watcher.players()
        where pids.contains(player.processID ?? -1) {
          try await watcher.play(player.busName)
        }
        try await waitForStatus(.playing, of: pids, on: watcher)
        continue
      }
      if repetition > 0 {
        figure.flipAudible.append(watch.total())
        figure.flipBack.append(back - start)
      }
      repetition += 1
    }
    return current
  }

  /// Waits until every stream of the players plays unmuted on the new
  /// sink, or the daemon paused any of the players.
  ///
  /// - Returns: Whether the streams came back.
  private func waitForTheFlip(
    of pids: Set<Int32>, on sink: String, rig: Rig, watcher: MPRISClient
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    let index = try await rig.control.sink(named: sink).index
    while ContinuousClock.now < deadline {
      if anyPaused(pids, on: watcher) { return false }
      let playing = try await rig.control.sinkInputs().filter {
        pids.contains($0.processID ?? -1)
      }
      if Set(playing.compactMap(\.processID)) == pids,
        playing.allSatisfy({
          $0.sinkIndex == index && !$0.isCorked && !$0.isMuted
        })
      {
        return true
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw BenchmarkError(
      "the players' streams are not all playing on \(sink), and no player "
        + "was paused")
  }

  /// Whether an independent MPRIS client sees any of the players Paused.
  private func anyPaused(_ pids: Set<Int32>, on watcher: MPRISClient) -> Bool {
    watcher.players().contains {
      pids.contains($0.processID ?? -1) && $0.playbackStatus == .paused
    }
  }

  /// How many late flips make the benchmark give up.
  static let lateFlipLimit = 10

  /// Unloads the module of a sink, as a card does when its profile or its
  /// connection goes.
  ///
  /// - Returns: When the unload was sent.
  func removeSink(
    _ name: String, of rig: Rig
  ) async throws -> ContinuousClock.Instant {
    let module = try await rig.server.sinks().first { $0.name == name }?
      .ownerModule
    guard let module else { throw BenchmarkError("no module owns \(name)") }
    let start = ContinuousClock.now
    try await rig.server.unloadModule(module)
    return start
  }

  /// Waits until the server no longer lists a sink whose module was
  /// unloaded, nor has it as the default.
  func waitForTheServer(toLetGo sink: String, rig: Rig) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      if try await rig.server.defaultSinkName() != sink,
        try await !rig.server.sinks().contains(where: { $0.name == sink })
      {
        return
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw BenchmarkError("the server keeps \(sink) after its module went")
  }

  /// Waits until the daemon, too, sees every player Playing on the sink:
  /// its view of the players may lag this one's by a signal.
  private func waitUntilTheDaemonSees(
    _ pids: Set<Int32>, playingOn sink: String, _ daemon: Daemon
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let list = try ControlClient.decode(
        daemon.call("media.players"), as: MediaPlayerList.self,
        of: "media.players")
      let seen = list.players.filter { pids.contains($0.processID ?? -1) }
      if seen.count == pids.count,
        seen.allSatisfy({
          $0.playbackStatus == "Playing"
            && $0.streams.contains { $0.output == sink }
        })
      {
        return
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw BenchmarkError("the daemon does not see every player playing")
  }

  func waitForStreams(
    of pids: Set<Int32>, on sink: String, rig: Rig, unmuted: Bool = false
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    let index = try await rig.control.sink(named: sink).index
    while ContinuousClock.now < deadline {
      let playing = try await rig.control.sinkInputs().filter {
        pids.contains($0.processID ?? -1)
      }
      if Set(playing.compactMap(\.processID)) == pids,
        playing.allSatisfy({
          $0.sinkIndex == index && !$0.isCorked && (!unmuted || !$0.isMuted)
        })
      {
        return
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw BenchmarkError("the players' streams are not all playing on \(sink)")
  }
}
