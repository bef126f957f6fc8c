// Descriptor matching: a table of descriptors and discovered devices, each
// row with the exact mismatch (or none) that matching must report. This file
// has the rows of each rule alone and the tests; the other tables are in
// ASDiscoveryDescriptorMatchingTests+Tables.swift.

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
