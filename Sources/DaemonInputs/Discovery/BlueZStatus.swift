// What the control socket tells about BlueZ (`bluetooth.status`), read
// through the connection the BlueZ discovery source holds: acctl asks the
// daemon instead of talking to BlueZ itself.

import AccessoryControl
import BlueZ
import ConcurrencyHelpers
import DaemonLifecycle

/// BlueZ as the daemon reaches it, for `bluetooth.status`.
///
/// ``BlueZDevices`` hands it its connection (or why it has none); each
/// ``report(waitingUpTo:)`` then reads BlueZ's adapters and devices through
/// that connection, on the connection's own thread.
public final class BlueZStatus: Sendable {
  /// The discovery source's connection to the system bus.
  enum Connection: Sendable {
    /// The source has not connected yet.
    case connecting
    /// Connected; BlueZ itself may or may not run.
    case connected(BlueZClient)
    /// The bus cannot be reached, and why.
    case unreachable(String)
    /// The source stopped following BlueZ.
    case ended
  }

  private let connection = Mutex<Connection>(.connecting)

  /// Creates a status that waits for the discovery source to connect.
  public init() {}

  /// Takes the source's connection, or why the bus cannot be reached, or
  /// that the source ended.
  func use(_ connection: Connection) {
    self.connection.withLock { $0 = connection }
  }

  /// BlueZ now: the bus's state, and BlueZ's adapters and devices if it
  /// answers.
  ///
  /// - Parameter limit: How long to wait for the discovery source to
  ///   connect, when it has not yet (the daemon is starting).
  public func report(
    waitingUpTo limit: Duration = .seconds(5)
  ) async -> BluetoothStatus {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
      switch connection.withLock({ $0 }) {
      case .connected(let client):
        return await Self.read(client)
      case .unreachable(let reason):
        return BluetoothStatus(state: .busUnreachable, reason: reason)
      case .ended:
        return BluetoothStatus(
          state: .notFollowed, reason: "accessoryd no longer follows BlueZ")
      case .connecting:
        guard clock.now < deadline,
          (try? await Task.sleep(for: .milliseconds(50))) != nil
        else {
          return BluetoothStatus(
            state: .connecting,
            reason: "accessoryd is still connecting to the system bus")
        }
      }
    }
  }

  /// Reads BlueZ's adapters and devices through a connection.
  private static func read(_ client: BlueZClient) async -> BluetoothStatus {
    do {
      let adapters = try await client.adapters()
      let devices = try await client.devices()
      return BluetoothStatus(
        state: .running,
        adapters: adapters.map {
          BluetoothStatus.Adapter(
            interface: $0.interfaceName, address: $0.address,
            powered: $0.isPowered)
        },
        devices: devices.map {
          BluetoothStatus.Device(
            address: $0.address, name: $0.name, alias: $0.alias,
            paired: $0.isPaired, connected: $0.isConnected,
            serviceUUIDs: $0.uuids)
        })
    } catch {
      return BluetoothStatus(state: .notRunning, reason: "\(error)")
    }
  }
}
