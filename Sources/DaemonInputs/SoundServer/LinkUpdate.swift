// What a SoundServerLink tells its subscribers, and the rule by which its
// event thread mutes the streams of a sink that disappears.

import AccessoryControl
import DaemonLifecycle
import SoundServerModel

/// A change in a ``SoundServerLink``, as ``SoundServerLink/updates()``
/// reports it.
public enum LinkUpdate: Sendable, Hashable {
  /// The link connected, or reconnected, and loaded the server's state.
  case connected(ServerMirror)
  /// The server's state changed while connected, with what the link's
  /// reflex (``VanishingSinkMute``) did for causes that came before the
  /// state was fetched: the state shows them (a sink gone, a jack
  /// pulled) and the reflex's mutes, and the loop takes both as one
  /// event.
  case changed(ServerMirror, reflexes: [LinkReflex] = [])
  /// The link lost the server, or could not reach it; it keeps trying.
  case disconnected(SoundServerError)

  /// The server's state, or `nil` for ``disconnected(_:)``.
  public var mirror: ServerMirror? {
    switch self {
    case .connected(let mirror), .changed(let mirror, _): mirror
    case .disconnected: nil
    }
  }
}

/// What the link's reflex did on its own thread, as the server answered:
/// told to the subscribers inside the next update, whose state shows it.
public enum LinkReflex: Sendable, Hashable {
  /// The streams of a sink that vanished, or of a headphone jack's sink
  /// whose jack was pulled, were muted: the sink as the last state showed
  /// it, and the streams the server muted.
  case muted([UInt32], of: Sink)
  /// A pulled jack's sink, whose streams were muted, plays on the
  /// headphones again: the link saw it after the pull, whatever state a
  /// subscriber holds.
  case jackBack(Sink)
}

/// What a ``SoundServerLink`` does the moment one of its sinks disappears:
/// the server moves the sink's streams to another output before any
/// client hears of it, so the link mutes them at once, from the sink's
/// removal event, without waiting to fetch the new state.
public struct VanishingSinkMute: Sendable {
  /// Whether the streams of a sink are muted when it disappears.
  public var appliesTo: @Sendable (Sink) -> Bool
  /// Told on the link's thread, the moment the server answered, which
  /// streams it muted: for a record that must not wait for the next
  /// update (which brings the same as a ``LinkReflex/muted(_:of:)``).
  public var muted: @Sendable (Sink, [UInt32]) -> Void

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - appliesTo: Whether the streams of a sink are muted when it
  ///     disappears; asked for every sink of every new state.
  ///   - muted: Told on the link's thread which streams were muted, with
  ///     the sink they played on.
  public init(
    appliesTo: @escaping @Sendable (Sink) -> Bool,
    muted: @escaping @Sendable (Sink, [UInt32]) -> Void = { _, _ in }
  ) {
    self.appliesTo = appliesTo
    self.muted = muted
  }
}
