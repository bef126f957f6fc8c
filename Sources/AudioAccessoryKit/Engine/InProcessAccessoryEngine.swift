// Linux addition: the engine that keeps registrations in this process.
// Tests and embedders use it directly; the routing service builds on it.

import Foundation
import Logging
import Synchronization

/// An engine that holds paired accessories and registrations in this
/// process, optionally persisted to a ``StateFile``.
///
/// Every change is checked by ``AccessoryRegistry``'s rules and, with a
/// state file, written atomically before the call returns; a change that
/// cannot be saved is not applied.
public final class InProcessAccessoryEngine: AccessoryControlEngine {
  private struct State {
    var registry: AccessoryRegistry
    var writeBlockedReason: String?
  }

  private let state: Mutex<State>
  private let stateFile: StateFile?
  private let clock: @Sendable () -> Date

  /// Creates an engine, reading its state file if one is given.
  ///
  /// An unreadable state file is kept aside and the engine starts empty;
  /// see ``StateFile/load(logger:)``.
  ///
  /// - Parameters:
  ///   - stateFile: Where to persist state; `nil` keeps it in memory only.
  ///   - logger: Where to report problems with the state file.
  ///   - clock: The source of timestamps for changes; they are kept to the
  ///     millisecond, the precision of the state file.
  public init(
    stateFile: StateFile? = nil,
    logger: Logger = Logger(label: "accessoryd.engine"),
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.stateFile = stateFile
    self.clock = { StateFile.storableDate(clock()) }
    let loaded = stateFile?.load(logger: logger)
    self.state = Mutex(
      State(
        registry: loaded?.registry ?? AccessoryRegistry(),
        writeBlockedReason: loaded?.writeBlockedReason))
  }

  /// A snapshot of the paired accessories and registrations.
  public var registry: AccessoryRegistry {
    state.withLock { $0.registry }
  }

  /// The paired accessories, sorted by address.
  public var accessories: [ASAccessory] {
    registry.accessories.values.sorted { $0.address < $1.address }
      .map(\.accessory)
  }

  /// Authorizes a Bluetooth accessory, or renames one already paired.
  ///
  /// - Parameters:
  ///   - address: The device address.
  ///   - displayName: The name the person sees.
  ///   - formFactor: The form factor of its audio output, if known.
  ///   - descriptor: The descriptor that discovered it.
  /// - Returns: The authorized accessory.
  /// - Throws: ``AccessoryControlDevice/Error`` for a refused value or a
  ///   state file that cannot be written.
  @discardableResult
  public func pair(
    _ address: BluetoothAddress,
    displayName: String,
    formFactor: AudioFormFactor? = nil,
    descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor()
  ) throws(AccessoryControlDevice.Error) -> ASAccessory {
    let now = clock()
    return try change { registry throws(AccessoryControlDevice.Error) in
      try registry.pair(
        address, displayName: displayName, formFactor: formFactor,
        descriptor: descriptor, at: now
      ).accessory
    }
  }

  /// Removes an accessory's authorization and invalidates its registration.
  ///
  /// - Throws: ``AccessoryControlDevice/Error`` if it is not paired or the
  ///   state file cannot be written.
  public func unpair(
    _ address: BluetoothAddress
  ) throws(AccessoryControlDevice.Error) {
    try change { registry throws(AccessoryControlDevice.Error) in
      try registry.unpair(address)
    }
  }

  /// Registers an accessory, replacing any earlier registration.
  public func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlDevice.Error) {
    let now = clock()
    try change { registry throws(AccessoryControlDevice.Error) in
      try registry.register(accessory, configuration, at: now)
    }
  }

  /// Returns the configuration of a registered accessory.
  public func configuration(
    for accessory: ASAccessory
  ) throws(AccessoryControlDevice.Error) -> AccessoryControlDevice.Configuration
  {
    try registry.configuration(for: accessory)
  }

  /// Applies a new configuration to a registered accessory.
  public func update(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlDevice.Error)
    -> AccessoryControlDevice.Configuration
  {
    let now = clock()
    return try change { registry throws(AccessoryControlDevice.Error) in
      try registry.update(accessory, configuration, at: now)
    }
  }

  /// Changes some fields of a registered accessory's configuration, reading
  /// and writing it under one lock, so concurrent changes never lose one.
  ///
  /// - Parameters:
  ///   - address: The accessory's address.
  ///   - changes: Edits the current configuration.
  /// - Returns: The configuration now held.
  /// - Throws: ``AccessoryControlDevice/Error`` naming the refused value.
  @discardableResult
  public func update(
    _ address: BluetoothAddress,
    changing changes: (inout AccessoryControlDevice.Configuration) -> Void
  ) throws(AccessoryControlDevice.Error) -> AccessoryControlDevice.Configuration
  {
    let now = clock()
    return try change { registry throws(AccessoryControlDevice.Error) in
      let accessory = registry.accessory(at: address)
      var configuration = try registry.configuration(for: accessory)
      changes(&configuration)
      return try registry.update(accessory, configuration, at: now)
    }
  }

  /// Applies a change to a copy of the registry, saves the copy, and only
  /// then makes it current, so a failed save changes nothing.
  private func change<Result>(
    _ body: (inout AccessoryRegistry) throws(AccessoryControlDevice.Error) ->
      Result
  ) throws(AccessoryControlDevice.Error) -> Result {
    try state.withLock { state throws(AccessoryControlDevice.Error) in
      var registry = state.registry
      let result = try body(&registry)
      if let stateFile, registry != state.registry {
        if let reason = state.writeBlockedReason {
          throw .unknown(reason: reason)
        }
        do {
          try stateFile.save(registry)
        } catch {
          throw .unknown(reason: "\(error)")
        }
      }
      state.registry = registry
      return result
    }
  }
}
