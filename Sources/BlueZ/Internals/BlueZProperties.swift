// Turning BlueZ's D-Bus properties (org.bluez.Adapter1, org.bluez.Device1)
// into the module's records. Pure Swift: the properties are DBusValues.

import DBus
import FoundationEssentials

/// The names BlueZ uses on the bus.
enum BlueZNames {
  static let service = "org.bluez"
  static let adapterInterface = "org.bluez.Adapter1"
  static let deviceInterface = "org.bluez.Device1"
  static let profileManager = "org.bluez.ProfileManager1"
  static let profileInterface = "org.bluez.Profile1"
  static let batteryProviderManager = "org.bluez.BatteryProviderManager1"
  static let objectManager = "org.freedesktop.DBus.ObjectManager"
  static let properties = "org.freedesktop.DBus.Properties"
  static let bus = "org.freedesktop.DBus"
}

/// The properties of one interface of one object, by name.
package typealias PropertyMap = [String: DBusValue]

extension BlueZAdapter {
  /// Creates an adapter record from its `org.bluez.Adapter1` properties, or
  /// returns nil if they lack a valid `Address`.
  init?(objectPath: String, properties: PropertyMap) {
    guard let text = properties["Address"]?.string,
      let address = BlueZDevice.normalizedAddress(text)
    else { return nil }
    self.init(
      objectPath: objectPath,
      address: address,
      name: properties["Name"]?.string,
      alias: properties["Alias"]?.string,
      isPowered: properties["Powered"]?.bool ?? false,
      isDiscovering: properties["Discovering"]?.bool ?? false)
  }
}

extension BlueZDevice {
  /// Creates a device record from its `org.bluez.Device1` properties, or
  /// returns nil if they lack a valid `Address`.
  ///
  /// - Parameters:
  ///   - properties: The device's properties.
  ///   - adapterAddresses: The known adapters' addresses, by object path,
  ///     to resolve the device's `Adapter` property.
  init?(
    bluezProperties properties: PropertyMap,
    adapterAddresses: [String: String]
  ) {
    guard let text = properties["Address"]?.string,
      let address = Self.normalizedAddress(text)
    else { return nil }
    self.init(
      address: address,
      name: properties["Name"]?.string,
      alias: properties["Alias"]?.string,
      uuids: (properties["UUIDs"]?.array ?? []).compactMap(\.string),
      manufacturerData: Self.manufacturerData(properties["ManufacturerData"]),
      serviceData: Self.serviceData(properties["ServiceData"]),
      rssi: properties["RSSI"]?.integer,
      icon: properties["Icon"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      modalias: properties["Modalias"]?.string.flatMap {
        $0.isEmpty ? nil : $0
      },
      isPaired: properties["Paired"]?.bool ?? false,
      isConnected: properties["Connected"]?.bool ?? false,
      adapterAddress: properties["Adapter"]?.string.flatMap {
        adapterAddresses[$0]
      })
  }

  /// Reads `ManufacturerData`, an `a{qv}` whose variants hold `ay`.
  private static func manufacturerData(_ value: DBusValue?) -> [UInt16: Data] {
    var result: [UInt16: Data] = [:]
    for (key, data) in value?.dictionary ?? [:] {
      guard let company = key.integer.flatMap(UInt16.init(exactly:)),
        let bytes = data.byteArray
      else { continue }
      result[company] = Data(bytes)
    }
    return result
  }

  /// Reads `ServiceData`, an `a{sv}` keyed by UUID whose variants hold `ay`.
  private static func serviceData(_ value: DBusValue?) -> [String: Data] {
    var result: [String: Data] = [:]
    for (key, data) in value?.dictionary ?? [:] {
      guard let uuid = key.string, let bytes = data.byteArray else { continue }
      result[uuid] = Data(bytes)
    }
    return result
  }
}
