// Descriptor matching: a table of descriptors and discovered devices, each
// row with the exact mismatch (or none) that matching must report.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

/// One descriptor against one device, and the mismatch expected; nil means
/// the device matches.
struct MatchCase: Sendable, CustomTestStringConvertible {
  let name: String
  let descriptor: ASDiscoveryDescriptor
  let device: DiscoveredDevice
  let rule: DescriptorMismatch.Rule?
  let reason: String?

  /// A row whose device matches.
  init(
    _ name: String, _ descriptor: ASDiscoveryDescriptor,
    _ device: DiscoveredDevice
  ) {
    self.name = name
    self.descriptor = descriptor
    self.device = device
    self.rule = nil
    self.reason = nil
  }

  /// A row whose device fails `rule` for `reason`.
  init(
    _ name: String, _ descriptor: ASDiscoveryDescriptor,
    _ device: DiscoveredDevice, fails rule: DescriptorMismatch.Rule,
    _ reason: String
  ) {
    self.name = name
    self.descriptor = descriptor
    self.device = device
    self.rule = rule
    self.reason = reason
  }

  var mismatch: DescriptorMismatch? {
    guard let rule, let reason else { return nil }
    return DescriptorMismatch(rule: rule, reason: reason)
  }

  var testDescription: String { name }
}

/// A device seen by BlueZ, with only the given advertisement values.
func advertiser(
  name: String? = nil,
  alias: String? = nil,
  services: [String] = [],
  manufacturerData: [UInt16: [UInt8]] = [:],
  serviceData: [String: [UInt8]] = [:],
  rssi: Int? = nil
) -> DiscoveredDevice {
  DiscoveredDevice(
    address: BluetoothAddress("AA:BB:CC:DD:EE:01")!,
    name: name,
    alias: alias,
    serviceUUIDs: services.map { CBUUID(string: $0) },
    manufacturerData: manufacturerData.mapValues { Data($0) },
    serviceData: Dictionary(
      uniqueKeysWithValues: serviceData.map {
        (CBUUID(string: $0.key), Data($0.value))
      }),
    rssi: rssi,
    sources: [.bluez]
  )
}

/// The 128-bit form of the 16-bit Heart Rate service, `180D`.
let heartRate128 = "0000180D-0000-1000-8000-00805F9B34FB"

@Suite("ASDiscoveryDescriptor matching")
struct ASDiscoveryDescriptorMatchingTests {
  // MARK: - Each rule alone

