// BlueZ's device records as the discovery records that AccessorySetupKit's
// descriptors match: the UUIDs, the service data, the form factor from the
// icon, the adapter.

import AccessorySetupKit
import BlueZ
import CoreBluetooth
import DaemonInputs
import DaemonLifecycle
import Foundation
import Testing

@Suite("BlueZ devices as discovered devices")
struct BlueZDevicesTests {
  @Test func everyFieldCarriesOver() throws {
    let device = try #require(
      DiscoveredDevice(
        BlueZDevice(
          address: "AA:BB:CC:DD:EE:01", name: "Buds Pro", alias: "Kitchen",
          uuids: [
            "0000110b-0000-1000-8000-00805f9b34fb",
            "12345678-1234-1234-1234-123456789abc", "not a uuid",
          ],
          manufacturerData: [0x004C: Data([1, 2, 3])],
          serviceData: [
            "0000fe2c-0000-1000-8000-00805f9b34fb": Data([9, 8]),
            "bad": Data([1]),
          ],
          rssi: -42, icon: "audio-headphones", isPaired: true,
          isConnected: true, adapterAddress: "00:01:02:03:04:05")))
    #expect(
      device
        == DiscoveredDevice(
          address: BluetoothAddress("AA:BB:CC:DD:EE:01")!, name: "Buds Pro",
          alias: "Kitchen",
          serviceUUIDs: [
            CBUUID(string: "110B"),
            CBUUID(string: "12345678-1234-1234-1234-123456789ABC"),
          ],
          manufacturerData: [0x004C: Data([1, 2, 3])],
          serviceData: [CBUUID(string: "FE2C"): Data([9, 8])],
          rssi: -42, formFactor: .headphone, icon: "audio-headphones",
          isPaired: true, isConnected: true,
          adapter: BluetoothAddress("00:01:02:03:04:05")!, sources: [.bluez]))
  }

  @Test(arguments: [
    ("audio-headphones", .headphone) as (String?, AudioFormFactor?),
    ("audio-headset", .headset),
    ("audio-card", .speaker),
    ("audio-speakers", .speaker),
    ("phone", nil),
    (nil, nil),
  ])
  func formFactorFromTheIcon(icon: String?, formFactor: AudioFormFactor?) {
    let device = DiscoveredDevice(
      BlueZDevice(address: "AA:BB:CC:DD:EE:01", icon: icon))
    #expect(device?.formFactor == formFactor)
    #expect(device?.icon == icon)
  }
}
