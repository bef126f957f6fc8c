// The control socket's methods: docs/control-protocol.md describes each.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders
import Logging
import MPRIS
import PolicyFiles
import RoutingCore

/// Answers control requests with the registry, the router and the policy.
public struct DaemonMethods: ControlHandler, HeadphoneReports {

  /// The accessories and their registrations.
  public let engine: RegistryStore
  let router: EngineLoop
  let discovery: DeviceDiscovery
  let pickers: PickerRequests
  /// The policy in force.
  public let policies: PolicyStore
  let events: EventHub
  let media: MediaPlayers?
  /// accessoryd's own links to headphones, when it reads them.
  let headphoneLinks: HeadphoneLinkTable?
  /// BlueZ as the discovery source reaches it, for `bluetooth.status`.
  let bluez: BlueZStatus?
  let status: @Sendable () -> DaemonStatus
  let logger: Logger

  /// Creates the handler.
  public init(
    engine: RegistryStore, router: EngineLoop,
    discovery: DeviceDiscovery, pickers: PickerRequests = PickerRequests(),
    policies: PolicyStore, events: EventHub, media: MediaPlayers? = nil,
    headphoneLinks: HeadphoneLinkTable? = nil, bluez: BlueZStatus? = nil,
    status: @escaping @Sendable () -> DaemonStatus, logger: Logger
  ) {
    self.headphoneLinks = headphoneLinks
    self.bluez = bluez
    self.engine = engine
    self.router = router
    self.discovery = discovery
    self.pickers = pickers
    self.policies = policies
    self.events = events
    self.media = media
    self.status = status
    self.logger = logger
  }

  /// Handles one request.
  public func handle(
    method: String, params: JSONValue?, connection: ControlConnection
  ) async throws(ControlError) -> JSONValue {
    try await answer(method: method, params: params, connection: connection)
  }

  /// Handles one request of a caller that is not a control socket's
  /// client, such as the session D-Bus API: the methods that follow events
  /// or keep a picker on a connection are refused.
  public func call(
    method: String, params: JSONValue?
  ) async throws(ControlError) -> JSONValue {
    try await answer(method: method, params: params, connection: nil)
  }

