// The media players of the person's session: every MPRIS player on the
// session bus, followed while the daemon runs, so that the router can
// pause and resume them and acctl can list them.

import Logging
import MPRIS
import Synchronization

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

  /// Follows the players until cancelled.
  public func run() async throws {
    guard let address = busAddress ?? MPRISClient.sessionBusAddress else {
      let reason =
        "there is no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
      state.withLock { $0.availability = .off(reason: reason) }
      logger.notice(
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
        state.withLock {
          $0.availability = .off(reason: error.description)
          $0.players = [:]
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
    state.withLock { state in
      state.client = client
      state.availability = .following(busAddress: address)
      state.players = Dictionary(
        client.players().map { ($0.busName, $0) }, uniquingKeysWith: { $1 })
    }
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
      for await change in changes {
        state.withLock { state in
          switch change {
          case .appeared(let player), .changed(let player):
            state.players[player.busName] = player
          case .vanished(let busName):
            state.players[busName] = nil
          }
        }
      }
    } onCancel: {
      client.close()
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
