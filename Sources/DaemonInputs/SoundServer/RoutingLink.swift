// What the router and the media controller need of the sound server: its
// states as they change, a way to send a batch, a way to ask for a fresh
// state, and streams muted the moment their sink goes. The real
// SoundServerLink is one; the router's unit tests script another.

import DaemonLifecycle
import SoundServerModel

/// The router's view of the sound server.
///
/// ``SoundServerLink`` is the real one. A conforming type publishes every
/// new state of the server through ``updates()``, applies batches, and
/// loads a fresh state on ``reconnect()``.
public protocol RoutingLink: Sendable {
  /// Returns a stream of the server's states, starting with the current
  /// one if there is one.
  func updates() async -> AsyncStream<LinkUpdate>

  /// Sends a batch and returns one result per operation; a success is the
  /// server's acknowledgement, and the change shows up in ``updates()``.
  ///
  /// - Throws: ``SoundServerModel/SoundServerError/connectionTerminated`` when not
  ///   connected.
  func apply(
    _ batch: ServerBatch
  ) async throws(SoundServerError) -> ServerBatchResult

  /// Loads a fresh state of the server, published as
  /// ``LinkUpdate/connected(_:)``.
  func reconnect() async

  /// Reads the server's defaults as a new client sees them and, when they
  /// are not those of the last state, loads a fresh state, published as
  /// ``LinkUpdate/connected(_:)``.
  ///
  /// - Returns: What the new client saw, or nil if it could not ask.
  func checkDefaults() async -> DefaultsCheck?

  /// Mutes, the moment a sink disappears, the audible streams that played
  /// on it, by the rule given; nil stops muting. What it did comes with
  /// the next state, in ``LinkUpdate/changed(_:reflexes:)``, which shows
  /// the streams muted.
  func muteStreams(whenTheirSinkVanishes rule: VanishingSinkMute?) async
}

/// The defaults a new client of the sound server saw, and whether the link
/// reloads because its state showed others.
public struct DefaultsCheck: Sendable, Hashable {
  /// The default output's name, if any.
  public var sinkName: String?
  /// The default input's name, if any; PipeWire's placeholder is none.
  public var sourceName: String?
  /// Whether the link loads a fresh state, its own showing other defaults.
  public var reloading: Bool

  /// Creates a check's result.
  public init(sinkName: String?, sourceName: String?, reloading: Bool) {
    self.sinkName = sinkName
    self.sourceName = sourceName
    self.reloading = reloading
  }
}

extension SoundServerLink: RoutingLink {}
