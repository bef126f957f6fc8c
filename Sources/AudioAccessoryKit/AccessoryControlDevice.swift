@_exported import AccessorySetupKit
import ConcurrencyHelpers
import FoundationEssentials

/// An audio accessory registered with the system for automatic audio
/// switching.
///
/// Pair the accessory with AccessorySetupKit first, then register it with
/// the capabilities it has. Afterwards, get the device with
/// ``current(for:)`` and report changes of placement and connected audio
/// sources with ``update(_:)``; the routing service moves audio output
/// accordingly.
///
/// ```swift
/// try await AccessoryControlDevice.register(accessory, [.audioSwitching])
/// let device = try AccessoryControlDevice.current(for: accessory)
/// var configuration = device.configuration
/// configuration.devicePlacement = .onHead
/// try await device.update(configuration)
/// ```
///
/// Every method throws ``AccessoryControlDevice/Error``, Apple's plain
/// cases; on Linux, ``lastFailure(for:)`` tells why.
public final class AccessoryControlDevice: Sendable {
  /// The accessory this device controls.
  public let accessory: ASAccessory

  /// The configuration the system holds for the accessory.
  ///
  /// The value is the one returned when the device was obtained, or the one
  /// applied by the latest successful ``update(_:)`` through this device.
  public var configuration: Configuration {
    storedConfiguration.withLock { $0 }
  }

  private let storedConfiguration: Mutex<Configuration>
  private let engine: any AccessoryControlEngine

  private init(
    accessory: ASAccessory,
    configuration: Configuration,
    engine: any AccessoryControlEngine
  ) {
    self.accessory = accessory
    self.storedConfiguration = Mutex(configuration)
    self.engine = engine
  }

  /// Registers an accessory with a configuration.
  ///
  /// Registering again replaces the configuration, and restores a
  /// registration that unpairing invalidated.
  ///
  /// - Parameters:
  ///   - accessory: An accessory that AccessorySetupKit authorized.
  ///   - configuration: The capabilities and initial state.
  /// - Throws: ``Error/invalidRequest`` for an accessory that is not
  ///   paired or a malformed configuration;
  ///   ``Error/accessoryNotCapable`` for a state without its
  ///   capability or a capability the hardware cannot have.
  public nonisolated(nonsending) static func register(
    _ accessory: ASAccessory,
    _ configuration: Configuration
  ) async throws {
    try await recordingFailure(of: accessory) {
      () async throws(AccessoryControlFailure) in
      try await AccessoryControlEngines.current.register(
        accessory, configuration)
    }
  }

  /// Registers an accessory with a set of capabilities and no initial state.
  ///
  /// - Parameters:
  ///   - accessory: An accessory that AccessorySetupKit authorized.
  ///   - capabilities: The capabilities the accessory has.
  /// - Throws: As ``register(_:_:)-(_,Configuration)``.
  public nonisolated(nonsending) static func register(
    _ accessory: ASAccessory,
    _ capabilities: Capabilities
  ) async throws {
    try await register(
      accessory, Configuration(deviceCapabilities: capabilities))
  }

  /// Returns the device for a registered accessory.
  ///
  /// - Parameter accessory: A registered accessory.
  /// - Returns: The device, holding the current configuration.
  /// - Throws: ``Error/invalidRequest`` if the accessory was never
  ///   registered; ``Error/invalidated`` if its registration was
  ///   invalidated; ``Error/unknown`` if the system cannot be
  ///   reached.
  public static func current(
    for accessory: ASAccessory
  ) throws -> AccessoryControlDevice {
    let engine = AccessoryControlEngines.current
    let configuration = try recordingFailure(of: accessory) {
      () throws(AccessoryControlFailure) in
      try engine.configuration(for: accessory)
    }
    return AccessoryControlDevice(
      accessory: accessory, configuration: configuration, engine: engine)
  }

  /// Reports a new configuration for the accessory.
  ///
  /// Copy ``configuration``, change the placement or the audio sources, and
  /// pass it here. Always register a capability before updating it.
  ///
  /// - Parameter configuration: The new configuration.
  /// - Throws: ``Error/accessoryNotCapable`` for a capability that
  ///   was not registered; ``Error/invalidRequest`` for a malformed
  ///   configuration; ``Error/invalidated`` if the registration was
  ///   invalidated.
  public nonisolated(nonsending) func update(
    _ configuration: Configuration
  ) async throws {
    let applied = try await Self.recordingFailure(of: accessory) {
      () async throws(AccessoryControlFailure) in
      try await engine.update(accessory, configuration)
    }
    storedConfiguration.withLock { $0 = applied }
  }
}
