// Linux addition: the registry kept in this process and its state file, an
// AccessoryControlEngine that embedders and tests use directly; the daemon's
// engine loop makes its changes through it.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import ConcurrencyHelpers
import Dispatch
import FoundationEssentials
import Logging

/// The paired accessories and registrations held in this process,
/// optionally persisted to a ``StateFile``: an ``AccessoryControlEngine``
/// for code that keeps its accessories itself.
///
/// Every change is checked by ``AccessoryRegistry``'s rules and, with a
/// state file, written atomically before the call returns; a change that
/// cannot be saved is not applied. Changes made while a save is under way
/// are written together by the next one (group commit), and each save
/// encodes only the records that changed. The registry changes in place;
/// until a change is saved, the records it replaced are kept to undo it.
public final class RegistryStore: AccessoryControlEngine {
  private struct State {
    /// The registry as changed so far, saved or not.
    var registry: AccessoryRegistry
    /// Counts the changes to `registry`.
    var generation: UInt64 = 0
    /// Counts the changes to which addresses are paired and registered;
    /// see ``VersionedRegistry/membership``.
    var membership: UInt64 = 0
    /// The generation the state file holds.
    var savedGeneration: UInt64 = 0
    /// How to undo each change after `savedGeneration`, oldest first.
    ///
    /// What the file holds is `registry` with these undone, newest first.
    /// A change to one address keeps that address's records as they were,
    /// not a copy of the registry, so that changing the registry in place
    /// copies nothing.
    var undo: [(generation: UInt64, step: UndoStep)] = []
    /// The generations undone because a save failed, with why; failures
    /// are rare, and each adds one range above the last.
    var abandoned: [(generations: ClosedRange<UInt64>, reason: String)] = []
    var writeBlockedReason: String?
  }

  /// How to undo one change.
  private enum UndoStep {
    /// Put back the records of one address.
    case records(BluetoothAddress, AccessoryRegistry.Records)
    /// Put back the whole registry.
    case registry(AccessoryRegistry)
  }

  /// What the thread that writes the state file keeps between saves.
  private struct Writer {
    /// The records encoded so far.
    var encoder = StateFile.IncrementalEncoder()
    /// Whether `encoder` holds the records of the registry the state file
    /// holds, the saved generation's; false until the first save, and
    /// after a save that failed.
    var holdsSaved = false
  }

