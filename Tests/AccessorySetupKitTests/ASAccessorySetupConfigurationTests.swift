// ASAccessorySetupConfiguration: loading the Info.plist keys from JSON, and
// checking descriptors against the identifiers they declare.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

/// Writes `json` to a fresh temporary file, runs `body` with its URL and
/// removes the file.
func withFile<T>(
  containing json: String, _ body: (URL) throws -> T
) throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("setup-configuration-\(UUID().uuidString).json")
  try Data(json.utf8).write(to: url)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}

@Suite("ASAccessorySetupConfiguration")
struct ASAccessorySetupConfigurationTests {
  /// A configuration that declares one identifier of each kind.
  static let declared = ASAccessorySetupConfiguration(
    supports: [.bluetooth],
    bluetoothServices: [CBUUID(string: "180D")],
    bluetoothNames: ["MyDevice"],
    bluetoothCompanyIdentifiers: [0x004C]
  )

  static let undeclared: [BrokenRule] = [
    BrokenRule(
      name: "Bluetooth not in NSAccessorySetupSupports",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D")),
      configuration: ASAccessorySetupConfiguration(
        supports: [.wifi], bluetoothServices: [CBUUID(string: "180D")]),
      rule: .technologyNotDeclared,
      message: "The descriptor discovers a Bluetooth accessory, but "
        + "NSAccessorySetupSupports does not declare 'Bluetooth'; add "
        + "'Bluetooth' to NSAccessorySetupSupports."
    ),
    BrokenRule(
      name: "WiFi not in NSAccessorySetupSupports",
      descriptor: ASDiscoveryDescriptor(ssid: "Lamp"),
      configuration: declared,
      rule: .technologyNotDeclared,
      message: "The descriptor discovers a Wi-Fi accessory, but "
        + "NSAccessorySetupSupports does not declare 'WiFi'; add 'WiFi' to "
        + "NSAccessorySetupSupports."
    ),
    BrokenRule(
      name: "undeclared service UUID",
      descriptor: ASDiscoveryDescriptor(bluetoothServiceUUID: customService),
      configuration: declared,
      rule: .serviceNotDeclared,
      message: "bluetoothServiceUUID '12345678-1234-1234-1234-123456789ABC' "
        + "is not declared; add '12345678-1234-1234-1234-123456789ABC' to "
        + "NSAccessorySetupBluetoothServices."
    ),
    BrokenRule(
      name: "undeclared company identifier",
      descriptor: ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x0AD2),
      configuration: declared,
      rule: .companyIdentifierNotDeclared,
      message: "bluetoothCompanyIdentifier '0x0AD2' is not declared; add "
        + "'0x0AD2' to NSAccessorySetupBluetoothCompanyIdentifiers."
    ),
    BrokenRule(
      name: "undeclared name substring",
      descriptor: ASDiscoveryDescriptor(
        bluetoothServiceUUID: CBUUID(string: "180D"),
        bluetoothNameSubstring: "MyDev"),
      configuration: declared,
      rule: .nameNotDeclared,
      message: "bluetoothNameSubstring 'MyDev' is not declared; add 'MyDev' "
        + "to NSAccessorySetupBluetoothNames."
    ),
  ]

  // MARK: - Declared identifiers

  @Test(
    "An undeclared identifier throws its exact error", arguments: undeclared)
  func undeclaredIdentifier(_ broken: BrokenRule) {
    #expect(throws: broken.error) {
      try broken.descriptor.validate(against: broken.configuration)
    }
    // Without a configuration the same descriptor is valid.
    #expect(broken.descriptor.validationErrors().isEmpty)
  }

  @Test("Declared identifiers are accepted")
  func declaredIdentifiers() throws {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x004C,
      bluetoothServiceUUID: CBUUID(string: "180D"),
      bluetoothNameSubstring: "MyDevice",
      bluetoothManufacturerDataBlob: Data([0x02, 0x15]),
      bluetoothManufacturerDataMask: Data([0xFF, 0xFF]),
      bluetoothRange: .immediate
    )
    try descriptor.validate(against: Self.declared)
  }

  @Test("A declared 16-bit alias covers its 128-bit expansion")
  func aliasCoversExpansion() throws {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(
        string: "0000180D-0000-1000-8000-00805F9B34FB"))
    try descriptor.validate(against: Self.declared)
  }

  @Test("A Wi-Fi descriptor needs only WiFi in NSAccessorySetupSupports")
  func wiFiDeclared() throws {
    try ASDiscoveryDescriptor(ssidPrefix: "Lamp-")
      .validate(against: ASAccessorySetupConfiguration(supports: [.wifi]))
  }

  @Test("Every undeclared identifier is listed")
  func allUndeclared() {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x0001,
      bluetoothServiceUUID: customService,
      bluetoothNameSubstring: "Other",
      ssid: "Lamp"
    )
    #expect(
      descriptor.validationErrors(against: Self.declared).map(\.rule) == [
        .technologyNotDeclared, .serviceNotDeclared,
        .companyIdentifierNotDeclared, .nameNotDeclared,
      ]
    )
  }

  // MARK: - Loading

  @Test("A good file loads every key")
  func loadGoodFile() throws {
    let json = """
      {
        "CFBundleName": "Ignored",
        "NSAccessorySetupSupports": ["Bluetooth", "WiFi"],
        "NSAccessorySetupBluetoothServices": [
          "180D", "12345678-1234-1234-1234-123456789abc"
        ],
        "NSAccessorySetupBluetoothNames": ["MyDevice"],
        "NSAccessorySetupBluetoothCompanyIdentifiers": [
          76, "0x0AD2", "FFFE", 1, 0
        ]
      }
      """
    let configuration = try withFile(containing: json) { url in
      try ASAccessorySetupConfiguration.load(from: url)
    }
    #expect(
      configuration
        == ASAccessorySetupConfiguration(
          supports: [.bluetooth, .wifi],
          bluetoothServices: [CBUUID(string: "180D"), customService],
          bluetoothNames: ["MyDevice"],
          bluetoothCompanyIdentifiers: [0x004C, 0x0AD2, 0xFFFE, 1, 0]
        )
    )
  }

  @Test("Only NSAccessorySetupSupports is required")
  func loadMinimalFile() throws {
    let configuration = try withFile(
      containing: #"{"NSAccessorySetupSupports": ["WiFi"]}"#
    ) { url in try ASAccessorySetupConfiguration.load(from: url) }
    #expect(configuration == ASAccessorySetupConfiguration(supports: [.wifi]))
  }

  @Test("Apple's other spelling, NSAccessorySetupKitSupports, is accepted")
  func loadKitSupports() throws {
    let json = """
      {"NSAccessorySetupKitSupports": ["Bluetooth"],
       "NSAccessorySetupSupports": ["WiFi"]}
      """
    let configuration = try withFile(containing: json) { url in
      try ASAccessorySetupConfiguration.load(from: url)
    }
    #expect(configuration.supports == [.bluetooth, .wifi])
  }

  static let badFiles: [(json: String, key: String?, message: String)] = [
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothServices": "180D"}"#,
      "NSAccessorySetupBluetoothServices",
      "NSAccessorySetupBluetoothServices is a string; expected an array of "
        + "Bluetooth UUID strings, such as '180D' or "
        + "'12345678-1234-1234-1234-123456789ABC'."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothServices": ["180D", "XYZ"]}"#,
      "NSAccessorySetupBluetoothServices",
      "NSAccessorySetupBluetoothServices[1] is 'XYZ'; expected a Bluetooth "
        + "UUID string, such as '180D' or "
        + "'12345678-1234-1234-1234-123456789ABC'."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetoth"]}"#,
      "NSAccessorySetupSupports",
      "NSAccessorySetupSupports[0] is 'Bluetoth'; expected 'Bluetooth' or "
        + "'WiFi'."
    ),
    (
      #"{"NSAccessorySetupSupports": "Bluetooth"}"#,
      "NSAccessorySetupSupports",
      "NSAccessorySetupSupports is a string; expected an array of strings, "
        + "each 'Bluetooth' or 'WiFi'."
    ),
    (
      #"{"NSAccessorySetupSupports": []}"#,
      "NSAccessorySetupSupports",
      "NSAccessorySetupSupports is empty; expected an array of strings, "
        + "each 'Bluetooth' or 'WiFi'."
    ),
    (
      #"{"NSAccessorySetupBluetoothNames": ["MyDevice"]}"#,
      "NSAccessorySetupSupports",
      "NSAccessorySetupSupports is missing; expected an array of strings, "
        + "each 'Bluetooth' or 'WiFi'."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothNames": [true]}"#,
      "NSAccessorySetupBluetoothNames",
      "NSAccessorySetupBluetoothNames[0] is a boolean; expected a string."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothCompanyIdentifiers": [70000]}"#,
      "NSAccessorySetupBluetoothCompanyIdentifiers",
      "NSAccessorySetupBluetoothCompanyIdentifiers[0] is 70000; expected a "
        + "16-bit company identifier, as a number such as 76 or a "
        + "hexadecimal string such as '0x004C' or '004C'."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothCompanyIdentifiers": [76, "76"]}"#,
      "NSAccessorySetupBluetoothCompanyIdentifiers",
      "NSAccessorySetupBluetoothCompanyIdentifiers[1] is '76'; expected a "
        + "16-bit company identifier, as a number such as 76 or a "
        + "hexadecimal string such as '0x004C' or '004C'."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
        + #""NSAccessorySetupBluetoothCompanyIdentifiers": 76}"#,
      "NSAccessorySetupBluetoothCompanyIdentifiers",
      "NSAccessorySetupBluetoothCompanyIdentifiers is a number; expected an "
        + "array of 16-bit company identifiers, as numbers such as 76 or "
        + "hexadecimal strings such as '0x004C'."
    ),
    (
      #"["Bluetooth"]"#,
      nil,
      "the file holds an array, not an object; expected an object whose "
        + "keys are Info.plist keys such as NSAccessorySetupSupports."
    ),
    (
      #"{"NSAccessorySetupSupports": ["Bluetooth"]"#,
      nil,
      "the file is not valid JSON; expected an object whose keys are "
        + "Info.plist keys such as NSAccessorySetupSupports."
    ),
  ]

  @Test(
    "A bad file throws an error naming the key and what it expects",
    arguments: badFiles)
  func loadBadFile(
    _ bad: (json: String, key: String?, message: String)
  ) throws {
    try withFile(containing: bad.json) { url in
      let expected = ASAccessorySetupConfiguration.LoadError(
        path: url.path, key: bad.key, message: bad.message)
      #expect(throws: expected) {
        try ASAccessorySetupConfiguration.load(from: url)
      }
      #expect(expected.description == "\(url.path): \(bad.message)")
    }
  }

  @Test("A missing file throws an error for the whole file")
  func loadMissingFile() {
    let url = URL(fileURLWithPath: "/nonexistent/setup-configuration.json")
    do {
      _ = try ASAccessorySetupConfiguration.load(from: url)
      Issue.record("loading a missing file succeeded")
    } catch {
      #expect(error.key == nil)
      #expect(error.path == url.path)
      #expect(error.message.hasPrefix("the file cannot be read ("))
    }
  }

  // MARK: - Codable

  @Test("Codable round trip uses the Info.plist names")
  func codableRoundTrip() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = try encoder.encode(Self.declared)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"NSAccessorySetupBluetoothCompanyIdentifiers":["0x004C"],"#
        + #""NSAccessorySetupBluetoothNames":["MyDevice"],"#
        + #""NSAccessorySetupBluetoothServices":["180D"],"#
        + #""NSAccessorySetupSupports":["Bluetooth"]}"#
    )
    #expect(
      try JSONDecoder().decode(ASAccessorySetupConfiguration.self, from: json)
        == Self.declared
    )
  }

  @Test("Decoding a bad value carries the load error")
  func decodingBadValue() {
    let json = Data(#"{"NSAccessorySetupSupports": ["Zigbee"]}"#.utf8)
    do {
      _ = try JSONDecoder().decode(
        ASAccessorySetupConfiguration.self, from: json)
      Issue.record("decoding a bad configuration succeeded")
    } catch let DecodingError.dataCorrupted(context) {
      let underlying =
        context.underlyingError
        as? ASAccessorySetupConfiguration.LoadError
      #expect(underlying?.key == "NSAccessorySetupSupports")
      #expect(
        context.debugDescription
          == "NSAccessorySetupSupports[0] is 'Zigbee'; expected 'Bluetooth' "
          + "or 'WiFi'."
      )
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }
}
