// The client's copy of BlueZ's adapters and devices, kept current from
// GetManagedObjects replies and from signals, and the subscribers that hear
// of its changes. Pure Swift.
//
// Only the dispatch thread changes the copy, so changes are published in the
// order BlueZ made them; any thread may read it or subscribe.

import ConcurrencyHelpers
import DBus

/// BlueZ's objects as last seen, and the streams of their changes.
package final class BlueZObjectTracker: Sendable {
  /// The properties of BlueZ's objects, by object path.
  struct Objects {
    var adapters: [String: PropertyMap] = [:]
    var devices: [String: PropertyMap] = [:]
    /// The unique bus name of the connection that owns `org.bluez`, if
    /// known: only its signals are believed.
    var owner: String?

    /// The adapters' addresses, by object path.
    var adapterAddresses: [String: String] {
      var addresses: [String: String] = [:]
      for (path, properties) in adapters {
        if let text = properties["Address"]?.string,
          let address = BlueZDevice.normalizedAddress(text)
        {
          addresses[path] = address
        }
      }
      return addresses
    }
  }

  /// What the owner of the tracker should do after a signal.
  package enum FollowUp {
    /// Nothing to do.
    case none
    /// `org.bluez` has a new owner: fetch its objects.
    case refresh
  }

  private struct State {
    var objects = Objects()
  }

  private let state = Mutex(State())
  private let changes = Broadcast<BlueZChange>()

  /// Creates a tracker that knows no objects yet.
  package init() {}

  // MARK: - Reading

  /// The adapters, in object path order.
  package func adapters() -> [BlueZAdapter] {
    state.withLock { state in
      state.objects.adapters.sorted { $0.key < $1.key }.compactMap {
        BlueZAdapter(objectPath: $0.key, properties: $0.value)
      }
    }
  }

  /// The devices, in object path order.
  package func devices() -> [BlueZDevice] {
    state.withLock { state in
      let addresses = state.objects.adapterAddresses
      return state.objects.devices.sorted { $0.key < $1.key }.compactMap {
        BlueZDevice(
          bluezProperties: $0.value, adapterAddresses: addresses)
      }
    }
  }

  /// The object path of the device with this address, if BlueZ has one.
  func devicePath(of address: String) -> String? {
    state.withLock { state in
      state.objects.devices.first {
        $0.value["Address"]?.string.flatMap(BlueZDevice.normalizedAddress)
          == address
      }?.key
    }
  }

  /// The object paths of the devices with this address, one per adapter
  /// that knows it.
  func devicePaths(of address: String) -> [String] {
    state.withLock { state in
      state.objects.devices.filter {
        $0.value["Address"]?.string.flatMap(BlueZDevice.normalizedAddress)
          == address
      }.keys.sorted()
    }
  }

  /// The address of the device at an object path, if BlueZ has it.
  func deviceAddress(at path: String) -> String? {
    state.withLock {
      $0.objects.devices[path]?["Address"]?.string.flatMap(
        BlueZDevice.normalizedAddress)
    }
  }

  // MARK: - Subscribing

  /// Returns a new stream of the changes from now on.
  ///
  /// The stream ends when the tracker finishes; it buffers without limit.
  func subscribe() -> AsyncStream<BlueZChange> {
    changes.subscribe()
  }

  /// Ends every stream, now and for later subscribers.
  func finish() {
    changes.finish()
  }

  private func publish(_ batch: [BlueZChange]) {
    for change in batch { changes.publish(change) }
  }

  // MARK: - Updating (dispatch thread)

  /// Replaces every object with a `GetManagedObjects` reply, publishing the
  /// differences.
  ///
  /// - Parameters:
  ///   - managedObjects: The reply's objects, from ``parseManagedObjects(_:)``.
  ///   - owner: The unique name that sent the reply.
  package func replaceAll(
    with managedObjects: [String: [String: PropertyMap]], owner: String
  ) {
    var adapters: [String: PropertyMap] = [:]
    var devices: [String: PropertyMap] = [:]
    for (path, interfaces) in managedObjects {
      if let properties = interfaces[BlueZNames.adapterInterface] {
        adapters[path] = properties
      }
      if let properties = interfaces[BlueZNames.deviceInterface] {
        devices[path] = properties
      }
    }
    update { objects in
      let adapterPaths = Set(objects.adapters.keys).union(adapters.keys)
      let devicePaths = Set(objects.devices.keys).union(devices.keys)
      return (adapterPaths, devicePaths) as (Set<String>, Set<String>)
    } mutation: { objects in
      objects.adapters = adapters
      objects.devices = devices
      objects.owner = owner
    }
  }

  /// Forgets every object, publishing their removal.
  func removeAll() {
    update { objects in
      (Set(objects.adapters.keys), Set(objects.devices.keys))
    } mutation: { objects in
      objects.adapters = [:]
      objects.devices = [:]
    }
  }

  /// Applies one signal from the bus.
  ///
  /// - Returns: Whether BlueZ's objects must be fetched again.
  package func handle(_ signal: DBusSignal) -> FollowUp {
    if signal.interface == BlueZNames.bus,
      signal.member == "NameOwnerChanged"
    {
      return nameOwnerChanged(signal)
    }
    let owner = state.withLock { $0.objects.owner }
    guard let owner, signal.sender == owner else { return .none }
    switch (signal.interface, signal.member) {
    case (BlueZNames.objectManager, "InterfacesAdded"):
      interfacesAdded(signal.arguments)
    case (BlueZNames.objectManager, "InterfacesRemoved"):
      interfacesRemoved(signal.arguments)
    case (BlueZNames.properties, "PropertiesChanged"):
      propertiesChanged(path: signal.path, signal.arguments)
    default:
      break
    }
    return .none
  }

  private func nameOwnerChanged(_ signal: DBusSignal) -> FollowUp {
    guard signal.sender == BlueZNames.bus, signal.arguments.count == 3,
      signal.arguments[0].string == BlueZNames.service,
      let oldOwner = signal.arguments[1].string,
      let newOwner = signal.arguments[2].string
    else { return .none }
    if !oldOwner.isEmpty { removeAll() }
    state.withLock { $0.objects.owner = newOwner.isEmpty ? nil : newOwner }
    return newOwner.isEmpty ? .none : .refresh
  }

  /// `InterfacesAdded(o path, a{sa{sv}} interfaces)`.
  private func interfacesAdded(_ arguments: [DBusValue]) {
    guard arguments.count == 2, let path = arguments[0].string,
      let interfaces = Self.interfaces(arguments[1])
    else { return }
    let adapter = interfaces[BlueZNames.adapterInterface]
    let device = interfaces[BlueZNames.deviceInterface]
    guard adapter != nil || device != nil else { return }
    update { _ in
      (adapter == nil ? [] : [path], device == nil ? [] : [path])
    } mutation: { objects in
      if let adapter { objects.adapters[path] = adapter }
      if let device { objects.devices[path] = device }
    }
  }

  /// `InterfacesRemoved(o path, as interfaces)`.
  ///
  /// An adapter's removal also removes the devices below it, which BlueZ
  /// reports first but a crashing daemon might not.
  private func interfacesRemoved(_ arguments: [DBusValue]) {
    guard arguments.count == 2, let path = arguments[0].string,
      let names = arguments[1].array?.compactMap(\.string)
    else { return }
    let removesAdapter = names.contains(BlueZNames.adapterInterface)
    let removesDevice = names.contains(BlueZNames.deviceInterface)
    guard removesAdapter || removesDevice else { return }
    let prefix = path + "/"
    update { objects in
      var devicePaths: Set<String> = removesDevice ? [path] : []
      if removesAdapter {
        devicePaths.formUnion(
          objects.devices.keys.filter { $0.hasPrefix(prefix) })
      }
      return (removesAdapter ? [path] : [], devicePaths)
    } mutation: { objects in
      if removesDevice { objects.devices[path] = nil }
      if removesAdapter {
        objects.adapters[path] = nil
        for key in objects.devices.keys where key.hasPrefix(prefix) {
          objects.devices[key] = nil
        }
      }
    }
  }

  /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)`.
  ///
  /// Invalidated properties are dropped: their values are no longer known.
  private func propertiesChanged(path: String, _ arguments: [DBusValue]) {
    guard arguments.count == 3, let interface = arguments[0].string,
      let changed = arguments[1].stringKeyedDictionary,
      let invalidated = arguments[2].array?.compactMap(\.string)
    else { return }
    let apply = { (properties: inout PropertyMap) in
      properties.merge(changed) { _, new in new }
      for name in invalidated { properties[name] = nil }
    }
    switch interface {
    case BlueZNames.adapterInterface:
      update { objects in
        (objects.adapters[path] == nil ? [] : [path], [])
      } mutation: { objects in
        if objects.adapters[path] != nil { apply(&objects.adapters[path]!) }
      }
    case BlueZNames.deviceInterface:
      update { objects in
        ([], objects.devices[path] == nil ? [] : [path])
      } mutation: { objects in
        if objects.devices[path] != nil { apply(&objects.devices[path]!) }
      }
    default:
      break
    }
  }

  /// Changes the objects and publishes what changed in the records of the
  /// affected objects.
  ///
  /// - Parameters:
  ///   - affected: Returns the adapter and device paths the mutation may
  ///     change, given the objects before it. Devices of an adapter whose
  ///     address changes are added to them.
  ///   - mutation: The change.
  private func update(
    affected: (Objects) -> (adapters: Set<String>, devices: Set<String>),
    mutation: (inout Objects) -> Void
  ) {
    let changes = state.withLock { state -> [BlueZChange] in
      let before = state.objects
      let (adapterPaths, devicePathsGiven) = affected(before)
      mutation(&state.objects)
      let after = state.objects
      let addressesBefore = before.adapterAddresses
      let addressesAfter = after.adapterAddresses
      var devicePaths = devicePathsGiven
      let readdressed = Set(
        adapterPaths.filter {
          addressesBefore[$0] != addressesAfter[$0]
        })
      if !readdressed.isEmpty {
        for (path, properties) in after.devices {
          if let adapter = properties["Adapter"]?.string,
            readdressed.contains(adapter)
          {
            devicePaths.insert(path)
          }
        }
      }
      return Self.differences(
        adapterPaths: adapterPaths.sorted(),
        devicePaths: devicePaths.sorted(),
        before: (before, addressesBefore), after: (after, addressesAfter))
    }
    publish(changes)
  }

  /// The changes between two versions of the objects, for some paths:
  /// adapters added or changed, then devices, then adapters removed.
  private static func differences(
    adapterPaths: [String], devicePaths: [String],
    before: (objects: Objects, addresses: [String: String]),
    after: (objects: Objects, addresses: [String: String])
  ) -> [BlueZChange] {
    var changes: [BlueZChange] = []
    var removedAdapters: [BlueZChange] = []
    for path in adapterPaths {
      let old = before.objects.adapters[path].flatMap {
        BlueZAdapter(objectPath: path, properties: $0)
      }
      let new = after.objects.adapters[path].flatMap {
        BlueZAdapter(objectPath: path, properties: $0)
      }
      switch (old, new) {
      case (nil, let new?): changes.append(.adapterAdded(new))
      case (let old?, nil): removedAdapters.append(.adapterRemoved(old))
      case (let old?, let new?) where old != new:
        changes.append(.adapterChanged(new))
      default: break
      }
    }
    for path in devicePaths {
      let old = before.objects.devices[path].flatMap {
        BlueZDevice(
          bluezProperties: $0, adapterAddresses: before.addresses)
      }
      let new = after.objects.devices[path].flatMap {
        BlueZDevice(bluezProperties: $0, adapterAddresses: after.addresses)
      }
      switch (old, new) {
      case (nil, let new?): changes.append(.deviceAdded(new))
      case (let old?, nil): changes.append(.deviceRemoved(old.address))
      case (let old?, let new?) where old.address != new.address:
        changes.append(.deviceRemoved(old.address))
        changes.append(.deviceAdded(new))
      case (let old?, let new?) where old != new:
        changes.append(.deviceChanged(new))
      default: break
      }
    }
    return changes + removedAdapters
  }

  // MARK: - Parsing

  /// Reads the reply of `GetManagedObjects`, an `a{oa{sa{sv}}}`: interfaces
  /// and their properties, by object path; nil if it has another shape.
  package static func parseManagedObjects(
    _ arguments: [DBusValue]
  ) -> [String: [String: PropertyMap]]? {
    guard arguments.count == 1, let entries = arguments[0].dictionary else {
      return nil
    }
    var objects: [String: [String: PropertyMap]] = [:]
    for (key, value) in entries {
      guard let path = key.string, let interfaces = interfaces(value) else {
        return nil
      }
      objects[path] = interfaces
    }
    return objects
  }

  /// Reads an `a{sa{sv}}`: properties by interface name.
  private static func interfaces(_ value: DBusValue) -> [String: PropertyMap]? {
    guard let entries = value.stringKeyedDictionary else { return nil }
    var interfaces: [String: PropertyMap] = [:]
    for (name, properties) in entries {
      guard let map = properties.stringKeyedDictionary else { return nil }
      interfaces[name] = map
    }
    return interfaces
  }
}
