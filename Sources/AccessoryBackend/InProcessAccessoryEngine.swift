// Linux addition: the engine that keeps registrations in this process.
// Tests and embedders use it directly; the routing service builds on it.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import Dispatch
import FoundationEssentials
import Locking
import Logging

/// An engine that holds paired accessories and registrations in this
/// process, optionally persisted to a ``StateFile``.
///
/// Every change is checked by ``AccessoryRegistry``'s rules and, with a
/// state file, written atomically before the call returns; a change that
/// cannot be saved is not applied. Changes made while a save is under way
/// are written together by the next one (group commit), and each save
/// encodes only the records that changed.
public final class InProcessAccessoryEngine: AccessoryControlEngine {
  private struct State {
    /// The registry as changed so far, saved or not.
    var registry: AccessoryRegistry
    /// The registry as last written to the state file.
    var savedRegistry: AccessoryRegistry
    /// Counts the changes to `registry`.
    var generation: UInt64 = 0
    /// The generation `savedRegistry` is.
    var savedGeneration: UInt64 = 0
    /// The generations undone because a save failed, with why; failures
    /// are rare, and each adds one range above the last.
    var abandoned: [(generations: ClosedRange<UInt64>, reason: String)] = []
    var writeBlockedReason: String?
  }

  private let state: Mutex<State>
  /// Held while the state file is written, so saves never overlap; holds
  /// the records encoded so far, so a save encodes only what changed.
  private let writing = Mutex(StateFile.IncrementalEncoder())
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
    let registry = loaded?.registry ?? AccessoryRegistry()
    self.state = Mutex(
      State(
        registry: registry, savedRegistry: registry,
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
  /// - Throws: ``AccessoryControlFailure`` for a refused value or a
  ///   state file that cannot be written.
  @discardableResult
  public func pair(
    _ address: BluetoothAddress,
    displayName: String,
    formFactor: AudioFormFactor? = nil,
    descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor()
  ) async throws(AccessoryControlFailure) -> ASAccessory {
    let now = clock()
    return try await change { registry throws(AccessoryControlFailure) in
      try registry.pair(
        address, displayName: displayName, formFactor: formFactor,
        descriptor: descriptor, at: now
      ).accessory
    }
  }

  /// Removes an accessory's authorization and invalidates its registration.
  ///
  /// - Throws: ``AccessoryControlFailure`` if it is not paired or the
  ///   state file cannot be written.
  public func unpair(
    _ address: BluetoothAddress
  ) async throws(AccessoryControlFailure) {
    try await change { registry throws(AccessoryControlFailure) in
      try registry.unpair(address)
    }
  }

  /// Registers an accessory, replacing any earlier registration, as a
  /// companion does.
  public func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure) {
    try await register(accessory, configuration, by: .update)
  }

  /// Registers an accessory, replacing any earlier registration, saying
  /// who registers it.
  ///
  /// - Parameters:
  ///   - accessory: A paired accessory.
  ///   - configuration: What it can do and its state.
  ///   - source: Who registers it.
  ///   - readsHeadphones: Whether accessoryd reads the placement from the
  ///     headphones; nil keeps the earlier registration's choice.
  public func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration,
    by source: PlacementSource, readsHeadphones: Bool? = nil
  ) async throws(AccessoryControlFailure) {
    let now = clock()
    try await change { registry throws(AccessoryControlFailure) in
      try registry.register(
        accessory, configuration, at: now, by: source,
        readsHeadphones: readsHeadphones)
    }
  }