  private func answer(
    method: String, params: JSONValue?, connection: ControlConnection?
  ) async throws(ControlError) -> JSONValue {
    let params = Parameters(params)
    func connected() throws(ControlError) -> ControlConnection {
      guard let connection else {
        throw ControlError.invalidRequest(
          "\(method) needs a connection to the control socket")
      }
      return connection
    }
    do {
      switch method {
      case AccessoryPairRequest<AccessoryControlDevice.Configuration>.method:
        return try reply(await pair(.init(params: params)))
      case AccessoryUnpairRequest.method:
        return try reply(await unpair(.init(params: params)))
      case DaemonAccessoryListRequest.method:
        return try reply(await list(.init(params: params)))
      case AccessoryRegisterRequest.method:
        return try reply(await register(.init(params: params)))
      case AccessoryUpdateRequest.method:
        return try reply(await update(.init(params: params)))
      case DaemonAccessoryCurrentRequest.method:
        return try reply(await current(.init(params: params)))
      case DaemonAccessoryRenameRequest.method:
        return try reply(await rename(.init(params: params)))
      case AccessoryMigrateRequest<AccessoryControlDevice.Configuration>.method:
        return try reply(await migrate(.init(params: params)))
      case DiscoveryListRequest.method:
        return try reply(await discoveryList(.init(params: params)))
      case PickerShowRequest.method:
        return try reply(
          await showPicker(.init(params: params), try connected()))
      case PickerPendingRequest.method:
        _ = try PickerPendingRequest(params: params)
        return try reply(
          PickerPendingReply(picker: pickers.current.map(Self.pendingPicker)))
      case PickerChooseRequest<AccessoryControlDevice.Configuration>.method:
        return try reply(await choose(.init(params: params)))
      case PickerCancelRequest.method:
        return try reply(cancelPicker(.init(params: params)))
      case PickerUpdateRequest.method:
        return try reply(updatePicker(.init(params: params)))
      case PickerFinishDiscoveryRequest.method:
        return try reply(finishPickerDiscovery(.init(params: params)))
      case DiscoverySubscribeRequest.method:
        return try reply(
          await discoverySubscribe(.init(params: params), try connected()))
      case RouteGetRequest.method:
        return try reply(await route(.init(params: params)))
      case RouteHistoryRequest.method:
        return try reply(await routeHistory(.init(params: params)))
      case EventsSubscribeRequest.method:
        _ = try EventsSubscribeRequest(params: params)
        _ = try connected().subscribeToEvents()
        return try reply(EmptyReply())
      case PolicyCheckRequest.method:
        return try reply(checkPolicy(.init(params: params)))
      case PolicyReloadRequest.method:
        _ = try PolicyReloadRequest(params: params)
        let loaded = try await reloadPolicy(because: "acctl policy reload")
        return try reply(Self.document(loaded))
      case PolicySetRequest.method:
        return try reply(
          Self.document(try await setPolicy(.init(params: params))))
      case PolicyShowRequest.method:
        _ = try PolicyShowRequest(params: params)
        return try reply(Self.document(policies.loaded, withText: true))
      case DaemonStatusRequest.method:
        _ = try DaemonStatusRequest(params: params)
        return try reply(await daemonStatus())
      case DaemonOverviewRequest.method:
        _ = try DaemonOverviewRequest(params: params)
        return try reply(await overview())
      case OutputListRequest.method:
        _ = try OutputListRequest(params: params)
        return try reply(router.board.audioDevices())
      case OutputChooseRequest.method:
        return try reply(await chooseDevice(.init(params: params)))
      case OutputForgetRequest.method:
        _ = try OutputForgetRequest(params: params)
        return try reply(await forgetChoices())
      case MediaPlayersRequest.method:
        _ = try MediaPlayersRequest(params: params)
        return try reply(await mediaPlayers())
      case BluetoothStatusRequest.method:
        _ = try BluetoothStatusRequest(params: params)
        return try reply(
          await bluez?.report()
            ?? BluetoothStatus(
              state: .notFollowed, reason: "accessoryd does not follow BlueZ"))
      default:
        throw ControlError.methodNotFound(method)
      }
    } catch let error as ControlError {
      throw error
    } catch let error as AccessoryControlFailure {
      throw ControlError(error)
    } catch {
      throw ControlError.internalError(systemReason(error))
    }
  }

  /// A typed answer as the JSON the socket sends.
  func reply(_ value: some Encodable) throws -> JSONValue {
    try JSONValue(encoding: value)
  }

  // MARK: - Accessories

  /// Authorizes a discovered device: one BlueZ or the sound server sees,
  /// matching the descriptor if one is given.
  func pair(
    _ request: AccessoryPairRequest<AccessoryControlDevice.Configuration>
  ) async throws -> DaemonAccessory {
    let address = try Self.address(request.address)
    let descriptor = request.descriptor
    guard let device = await discovery.device(at: address) else {
      throw await unknownDevice(address)
    }
    if let descriptor, let mismatch = descriptor.mismatch(with: device) {
      throw AccessoryControlFailure.invalidRequest(
        reason: "\(device.displayName) (\(address)) does not match the "
          + "descriptor: \(mismatch)")
    }
    // Pairing one that is paired already keeps the name it was given,
    // unless a new one is.
    let name =
      request.name
      ?? engine.registry.accessories[address]?.displayName
      ?? device.displayName
    try await authorize(device, name: name, descriptor: descriptor)
    var record = await accessoryRecord(address)
    // Pairing two of one name is allowed (two pairs of one model); the
    // answer says so, as selecting by that name then asks for an address.
    let namesakes = engine.registry.addresses(named: name)
      .filter { $0 != address }
    if !namesakes.isEmpty {
      record.sharesNameWith = namesakes.map(\.description)
    }
    return record
  }

