// The engine's hands on the media players: pausing and resuming them over
// MPRIS. Run off the engine's loop, in a task of their own: a player that
// is slow to answer holds no decision.

import AccessorySetupKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import MPRIS
import SoundServerModel

/// Pauses and resumes players for the engine.
struct MediaHands: Sendable {
  let players: any MediaPlayerControl
  let logger: Logger
  /// The engine's clock, which the pause's deadline is kept on.
  let clock: any EngineClock

  /// How long the players have to accept the pause and report Paused
  /// before the route may change, as Android and WirePlumber wait.
  static let pauseWait = Duration.seconds(1)

  /// Pauses the players that play any of the streams, and waits until
  /// each reports Paused; the calls and the wait share one deadline,
  /// ``pauseWait``.
  ///
  /// - Returns: The players that accepted, by bus name, with their names,
  ///   and their streams.
  func pausePlayers(
    among inputs: [SinkInput], _ accessory: String
  ) async -> (players: [String: String], streams: Set<UInt32>) {
    let owned = await playingPlayers(among: inputs)
    guard !Task.isCancelled else { return ([:], []) }
    let deadline = clock.now().addingTimeInterval(Self.pauseWait.seconds)
    let paused = await pause(owned.map(\.0), until: deadline)
    await waitForPaused(Set(paused.keys), accessory, until: deadline)
    return (
      paused, Set(owned.filter { paused[$0.0.busName] != nil }.flatMap(\.1))
    )
  }

  /// The streams of the players that play now, among some streams, by
  /// player; reads `/proc` on the blocking pool, only when some player
  /// plays.
  func playingPlayers(
    among inputs: [SinkInput]
  ) async -> [(MediaPlayer, [UInt32])] {
    let candidates = players.players.filter {
      $0.playbackStatus == .playing && $0.canPause
    }
    guard !candidates.isEmpty, !inputs.isEmpty else { return [] }
    let players = self.players
    return await BlockingPool.shared.run(named: "media.streams") {
      candidates.map {
        ($0, players.streams(of: $0, among: inputs).map(\.index))
      }.filter { !$0.1.isEmpty }
    }
  }

  /// Pauses players at once, all together.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  func pause(
    _ targets: [MediaPlayer], until deadline: Date
  ) async -> [String: String] {
    // The players' bus calls time out in real time.
    let timeout = max(
      Duration.milliseconds(
        Int64(deadline.timeIntervalSince(clock.now()) * 1000)),
      .milliseconds(1))
    var paused: [String: String] = [:]
    await withTaskGroup(of: (String, String, MPRISError?).self) { group in
      for player in targets {
        group.addTask { [players] in
          do throws(MPRISError) {
            try await players.pause(player.busName, timeout: timeout)
            return (player.busName, player.displayName, nil)
          } catch {
            return (player.busName, player.displayName, error)
          }
        }
      }
      for await (busName, name, error) in group {
        if let error {
          logger.warning(
            "A player did not pause: \(error)",
            metadata: ["media.player": "\(busName)"])
        } else {
          paused[busName] = name
        }
      }
    }
    return paused
  }

  /// Waits, until the deadline, for the players to report Paused.
  func waitForPaused(
    _ names: Set<String>, _ accessory: String, until deadline: Date
  ) async {
    guard !names.isEmpty else { return }
    let allPaused = await players.waitUntil(deadline, on: clock) { players in
      names.allSatisfy { players[$0]?.playbackStatus != .playing }
    }
    if !allPaused {
      logger.warning(
        "Not every paused player reported Paused within \(Self.pauseWait)",
        metadata: ["accessory.address": "\(accessory)"])
    }
  }

  /// Resumes those of the players that are still Paused.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  func resume(_ paused: [String: String]) async -> [String: String] {
    var resumed: [String: String] = [:]
    for (busName, name) in paused.sorted(by: { $0.key < $1.key })
    where players.player(named: busName)?.playbackStatus == .paused {
      // The engine stopped: nothing more is resumed.
      guard !Task.isCancelled else { break }
      do {
        try await players.play(busName)
        resumed[busName] = name
      } catch {
        logger.warning(
          "A player did not resume: \(error)",
          metadata: ["media.player": "\(busName)"])
      }
    }
    return resumed
  }
}
