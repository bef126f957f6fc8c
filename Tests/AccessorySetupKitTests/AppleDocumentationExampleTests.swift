// Apple's documented usage, written as Apple's documentation writes it: if
// this file compiles, code from Apple's guides compiles on Linux unchanged.

import AccessorySetupKit
import CoreBluetooth
import Foundation
import Testing

@Suite("Apple's documented usage")
struct AppleDocumentationExampleTests {
  @Test("A Bluetooth descriptor, property by property")
  func bluetoothDescriptor() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(
      string: "12345678-1234-1234-1234-123456789ABC")
    descriptor.bluetoothNameSubstring = "MyDevice"
    descriptor.bluetoothRange = .immediate
    descriptor.supportedOptions = [.bluetoothPairingLE]

    try descriptor.validate()
  }

  @Test("A descriptor with support options and a 16-bit service")
  func supportOptions() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(string: "180D")
    descriptor.supportedOptions = [
      .bluetoothPairingLE, .bluetoothTransportBridging,
    ]
    descriptor.supportedOptions.insert(.bluetoothHID)

    try descriptor.validate()
  }

  @Test("A manufacturer data descriptor")
  func manufacturerData() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothCompanyIdentifier = ASBluetoothCompanyIdentifier(
      0x0AD2)
    descriptor.bluetoothManufacturerDataBlob = Data([0x00, 0x2A, 0x00])
    descriptor.bluetoothManufacturerDataMask = Data([0xFF, 0xFF, 0xFF])

    try descriptor.validate()
  }

  @Test("A Wi-Fi descriptor")
  func wiFiDescriptor() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.ssid = "MyAccessory-Network"

    try descriptor.validate()
  }

  @Test("A Wi-Fi prefix descriptor")
  func wiFiPrefixDescriptor() throws {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.ssidPrefix = "MyAccessory-"

    try descriptor.validate()
  }
}