  /// Returns the configuration of a registered accessory.
  public func configuration(
    for accessory: ASAccessory
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration {
    try registry.configuration(for: accessory)
  }

  /// Applies a new configuration to a registered accessory.
  public func update(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration
  ) async throws(AccessoryControlFailure)
    -> AccessoryControlDevice.Configuration
  {
    let now = clock()
    return try await change { registry throws(AccessoryControlFailure) in
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
  /// - Throws: ``AccessoryControlFailure`` naming the refused value.
  @discardableResult
  public func update(
    _ address: BluetoothAddress,
    changing changes: (inout AccessoryControlDevice.Configuration) -> Void
  ) async throws(AccessoryControlFailure)
    -> AccessoryControlDevice.Configuration
  {
    let now = clock()
    return try await change { registry throws(AccessoryControlFailure) in
      let accessory = registry.accessory(at: address)
      var configuration = try registry.configuration(for: accessory)
      changes(&configuration)
      return try registry.update(accessory, configuration, at: now)
    }
  }

  /// Changes some fields of a registered accessory's configuration in
  /// memory, like ``update(_:changing:)``, and returns before the state
  /// file is written: the caller can act on the new registry while
  /// ``saved(through:)`` writes it.
  ///
  /// - Parameters:
  ///   - address: The accessory's address.
  ///   - source: Who reports the change.
  ///   - changes: Edits the current configuration.
  /// - Returns: The change's generation, for ``saved(through:)``.
  /// - Throws: ``AccessoryControlFailure`` naming the refused value;
  ///   nothing is changed then.
  public func stageUpdate(
    _ address: BluetoothAddress, by source: PlacementSource = .update,
    changing changes: (inout AccessoryControlDevice.Configuration) -> Void
  ) throws(AccessoryControlFailure) -> UInt64 {
    let now = clock()
    return try stage { registry throws(AccessoryControlFailure) in
      let accessory = registry.accessory(at: address)
      var configuration = try registry.configuration(for: accessory)
      changes(&configuration)
      _ = try registry.update(accessory, configuration, at: now, by: source)
    }.generation
  }

  /// Waits until the state file holds generation `generation` or a later
  /// one.
  ///
  /// The file is written on a thread of its own if no one has yet; several
  /// changes made meanwhile are written together, once.
  ///
  /// - Throws: ``AccessoryControlFailure/unknown(reason:)`` if the
  ///   file cannot be written; the registry is then back to what the file
  ///   holds, and every change not yet saved is undone.
  public func saved(
    through generation: UInt64
  ) async throws(AccessoryControlFailure) {
    // Nothing to write: no thread either.
    let isSaved = state.withLock { state in
      generation <= state.savedGeneration
        && !state.abandoned.contains { $0.generations.contains(generation) }
    }
    if stateFile == nil || isSaved { return }
    try await onOwnThread(named: "accessory.save") {
      () throws(AccessoryControlFailure) in
      try self.save(through: generation)
    }
  }

  /// Applies a change to a copy of the registry, saves the copy on a thread
  /// of its own, and only then returns; a change that cannot be saved is
  /// undone.
  private func change<Result>(
    _ body: (inout AccessoryRegistry) throws(AccessoryControlFailure) ->
      Result
  ) async throws(AccessoryControlFailure) -> Result {
    let staged = try stage(body)
    try await saved(through: staged.generation)
    return staged.result
  }

  /// Applies a change to a copy of the registry and makes the copy
  /// current, without saving it; a change that changes nothing keeps the
  /// generation.
  private func stage<Result>(
    _ body: (inout AccessoryRegistry) throws(AccessoryControlFailure) ->
      Result
  ) throws(AccessoryControlFailure) -> (result: Result, generation: UInt64) {
    try state.withLock { state throws(AccessoryControlFailure) in
      var registry = state.registry
      let result = try body(&registry)
      if registry != state.registry {
        state.registry = registry
        state.generation += 1
        if stateFile == nil {
          state.savedRegistry = registry
          state.savedGeneration = state.generation
        }
      }
      return (result, state.generation)
    }
  }

  /// Writes the registry to the state file unless generation `generation`
  /// is already there; on failure undoes every unsaved change.
  private func save(
    through generation: UInt64
  ) throws(AccessoryControlFailure) {
    guard let stateFile else { return }
    try writing.withLock { encoder throws(AccessoryControlFailure) in
      let current = state.withLock { state in
        (
          registry: state.registry, generation: state.generation,
          saved: state.savedGeneration,
          abandoned: state.abandoned.last {
            $0.generations.contains(generation)
          },
          blocked: state.writeBlockedReason
        )
      }
      if let abandoned = current.abandoned {
        throw .unknown(reason: abandoned.reason)
      }
      if generation <= current.saved { return }
      // The reason the file is not written, or nil once it is.
      var failure = current.blocked
      if failure == nil {
        do {
          try stateFile.save(current.registry, using: &encoder)
        } catch {
          failure = "\(error)"
        }
      }
      if let reason = failure {
        state.withLock { state in
          state.abandoned.append(
            ((state.savedGeneration + 1)...state.generation, reason))
          // What is current again is what the file holds, under a
          // generation of its own.
          state.registry = state.savedRegistry
          state.generation += 1
          state.savedGeneration = state.generation
        }
        throw .unknown(reason: reason)
      }
      state.withLock { state in
        state.savedRegistry = current.registry
        state.savedGeneration = current.generation
      }
    }
  }
}