  static let singleRules: [MatchCase] = [
    // Company identifier.
    MatchCase(
      "company identifier present",
      ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C),
      advertiser(manufacturerData: [0x004C: [0x02, 0x15]])),
    MatchCase(
      "company identifier with an empty payload",
      ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C),
      advertiser(manufacturerData: [0x004C: []])),
    MatchCase(
      "another company's data",
      ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C),
      advertiser(manufacturerData: [0x0075: [0x01], 0x0006: [0x02]]),
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises data for companies 0x0006, 0x0075)"),
    MatchCase(
      "one other company's data",
      ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C),
      advertiser(manufacturerData: [0x0075: [0x01]]),
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises data for company 0x0075)"),
    MatchCase(
      "no manufacturer data",
      ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C),
      advertiser(name: "Lamp"),
      fails: .companyIdentifier,
      "it advertises no manufacturer data for company 0x004C (it "
        + "advertises no manufacturer data)"),

    // Service UUID.
    MatchCase(
      "service advertised",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: ["180F", "180D"])),
    MatchCase(
      "service data only, no service list",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "FEAA")),
      advertiser(serviceData: ["FEAA": [0x10]])),
    MatchCase(
      "16-bit descriptor, 128-bit advertisement",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: [heartRate128])),
    MatchCase(
      "128-bit descriptor, 16-bit advertisement",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: heartRate128)),
      advertiser(services: ["180d"])),
    MatchCase(
      "32-bit descriptor, 16-bit advertisement",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "0000180D")),
      advertiser(services: ["180D"])),
    MatchCase(
      "custom 128-bit service",
      ASDiscoveryDescriptor(bluetoothServiceUUID: customService),
      advertiser(services: ["12345678-1234-1234-1234-123456789abc"])),
    MatchCase(
      "other services",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: ["110B", "110E"], serviceData: ["FEAA": [0x00]]),
      fails: .serviceUUID,
      "it advertises neither service 180D nor service data for it (it "
        + "advertises services 110B, 110E, FEAA)"),
    MatchCase(
      "one other service",
      ASDiscoveryDescriptor(bluetoothServiceUUID: customService),
      advertiser(services: ["180D"]),
      fails: .serviceUUID,
      "it advertises neither service 12345678-1234-1234-1234-123456789ABC "
        + "nor service data for it (it advertises service 180D)"),
    MatchCase(
      "no services",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(name: "Lamp"),
      fails: .serviceUUID,
      "it advertises neither service 180D nor service data for it (it "
        + "advertises no services)"),
    MatchCase(
      "a 128-bit UUID that only shares the 16-bit digits",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: ["0000180D-0000-1000-8000-00805F9B34FC"]),
      fails: .serviceUUID,
      "it advertises neither service 180D nor service data for it (it "
        + "advertises service 0000180D-0000-1000-8000-00805F9B34FC)"),

    // Name substring.
    MatchCase(
      "name contains the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(name: "Acme Buds Pro", services: ["180D"])),
    MatchCase(
      "name equals the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(name: "Buds", services: ["180D"])),
    MatchCase(
      "no name, the alias contains the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(alias: "Kitchen Buds", services: ["180D"])),
    MatchCase(
      "name lacks the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(name: "Speaker X", services: ["180D"]),
      fails: .nameSubstring,
      "its advertised name 'Speaker X' does not contain 'Buds'"),
    MatchCase(
      "the name wins over an alias that contains the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(name: "Speaker X", alias: "My Buds", services: ["180D"]),
      fails: .nameSubstring,
      "its advertised name 'Speaker X' does not contain 'Buds'"),
    MatchCase(
      "the comparison is case-sensitive",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(name: "ACME BUDS", services: ["180D"]),
      fails: .nameSubstring,
      "its advertised name 'ACME BUDS' does not contain 'Buds' (names are "
        + "compared case-sensitively)"),
    MatchCase(
      "no name, the alias lacks the substring",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(alias: "Speaker X", services: ["180D"]),
      fails: .nameSubstring,
      "it advertises no name, and its alias 'Speaker X' does not contain "
        + "'Buds'"),
    MatchCase(
      "no name and no alias",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Buds"),
      advertiser(services: ["180D"]),
      fails: .nameSubstring,
      "it has neither an advertised name nor an alias to contain 'Buds'"),
    MatchCase(
      "canonically equivalent accents are equal",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "Caf\u{E9}"),
      advertiser(name: "Cafe\u{301} Speaker", services: ["180D"])),

    // Range.
    MatchCase(
      "immediate range at the threshold",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothRange: .immediate),
      advertiser(services: ["180D"], rssi: -60)),
    MatchCase(
      "immediate range, a stronger signal",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothRange: .immediate),
      advertiser(services: ["180D"], rssi: -35)),
    MatchCase(
      "immediate range, one below the threshold",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothRange: .immediate),
      advertiser(services: ["180D"], rssi: -61),
      fails: .range,
      "RSSI -61 dBm is below the immediate-range threshold of -60 dBm"),
    MatchCase(
      "immediate range, far away",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothRange: .immediate),
      advertiser(services: ["180D"], rssi: -71),
      fails: .range,
      "RSSI -71 dBm is below the immediate-range threshold of -60 dBm"),
    MatchCase(
      "immediate range, unknown RSSI",
      ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothRange: .immediate),
      advertiser(services: ["180D"]),
      fails: .range,
      "RSSI is unknown, so it cannot meet the immediate-range threshold of "
        + "-60 dBm"),
    MatchCase(
      "default range, unknown RSSI",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: ["180D"])),
    MatchCase(
      "default range, a faint signal",
      ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D")),
      advertiser(services: ["180D"], rssi: -100)),
  ]

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

  // MARK: - Tests

  /// Checks one row: the exact mismatch, and `matches` agreeing with it.
  func check(_ row: MatchCase) {
    #expect(row.descriptor.mismatch(with: row.device) == row.mismatch)
    #expect(row.descriptor.matches(row.device) == (row.mismatch == nil))
  }

  @Test("Each rule alone", arguments: singleRules)
  func singleRule(_ row: MatchCase) {
    check(row)
  }

  @Test("Blob and mask comparisons", arguments: masks)
  func mask(_ row: MatchCase) {
    check(row)
  }

  @Test(
    "All rules set: one failing rule fails the whole", arguments: combinations)
  func combination(_ row: MatchCase) {
    check(row)
  }

  @Test(
    "Wi-Fi and invalid descriptors match no device", arguments: neverMatching)
  func neverMatches(_ row: MatchCase) {
    check(row)
  }

  @Test("The immediate-range threshold is -60 dBm")
  func threshold() {
    #expect(ASDiscoveryDescriptor.immediateRangeRSSIThreshold == -60)
  }

  @Test("A mismatch describes itself by its reason, a rule by its name")
  func descriptions() throws {
    let mismatch = try #require(
      ASDiscoveryDescriptor(ssid: "Lamp").mismatch(with: Self.nearBuds()))
    #expect(mismatch.description == mismatch.reason)
    let names = [
      DescriptorMismatch.Rule.invalidDescriptor, .wiFiNetwork,
      .companyIdentifier, .serviceUUID, .nameSubstring, .manufacturerData,
      .serviceData, .range,
    ].map(\.description)
    #expect(
      names == [
        "invalidDescriptor", "wiFiNetwork", "companyIdentifier",
        "serviceUUID", "nameSubstring", "manufacturerData", "serviceData",
        "range",
      ])
  }

  @Test("Every mismatch rule is covered by a table row")
  func everyRuleCovered() {
    let rows =
      Self.singleRules + Self.masks + Self.combinations
      + Self.neverMatching
    #expect(Set(rows.compactMap(\.rule)).count == 8)
  }

  @Test("Matching follows later changes to the descriptor")
  func followsChanges() {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "FEAA"))
    let device = Self.nearBuds()
    #expect(descriptor.matches(device))
    descriptor.bluetoothNameSubstring = "Pods"
    #expect(descriptor.mismatch(with: device)?.rule == .nameSubstring)
    descriptor.bluetoothNameSubstring = "Buds"
    #expect(descriptor.matches(device))
  }
}
