// Descriptor matching, the tables beyond single rules: blob and mask
// comparisons, every rule set at once, and Wi-Fi and invalid descriptors,
// which match no Bluetooth device.

import AccessorySetupKit
import CoreBluetooth
import Foundation

extension ASDiscoveryDescriptorMatchingTests {
  // MARK: - Masks

  /// A descriptor for company 0x004C with a manufacturer blob and mask.
  static func manufacturer(
    _ blob: [UInt8], _ mask: [UInt8]
  ) -> ASDiscoveryDescriptor {
    ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x004C,
      bluetoothManufacturerDataBlob: Data(blob),
      bluetoothManufacturerDataMask: Data(mask))
  }

  /// A descriptor for service FEAA with a service data blob and mask.
  static func serviceData(
    _ blob: [UInt8], _ mask: [UInt8]
  ) -> ASDiscoveryDescriptor {
    ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "FEAA"),
      bluetoothServiceDataBlob: Data(blob),
      bluetoothServiceDataMask: Data(mask))
  }

  static let masks: [MatchCase] = [
    MatchCase(
      "manufacturer data equal to the blob",
      manufacturer([0x01, 0x02], [0xFF, 0xFF]),
      advertiser(manufacturerData: [0x004C: [0x01, 0x02]])),
    MatchCase(
      "manufacturer data longer than the blob",
      manufacturer([0x01, 0x02], [0xFF, 0xFF]),
      advertiser(manufacturerData: [0x004C: [0x01, 0x02, 0xAA, 0xBB]])),
    MatchCase(
      "a mask byte of zero ignores a differing byte",
      manufacturer([0x01, 0x02], [0xFF, 0x00]),
      advertiser(manufacturerData: [0x004C: [0x01, 0x99]])),
    MatchCase(
      "mask bits ignore differing low bits",
      manufacturer([0x10, 0x00], [0xF0, 0x00]),
      advertiser(manufacturerData: [0x004C: [0x1F, 0x42]])),
    MatchCase(
      "blob bits outside the mask do not count",
      manufacturer([0x01, 0xFF], [0xFF, 0x0F]),
      advertiser(manufacturerData: [0x004C: [0x01, 0x0F]])),
    MatchCase(
      "an all-zero mask still needs the blob's length",
      manufacturer([0x01, 0x02], [0x00, 0x00]),
      advertiser(manufacturerData: [0x004C: [0xEE, 0xEE]])),
    MatchCase(
      "a masked bit differs",
      manufacturer([0x01, 0x02], [0xFF, 0x00]),
      advertiser(manufacturerData: [0x004C: [0x03, 0x02]]),
      fails: .manufacturerData,
      "manufacturer data for company 0x004C does not match blob 01 02 under "
        + "mask FF 00 (it advertises 03 02)"),
    MatchCase(
      "one masked bit of a high nibble differs",
      manufacturer([0x10, 0x00], [0xF0, 0x00]),
      advertiser(manufacturerData: [0x004C: [0x2F, 0x00, 0x07]]),
      fails: .manufacturerData,
      "manufacturer data for company 0x004C does not match blob 10 00 under "
        + "mask F0 00 (it advertises 2F 00 07)"),
    MatchCase(
      "manufacturer data shorter than the blob",
      manufacturer([0x01, 0x02], [0xFF, 0x00]),
      advertiser(manufacturerData: [0x004C: [0x01]]),
      fails: .manufacturerData,
      "manufacturer data for company 0x004C is shorter than blob 01 02 (it "
        + "advertises 01)"),
    MatchCase(
      "shorter even where the mask is zero",
      manufacturer([0x01, 0x02], [0x00, 0x00]),
      advertiser(manufacturerData: [0x004C: []]),
      fails: .manufacturerData,
      "manufacturer data for company 0x004C is shorter than blob 01 02 (it "
        + "advertises no bytes)"),
    MatchCase(
      "manufacturer data of another company is not compared",
      manufacturer([0x01], [0xFF]),
      advertiser(manufacturerData: [0x0075: [0x01]]),
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises data for company 0x0075)"),

    MatchCase(
      "service data equal to the blob",
      serviceData([0x10, 0x20], [0xFF, 0xFF]),
      advertiser(serviceData: ["FEAA": [0x10, 0x20, 0x30]])),
    MatchCase(
      "service data with ignored bits",
      serviceData([0x10], [0xF0]),
      advertiser(serviceData: ["FEAA": [0x1E]])),
    MatchCase(
      "service data under the 128-bit form of the UUID",
      serviceData([0x10], [0xFF]),
      advertiser(
        serviceData: ["0000FEAA-0000-1000-8000-00805F9B34FB": [0x10]])),
    MatchCase(
      "service listed without service data",
      serviceData([0x10], [0xFF]),
      advertiser(services: ["FEAA"]),
      fails: .serviceData,
      "it advertises no service data for service FEAA"),
    MatchCase(
      "service data differs under the mask",
      serviceData([0x10, 0x20], [0xF0, 0xFF]),
      advertiser(serviceData: ["FEAA": [0x1F, 0x21]]),
      fails: .serviceData,
      "service data for service FEAA does not match blob 10 20 under mask "
        + "F0 FF (it advertises 1F 21)"),
    MatchCase(
      "service data shorter than the blob",
      serviceData([0x10, 0x20], [0xFF, 0xFF]),
      advertiser(serviceData: ["FEAA": [0x10]]),
      fails: .serviceData,
      "service data for service FEAA is shorter than blob 10 20 (it "
        + "advertises 10)"),
  ]

  // MARK: - Combinations

  /// A descriptor with every Bluetooth rule set.
  static let everything = ASDiscoveryDescriptor(
    bluetoothCompanyIdentifier: 0x004C,
    bluetoothServiceUUID: CBUUID(string: "FEAA"),
    bluetoothNameSubstring: "Buds",
    bluetoothManufacturerDataBlob: Data([0x07, 0x00]),
    bluetoothManufacturerDataMask: Data([0xFF, 0x00]),
    bluetoothServiceDataBlob: Data([0x10]),
    bluetoothServiceDataMask: Data([0xF0]),
    bluetoothRange: .immediate
  )

  /// A device that passes every rule of ``everything``, changed by `edit`.
  static func nearBuds(
    _ edit: (inout DiscoveredDevice) -> Void = { _ in }
  ) -> DiscoveredDevice {
    var device = advertiser(
      name: "Acme Buds",
      services: ["FEAA"],
      manufacturerData: [0x004C: [0x07, 0x19]],
      serviceData: ["FEAA": [0x1C]],
      rssi: -45
    )
    edit(&device)
    return device
  }

  static let combinations: [MatchCase] = [
    MatchCase("every rule holds", everything, nearBuds()),
    MatchCase(
      "only the company fails", everything,
      nearBuds { $0.manufacturerData = [0x0075: Data([0x07, 0x19])] },
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises data for company 0x0075)"),
    MatchCase(
      "only the service fails", everything,
      nearBuds {
        $0.serviceUUIDs = [CBUUID(string: "180D")]
        $0.serviceData = [:]
      },
      fails: .serviceUUID,
      "it advertises neither service FEAA nor service data for it (it "
        + "advertises service 180D)"),
    MatchCase(
      "only the name fails", everything,
      nearBuds { $0.name = "Acme Pods" },
      fails: .nameSubstring,
      "its advertised name 'Acme Pods' does not contain 'Buds'"),
    MatchCase(
      "only the manufacturer data fails", everything,
      nearBuds { $0.manufacturerData = [0x004C: Data([0x08, 0x19])] },
      fails: .manufacturerData,
      "manufacturer data for company 0x004C does not match blob 07 00 under "
        + "mask FF 00 (it advertises 08 19)"),
    MatchCase(
      "only the service data fails", everything,
      nearBuds { $0.serviceData = [CBUUID(string: "FEAA"): Data([0x2C])] },
      fails: .serviceData,
      "service data for service FEAA does not match blob 10 under mask F0 "
        + "(it advertises 2C)"),
    MatchCase(
      "only the range fails", everything,
      nearBuds { $0.rssi = -80 },
      fails: .range,
      "RSSI -80 dBm is below the immediate-range threshold of -60 dBm"),
    MatchCase(
      "the name and the range fail: the name is reported", everything,
      nearBuds {
        $0.name = "Acme Pods"
        $0.rssi = nil
      },
      fails: .nameSubstring,
      "its advertised name 'Acme Pods' does not contain 'Buds'"),
    MatchCase(
      "the company and the service fail: the company is reported",
      everything,
      nearBuds {
        $0.manufacturerData = [:]
        $0.serviceUUIDs = []
        $0.serviceData = [:]
      },
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises no manufacturer data)"),
    MatchCase(
      "a record from the sound server alone has no advertisement",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "110B")),
      DiscoveredDevice(
        address: BluetoothAddress("AA:BB:CC:DD:EE:02")!,
        alias: "Living Room Speaker",
        formFactor: .speaker,
        isPaired: true,
        isConnected: true,
        audioOutput: "bluez_output.AA_BB_CC_DD_EE_02.1",
        sources: [.soundServer]),
      fails: .serviceUUID,
      "it advertises neither service 110B nor service data for it (it "
        + "advertises no services)"),
  ]

  // MARK: - Wi-Fi and invalid descriptors

  static let neverMatching: [MatchCase] = [
    MatchCase(
      "a Wi-Fi ssid descriptor", ASDiscoveryDescriptor(ssid: "Lamp"),
      nearBuds(),
      fails: .wiFiNetwork,
      "the descriptor matches Wi-Fi networks named 'Lamp' (ssid), never a "
        + "Bluetooth device"),
    MatchCase(
      "a Wi-Fi prefix descriptor",
      ASDiscoveryDescriptor(ssidPrefix: "Lamp-"),
      nearBuds { $0.name = "Lamp-1234" },
      fails: .wiFiNetwork,
      "the descriptor matches Wi-Fi networks whose names start with "
        + "'Lamp-' (ssidPrefix), never a Bluetooth device"),
    MatchCase(
      "a Bluetooth and Wi-Fi descriptor whose Bluetooth rules hold",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "FEAA"), ssid: "Lamp"),
      nearBuds(),
      fails: .wiFiNetwork,
      "the descriptor matches Wi-Fi networks named 'Lamp' (ssid), never a "
        + "Bluetooth device"),
    MatchCase(
      "an empty descriptor", ASDiscoveryDescriptor(), nearBuds(),
      fails: .invalidDescriptor,
      "the descriptor breaks rule 'noDiscoveryCriteria' and matches no "
        + "device: The descriptor sets no discovery traits; set "
        + "bluetoothServiceUUID or bluetoothCompanyIdentifier for a "
        + "Bluetooth accessory, or ssid or ssidPrefix for a Wi-Fi accessory."
    ),
    MatchCase(
      "a name substring without an identifier",
      ASDiscoveryDescriptor(bluetoothNameSubstring: "Buds"), nearBuds(),
      fails: .invalidDescriptor,
      "the descriptor breaks rule 'nameSubstringRequiresIdentifier' and "
        + "matches no device: bluetoothNameSubstring 'Buds' needs "
        + "bluetoothServiceUUID or a non-zero bluetoothCompanyIdentifier to "
        + "identify the accessory; set one of them."),
    MatchCase(
      "a blob without its mask",
      ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothManufacturerDataBlob: Data([0x07])),
      nearBuds(),
      fails: .invalidDescriptor,
      "the descriptor breaks rule 'manufacturerDataIncomplete' and matches "
        + "no device: bluetoothManufacturerDataBlob '07' is set without "
        + "bluetoothManufacturerDataMask; set both, with the same length."),
  ]
}
