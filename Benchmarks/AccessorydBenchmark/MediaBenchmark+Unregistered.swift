// Measurement 7 for a headset nobody registered: the person made it the
// default (as in the desktop's sound settings), mpv players play on it.
// Its card flips (how long the moved streams play unmuted on the speaker,
// and until they play unmuted on the headset again), then it goes for
// good, repeatedly: until every stream is muted, until every player is
// Paused, how far the players' positions went on unheard in between (the
// target is under 0.5 s), and how long any of them played unmuted on the
// speaker (the target is 0 ms).

import BenchmarkSupport
import Foundation
import MPRIS
import TestSupport

extension MediaBenchmark {
  /// The figures of one player count with the headset nobody registered.
  func measureUnregistered(players count: Int) async throws -> MediaFigure {
    try await withPlayers(
      count, stateName: "media-unregistered-\(kind.identifier)",
      headphones: { rig, _ in
        // The person makes the headset the default; nothing is registered.
        try await rig.control.setDefaultSink(Rig.headphones)
      }
    ) { rig, _, watcher, pids in
      try await waitForStatus(.playing, of: pids, on: watcher)
      var figure = MediaFigure(
        kind: kind, players: count, paused: Samples(), routed: Samples(),
        audible: Samples(), unregistered: true)
      let sink = try await repeatFlipping(
        rig: rig, watcher: watcher, pids: pids, into: &figure)
      try await repeatGoingAway(
        rig: rig, from: sink, watcher: watcher, pids: pids, into: &figure)
      return figure
    }
  }

  /// The headset goes for good, then comes back, is made the default by
  /// the person again and its players played again, each repetition.
  ///
  /// - Parameter sink: The headset's sink at the start; it comes back as
  ///   the A2DP one.
  private func repeatGoingAway(
    rig: Rig, from sink: String, watcher: MPRISClient, pids: Set<Int32>,
    into figure: inout MediaFigure
  ) async throws {
    var current = sink
    let watch = try await AudibleTime.start(
      server: rig.server, sink: Rig.speaker, processes: pids)
    defer { watch.stop() }
    // Repetition 0 warms up and is not recorded.
    for repetition in 0...options.mediaRepetitions {
      try await waitForStatus(.playing, of: pids, on: watcher)
      try await waitForStreams(of: pids, on: current, rig: rig)
      let changes = watcher.changes()
      watch.reset()
      let start = try await removeSink(current, of: rig)
      let silentAt = try await firstSilence(of: pids, rig: rig)
      let heardUpTo = try await positions(of: pids, on: watcher)
      let pausedAt = try await firstTime(
        all: pids, reach: .paused, in: changes, on: watcher,
        within: .seconds(15))
      let stoppedAt = try await positions(of: pids, on: watcher)
      try await Task.sleep(for: Self.lateWatch)
      if repetition > 0 {
        figure.goneSilent.append(silentAt - start)
        figure.gonePaused.append(pausedAt - start)
        figure.goneAudible.append(watch.total())
        figure.gonePositionLost.append(
          heardUpTo.map { busName, position in
            (stoppedAt[busName] ?? position) - position
          }.max() ?? .zero)
      }
      // Back: the person makes it the default again and plays.
      try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: Rig.headphones, address: Rig.headphonesAddress,
          description: "Bench Buds", deviceAPI: kind.bluetoothDeviceAPI))
      current = Rig.headphones
      try await rig.control.setDefaultSink(Rig.headphones)
      try await rig.observer.reach(Goal(defaultSink: Rig.headphones))
      for player in watcher.players()
      where pids.contains(player.processID ?? -1) {
        try await watcher.play(player.busName)
      }
    }
  }

  /// The players' positions now, by bus name.
  private func positions(
    of pids: Set<Int32>, on watcher: MPRISClient
  ) async throws -> [String: Duration] {
    var positions: [String: Duration] = [:]
    for player in watcher.players()
    where pids.contains(player.processID ?? -1) {
      positions[player.busName] = try await watcher.position(player.busName)
    }
    return positions
  }

  /// The first instant no stream of the players plays unmuted and
  /// uncorked, polled on the benchmark's own connection.
  ///
  /// - Throws: ``BenchmarkError`` if they still play after 15 s.
  private func firstSilence(
    of pids: Set<Int32>, rig: Rig
  ) async throws -> ContinuousClock.Instant {
    let deadline = ContinuousClock.now + .seconds(15)
    while ContinuousClock.now < deadline {
      let inputs = try await rig.control.sinkInputs().filter {
        pids.contains($0.processID ?? -1)
      }
      if !inputs.isEmpty, inputs.allSatisfy({ $0.isMuted || $0.isCorked }) {
        return .now
      }
      try await Task.sleep(for: .milliseconds(1))
    }
    throw BenchmarkError("the players' streams still play after 15 s")
  }
}
