// Media players scripted by the engine's unit tests: each plays some of
// the scripted server's streams, answers a pause (or not) as a test says,
// and the person plays or pauses them when a test says so.

import AccessoryEngine
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import Foundation
import MPRIS
import SoundServerModel

/// A ``MediaPlayerControl`` whose players a test scripts.
final class ScriptedPlayers: MediaPlayerControl {
  /// How a player answers a pause.
  enum Answer: Sendable {
    /// Pauses and reports Paused.
    case pauses
    /// Refuses with an error.
    case refuses
    /// Accepts, but never reports Paused.
    case staysSilent
  }

  private struct State {
    var players: [String: MediaPlayer] = [:]
    var streams: [String: Set<UInt32>] = [:]
    var answers: [String: Answer] = [:]
    var subscribers: [AsyncStream<MediaPlayerChange>.Continuation] = []
    /// Every pause and play asked for, in order, as `pause NAME` and
    /// `play NAME`.
    var calls: [String] = []
  }

  private let state = Mutex(State())
  private let waiters = ConditionWaiters<[String: MediaPlayer]>()
  /// The scripted server, whose streams a player corks as it pauses.
  let server: ScriptedSoundServer

  init(server: ScriptedSoundServer) { self.server = server }

  /// Adds a player that plays some streams.
  func add(
    _ name: String, playing streams: Set<UInt32>, answer: Answer = .pauses
  ) {
    let player = MediaPlayer(
      busName: "org.mpris.MediaPlayer2.\(name)", uniqueName: ":1.\(name)",
      identity: name, playbackStatus: .playing, canPause: true,
      canPlay: true, processID: 1)
    state.withLock {
      $0.players[player.busName] = player
      $0.streams[player.busName] = streams
      $0.answers[player.busName] = answer
    }
    announce(.appeared(player))
  }

  /// The calls the engine made, as `pause NAME` and `play NAME`.
  var calls: [String] { state.withLock { $0.calls } }

  /// A player's status now.
  func status(_ name: String) -> MediaPlayer.PlaybackStatus? {
    player(named: "org.mpris.MediaPlayer2.\(name)")?.playbackStatus
  }

  /// The person (or another program) sets a player's status.
  func person(sets name: String, to status: MediaPlayer.PlaybackStatus) async {
    await set("org.mpris.MediaPlayer2.\(name)", to: status)
  }

  /// A player quits.
  func quit(_ name: String) {
    let busName = "org.mpris.MediaPlayer2.\(name)"
    state.withLock { $0.players[busName] = nil }
    announce(.vanished(busName: busName))
  }

  private func set(
    _ busName: String, to status: MediaPlayer.PlaybackStatus
  ) async {
    let (player, streams) = state.withLock {
      state -> (MediaPlayer?, Set<UInt32>) in
      state.players[busName]?.playbackStatus = status
      return (state.players[busName], state.streams[busName] ?? [])
    }
    guard let player else { return }
    for stream in streams.sorted() {
      await server.cork(stream, status != .playing)
    }
    announce(.changed(player))
  }

  private func announce(_ change: MediaPlayerChange) {
    let (subscribers, players) = state.withLock {
      ($0.subscribers, $0.players)
    }
    for subscriber in subscribers { subscriber.yield(change) }
    waiters.wake(with: players)
  }

  // MARK: - MediaPlayerControl

  var players: [MediaPlayer] {
    state.withLock { $0.players.values.sorted { $0.busName < $1.busName } }
  }

  func player(named busName: String) -> MediaPlayer? {
    state.withLock { $0.players[busName] }
  }

  func changes() -> AsyncStream<MediaPlayerChange> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: MediaPlayerChange.self)
    state.withLock { $0.subscribers.append(continuation) }
    return stream
  }

  func pause(_ busName: String, timeout: Duration) async throws(MPRISError) {
    let answer = state.withLock { state -> Answer? in
      state.calls.append("pause \(busName)")
      return state.answers[busName]
    }
    switch answer {
    case .pauses: await set(busName, to: .paused)
    case .staysSilent: break
    case .refuses, nil:
      throw MPRISError(
        name: "org.mpris.MediaPlayer2.Error", message: "refused",
        operation: "pausing \(busName)")
    }
  }

  func play(_ busName: String) async throws(MPRISError) {
    state.withLock { $0.calls.append("play \(busName)") }
    await set(busName, to: .playing)
  }

  func waitUntil(
    _ deadline: Date, on clock: any EngineClock,
    _ condition: @escaping @Sendable ([String: MediaPlayer]) -> Bool
  ) async -> Bool {
    await waiters.wait(
      sleepingUntilTheDeadline: { try? await clock.sleep(until: deadline) },
      isPastTheDeadline: { clock.now() >= deadline },
      current: { self.state.withLock { $0.players } }, condition)
  }

  func streams(
    of player: MediaPlayer, among inputs: [SinkInput]
  ) -> [SinkInput] {
    let streams = state.withLock { $0.streams[player.busName] ?? [] }
    return inputs.filter { streams.contains($0.index) }
  }
}
