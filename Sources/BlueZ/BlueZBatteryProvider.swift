// A battery provider this program serves to BlueZ
// (org.bluez.BatteryProviderManager1): one object manager at a root path,
// registered with every adapter, and below it one org.bluez.BatteryProvider1
// object per device path with its Percentage, Device and Source. BlueZ
// shows each as the device's org.bluez.Battery1, which upower, GNOME and
// KDE read. BlueZ keeps the first battery it is given for a device: one
// another provider (PipeWire's, from the headset profile) gave first wins.

import ConcurrencyHelpers
import DBus

/// Batteries this program gives BlueZ.
///
/// BlueZ 5.66 offers battery providers only with its experimental
/// interfaces on (`bluetoothd --experimental`); 5.71 and later always do.
public actor BlueZBatteryProvider {
  /// The root of the provider's objects.
  public static let rootPath = "/io/github/accessoryd/battery"

  /// `org.bluez.BatteryProvider1`, as BlueZ reads it.
  static let interface = DBusInterface(
    name: "org.bluez.BatteryProvider1",
    properties: [
      .init("Percentage", "y", summary: "The charge, 0 to 100."),
      .init("Device", "o", summary: "The device it is the battery of."),
      .init("Source", "s", summary: "Where the figure comes from."),
    ])

  let client: BlueZClient
  let tree: DBusObjectTree
  /// What BlueZ shows as the batteries' `Source`.
  public let source: String
  /// The adapters it is registered with, by object path.
  public private(set) var registeredAdapters: Set<String> = []
  /// The charge of each device, by address.
  private var levels: [String: UInt8] = [:]
  /// The battery objects served, by device address: their devices' paths.
  private var objects: [String: Set<String>] = [:]
  /// Whether a sync runs, and whether another must follow it.
  private var isSyncing = false
  private var needsSync = false

  init(client: BlueZClient, tree: DBusObjectTree, source: String) {
    self.client = client
    self.tree = tree
    self.source = source
  }

  /// Registers with each adapter BlueZ has that it is not registered with
  /// yet, and forgets adapters that went.
  ///
  /// The corresponding D-Bus method is
  /// `org.bluez.BatteryProviderManager1.RegisterBatteryProvider`.
  ///
  /// - Returns: The adapters that refused it, with their errors: an
  ///   ``BlueZError/Name-swift.struct/unknownMethod`` means BlueZ offers
  ///   no battery providers (5.66 without `--experimental`).
  @discardableResult
  public func register() async -> [(BlueZAdapter, BlueZError)] {
    let adapters = client.tracker.adapters()
    let paths = Set(adapters.map(\.objectPath))
    registeredAdapters.formIntersection(paths)
    let new = adapters.filter { !registeredAdapters.contains($0.objectPath) }
    var refused: [(BlueZAdapter, BlueZError)] = []
    for adapter in new {
      let call = DBusMethodCall(
        destination: BlueZNames.service, path: adapter.objectPath,
        interface: BlueZNames.batteryProviderManager,
        member: "RegisterBatteryProvider",
        arguments: [.objectPath(Self.rootPath)])
      switch await client.driver.call(call, timeout: client.callTimeout) {
      case .success:
        registeredAdapters.insert(adapter.objectPath)
      case .failure(let failure)
      where failure.name == "org.bluez.Error.AlreadyExists":
        registeredAdapters.insert(adapter.objectPath)
      case .failure(let failure):
        refused.append(
          (
            adapter,
            BlueZError(
              failure,
              operation: "registering a battery provider (\(call.summary))")
          ))
      }
    }
    await sync()
    return refused
  }

  /// Sets the charge of each device, by address, and removes the battery
  /// of every device not given.
  ///
  /// A device BlueZ does not know yet gets its battery once it does
  /// (``sync()``).
  public func setLevels(_ given: [String: Int]) async {
    let normalized = Dictionary(
      given.compactMap { address, percent in
        BlueZDevice.normalizedAddress(address).map {
          ($0, UInt8(clamping: min(100, max(0, percent))))
        }
      }, uniquingKeysWith: { first, _ in first })
    guard normalized != levels else { return }
    levels = normalized
    await sync()
  }

  /// Brings the battery objects up to the levels and BlueZ's devices: one
  /// object per path of each device with a level, each with its charge.
  public func sync() async {
    needsSync = true
    // A sync under way runs again with what changed meanwhile.
    guard !isSyncing else { return }
    isSyncing = true
    defer { isSyncing = false }
    while needsSync {
      needsSync = false
      await syncOnce()
    }
  }

  private func syncOnce() async {
    var wanted: [String: Set<String>] = [:]
    for address in levels.keys {
      let paths = Set(client.tracker.devicePaths(of: address))
      if !paths.isEmpty { wanted[address] = paths }
    }
    let served = objects
    let levels = self.levels
    objects = wanted
    for (address, paths) in served {
      for path in paths.subtracting(wanted[address] ?? []) {
        await tree.remove(Self.objectPath(forDeviceAt: path))
      }
    }
    for (address, paths) in wanted {
      guard let level = levels[address] else { continue }
      for path in paths {
        let object = Self.objectPath(forDeviceAt: path)
        let values: [String: DBusValue] = [
          "Percentage": .byte(level), "Device": .objectPath(path),
          "Source": .string(source),
        ]
        if served[address]?.contains(path) == true {
          await tree.update(values, of: Self.interface.name, at: object)
        } else {
          await tree.add(Self.interface, at: object, values: values)
        }
      }
    }
  }

  /// The battery object of a device path, such as
  /// `/io/github/accessoryd/battery/hci0_dev_AA_BB_CC_DD_EE_01`.
  nonisolated static func objectPath(forDeviceAt devicePath: String) -> String {
    let tail = devicePath.split(separator: "/").suffix(2).joined(separator: "_")
    return rootPath + "/" + tail
  }
}

extension BlueZClient {
  /// Serves battery objects to BlueZ on this client's connection; call
  /// ``BlueZBatteryProvider/register()`` to give them to the adapters.
  ///
  /// - Parameter source: What BlueZ shows as their `Source`.
  /// - Throws: ``BlueZError`` when the connection is closed.
  public func batteryProvider(
    source: String
  ) async throws(BlueZError) -> BlueZBatteryProvider {
    guard
      let tree = await DBusObjectTree.serve(
        on: driver, managerPath: BlueZBatteryProvider.rootPath)
    else {
      throw BlueZError(
        name: .disconnected, message: "the bus connection is closed",
        operation: "serving battery objects")
    }
    return BlueZBatteryProvider(client: self, tree: tree, source: source)
  }
}
