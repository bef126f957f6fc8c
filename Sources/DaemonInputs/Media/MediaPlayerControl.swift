// What the engine needs of the session's media players: the players and
// their changes, pause and play, a wait for their statuses, and which
// sound-server streams each plays. `MediaPlayers` gives it over MPRIS;
// the engine's unit tests script it.

import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import MPRIS
import SoundServerModel

/// The session's media players as the engine uses them.
public protocol MediaPlayerControl: Sendable {
  /// The players now, sorted by bus name.
  var players: [MediaPlayer] { get }

  /// The player with a bus name, if it is there now.
  func player(named busName: String) -> MediaPlayer?

  /// The changes to the players from now on.
  func changes() -> AsyncStream<MediaPlayerChange>

  /// Asks a player to pause, waiting at most `timeout` for its answer.
  func pause(_ busName: String, timeout: Duration) async throws(MPRISError)

  /// Asks a player to play.
  func play(_ busName: String) async throws(MPRISError)

  /// Waits until the players, by bus name, meet a condition, or until a
  /// deadline of the engine's clock; returns whether the condition held.
  func waitUntil(
    _ deadline: Date, on clock: any EngineClock,
    _ condition: @escaping @Sendable ([String: MediaPlayer]) -> Bool
  ) async -> Bool

  /// The streams among `inputs` that a player plays. May block (it
  /// reads `/proc`): the engine calls it on the blocking pool.
  func streams(of player: MediaPlayer, among inputs: [SinkInput]) -> [SinkInput]
}

extension MediaPlayers: MediaPlayerControl {
  /// The streams of the player's process and its descendants, or of its
  /// Flatpak application, read from `/proc`.
  public func streams(
    of player: MediaPlayer, among inputs: [SinkInput]
  ) -> [SinkInput] {
    PlayerStreams.system.streams(of: player, among: inputs)
  }
}