  /// BlueZ in brief for `daemon.status`, which must answer at once: what
  /// BlueZ says within a second, or that it did not answer.
  static func bluetoothInBrief(
    _ bluez: BlueZStatus
  ) async -> DaemonStatus.Bluetooth {
    await withDeadline(.seconds(1)) {
      let report = await bluez.report(waitingUpTo: .zero)
      return DaemonStatus.Bluetooth(
        state: report.state, reason: report.reason,
        adapters: report.adapters.count)
    } onTimeout: {
      DaemonStatus.Bluetooth(
        state: .notAnswering, reason: "BlueZ did not answer within 1 s",
        adapters: 0)
    }
  }

  /// The error for a device no discovery source sees: it says when the
  /// sound server, one of the two sources, is away.
  func unknownDevice(
    _ address: BluetoothAddress
  ) async -> AccessoryControlFailure {
    // BlueZ's silence: it does not see the device, or it was not asked.
    var state = BluetoothStatus.State.notFollowed
    if let bluez { state = await Self.bluetoothInBrief(bluez).state }
    let blueZ = BluetoothStatus.whyNotAsked(state).map {
      ", and \($0) (acctl doctor says why)"
    }
    guard router.board.serverInfo != nil else {
      return .invalidRequest(
        reason: "accessoryd has no sound server now (it connects again by "
          + "itself once the server is back)"
          + (blueZ ?? ", and BlueZ does not see \(address)")
          + "; start the sound server, or connect the accessory")
    }
    return .invalidRequest(
      reason: "the sound server has no Bluetooth output with the address "
        + "\(address)"
        + (blueZ.map { $0 + "; connect the accessory first" }
          ?? ", and BlueZ does not see it; connect the accessory first"))
  }

  /// Pairs a device in the registry and tells subscribers.
  ///
  /// Subscribers get `accessoryAdded`; pairing one that is paired already
  /// only renames it (`accessoryChanged`, if the name changed). The
  /// engine's loop makes the change, announces it, routes and saves it.
  ///
  /// - Parameter reason: Why it routes: a pairing, or a migration.
  func authorize(
    _ device: DiscoveredDevice, name: String,
    descriptor: ASDiscoveryDescriptor?,
    because reason: RouteReason = .accessoryPaired
  ) async throws(AccessoryControlFailure) {
    let methods = self
    let address = device.address
    let wasPaired = Mutex(false)
    _ = try await router.change(
      because: reason,
      whenUndone: {
        // Announced again as it is now: not paired, or under its old name.
        methods.publishAccessory(
          wasPaired.withLock { $0 } ? .renamed : .unpaired, address,
          displayName: name)
      }
    ) { _ throws(AccessoryControlFailure) in
      let engine = methods.engine
      let before = engine.registry.accessories[device.address]
      wasPaired.withLock { $0 = before != nil }
      let staged = try engine.stagePairing(
        device.address, displayName: name, formFactor: device.formFactor,
        descriptor: descriptor ?? before?.accessory.descriptor
          ?? ASDiscoveryDescriptor())
      if before == nil {
        methods.publishAccessory(.paired, device.address)
      } else if before?.displayName != name {
        methods.publishAccessory(.renamed, device.address)
      }
      return ((), staged.generation)
    }
  }

  func unpair(_ request: AccessoryUnpairRequest) async throws -> EmptyReply {
    let address = try engine.registry.resolve(request.accessory)
    let methods = self
    let registered = Mutex(false)
    // What was paused or muted for it is forgotten, its mutes undone,
    // before the route that no longer counts it.
    _ = try await router.change(
      because: .accessoryUnpaired, forgettingMediaOf: address,
      whenUndone: {
        // Paired again, as it is now.
        methods.publishAccessory(.paired, address)
        if registered.withLock({ $0 }) {
          methods.publishAccessory(.registered, address)
        }
      }
    ) { _ throws(AccessoryControlFailure) in
      let engine = methods.engine
      let wasRegistered = engine.registry.registrations[address] != nil
      registered.withLock { $0 = wasRegistered }
      let name = engine.registry.accessory(at: address).displayName
      let generation = try engine.stageUnpairing(address)
      methods.publishAccessory(.unpaired, address, displayName: name)
      if wasRegistered { methods.publishAccessory(.invalidated, address) }
      return ((), generation)
    }
    return EmptyReply()
  }

