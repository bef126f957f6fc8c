// Linux addition: a discovered device as the control protocol carries it,
// in `discovery.list`'s answer and in `discovery` events.

import AccessoryControl
import CoreBluetooth
import FoundationEssentials

/// The answer to `discovery.list`: the devices seen now.
public struct DiscoveryList: Codable, Sendable, Hashable {
  /// The devices, each with whether it matches the request's descriptors.
  public var devices: [DiscoveredDeviceRecord]

  /// Creates an answer.
  public init(devices: [DiscoveredDeviceRecord]) {
    self.devices = devices
  }
}

/// A device a discovery source sees, as the control socket shows it:
/// advertisement data as hexadecimal text, by company identifier or
/// service UUID.
public struct DiscoveredDeviceRecord: Codable, Sendable, Hashable {
  /// The device's Bluetooth address.
  public var address: String
  /// The name the device advertises, if any.
  public var name: String?
  /// The name the host shows for it, if any.
  public var alias: String?
  /// The name accessoryd shows for it.
  public var displayName: String
  /// The service UUIDs it advertises.
  public var serviceUUIDs: [String]
  /// Manufacturer data in hexadecimal, by decimal company identifier.
  public var manufacturerData: [String: String]
  /// Service data in hexadecimal, by service UUID.
  public var serviceData: [String: String]
  /// The signal strength of its last advertisement, in dBm.
  public var rssi: Int?
  /// The form factor of its audio output, if known.
  public var formFactor: String?
  /// BlueZ's icon name, if any.
  public var icon: String?
  /// Whether the host has paired with it at the Bluetooth level.
  public var paired: Bool
  /// Whether it is connected to the host now.
  public var connected: Bool
  /// The sound server's output for it, if it has one.
  public var audioOutput: String?
  /// The sound server's profiles for it, the active one first.
  public var audioProfiles: [String]
  /// The sources that report it (`bluez`, `soundServer`), sorted.
  public var sources: [String]
  /// Whether accessoryd has authorized it.
  public var authorized: Bool
  /// Whether it matches the request's descriptors; nil when the request
  /// gave none.
  public var matches: Bool?
  /// Why it does not match the first descriptor; nil when it matches or
  /// the request gave none.
  public var mismatch: String?

  /// The record of a device; ``matches`` and ``mismatch`` are left for the
  /// caller that filters.
  public init(_ device: DiscoveredDevice, authorized: Bool) {
    func hex(_ data: Data) -> String {
      data.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
    address = "\(device.address)"
    name = device.name
    alias = device.alias
    displayName = device.displayName
    serviceUUIDs = device.serviceUUIDs.map { "\($0)" }
    manufacturerData = Dictionary(
      uniqueKeysWithValues: device.manufacturerData.map {
        ("\($0.key)", hex($0.value))
      })
    serviceData = Dictionary(
      uniqueKeysWithValues: device.serviceData.map {
        ("\($0.key)", hex($0.value))
      })
    rssi = device.rssi
    formFactor = device.formFactor?.rawValue
    icon = device.icon
    paired = device.isPaired
    connected = device.isConnected
    audioOutput = device.audioOutput
    audioProfiles = device.audioProfiles
    sources = device.sources.map(\.rawValue).sorted()
    self.authorized = authorized
  }

  private enum CodingKeys: String, CodingKey {
    case address, name, alias, displayName, serviceUUIDs, manufacturerData
    case serviceData, rssi, formFactor, icon, paired, connected, audioOutput
    case audioProfiles, sources, authorized, matches, mismatch
  }

  /// Writes the record, with `null` for the members without a value;
  /// `matches` and `mismatch` only when the request gave descriptors.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(address, forKey: .address)
    try container.encode(name, forKey: .name)
    try container.encode(alias, forKey: .alias)
    try container.encode(displayName, forKey: .displayName)
    try container.encode(serviceUUIDs, forKey: .serviceUUIDs)
    try container.encode(manufacturerData, forKey: .manufacturerData)
    try container.encode(serviceData, forKey: .serviceData)
    try container.encode(rssi, forKey: .rssi)
    try container.encode(formFactor, forKey: .formFactor)
    try container.encode(icon, forKey: .icon)
    try container.encode(paired, forKey: .paired)
    try container.encode(connected, forKey: .connected)
    try container.encode(audioOutput, forKey: .audioOutput)
    try container.encode(audioProfiles, forKey: .audioProfiles)
    try container.encode(sources, forKey: .sources)
    try container.encode(authorized, forKey: .authorized)
    if let matches {
      try container.encode(matches, forKey: .matches)
      try container.encode(mismatch, forKey: .mismatch)
    }
  }
}

extension DiscoveredDevice {
  /// A device as accessoryd's `discovery.list` and `discovery` events
  /// carry it; nil if its address does not read.
  public init?(record: DiscoveredDeviceRecord) {
    guard let address = BluetoothAddress(record.address) else { return nil }
    func bytes(_ hex: String) -> Data {
      var data = Data()
      var index = hex.startIndex
      while index < hex.endIndex,
        let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
        let byte = UInt8(hex[index..<next], radix: 16)
      {
        data.append(byte)
        index = next
      }
      return data
    }
    self.init(address: address, name: record.name, alias: record.alias)
    serviceUUIDs = record.serviceUUIDs.compactMap(CBUUID.init(validating:))
    for (key, hex) in record.manufacturerData {
      if let company = UInt16(key) { manufacturerData[company] = bytes(hex) }
    }
    for (key, hex) in record.serviceData {
      if let uuid = CBUUID(validating: key) { serviceData[uuid] = bytes(hex) }
    }
    rssi = record.rssi
    formFactor = record.formFactor.map(AudioFormFactor.init(rawValue:))
    icon = record.icon
    isPaired = record.paired
    isConnected = record.connected
    audioOutput = record.audioOutput
    audioProfiles = record.audioProfiles
  }
}
