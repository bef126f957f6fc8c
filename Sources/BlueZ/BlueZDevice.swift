// A remote Bluetooth device, as BlueZ's org.bluez.Device1 describes it: the
// module's own record, in BlueZ's terms. The service turns it into the
// discovery record that AccessorySetupKit's descriptors match.

import DBus
import FoundationEssentials

/// A device BlueZ knows of, such as a pair of headphones, as BlueZ reports
/// it.
public struct BlueZDevice: Sendable, Hashable {
  /// The device's Bluetooth address (`Address`), upper case with colons,
  /// such as `AA:BB:CC:DD:EE:01`.
  public var address: String
  /// The name the device advertises (`Name`), if any.
  public var name: String?
  /// The name the person gave it, or BlueZ's default (`Alias`), if any.
  public var alias: String?
  /// The service UUIDs it offers (`UUIDs`), as BlueZ writes them: 128-bit,
  /// lower case.
  public var uuids: [String]
  /// Manufacturer data by company identifier (`ManufacturerData`).
  public var manufacturerData: [UInt16: Data]
  /// Service data by service UUID as BlueZ writes it (`ServiceData`).
  public var serviceData: [String: Data]
  /// The signal strength of the last advertisement (`RSSI`), if known.
  public var rssi: Int?
  /// The icon name BlueZ derives from the device class (`Icon`), such as
  /// `audio-headphones`, if any.
  public var icon: String?
  /// The vendor and product from its Device ID record (`Modalias`), such
  /// as `bluetooth:v004Cp2014d0001`, if known.
  public var modalias: String?
  /// Whether the device is paired (`Paired`).
  public var isPaired: Bool
  /// Whether the device is connected (`Connected`).
  public var isConnected: Bool
  /// The address of the adapter that sees it (`Adapter`, resolved), if
  /// known.
  public var adapterAddress: String?

  /// Creates a device record.
  public init(
    address: String, name: String? = nil, alias: String? = nil,
    uuids: [String] = [], manufacturerData: [UInt16: Data] = [:],
    serviceData: [String: Data] = [:], rssi: Int? = nil, icon: String? = nil,
    modalias: String? = nil, isPaired: Bool = false, isConnected: Bool = false,
    adapterAddress: String? = nil
  ) {
    self.address = address
    self.name = name
    self.alias = alias
    self.uuids = uuids
    self.manufacturerData = manufacturerData
    self.serviceData = serviceData
    self.rssi = rssi
    self.icon = icon
    self.modalias = modalias
    self.isPaired = isPaired
    self.isConnected = isConnected
    self.adapterAddress = adapterAddress
  }

  /// Returns a Bluetooth address in BlueZ's form (six hexadecimal pairs,
  /// upper case, colons), or nil if the text is not one.
  package static func normalizedAddress(_ text: String) -> String? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 6,
      parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil })
    else { return nil }
    return text.uppercased()
  }
}
