// Linux addition: the engine that talks to accessoryd over its control
// socket, so companion code using AccessoryControlDevice reaches the
// routing service. It is the default engine.

import AccessoryControl
import ConcurrencyHelpers
import Dispatch
import FoundationEssentials

/// An engine that forwards every call to the accessoryd service.
///
/// Each call sends one JSON-RPC request on the control socket (see
/// `docs/control-protocol.md`); the connection is made on first use and
/// made again if it breaks. `register` and `update` return once the
/// service has saved the change and applied the route.
public final class DaemonAccessoryEngine: AccessoryControlEngine {
  /// The control socket's path.
  public let socketPath: String
  private let connection = Mutex<ControlClient?>(nil)

  /// Creates an engine for the service at a socket.
  ///
  /// - Parameter socketPath: The control socket; by default
  ///   `$XDG_RUNTIME_DIR/accessoryd/control.sock` or `ACCESSORYD_SOCKET`.
  public init(socketPath: String = ControlSocketPath.resolve()) {
    self.socketPath = socketPath
  }

  /// Registers an accessory with the service.
  public func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure) {
    let address = try Self.address(of: accessory, doing: "registering")
    try await callInBackground(
      AccessoryRegisterRequest(
        accessory: address, configuration: configuration))
  }

  /// Returns the configuration the service holds for an accessory.
  public func configuration(
    for accessory: ASAccessory
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration {
    let address = try Self.address(of: accessory, doing: "reading")
    let reply = try call(DaemonAccessoryCurrentRequest(accessory: address))
    return try Self.configuration(in: reply)
  }

  /// Sends a new configuration to the service.
  public func update(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure)
    -> AccessoryControlDevice.Configuration
  {
    let address = try Self.address(of: accessory, doing: "updating")
    let reply = try await callInBackground(
      AccessoryUpdateRequest(accessory: address, .configuration(configuration)))
    return try Self.configuration(in: reply)
  }

  // MARK: - Calls

  /// Calls an `accessory.*` method on a thread of its own.
  @discardableResult
  private func callInBackground<Request: DaemonRequest>(
    _ request: Request
  ) async throws(AccessoryControlFailure) -> DaemonAccessory
  where Request.Reply == DaemonAccessory {
    try await BlockingPool.shared.run(named: "accessory.call") {
      () throws(AccessoryControlFailure) in
      try self.call(request)
    }
  }

  /// Calls an `accessory.*` method, which answers with an Accessory.
  private func call<Request: DaemonRequest>(
    _ request: Request
  ) throws(AccessoryControlFailure) -> DaemonAccessory
  where Request.Reply == DaemonAccessory {
    do {
      return try connection.withLock { connection throws(ControlClientError) in
        for attempt in 0..<2 {
          if connection == nil {
            connection = try ControlClient(path: socketPath)
          }
          do throws(ControlClientError) {
            return try connection!.call(request)
          } catch {
            guard case .connectionLost = error, attempt == 0 else {
              throw error
            }
            connection = nil
          }
        }
        throw .connectionLost("no answer")
      }
    } catch {
      throw Self.error(from: error)
    }
  }

  static func error(
    from error: ControlClientError
  ) -> AccessoryControlFailure {
    guard case .remote(let remote) = error else {
      return .unknown(reason: error.description)
    }
    let reason = remote.data?["reason"]?.stringValue ?? remote.message
    switch remote.data?["case"]?.stringValue {
    case "accessoryNotCapable": return .accessoryNotCapable(reason: reason)
    case "invalidRequest": return .invalidRequest(reason: reason)
    case "invalidated": return .invalidated(reason: reason)
    case "unknown": return .unknown(reason: reason)
    default:
      return remote.code == .invalidParams
        ? .invalidRequest(reason: remote.message)
        : .unknown(reason: remote.message)
    }
  }

  // MARK: - Values

  private static func address(
    of accessory: ASAccessory, doing action: String
  ) throws(AccessoryControlFailure) -> String {
    guard let address = accessory.bluetoothAddress else {
      throw .invalidRequest(
        reason: "accessory '\(accessory.displayName)' has no Bluetooth "
          + "identity; pair it with AccessorySetupKit before \(action) it")
    }
    return address.description
  }

  private static func configuration(
    in reply: DaemonAccessory
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration {
    guard let registration = reply.registration else {
      throw .unknown(reason: "accessoryd answered without a configuration")
    }
    return registration.configuration
  }
}
