// The media controller's hands: pausing and resuming players over MPRIS,
// muting and unmuting streams on the sound server, and telling what it
// did.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import FoundationEssentials
import Logging
import MPRIS
import PulseAudio
import RoutingCore

extension MediaController {
  /// Pauses the players that play any of the streams, and waits until
  /// each reports Paused; the calls and the wait share one deadline,
  /// ``pauseWait``.
  ///
  /// - Returns: The players that accepted, by bus name, with their names,
  ///   and their streams.
  func pausePlayers(
    among inputs: [SinkInput], _ address: BluetoothAddress
  ) async -> (players: [String: String], streams: Set<UInt32>) {
    let owned = await playingPlayers(among: inputs)
    let deadline = ContinuousClock.now + Self.pauseWait
    let paused = await pause(owned.map(\.0), until: deadline)
    await waitForPaused(Set(paused.keys), address, until: deadline)
    return (
      paused, Set(owned.filter { paused[$0.0.busName] != nil }.flatMap(\.1))
    )
  }

  /// The streams of the players that play now, among some streams, by
  /// player; reads `/proc` off the shared threads, only when some player
  /// plays.
  func playingPlayers(
    among inputs: [SinkInput]
  ) async -> [(MediaPlayer, [UInt32])] {
    let candidates = players.players.filter {
      $0.playbackStatus == .playing && $0.canPause
    }
    guard !candidates.isEmpty, !inputs.isEmpty else { return [] }
    return await BlockingPool.shared.run(named: "media.streams") {
      candidates.map {
        ($0, PlayerStreams.system.streams(of: $0, among: inputs).map(\.index))
      }.filter { !$0.1.isEmpty }
    }
  }

  /// Pauses players at once, all together.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  func pause(
    _ targets: [MediaPlayer], until deadline: ContinuousClock.Instant
  ) async -> [String: String] {
    let timeout = max(deadline - .now, .milliseconds(1))
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
            metadata: ["media.player": busName])
        } else {
          paused[busName] = name
        }
      }
    }
    return paused
  }

  /// Waits, until the deadline, for the players to report Paused.
  func waitForPaused(
    _ names: Set<String>, _ address: BluetoothAddress,
    until deadline: ContinuousClock.Instant
  ) async {
    guard !names.isEmpty else { return }
    let allPaused = await players.waitUntil(deadline) { players in
      names.allSatisfy { players[$0]?.playbackStatus != .playing }
    }
    if !allPaused {
      logger.warning(
        "Not every paused player reported Paused within \(Self.pauseWait)",
        metadata: ["accessory.address": "\(address)"])
    }
  }

  /// Mutes or unmutes streams in one batch.
  ///
  /// - Returns: The streams the server muted or unmuted.
  func setMute(
    _ streams: [UInt32], muted: Bool, _ address: BluetoothAddress,
    reason: String
  ) async -> Set<UInt32> {
    guard !streams.isEmpty else { return [] }
    let batch = PulseBatch(
      mutes: streams.map { .init(sinkInput: $0, muted: muted) })
    guard let result = try? await link.apply(batch) else { return [] }
    let done = Set(
      zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      })
    guard !done.isEmpty else { return [] }
    let list = done.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      muted ? "Muted streams no player can pause" : "Unmuted streams",
      metadata: [
        "accessory.address": "\(address)", "pulse.streams": "\(list)",
        "media.reason": "\(reason)",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: muted ? .streamMuted : .streamUnmuted,
          accessory: address.description, players: [],
          streams: done.sorted(), reason: reason)))
    return done
  }

  /// Resumes those of the players that are still Paused, and tells.
  func resume(
    _ paused: [String: String], _ accessory: String, reason: String
  ) async {
    var resumed: [String: String] = [:]
    for (busName, name) in paused.sorted(by: { $0.key < $1.key })
    where players.player(named: busName)?.playbackStatus == .paused {
      do {
        try await players.play(busName)
        resumed[busName] = name
      } catch {
        logger.warning(
          "A player did not resume: \(error)",
          metadata: ["media.player": busName])
      }
    }
    guard !resumed.isEmpty else { return }
    logger.notice(
      "Resumed media players",
      metadata: [
        "accessory.address": "\(accessory)",
        "media.players": "\(resumed.keys.sorted().joined(separator: ","))",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: .mediaResumed, accessory: accessory,
          players: Self.players(resumed), reason: reason)))
  }

  /// Unmutes the streams muted for an accessory that are still there and
  /// still muted (one the person unmuted is theirs).
  ///
  /// - Returns: Those the server did not confirm unmuted.
  @discardableResult
  func unmute(
    _ streams: Set<UInt32>, on mirror: ServerMirror,
    _ address: BluetoothAddress, reason: String
  ) async -> Set<UInt32> {
    let stillMuted = streams.filter { index in
      mirror.sinkInputs.first { $0.index == index }?.isMuted ?? false
    }
    guard !stillMuted.isEmpty else { return [] }
    for stream in stillMuted { releasing[stream] = address }
    let done = await setMute(
      stillMuted.sorted(), muted: false, address, reason: reason)
    for stream in stillMuted { releasing[stream] = nil }
    return stillMuted.subtracting(done)
  }

}