  func list(_ request: DaemonAccessoryListRequest) async -> DaemonAccessoryList
  {
    let registry = engine.registry
    let addresses = Set(registry.accessories.keys).union(
      registry.registrations.keys
    ).sorted()
    var items: [DaemonAccessory] = []
    for address in addresses { items.append(await accessoryRecord(address)) }
    // Headphones nobody paired or registered, which accessoryd guards and
    // routes to: Bluetooth headphones, and wired ones in a jack.
    if request.includesHeadphones, policies.policy.guardUnregisteredHeadphones {
      var seen = Set(addresses.map(\.description))
      for output in router.board.headphoneOutputs()
      where seen.insert(output.identity.description).inserted {
        var formFactor: String?
        var known = ["soundServer"]
        if let address = output.identity.bluetoothAddress {
          formFactor = await discovery.device(at: address)?.formFactor?
            .rawValue
          known = await knownFrom(address)
        } else {
          formFactor = AudioFormFactor.headphone.rawValue
        }
        items.append(
          DaemonAccessory(
            address: output.identity.description,
            displayName: output.description.isEmpty
              ? output.identity.description : output.description,
            formFactor: formFactor, state: .headphones, output: output.name,
            knownFrom: known))
      }
      items.sort { $0.address < $1.address }
    }
    return DaemonAccessoryList(accessories: items)
  }

  func register(
    _ request: AccessoryRegisterRequest
  ) async throws -> DaemonAccessory {
    let address = try engine.registry.resolve(request.accessory)
    let readsHeadphones = request.placementSource.map { $0 == .auto }
    let methods = self
    let configuration = request.configuration
    let (_, pending) = try await router.change(
      because: .accessoryRegistered, leavingFollowersToTheDefault: true,
      whenUndone: { methods.announceRegistrationUndone(address) }
    ) { _ throws(AccessoryControlFailure) in
      let engine = methods.engine
      let generation = try engine.stageRegistration(
        engine.registry.accessory(at: address), configuration, by: .update,
        readsHeadphones: readsHeadphones)
      methods.publishAccessory(.registered, address)
      return ((), generation)
    }
    return await accessoryRecord(address, routePending: pending)
  }

  /// Updates an accessory: the route is applied first, then the state file
  /// is written.
  ///
  /// The registry changes in memory first and the route follows it at
  /// once; the answer comes once the save is done too, so the save's
  /// encoding and `fsync`s neither delay the switch nor compete with the
  /// sound server while it moves the streams. A save that fails undoes the
  /// change, and the route follows the undone registry.
  func update(_ request: AccessoryUpdateRequest) async throws -> DaemonAccessory
  {
    let address = try engine.registry.resolve(request.accessory)
    let edit: @Sendable (inout AccessoryControlDevice.Configuration) -> Void
    switch request.change {
    case .configuration(let configuration): edit = { $0 = configuration }
    case .changes(let changes): edit = { changes.apply(to: &$0) }
    }
    return try await update(address, by: .update, edit)
  }

  /// Updates an accessory for a companion, `acctl update` or the
  /// headphones themselves: one path for every report, the newest wins.
  ///
  /// - Parameters:
  ///   - address: A registered accessory.
  ///   - source: Who reports the change.
  ///   - edit: Changes its configuration.
  /// - Returns: The accessory as it is now.
  /// - Throws: ``AccessoryControlFailure`` naming a refused value, or why
  ///   the change could not be saved (it is undone then).
  func update(
    _ address: BluetoothAddress, by source: PlacementSource,
    _ edit:
      @escaping @Sendable (inout AccessoryControlDevice.Configuration) ->
      Void
  ) async throws -> DaemonAccessory {
    // The engine's loop pauses, stages, routes, saves and resumes; the
    // change is announced as it is staged, so that its event comes before
    // the route it causes.
    let announced = Mutex(false)
    let staged: StagedUpdate
    do {
      staged = try await router.update(address, by: source, edit) {
        announced.withLock { $0 = true }
        publishAccessory(.updated, address)
      }
    } catch {
      // Not saved: undone, and announced again as it is now.
      if announced.withLock({ $0 }) { publishAccessory(.updated, address) }
      throw error
    }
    return await accessoryRecord(address, routePending: staged.pending)
  }

