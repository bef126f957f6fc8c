// ASDiscoveryDescriptor: Apple's defaults and raw values, the Linux
// convenience initializer, equality, description and Codable.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

@Suite("ASDiscoveryDescriptor")
struct ASDiscoveryDescriptorTests {
  /// A descriptor with every property set.
  static func fullDescriptor() -> ASDiscoveryDescriptor {
    ASDiscoveryDescriptor(
      bluetoothCompanyIdentifier: 0x004C,
      bluetoothServiceUUID: CBUUID(string: "180D"),
      bluetoothNameSubstring: "MyDevice",
      bluetoothManufacturerDataBlob: Data([0x02, 0x15]),
      bluetoothManufacturerDataMask: Data([0xFF, 0xFF]),
      bluetoothServiceDataBlob: Data([0x01]),
      bluetoothServiceDataMask: Data([0x0F]),
      bluetoothRange: .immediate,
      supportedOptions: [.bluetoothPairingLE, .bluetoothHID],
      ssid: "MyAccessory-Network",
      ssidPrefix: "MyAccessory-"
    )
  }

  @Test("A new descriptor has nothing set")
  func defaults() {
    let descriptor = ASDiscoveryDescriptor()
    #expect(descriptor.bluetoothCompanyIdentifier == 0)
    #expect(descriptor.bluetoothServiceUUID == nil)
    #expect(descriptor.bluetoothNameSubstring == nil)
    #expect(descriptor.bluetoothManufacturerDataBlob == nil)
    #expect(descriptor.bluetoothManufacturerDataMask == nil)
    #expect(descriptor.bluetoothServiceDataBlob == nil)
    #expect(descriptor.bluetoothServiceDataMask == nil)
    #expect(descriptor.bluetoothRange == .default)
    #expect(descriptor.supportedOptions.isEmpty)
    #expect(descriptor.ssid == nil)
    #expect(descriptor.ssidPrefix == nil)
    #expect(descriptor.description == "ASDiscoveryDescriptor()")
  }

  @Test("Range and support options have Apple's raw values")
  func appleRawValues() {
    #expect(ASDiscoveryDescriptor.Range.default.rawValue == 0)
    #expect(ASDiscoveryDescriptor.Range.immediate.rawValue == 10)
    #expect(ASAccessory.SupportOptions.bluetoothPairingLE.rawValue == 2)
    #expect(ASAccessory.SupportOptions.bluetoothTransportBridging.rawValue == 4)
    #expect(ASAccessory.SupportOptions.bluetoothHID.rawValue == 8)
  }

  @Test("Support options describe themselves by name")
  func supportOptionsDescription() {
    let options: ASAccessory.SupportOptions = [
      .bluetoothPairingLE, .bluetoothTransportBridging, .bluetoothHID,
    ]
    #expect(
      options.description
        == "[bluetoothPairingLE, bluetoothTransportBridging, bluetoothHID]"
    )
    #expect(
      ASAccessory.SupportOptions(rawValue: 0x13).description
        == "[bluetoothPairingLE, 0x11]")
    #expect(ASAccessory.SupportOptions().description == "[]")
  }

  @Test("The convenience initializer equals setting each property")
  func convenienceInitializer() {
    let set = ASDiscoveryDescriptor()
    set.bluetoothCompanyIdentifier = 0x004C
    set.bluetoothServiceUUID = CBUUID(string: "180D")
    set.bluetoothNameSubstring = "MyDevice"
    set.bluetoothManufacturerDataBlob = Data([0x02, 0x15])
    set.bluetoothManufacturerDataMask = Data([0xFF, 0xFF])
    set.bluetoothServiceDataBlob = Data([0x01])
    set.bluetoothServiceDataMask = Data([0x0F])
    set.bluetoothRange = .immediate
    set.supportedOptions = [.bluetoothPairingLE, .bluetoothHID]
    set.ssid = "MyAccessory-Network"
    set.ssidPrefix = "MyAccessory-"
    let built = Self.fullDescriptor()
    #expect(set == built)
    #expect(set.hashValue == built.hashValue)
  }

  @Test("Equality follows the current property values")
  func equality() {
    let first = ASDiscoveryDescriptor(ssid: "Lamp")
    let second = ASDiscoveryDescriptor(ssid: "Lamp")
    #expect(first == second)
    second.ssid = "Kettle"
    #expect(first != second)
    #expect(first != ASDiscoveryDescriptor())
  }

  @Test("The description lists the properties that are set")
  func description() {
    #expect(
      Self.fullDescriptor().description
        == "ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C, "
        + "bluetoothServiceUUID: 180D, bluetoothNameSubstring: 'MyDevice', "
        + "bluetoothManufacturerDataBlob: 0215, "
        + "bluetoothManufacturerDataMask: FFFF, "
        + "bluetoothServiceDataBlob: 01, bluetoothServiceDataMask: 0F, "
        + "bluetoothRange: immediate, "
        + "supportedOptions: [bluetoothPairingLE, bluetoothHID], "
        + "ssid: 'MyAccessory-Network', ssidPrefix: 'MyAccessory-')"
    )
  }

  @Test("Codable round trip keeps every property")
  func codableRoundTrip() throws {
    let descriptor = Self.fullDescriptor()
    let json = try JSONEncoder().encode(descriptor)
    let decoded = try JSONDecoder().decode(
      ASDiscoveryDescriptor.self, from: json)
    #expect(decoded == descriptor)
    #expect(decoded !== descriptor)
  }

  @Test("Codable uses Apple's property names and omits unset ones")
  func codableShape() throws {
    let descriptor = ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "180D"),
      bluetoothRange: .immediate,
      supportedOptions: [.bluetoothPairingLE]
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(descriptor), as: UTF8.self)
    #expect(
      json
        == #"{"bluetoothRange":"immediate","bluetoothServiceUUID":"180D","#
        + #""supportedOptions":2}"#
    )
    let empty = try encoder.encode(ASDiscoveryDescriptor())
    #expect(String(decoding: empty, as: UTF8.self) == "{}")
  }

  @Test("Decoding accepts Apple's raw range value and rejects unknown ones")
  func decodingRange() throws {
    let decoded = try JSONDecoder().decode(
      ASDiscoveryDescriptor.self,
      from: Data(#"{"ssid":"Lamp","bluetoothRange":10}"#.utf8)
    )
    #expect(decoded.bluetoothRange == .immediate)
    #expect(decoded.ssid == "Lamp")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        ASDiscoveryDescriptor.self,
        from: Data(#"{"bluetoothRange":"near"}"#.utf8)
      )
    }
  }

  @Test("A descriptor can be shared and mutated across tasks")
  func sharedAcrossTasks() async {
    let descriptor = ASDiscoveryDescriptor()
    await withTaskGroup(of: Void.self) { group in
      for value in 1...100 {
        group.addTask {
          descriptor.bluetoothCompanyIdentifier = UInt16(value)
          _ = descriptor.description
        }
      }
    }
    #expect((1...100).contains(descriptor.bluetoothCompanyIdentifier))
  }
}
