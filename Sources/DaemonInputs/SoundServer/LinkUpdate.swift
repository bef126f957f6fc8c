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
  /// The server's state changed while connected.
  case changed(ServerMirror)
  /// The link lost the server, or could not reach it; it keeps trying.
  case disconnected(SoundServerError)

  /// The server's state, or `nil` for ``disconnected(_:)``.
  public var mirror: ServerMirror? {
    switch self {
    case .connected(let mirror), .changed(let mirror): mirror
    case .disconnected: nil
    }
  }
}

/// What a ``SoundServerLink`` does the moment one of its sinks disappears:
/// the server moves the sink's streams to another output before any
/// client hears of it, so the link mutes them at once, from the sink's
/// removal event, without waiting to fetch the new state.
public struct VanishingSinkMute: Sendable {
  /// Whether the streams of a sink are muted when it disappears.
  public var appliesTo: @Sendable (Sink) -> Bool
  /// Told, once the server answered, which streams it muted.
  public var muted: @Sendable (Sink, [UInt32]) -> Void
  /// Told that a headphone jack's sink whose streams were muted as the
  /// jack was pulled plays on the headphones again: the link saw it after
  /// the pull, whatever state the caller holds.
  public var jackBack: @Sendable (Sink) -> Void

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - appliesTo: Whether the streams of a sink are muted when it
  ///     disappears; asked for every sink of every new state.
  ///   - muted: Told which streams were muted, with the sink they
  ///     played on.
  ///   - jackBack: Told that a pulled jack's sink, whose streams were
  ///     muted, plays on the headphones again.
  public init(
    appliesTo: @escaping @Sendable (Sink) -> Bool,
    muted: @escaping @Sendable (Sink, [UInt32]) -> Void,
    jackBack: @escaping @Sendable (Sink) -> Void = { _ in }
  ) {
    self.appliesTo = appliesTo
    self.muted = muted
    self.jackBack = jackBack
  }
}
