// A battery provider this program serves to BlueZ
// (org.bluez.BatteryProviderManager1): for each adapter, an object manager
// at a root of its own, registered with that adapter, and below it one
// org.bluez.BatteryProvider1 object per device of that adapter with its
// Percentage, Device and Source. BlueZ shows each as the device's
// org.bluez.Battery1, which upower, GNOME and KDE read. BlueZ looks at a
// battery once, when it is offered, and keeps the first it is given for a
// device: one another provider (PipeWire's, from the headset profile) gave
// first wins.

import ConcurrencyHelpers
import DBus

/// Batteries this program gives BlueZ.
///
/// BlueZ 5.66 offers battery providers only with its experimental
/// interfaces on (`bluetoothd --experimental`); 5.71 and later always do.
public actor BlueZBatteryProvider {
  /// Where the provider's roots are, one for each adapter below it, such
  /// as `/io/github/accessoryd/battery/hci0`.
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
  /// The adapters that refused it for good (no battery providers), by
  /// object path, until they go.
  private var refusingAdapters: Set<String> = []
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
    refusingAdapters.formIntersection(paths)
    let new = adapters.filter {
      !registeredAdapters.contains($0.objectPath)
        && !refusingAdapters.contains($0.objectPath)
    }
    var refused: [(BlueZAdapter, BlueZError)] = []
    for adapter in new {
      let root = Self.root(of: adapter.objectPath)
      tree.addManager(at: root)
      let call = DBusMethodCall(
        destination: BlueZNames.service, path: adapter.objectPath,
        interface: BlueZNames.batteryProviderManager,
        member: "RegisterBatteryProvider", arguments: [.objectPath(root)])
      switch await client.driver.call(call, timeout: client.callTimeout) {
      case .success:
        registeredAdapters.insert(adapter.objectPath)
      case .failure(let failure)
      where failure.name == "org.bluez.Error.AlreadyExists":
        registeredAdapters.insert(adapter.objectPath)
      case .failure(let failure):
        let error = BlueZError(
          failure,
          operation: "registering a battery provider (\(call.summary))")
        if error.name == .unknownMethod || error.name == .unknownObject {
          refusingAdapters.insert(adapter.objectPath)
        }
        refused.append((adapter, error))
      }
    }
    await sync()
    return refused
  }

  /// Whether an adapter BlueZ has is neither registered nor refusing for
  /// good: a registration to try again.
  public var hasAdaptersToRegister: Bool {
    client.tracker.adapters().contains {
      !registeredAdapters.contains($0.objectPath)
        && !refusingAdapters.contains($0.objectPath)
    }
  }

  /// Forgets an adapter that went: a new one at its path (bluetoothd
  /// restarted) is registered afresh.
  public func forget(adapterAt path: String) {
    registeredAdapters.remove(path)
    refusingAdapters.remove(path)
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

  /// The root an adapter's batteries are under, such as
  /// `/io/github/accessoryd/battery/hci0`.
  nonisolated static func root(of adapterPath: String) -> String {
    rootPath + "/" + (adapterPath.split(separator: "/").last ?? "adapter")
  }

  /// The battery object of a device path, under its adapter's root, such
  /// as `/io/github/accessoryd/battery/hci0/dev_AA_BB_CC_DD_EE_01`.
  nonisolated static func objectPath(forDeviceAt devicePath: String) -> String {
    rootPath + "/"
      + devicePath.split(separator: "/").suffix(2).joined(separator: "/")
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
      // The adapters' roots are added as managers as it registers.
      let tree = await DBusObjectTree.serve(on: driver)
    else {
      throw BlueZError(
        name: .disconnected, message: "the bus connection is closed",
        operation: "serving battery objects")
    }
    return BlueZBatteryProvider(client: self, tree: tree, source: source)
  }
}
