// The media players of the person's session: every MPRIS player on the
// session bus, followed while the daemon runs, so that the router can
// pause and resume them and acctl can list them.

import AccessoryControl
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import Logging
import MPRIS

/// Follows the MPRIS players on the session bus.
///
/// Without a session bus (no `DBUS_SESSION_BUS_ADDRESS`) it follows
/// nothing and says why; everything else works. A bus that goes away is
/// connected again with a backoff.
public final class MediaPlayers: Service {
  /// Whether players are followed, and if not, why.
  public enum Availability: Sendable, Hashable {
    /// Connected to the session bus at this address.
    case following(busAddress: String)
    /// Not connected, for this reason.
    case off(reason: String)
  }

  private struct State {
    var availability: Availability = .off(reason: "not connected yet")
    var client: MPRISClient?
    var players: [String: MediaPlayer] = [:]
  }

  /// The service's name in the log.
  public let name = "media players"
  private let busAddress: String?
  private let logger: Logger
  private let state = Mutex(State())
  private let subscribers = Broadcast<MediaPlayerChange>()
  private let waiters = ConditionWaiters<[String: MediaPlayer]>()

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - busAddress: The session bus; nil for `DBUS_SESSION_BUS_ADDRESS`.
  ///   - logger: Where connections and losses are logged.
  public init(busAddress: String? = nil, logger: Logger) {
    self.busAddress = busAddress
    self.logger = logger
  }

  /// Whether players are followed now.
  public var availability: Availability {
    state.withLock { $0.availability }
  }

  /// The players on the session bus now, by bus name, without those
  /// BlueZ's `mpris-proxy` serves for remote devices (a phone is not media
  /// this host plays).
  public var players: [MediaPlayer] {
    state.withLock { state in
      state.players.values.filter { !$0.isBluetoothProxy }
        .sorted { $0.busName < $1.busName }
    }
  }

  /// The player with a bus name, if it is on the bus now.
  public func player(named busName: String) -> MediaPlayer? {
    state.withLock { $0.players[busName] }
  }

  /// Returns the changes to the players from now on.
  public func changes() -> AsyncStream<MediaPlayerChange> {
    subscribers.subscribe()
  }

  /// Asks a player to pause.
  ///
  /// - Parameters:
  ///   - busName: The player's bus name.
  ///   - timeout: How long to wait for its answer.
  /// - Throws: ``MPRISError`` if players are not followed, or the player
  ///   refuses, is gone or does not answer in time.
  public func pause(
    _ busName: String, timeout: Duration
  ) async throws(MPRISError) {
    try await connectedClient(doing: "pausing \(busName)").pause(
      busName, timeout: timeout)
  }

  /// Asks a player to play.
  ///
  /// - Throws: ``MPRISError`` if players are not followed, or the player
  ///   refuses or is gone.
  public func play(_ busName: String) async throws(MPRISError) {
    try await connectedClient(doing: "resuming \(busName)").play(busName)
  }

  /// Waits until the players, by bus name, meet a condition, or until a
  /// deadline of the engine's clock.
  ///
  /// - Returns: Whether the condition held.
  public func waitUntil(
    _ deadline: Date, on clock: any EngineClock,
    _ condition: @escaping @Sendable ([String: MediaPlayer]) -> Bool
  ) async -> Bool {
    await waiters.wait(
      sleepingUntilTheDeadline: { try? await clock.sleep(until: deadline) },
      isPastTheDeadline: { clock.now() >= deadline },
      current: { self.state.withLock { $0.players } }, condition)
  }

  private func connectedClient(
    doing operation: String
  ) throws(MPRISError) -> MPRISClient {
    let client = state.withLock { $0.client }
    guard let client else {
      throw MPRISError(
        name: "org.freedesktop.DBus.Error.Disconnected",
        message: "media players are not followed", operation: operation)
    }
    return client
  }

  /// Applies a change, tells the subscribers and wakes the waiters whose
  /// condition now holds.
  ///
  /// Only the task that follows the bus calls it: the waiters are woken
  /// outside the lock, with the players as this change left them, and a
  /// second caller could wake them with a value already out of date.
  private func apply(_ change: MediaPlayerChange) {
    let players = state.withLock { state in
      switch change {
      case .appeared(let player), .changed(let player):
        state.players[player.busName] = player
      case .vanished(let busName):
        state.players[busName] = nil
      }
      return state.players
    }
    subscribers.publish(change)
    waiters.wake(with: players)
  }

  /// Follows the players until cancelled.
  public func run() async throws {
    guard let address = busAddress ?? MPRISClient.sessionBusAddress else {
      let reason =
        "there is no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
      state.withLock { $0.availability = .off(reason: reason) }
      // The daemon says it once for every part that needs the bus.
      logger.info(
        "Media players are not followed: \(reason); pausing is off")
      try await waitUntilCancelled()
      return
    }
    var delay = Duration.milliseconds(100)
    while !Task.isCancelled {
      do {
        let client = try await MPRISClient.connect(busAddress: address)
        delay = .milliseconds(100)
        try await follow(client, at: address)
      } catch let error as MPRISError {
        state.withLock { $0.availability = .off(reason: error.description) }
        // Without the bus, no player is known: say they went.
        for busName in state.withLock({ Array($0.players.keys) }) {
          apply(.vanished(busName: busName))
        }
        logger.warning(
          "Media players are not followed: \(error); trying again",
          metadata: ["dbus.address": address])
      }
      try await Task.sleep(for: delay)
      delay = min(delay * 2, .seconds(5))
    }
  }

  private func follow(_ client: MPRISClient, at address: String) async throws {
    let changes = client.changes()
    let gone = state.withLock { state in
      state.client = client
      state.availability = .following(busAddress: address)
      return Array(state.players.keys)
    }
    // Connected again: tell what went and what is there, as changes.
    let current = client.players()
    for busName in gone
    where !current.contains(where: { $0.busName == busName }) {
      apply(.vanished(busName: busName))
    }
    for player in current { apply(.appeared(player)) }
    logger.info(
      "Following media players",
      metadata: [
        "dbus.address": address, "media.players": "\(client.players().count)",
      ])
    defer {
      state.withLock { $0.client = nil }
      client.close()
    }
    await withTaskCancellationHandler {
      for await change in changes { apply(change) }
    } onCancel: {
      // Not here: the runtime holds the task's lock while this runs, and
      // closing waits for the bus's thread, which may be handing this task
      // a change, waiting for the task's lock.
      startThread(named: "mpris.close") { client.close() }
    }
    try Task.checkCancellation()
    throw MPRISError(
      name: "org.freedesktop.DBus.Error.Disconnected",
      message: "the session bus closed the connection",
      operation: "following media players")
  }

  private func waitUntilCancelled() async throws {
    let (never, _) = AsyncStream.makeStream(of: Void.self)
    for await _ in never {}
    try Task.checkCancellation()
  }
}
