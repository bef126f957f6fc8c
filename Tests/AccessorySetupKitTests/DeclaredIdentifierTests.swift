// The identifiers a setup configuration declares: validate(against:) refuses
// a descriptor that uses an undeclared kind, service, name or company, and
// names the identifier and the key to declare it under.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

@Suite("Declared identifiers")
struct DeclaredIdentifierTests {
  /// A Bluetooth-only configuration that declares one identifier of each
  /// kind, the service in its 128-bit form.
  static let bluetoothOnly = ASAccessorySetupConfiguration(
    supports: [.bluetooth],
    bluetoothServices: [CBUUID(string: "0000FEAA-0000-1000-8000-00805F9B34FB")],
    bluetoothNames: ["Buds"],
    bluetoothCompanyIdentifiers: [0x004C]
  )

  static let refusals: [BrokenRule] = [
    BrokenRule(
      name: "a Wi-Fi descriptor when only Bluetooth is declared",
      descriptor: ASDiscoveryDescriptor(ssidPrefix: "Lamp-"),
      configuration: bluetoothOnly,
      rule: .technologyNotDeclared,
      message: "The descriptor discovers a Wi-Fi accessory, but "
        + "NSAccessorySetupSupports does not declare 'WiFi'; add 'WiFi' to "
        + "NSAccessorySetupSupports."
    ),
    BrokenRule(
      name: "a Bluetooth and Wi-Fi descriptor when only Wi-Fi is declared",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "FEAA"), ssid: "Lamp"),
      configuration: ASAccessorySetupConfiguration(
        supports: [.wifi], bluetoothServices: [CBUUID(string: "FEAA")]),
      rule: .technologyNotDeclared,
      message: "The descriptor discovers a Bluetooth accessory, but "
        + "NSAccessorySetupSupports does not declare 'Bluetooth'; add "
        + "'Bluetooth' to NSAccessorySetupSupports."
    ),
    BrokenRule(
      name: "an undeclared 16-bit service",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D")),
      configuration: bluetoothOnly,
      rule: .serviceNotDeclared,
      message: "bluetoothServiceUUID '180D' is not declared; add '180D' to "
        + "NSAccessorySetupBluetoothServices."
    ),
    BrokenRule(
      name: "an undeclared service used only for service data",
      descriptor: ASDiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothServiceUUID: CBUUID(string: "FE2C"),
        bluetoothServiceDataBlob: Data([0x01]),
        bluetoothServiceDataMask: Data([0xFF])),
      configuration: bluetoothOnly,
      rule: .serviceNotDeclared,
      message: "bluetoothServiceUUID 'FE2C' is not declared; add 'FE2C' to "
        + "NSAccessorySetupBluetoothServices."
    ),
    BrokenRule(
      name: "a company identifier one off the declared one",
      descriptor: ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004D),
      configuration: bluetoothOnly,
      rule: .companyIdentifierNotDeclared,
      message: "bluetoothCompanyIdentifier '0x004D' is not declared; add "
        + "'0x004D' to NSAccessorySetupBluetoothCompanyIdentifiers."
    ),
    BrokenRule(
      name: "a name in another letter case",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "FEAA"),
        bluetoothNameSubstring: "buds"),
      configuration: bluetoothOnly,
      rule: .nameNotDeclared,
      message: "bluetoothNameSubstring 'buds' is not declared; add 'buds' to "
        + "NSAccessorySetupBluetoothNames."
    ),
    BrokenRule(
      name: "a name that only contains the declared one",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "FEAA"),
        bluetoothNameSubstring: "Buds Pro"),
      configuration: bluetoothOnly,
      rule: .nameNotDeclared,
      message: "bluetoothNameSubstring 'Buds Pro' is not declared; add "
        + "'Buds Pro' to NSAccessorySetupBluetoothNames."
    ),
  ]

  @Test(
    "An undeclared identifier is refused with its exact error",
    arguments: refusals)
  func refusal(_ broken: BrokenRule) {
    #expect(throws: broken.error) {
      try broken.descriptor.validate(against: broken.configuration)
    }
    #expect(broken.error.description == broken.message)
  }

  @Test("Declared identifiers pass, a 16-bit use of a 128-bit declaration too")
  func declared() throws {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x004C,
      bluetoothServiceUUID: CBUUID(string: "FEAA"),
      bluetoothNameSubstring: "Buds",
      bluetoothServiceDataBlob: Data([0x10]),
      bluetoothServiceDataMask: Data([0xF0]),
      bluetoothRange: .immediate
    )
    try descriptor.validate(against: Self.bluetoothOnly)
  }

  @Test("A descriptor's own rule is reported before an undeclared identifier")
  func descriptorRuleFirst() {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x0001, ssid: "")
    #expect(
      descriptor.validationErrors(against: Self.bluetoothOnly).map(\.rule)
        == [.ssidEmpty, .technologyNotDeclared, .companyIdentifierNotDeclared]
    )
  }

  @Test("Matching does not consult the configuration")
  func matchingIgnoresDeclarations() {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "180D"))
    #expect(throws: ASDiscoveryDescriptor.ValidationError.self) {
      try descriptor.validate(against: Self.bluetoothOnly)
    }
    #expect(descriptor.matches(advertiser(services: ["180D"])))
  }
}
