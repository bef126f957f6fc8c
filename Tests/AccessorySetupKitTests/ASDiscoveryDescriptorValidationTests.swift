// Every descriptor rule, with its exact error: the rule and the full message.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

/// One broken rule: a descriptor, an optional configuration and the error
/// validation must throw.
struct BrokenRule: Sendable, CustomTestStringConvertible {
  let name: String
  let descriptor: ASDiscoveryDescriptor
  var configuration: ASAccessorySetupConfiguration? = nil
  let rule: ASDiscoveryDescriptor.ValidationError.Rule
  let message: String

  var testDescription: String { name }

  var error: ASDiscoveryDescriptor.ValidationError {
    ASDiscoveryDescriptor.ValidationError(rule: rule, message: message)
  }
}

/// A 128-bit service UUID that is not a Bluetooth base UUID expansion.
let customService = CBUUID(string: "12345678-1234-1234-1234-123456789ABC")

/// The hexadecimal text of `count` bytes of `byte`.
func hex(_ byte: String, _ count: Int) -> String {
  String(repeating: byte, count: count)
}

@Suite("ASDiscoveryDescriptor validation")
struct ASDiscoveryDescriptorValidationTests {
  static let descriptorRules: [BrokenRule] = [
    BrokenRule(
      name: "no traits at all",
      descriptor: ASDiscoveryDescriptor(),
      rule: .noDiscoveryCriteria,
      message: "The descriptor sets no discovery traits; set "
        + "bluetoothServiceUUID or bluetoothCompanyIdentifier for a "
        + "Bluetooth accessory, or ssid or ssidPrefix for a Wi-Fi accessory."
    ),
    BrokenRule(
      name: "Bluetooth range and options without an identifier",
      descriptor: ASDiscoveryDescriptor(
        bluetoothRange: .immediate, supportedOptions: [.bluetoothPairingLE]),
      rule: .bluetoothIdentifierRequired,
      message: "A Bluetooth descriptor needs bluetoothServiceUUID or a "
        + "non-zero bluetoothCompanyIdentifier, but this one sets only "
        + "bluetoothRange 'immediate' and supportedOptions "
        + "'[bluetoothPairingLE]'; set one of them."
    ),
    BrokenRule(
      name: "empty name substring",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: ""),
      rule: .nameSubstringEmpty,
      message: "bluetoothNameSubstring is '' (empty); set a part of the "
        + "accessory's advertised name, or nil to match any name."
    ),
    BrokenRule(
      name: "name substring without an identifier",
      descriptor: ASDiscoveryDescriptor(bluetoothNameSubstring: "MyDevice"),
      rule: .nameSubstringRequiresIdentifier,
      message: "bluetoothNameSubstring 'MyDevice' needs "
        + "bluetoothServiceUUID or a non-zero bluetoothCompanyIdentifier to "
        + "identify the accessory; set one of them."
    ),
    BrokenRule(
      name: "manufacturer blob without mask",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothManufacturerDataBlob: Data([0x02, 0x15])),
      rule: .manufacturerDataIncomplete,
      message: "bluetoothManufacturerDataBlob '0215' is set without "
        + "bluetoothManufacturerDataMask; set both, with the same length."
    ),
    BrokenRule(
      name: "manufacturer mask without blob",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothManufacturerDataMask: Data([0xFF, 0xFF])),
      rule: .manufacturerDataIncomplete,
      message: "bluetoothManufacturerDataMask 'FFFF' is set without "
        + "bluetoothManufacturerDataBlob; set both, with the same length."
    ),
    BrokenRule(
      name: "manufacturer data without a company identifier",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothManufacturerDataBlob: Data([0x02, 0x15]),
        bluetoothManufacturerDataMask: Data([0xFF, 0xFF])),
      rule: .manufacturerDataRequiresCompanyIdentifier,
      message: "bluetoothManufacturerDataBlob '0215' needs a non-zero "
        + "bluetoothCompanyIdentifier, the manufacturer whose data it "
        + "matches; set bluetoothCompanyIdentifier."
    ),
    BrokenRule(
      name: "manufacturer blob and mask of different lengths",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothManufacturerDataBlob: Data([0x02, 0x15, 0x00]),
        bluetoothManufacturerDataMask: Data([0xFF, 0xFF])),
      rule: .manufacturerDataLengthMismatch,
      message: "bluetoothManufacturerDataBlob '021500' has 3 bytes but "
        + "bluetoothManufacturerDataMask 'FFFF' has 2; give them the same "
        + "length."
    ),
    BrokenRule(
      name: "manufacturer data longer than an advertisement holds",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothManufacturerDataBlob: Data(repeating: 0x01, count: 28),
        bluetoothManufacturerDataMask: Data(repeating: 0xFF, count: 28)),
      rule: .manufacturerDataTooLong,
      message: "bluetoothManufacturerDataBlob '\(hex("01", 28))' has 28 "
        + "bytes, more than the 27 bytes of manufacturer data an "
        + "advertisement can carry; shorten the blob and mask."
    ),
    BrokenRule(
      name: "service blob without mask",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothServiceDataBlob: Data([0x01])),
      rule: .serviceDataIncomplete,
      message: "bluetoothServiceDataBlob '01' is set without "
        + "bluetoothServiceDataMask; set both, with the same length."
    ),
    BrokenRule(
      name: "service mask without blob",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothServiceDataMask: Data([0x0F])),
      rule: .serviceDataIncomplete,
      message: "bluetoothServiceDataMask '0F' is set without "
        + "bluetoothServiceDataBlob; set both, with the same length."
    ),
    BrokenRule(
      name: "service data without a service UUID",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothServiceDataBlob: Data([0x01]),
        bluetoothServiceDataMask: Data([0xFF])),
      rule: .serviceDataRequiresServiceUUID,
      message: "bluetoothServiceDataBlob '01' needs bluetoothServiceUUID, "
        + "the service whose data it matches; set bluetoothServiceUUID."
    ),
    BrokenRule(
      name: "service blob and mask of different lengths",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothServiceDataBlob: Data([0x01, 0x02]),
        bluetoothServiceDataMask: Data([0xFF])),
      rule: .serviceDataLengthMismatch,
      message: "bluetoothServiceDataBlob '0102' has 2 bytes but "
        + "bluetoothServiceDataMask 'FF' has 1; give them the same length."
    ),
    BrokenRule(
      name: "service data too long for a 128-bit UUID",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: customService,
        bluetoothServiceDataBlob: Data(repeating: 0xAB, count: 14),
        bluetoothServiceDataMask: Data(repeating: 0xFF, count: 14)),
      rule: .serviceDataTooLong,
      message: "bluetoothServiceDataBlob '\(hex("AB", 14))' has 14 bytes, "
        + "more than the 13 bytes of service data an advertisement can "
        + "carry for a 128-bit service UUID; shorten the blob and mask."
    ),
    BrokenRule(
      name: "service data too long for a 16-bit UUID",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothServiceDataBlob: Data(repeating: 0x00, count: 28),
        bluetoothServiceDataMask: Data(repeating: 0xFF, count: 28)),
      rule: .serviceDataTooLong,
      message: "bluetoothServiceDataBlob '\(hex("00", 28))' has 28 bytes, "
        + "more than the 27 bytes of service data an advertisement can "
        + "carry for a 16-bit service UUID; shorten the blob and mask."
    ),
    BrokenRule(
      name: "ssid and ssidPrefix both set",
      descriptor: ASDiscoveryDescriptor(ssid: "MyNetwork", ssidPrefix: "My"),
      rule: .ssidAndPrefixBothSet,
      message: "ssid 'MyNetwork' and ssidPrefix 'My' are both set; set only "
        + "one of them."
    ),
    BrokenRule(
      name: "empty ssid",
      descriptor: ASDiscoveryDescriptor(ssid: ""),
      rule: .ssidEmpty,
      message: "ssid is '' (empty); set the accessory's network name."
    ),
    BrokenRule(
      name: "empty ssidPrefix",
      descriptor: ASDiscoveryDescriptor(ssidPrefix: ""),
      rule: .ssidPrefixEmpty,
      message: "ssidPrefix is '' (empty); set the start of the accessory's "
        + "network name."
    ),
    BrokenRule(
      name: "ssid longer than a network name",
      descriptor: ASDiscoveryDescriptor(
        ssid: String(repeating: "A", count: 33)),
      rule: .ssidTooLong,
      message: "ssid '\(String(repeating: "A", count: 33))' has 33 bytes, "
        + "more than the 32 bytes of a Wi-Fi network name; shorten it."
    ),
    BrokenRule(
      name: "ssidPrefix longer than a network name",
      descriptor: ASDiscoveryDescriptor(
        ssidPrefix: String(repeating: "é", count: 17)),
      rule: .ssidTooLong,
      message: "ssidPrefix '\(String(repeating: "é", count: 17))' has 34 "
        + "bytes, more than the 32 bytes of a Wi-Fi network name; shorten "
        + "it."
    ),
  ]

  @Test("Each broken rule throws its exact error", arguments: descriptorRules)
  func brokenRule(_ broken: BrokenRule) {
    #expect(throws: broken.error) {
      try broken.descriptor.validate()
    }
    #expect(broken.error.description == broken.message)
  }

  @Test("Every rule is covered by a test case")
  func everyRuleCovered() {
    let covered = Set(
      (Self.descriptorRules + ASAccessorySetupConfigurationTests.undeclared)
        .map(\.rule))
    #expect(covered.count == 20)
  }

  @Test("Apple's Bluetooth example is valid: service, name, immediate range")
  func appleBluetoothExample() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = customService
    descriptor.bluetoothNameSubstring = "MyDevice"
    descriptor.bluetoothRange = .immediate
    try descriptor.validate()
    #expect(descriptor.validationErrors().isEmpty)
  }

  @Test("A company identifier with manufacturer blob and mask is valid")
  func manufacturerDataExample() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothCompanyIdentifier = 0x0AD2
    descriptor.bluetoothManufacturerDataBlob = Data([0x00, 0x2A, 0x00, 0x00])
    descriptor.bluetoothManufacturerDataMask = Data([0xFF, 0xFF, 0xFF, 0x00])
    try descriptor.validate()
  }

  @Test("A Wi-Fi ssid alone, or an ssidPrefix alone, is valid")
  func wiFiExamples() throws {
    try ASDiscoveryDescriptor(ssid: "MyAccessory-Network").validate()
    try ASDiscoveryDescriptor(ssidPrefix: "MyAccessory-").validate()
    try ASDiscoveryDescriptor(ssid: String(repeating: "A", count: 32))
      .validate()
  }

  @Test("An identifier alone, or service data, is valid")
  func identifierAlone() throws {
    try ASDiscoveryDescriptor(bluetoothServiceUUID: CBUUID(string: "180D"))
      .validate()
    try ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C).validate()
    try ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "FEAA"),
      bluetoothServiceDataBlob: Data([0x10]),
      bluetoothServiceDataMask: Data([0xF0])
    ).validate()
  }

  @Test("A Bluetooth and Wi-Fi descriptor is valid")
  func bluetoothAndWiFi() throws {
    try ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "180D"), ssid: "Lamp"
    ).validate()
  }

  @Test("The advertisement limits are inclusive")
  func limitsAreInclusive() throws {
    try ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x004C,
      bluetoothManufacturerDataBlob: Data(repeating: 0x01, count: 27),
      bluetoothManufacturerDataMask: Data(repeating: 0xFF, count: 27)
    ).validate()
    try ASDiscoveryDescriptor(
      bluetoothServiceUUID: customService,
      bluetoothServiceDataBlob: Data(repeating: 0x01, count: 13),
      bluetoothServiceDataMask: Data(repeating: 0xFF, count: 13)
    ).validate()
    #expect(ASDiscoveryDescriptor.maximumManufacturerDataLength == 27)
    #expect(
      ASDiscoveryDescriptor.maximumServiceDataLength(
        for: CBUUID(string: "180D")) == 27)
    #expect(
      ASDiscoveryDescriptor.maximumServiceDataLength(
        for: CBUUID(string: "12345678")) == 25)
    #expect(
      ASDiscoveryDescriptor.maximumServiceDataLength(for: customService)
        == 13)
  }

  @Test("validationErrors lists every broken rule, without repeats")
  func allErrors() {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothNameSubstring: "",
      bluetoothManufacturerDataBlob: Data([0x01, 0x02]),
      bluetoothManufacturerDataMask: Data([0xFF]),
      ssid: "",
      ssidPrefix: "Lamp"
    )
    #expect(
      descriptor.validationErrors().map(\.rule) == [
        .nameSubstringEmpty, .nameSubstringRequiresIdentifier,
        .manufacturerDataRequiresCompanyIdentifier,
        .manufacturerDataLengthMismatch, .ssidAndPrefixBothSet, .ssidEmpty,
      ]
    )
  }

  @Test("A rule matches a caught error in a catch pattern")
  func catchPattern() {
    var caught = false
    do {
      try ASDiscoveryDescriptor(ssid: "").validate()
    } catch ASDiscoveryDescriptor.ValidationError.Rule.ssidEmpty {
      caught = true
    } catch {
      Issue.record("unexpected error \(error)")
    }
    #expect(caught)
    #expect(
      ASDiscoveryDescriptor.ValidationError.Rule.ssidEmpty.description
        == "ssidEmpty"
    )
  }
}
