// Linux addition: the engine behind AccessoryControlDevice is pluggable, in
// the way swift-crypto keeps its backend behind an internal protocol.

import ConcurrencyHelpers

/// A system that holds accessory registrations and acts on them.
///
/// ``AccessoryControlDevice`` forwards every call to the engine selected
/// with ``AccessoryControlEngines``. The package ships
/// ``DaemonAccessoryEngine``, the default, which talks to the accessoryd
/// service, and `RegistryStore` (in the `AccessoryBackend` module), which keeps registrations in
/// this process and persists them to a state file.
public protocol AccessoryControlEngine: Sendable {
  /// Registers an accessory, replacing any earlier registration.
  ///
  /// - Throws: ``AccessoryControlFailure`` naming the refused value.
  func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure)

  /// Returns the configuration of a registered accessory.
  ///
  /// - Throws: ``AccessoryControlFailure`` if it is not registered or
  ///   its registration was invalidated.
  func configuration(
    for accessory: ASAccessory
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration

  /// Applies a new configuration to a registered accessory.
  ///
  /// - Returns: The configuration the engine now holds.
  /// - Throws: ``AccessoryControlFailure`` naming the refused value.
  func update(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure)
    -> AccessoryControlDevice.Configuration
}

/// The selection of the engine that ``AccessoryControlDevice`` talks to.
///
/// A task can use its own engine with ``withEngine(_:operation:)``; every
/// other task uses the process-wide ``default``: a
/// ``DaemonAccessoryEngine`` that talks to the accessoryd service, until the
/// program sets another (for example an `RegistryStore` (in the `AccessoryBackend` module) to
/// embed the registry).
public enum AccessoryControlEngines {
  @TaskLocal private static var taskEngine: (any AccessoryControlEngine)?

  private static let processEngine = Mutex<any AccessoryControlEngine>(
    DaemonAccessoryEngine())

  /// The process-wide engine.
  public static var `default`: any AccessoryControlEngine {
    get { processEngine.withLock { $0 } }
    set { processEngine.withLock { $0 = newValue } }
  }

  /// The engine for the current task: its own, or the process-wide one.
  public static var current: any AccessoryControlEngine {
    taskEngine ?? self.default
  }

  /// Runs an operation with an engine selected for the current task and
  /// the tasks it creates.
  ///
  /// - Parameters:
  ///   - engine: The engine to use.
  ///   - operation: The work that uses ``AccessoryControlDevice``.
  /// - Returns: What the operation returns.
  @discardableResult
  public static func withEngine<Result>(
    _ engine: any AccessoryControlEngine,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $taskEngine.withValue(engine, operation: operation)
  }
}