  /// Reports where headphones accessoryd reads are: the update path.
  public func report(
    _ placement: AccessoryControlDevice.Placement,
    of address: BluetoothAddress, by source: PlacementSource
  ) async throws {
    _ = try await update(address, by: source) {
      $0.devicePlacement = placement
    }
  }

  /// Registers a paired accessory whose headphones accessoryd reads,
  /// with `[.audioSwitching, .placement]` and the placement they report,
  /// unless it is registered already or registered with
  /// `placementSource: none`.
  ///
  /// - Parameters:
  ///   - address: A paired accessory.
  ///   - placement: Where the headphones say they are.
  ///   - source: The protocol that read them.
  /// - Returns: Whether it registered the accessory.
  public func registerFromHeadphones(
    _ address: BluetoothAddress, placement: AccessoryControlDevice.Placement,
    by source: PlacementSource
  ) async throws -> Bool {
    // Most reports come for headphones registered already: those ask the
    // loop for nothing.
    guard Self.registersFromHeadphones(address, in: engine.registry) else {
      return false
    }
    let methods = self
    return try await router.change(
      because: .headphonesRegistered, leavingFollowersToTheDefault: true,
      whenUndone: { methods.announceRegistrationUndone(address) }
    ) { _ throws(AccessoryControlFailure) in
      let engine = methods.engine
      let registry = engine.registry
      // Registered meanwhile: nothing to do, and the route covers nothing
      // new.
      guard Self.registersFromHeadphones(address, in: registry) else {
        return (false, nil)
      }
      let generation = try engine.stageRegistration(
        registry.accessory(at: address),
        AccessoryControlDevice.Configuration(
          devicePlacement: placement,
          deviceCapabilities: [.audioSwitching, .placement]),
        by: source)
      methods.publishAccessory(.registered, address)
      return (true, generation)
    }.made
  }

  /// Whether headphones accessoryd reads are registered by it: paired,
  /// and not registered, or registered and invalidated while reading them.
  static func registersFromHeadphones(
    _ address: BluetoothAddress, in registry: AccessoryRegistry
  ) -> Bool {
    guard registry.accessories[address] != nil else { return false }
    guard let registration = registry.registrations[address] else {
      return true
    }
    return registration.isInvalidated && registration.readsHeadphones != false
  }

  /// Announces a registration as it is now, once the change to it was
  /// undone because the state file did not take it.
  func announceRegistrationUndone(_ address: BluetoothAddress) {
    let registration = engine.registry.registrations[address]
    publishAccessory(
      registration.map { !$0.isInvalidated } ?? false
        ? .registered : .invalidated, address)
  }

  func current(
    _ request: DaemonAccessoryCurrentRequest
  ) async throws
    -> DaemonAccessory
  {
    let address = try engine.registry.resolve(request.accessory)
    _ = try engine.configuration(for: engine.registry.accessory(at: address))
    return await accessoryRecord(address)
  }

  func resolve(_ params: Parameters) throws -> BluetoothAddress {
    try engine.registry.resolve(try params.string("accessory", required: true)!)
  }

}

extension ControlError {
  /// Creates the JSON-RPC error for an AudioAccessoryKit error.
  public init(_ error: AccessoryControlFailure) {
    let code: ControlErrorCode =
      switch error.code {
      case .accessoryNotCapable: .accessoryNotCapable
      case .invalidRequest: .accessoryInvalidRequest
      case .invalidated: .accessoryInvalidated
      case .unknown: .accessoryUnknown
      }
    self.init(
      code: code, message: error.reason,
      data: .object([
        "case": .string(error.name), "reason": .string(error.reason),
      ]))
  }
}

/// The params of a request, as the methods not yet typed read them.
package typealias Parameters = RequestParameters
