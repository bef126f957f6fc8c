// The client's copy of the players on the bus, kept current from the
// bus's NameOwnerChanged and each player's PropertiesChanged, and the
// subscribers that hear of its changes. Pure Swift.
//
// Only the dispatch thread changes the copy, so changes are published in
// the order the bus sent them; any thread may read it or subscribe.

import ConcurrencyHelpers
import DBus

/// The players as last seen, and the streams of their changes.
final class PlayerTracker: Sendable {
  /// What the owner of the tracker should do after a signal.
  enum FollowUp: Equatable {
    case none
    /// A player's name has a new owner: read it.
    case load(busName: String, owner: String)
  }

  private struct State {
    var players: [String: MediaPlayer] = [:]
  }

  private let state = Mutex(State())
  private let changes = Broadcast<MediaPlayerChange>()

  /// The players, by bus name.
  func players() -> [MediaPlayer] {
    state.withLock { $0.players.values.sorted { $0.busName < $1.busName } }
  }

  /// The player with a bus name, if it is on the bus.
  func player(named busName: String) -> MediaPlayer? {
    state.withLock { $0.players[busName] }
  }

  /// Returns a new stream of the changes from now on; it ends when the
  /// tracker finishes.
  func subscribe() -> AsyncStream<MediaPlayerChange> {
    changes.subscribe()
  }

  /// Ends every stream; later changes are ignored.
  func finish() {
    changes.finish()
  }

  // MARK: - Dispatch thread

  /// Applies a signal; says whether a player must be read.
  func handle(_ signal: DBusSignal) -> FollowUp {
    switch (signal.interface, signal.member) {
    case (MPRISNames.bus, "NameOwnerChanged"):
      guard
        signal.sender == MPRISNames.bus || signal.sender.isEmpty
          || signal.sender.hasPrefix(":"),
        signal.arguments.count == 3,
        let name = signal.arguments[0].string,
        name.hasPrefix(MPRISNames.busNamePrefix),
        let oldOwner = signal.arguments[1].string,
        let newOwner = signal.arguments[2].string
      else { return .none }
      if !oldOwner.isEmpty, remove(name) {
        publish(.vanished(busName: name))
      }
      return newOwner.isEmpty ? .none : .load(busName: name, owner: newOwner)
    case (MPRISNames.properties, "PropertiesChanged"):
      guard signal.path == MPRISNames.path, signal.arguments.count >= 2,
        signal.arguments[0].string == MPRISNames.playerInterface,
        let changed = signal.arguments[1].stringKeyedDictionary
      else { return .none }
      let updated = state.withLock { state -> [MediaPlayer] in
        var updated: [MediaPlayer] = []
        for (name, player) in state.players
        where player.uniqueName == signal.sender {
          var player = player
          player.apply(changed)
          guard player != state.players[name] else { continue }
          state.players[name] = player
          updated.append(player)
        }
        return updated
      }
      updated.forEach { publish(.changed($0)) }
      return .none
    default:
      return .none
    }
  }

  /// Adds a player that was read, unless its name has changed owner since.
  func insert(_ player: MediaPlayer) {
    let isNew = state.withLock { state -> Bool? in
      if let current = state.players[player.busName],
        current.uniqueName != player.uniqueName
      {
        return nil
      }
      let isNew = state.players[player.busName] == nil
      state.players[player.busName] = player
      return isNew
    }
    guard let isNew else { return }
    publish(isNew ? .appeared(player) : .changed(player))
  }

  private func remove(_ busName: String) -> Bool {
    state.withLock { $0.players.removeValue(forKey: busName) != nil }
  }

  private func publish(_ change: MediaPlayerChange) {
    changes.publish(change)
  }
}

extension MediaPlayer {
  /// Applies the properties of `org.mpris.MediaPlayer2.Player` (from
  /// `GetAll` or `PropertiesChanged`).
  mutating func apply(_ properties: [String: DBusValue]) {
    if let status = properties["PlaybackStatus"]?.string
      .flatMap(PlaybackStatus.init(rawValue:))
    {
      playbackStatus = status
    }
    if let flag = properties["CanPause"]?.bool { canPause = flag }
    if let flag = properties["CanPlay"]?.bool { canPlay = flag }
  }

  /// Applies the properties of `org.mpris.MediaPlayer2`.
  mutating func applyRoot(_ properties: [String: DBusValue]) {
    if let text = properties["Identity"]?.string { identity = text }
    if let text = properties["DesktopEntry"]?.string { desktopEntry = text }
  }
}