  private let state: Mutex<State>
  /// Held while the state file is written, so saves never overlap; holds
  /// the records encoded so far, so a save encodes only what changed.
  private let writing = Mutex(Writer())
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
        registry: registry, writeBlockedReason: loaded?.writeBlockedReason))
  }

  /// A snapshot of the paired accessories and registrations.
  public var registry: AccessoryRegistry {
    state.withLock { $0.registry }
  }

  /// A snapshot of the registry with the counts of its changes.
  public struct VersionedRegistry: Sendable {
    /// The registry.
    public var registry: AccessoryRegistry
    /// Counts every change: one generation is always the same registry,
    /// so a caller can keep what it derives from it until this changes.
    public var generation: UInt64
    /// Counts the changes to which addresses are paired and which have a
    /// registration not invalidated; it stays while only the records'
    /// contents change.
    public var membership: UInt64
  }

  /// A snapshot of the registry with the counts of its changes.
  public var versionedRegistry: VersionedRegistry {
    state.withLock {
      VersionedRegistry(
        registry: $0.registry, generation: $0.generation,
        membership: $0.membership)
    }
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
    let staged = try stagePairing(
      address, displayName: displayName, formFactor: formFactor,
      descriptor: descriptor)
    try await saved(through: staged.generation)
    return staged.accessory
  }

  /// Authorizes a Bluetooth accessory, or renames one already paired, in
  /// memory, like ``pair(_:displayName:formFactor:descriptor:)``, and
  /// returns before the state file is written.
  ///
  /// - Returns: The authorized accessory, and the change's generation for
  ///   ``saved(through:)``.
  /// - Throws: ``AccessoryControlFailure`` for a refused value; nothing is
  ///   changed then.
  public func stagePairing(
    _ address: BluetoothAddress,
    displayName: String,
    formFactor: AudioFormFactor? = nil,
    descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor()
  ) throws(AccessoryControlFailure) -> (
    accessory: ASAccessory, generation: UInt64
  ) {
    let now = clock()
    let staged = try stage(touching: address) {
      registry throws(AccessoryControlFailure) in
      try registry.pair(
        address, displayName: displayName, formFactor: formFactor,
        descriptor: descriptor, at: now
      ).accessory
    }
    return (staged.result, staged.generation)
  }

  /// Removes an accessory's authorization and invalidates its registration.
  ///
  /// - Throws: ``AccessoryControlFailure`` if it is not paired or the
  ///   state file cannot be written.
  public func unpair(
    _ address: BluetoothAddress
  ) async throws(AccessoryControlFailure) {
    try await saved(through: stageUnpairing(address))
  }

  /// Removes an accessory's authorization in memory, like ``unpair(_:)``,
  /// and returns before the state file is written.
  ///
  /// - Returns: The change's generation, for ``saved(through:)``.
  /// - Throws: ``AccessoryControlFailure`` if it is not paired; nothing is
  ///   changed then.
  public func stageUnpairing(
    _ address: BluetoothAddress
  ) throws(AccessoryControlFailure) -> UInt64 {
    try stage(touching: address) {
      registry throws(AccessoryControlFailure) in
      try registry.unpair(address)
    }.generation
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
    try await saved(
      through: stageRegistration(
        accessory, configuration, by: source,
        readsHeadphones: readsHeadphones))
  }

  /// Registers an accessory in memory, like
  /// ``register(_:_:by:readsHeadphones:)``, and returns before the state
  /// file is written.
  ///
  /// - Returns: The change's generation, for ``saved(through:)``.
  /// - Throws: ``AccessoryControlFailure`` naming the refused value;
  ///   nothing is changed then.
  public func stageRegistration(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration,
    by source: PlacementSource, readsHeadphones: Bool? = nil
  ) throws(AccessoryControlFailure) -> UInt64 {
    let now = clock()
    return try stage { registry throws(AccessoryControlFailure) in
      try registry.register(
        accessory, configuration, at: now, by: source,
        readsHeadphones: readsHeadphones)
    }.generation
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
    return try await change(touching: address) {
      registry throws(AccessoryControlFailure) in
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
    return try stage(touching: address) {
      registry throws(AccessoryControlFailure) in
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
    try await BlockingPool.shared.run(named: "accessory.save") {
      () throws(AccessoryControlFailure) in
      try self.save(through: generation)
    }
  }

  /// Applies a change to a copy of the registry, saves the copy on a thread
  /// of its own, and only then returns; a change that cannot be saved is
  /// undone.
  ///
  /// - Parameter address: The only address whose records `body` changes,
  ///   if there is one.
  private func change<Result>(
    touching address: BluetoothAddress? = nil,
    _ body: (inout AccessoryRegistry) throws(AccessoryControlFailure) ->
      Result
  ) async throws(AccessoryControlFailure) -> Result {
    let staged = try stage(touching: address, body)
    try await saved(through: staged.generation)
    return staged.result
  }

  /// Applies a change to the registry without saving it; a change that
  /// changes nothing keeps the generation.
  ///
  /// - Parameter address: The only address whose records `body` changes,
  ///   if there is one: the registry then changes in place, only that
  ///   address's records are compared, and the save encodes only them.
  ///   Otherwise the change is made to a copy.
  private func stage<Result>(
    touching address: BluetoothAddress? = nil,
    _ body: (inout AccessoryRegistry) throws(AccessoryControlFailure) ->
      Result
  ) throws(AccessoryControlFailure) -> (result: Result, generation: UInt64) {
    try state.withLock { state throws(AccessoryControlFailure) in
      let result: Result
      let step: UndoStep
      if let address {
        let before = state.registry.records(at: address)
        do throws(AccessoryControlFailure) {
          result = try body(&state.registry)
        } catch {
          state.registry.restore(before, at: address)
          throw error
        }
        let after = state.registry.records(at: address)
        if after == before { return (result, state.generation) }
        if before.isRegistered != after.isRegistered
          || (before.accessory == nil) != (after.accessory == nil)
        {
          state.membership += 1
        }
        step = .records(address, before)
      } else {
        var registry = state.registry
        result = try body(&registry)
        if registry == state.registry { return (result, state.generation) }
        step = .registry(state.registry)
        state.registry = registry
        state.membership += 1
      }
      state.generation += 1
      if stateFile == nil {
        state.savedGeneration = state.generation
      } else {
        state.undo.append((state.generation, step))
      }
      return (result, state.generation)
    }
  }

  /// What a save writes: the records of the addresses changed since the
  /// last save, or the whole registry.
  private enum Content {
    case changes([BluetoothAddress: AccessoryRegistry.Records])
    case registry(AccessoryRegistry)
  }

  /// Writes the registry to the state file unless generation `generation`
  /// is already there; on failure undoes every unsaved change.
  private func save(
    through generation: UInt64
  ) throws(AccessoryControlFailure) {
    guard let stateFile else { return }
    try writing.withLock { writer throws(AccessoryControlFailure) in
      let holdsSaved = writer.holdsSaved
      let current = state.withLock { state in
        (
          content: Self.content(of: state, encoderHoldsSaved: holdsSaved),
          generation: state.generation,
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
          switch current.content {
          case .changes(let changes):
            try stateFile.save(changing: changes, using: &writer.encoder)
          case .registry(let registry):
            try stateFile.save(registry, using: &writer.encoder)
          }
          writer.holdsSaved = true
        } catch {
          failure = "\(error)"
        }
      }
      if let reason = failure {
        // The encoder may hold records the file does not.
        writer.holdsSaved = false
        state.withLock { state in
          state.abandoned.append(
            ((state.savedGeneration + 1)...state.generation, reason))
          // What is current again is what the file holds, under a
          // generation of its own.
          for (_, step) in state.undo.reversed() {
            switch step {
            case .records(let address, let records):
              state.registry.restore(records, at: address)
            case .registry(let registry):
              state.registry = registry
            }
          }
          state.undo = []
          state.membership += 1
          state.generation += 1
          state.savedGeneration = state.generation
        }
        throw .unknown(reason: reason)
      }
      state.withLock { state in
        state.savedGeneration = current.generation
        state.undo.removeAll { $0.generation <= current.generation }
      }
    }
  }

  /// What a save of the current registry writes: the changed records when
  /// the encoder holds the saved registry and every change since was to
  /// one address, the whole registry otherwise.
  private static func content(
    of state: State, encoderHoldsSaved: Bool
  ) -> Content {
    guard encoderHoldsSaved else { return .registry(state.registry) }
    var changes: [BluetoothAddress: AccessoryRegistry.Records] = [:]
    for (_, step) in state.undo {
      guard case .records(let address, _) = step else {
        return .registry(state.registry)
      }
      changes[address] = state.registry.records(at: address)
    }
    return .changes(changes)
  }

}

/// The registry store's former name.
@available(*, deprecated, renamed: "RegistryStore")
public typealias InProcessAccessoryEngine = RegistryStore
