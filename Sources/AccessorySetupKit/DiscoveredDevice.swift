// Linux addition: what a discovery source knows of one Bluetooth device.
// BlueZ and the sound server each produce these; descriptors match them.

import CoreBluetooth
import FoundationEssentials

/// One Bluetooth device as a discovery source sees it: its advertisement,
/// its signal, its pairing state and, if the sound server has one, its
/// audio output.
///
/// BlueZ fills in the advertisement (``serviceUUIDs``,
/// ``manufacturerData``, ``serviceData``, ``rssi``); the sound server
/// knows only the address, a description, the form factor and the output.
/// Where both know a device, ``merging(_:)`` joins what they say.
public struct DiscoveredDevice: Sendable, Hashable, Codable {
  /// Where a device's record came from.
  public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
    /// BlueZ, over D-Bus (`org.bluez`).
    case bluez
    /// The sound server's Bluetooth outputs.
    case soundServer
  }

  /// The device's Bluetooth address.
  public var address: BluetoothAddress
  /// The name the device advertises (BlueZ `Name`), if any.
  public var name: String?
  /// The name the host shows for it (BlueZ `Alias`, or the sound server's
  /// description), if any.
  public var alias: String?
  /// The service UUIDs it advertises.
  public var serviceUUIDs: [CBUUID]
  /// Manufacturer-specific advertisement data, by company identifier.
  public var manufacturerData: [UInt16: Data]
  /// Service data of its advertisement, by service UUID.
  public var serviceData: [CBUUID: Data]
  /// The received signal strength of its last advertisement, in dBm.
  public var rssi: Int?
  /// The form factor of its audio output, if known.
  public var formFactor: AudioFormFactor?
  /// BlueZ's icon name, such as `audio-headphones`, if any.
  public var icon: String?
  /// The vendor and product from its Device ID record, as BlueZ's
  /// `Modalias` gives them (`bluetooth:v004Cp2014d0001`), if known.
  public var modalias: String?
  /// Whether the host has paired with it at the Bluetooth level.
  public var isPaired: Bool
  /// Whether it is connected to the host now.
  public var isConnected: Bool
  /// The sound server's output (sink name) for it, if it has one.
  public var audioOutput: String?
  /// The sound server's profiles for it (such as `a2dp-sink` and
  /// `headset-head-unit`), with the active one first; empty if unknown.
  public var audioProfiles: [String] = []
  /// The address of the host adapter that sees it, if known.
  public var adapter: BluetoothAddress?
  /// The sources that reported it.
  public var sources: Set<Source>

  /// Creates a record.
  public init(
    address: BluetoothAddress,
    name: String? = nil,
    alias: String? = nil,
    serviceUUIDs: [CBUUID] = [],
    manufacturerData: [UInt16: Data] = [:],
    serviceData: [CBUUID: Data] = [:],
    rssi: Int? = nil,
    formFactor: AudioFormFactor? = nil,
    icon: String? = nil,
    isPaired: Bool = false,
    isConnected: Bool = false,
    audioOutput: String? = nil,
    adapter: BluetoothAddress? = nil,
    sources: Set<Source> = []
  ) {
    self.address = address
    self.name = name
    self.alias = alias
    self.serviceUUIDs = serviceUUIDs
    self.manufacturerData = manufacturerData
    self.serviceData = serviceData
    self.rssi = rssi
    self.formFactor = formFactor
    self.icon = icon
    self.isPaired = isPaired
    self.isConnected = isConnected
    self.audioOutput = audioOutput
    self.adapter = adapter
    self.sources = sources
  }

  /// The name to show a person: the alias, else the advertised name, else
  /// the address.
  public var displayName: String {
    alias ?? name ?? address.description
  }

  /// Joins what two sources say of the same device: values this record
  /// lacks are taken from `other`, flags are true if either says so, and
  /// advertisement data are united.
  ///
  /// - Precondition: Both records have the same address.
  public func merging(_ other: DiscoveredDevice) -> DiscoveredDevice {
    precondition(address == other.address, "merging two different devices")
    var merged = self
    merged.name = name ?? other.name
    merged.alias = alias ?? other.alias
    for uuid in other.serviceUUIDs where !serviceUUIDs.contains(uuid) {
      merged.serviceUUIDs.append(uuid)
    }
    merged.manufacturerData.merge(other.manufacturerData) { mine, _ in mine }
    merged.serviceData.merge(other.serviceData) { mine, _ in mine }
    merged.rssi = rssi ?? other.rssi
    merged.formFactor = formFactor ?? other.formFactor
    merged.icon = icon ?? other.icon
    merged.modalias = modalias ?? other.modalias
    merged.isPaired = isPaired || other.isPaired
    merged.isConnected = isConnected || other.isConnected
    merged.audioOutput = audioOutput ?? other.audioOutput
    merged.audioProfiles =
      audioProfiles.isEmpty ? other.audioProfiles : audioProfiles
    merged.adapter = adapter ?? other.adapter
    merged.sources.formUnion(other.sources)
    return merged
  }
}
