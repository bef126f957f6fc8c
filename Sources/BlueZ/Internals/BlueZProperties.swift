// Turning BlueZ's D-Bus properties (org.bluez.Adapter1, org.bluez.Device1)
// into the module's records. Pure Swift: the properties are DBusValues.

import AccessorySetupKit
import CoreBluetooth
import FoundationEssentials

/// The names BlueZ uses on the bus.
enum BlueZNames {
  static let service = "org.bluez"
  static let adapterInterface = "org.bluez.Adapter1"
  static let deviceInterface = "org.bluez.Device1"
  static let objectManager = "org.freedesktop.DBus.ObjectManager"
  static let properties = "org.freedesktop.DBus.Properties"
  static let bus = "org.freedesktop.DBus"
}

/// The properties of one interface of one object, by name.
typealias PropertyMap = [String: DBusValue]

extension BlueZAdapter {
  /// Creates an adapter record from its `org.bluez.Adapter1` properties, or
  /// returns nil if they lack a valid `Address`.
  init?(objectPath: String, properties: PropertyMap) {
    guard let text = properties["Address"]?.string,
      let address = BluetoothAddress(text)
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

extension DiscoveredDevice {
  /// Creates a device record from its `org.bluez.Device1` properties, or
  /// returns nil if they lack a valid `Address`.
  ///
  /// - Parameters:
  ///   - properties: The device's properties.
  ///   - adapterAddresses: The known adapters' addresses, by object path,
  ///     to resolve the device's `Adapter` property.
  init?(
    bluezProperties properties: PropertyMap,
    adapterAddresses: [String: BluetoothAddress]
  ) {
    guard let text = properties["Address"]?.string,
      let address = BluetoothAddress(text)
    else { return nil }
    let icon = properties["Icon"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    self.init(
      address: address,
      name: properties["Name"]?.string,
      alias: properties["Alias"]?.string,
      serviceUUIDs: (properties["UUIDs"]?.array ?? []).compactMap {
        $0.string.flatMap { CBUUID(validating: $0) }
      },
      manufacturerData: Self.manufacturerData(properties["ManufacturerData"]),
      serviceData: Self.serviceData(properties["ServiceData"]),
      rssi: properties["RSSI"]?.integer,
      formFactor: icon.flatMap(AudioFormFactor.init(bluezIcon:)),
      icon: icon,
      isPaired: properties["Paired"]?.bool ?? false,
      isConnected: properties["Connected"]?.bool ?? false,
      adapter: properties["Adapter"]?.string.flatMap { adapterAddresses[$0] },
      sources: [.bluez])
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
  private static func serviceData(_ value: DBusValue?) -> [CBUUID: Data] {
    var result: [CBUUID: Data] = [:]
    for (key, data) in value?.dictionary ?? [:] {
      guard let uuid = key.string.flatMap({ CBUUID(validating: $0) }),
        let bytes = data.byteArray
      else { continue }
      result[uuid] = Data(bytes)
    }
    return result
  }
}

extension AudioFormFactor {
  /// The form factor that a BlueZ icon name stands for, or nil for icons of
  /// devices that are not audio outputs.
  ///
  /// BlueZ derives the icon from the device's class: `audio-headphones` and
  /// `audio-headset` for worn devices, `audio-card` for the other audio
  /// classes (loudspeakers, portable, car and hi-fi audio), none of which
  /// can be worn, so they count as speakers. `audio-speakers` is the
  /// freedesktop icon name for speakers.
  init?(bluezIcon icon: String) {
    switch icon {
    case "audio-headphones": self = .headphone
    case "audio-headset": self = .headset
    case "audio-card", "audio-speakers": self = .speaker
    default: return nil
    }
  }
}
