// Which outputs are headphones: a Bluetooth device's form factor or icon as
// the sound server gives it, else BlueZ's class; never a speaker.

import AccessorySetupKit
import DaemonInputs
import SoundServerModel
import Testing

@Suite("Which Bluetooth outputs are headphones")
struct HeadphoneKindsTests {
  let address = "AA:BB:CC:DD:EE:0C"

  func properties(_ extra: [String: String]) -> [String: String] {
    extra.merging(["api.bluez5.address": address]) { a, _ in a }
  }

  @Test("The server's form factor, else its icon, else BlueZ's class")
  func sources() {
    let byBlueZ: Set = [address]
    #expect(
      isBluetoothHeadphones(
        properties: properties(["device.form_factor": "headset"])))
    #expect(
      !isBluetoothHeadphones(
        properties: properties(["device.form_factor": "speaker"]),
        byBlueZ: byBlueZ), "the server's word comes first")
    #expect(
      isBluetoothHeadphones(
        properties: properties([
          "device.form-factor": "unknown",
          "api.bluez5.icon": "audio-headphones",
        ])))
    #expect(
      !isBluetoothHeadphones(
        properties: properties(["device.form-factor": "unknown"])))
    #expect(
      isBluetoothHeadphones(
        properties: properties(["device.form-factor": "unknown"]),
        byBlueZ: byBlueZ))
    #expect(!isBluetoothHeadphones(properties: [:], byBlueZ: byBlueZ))
  }

  @Test("BlueZ's headphones and headsets, not its speakers")
  func classes() throws {
    let classes = BlueZHeadphoneClasses()
    let devices = try [
      ("AA:BB:CC:DD:EE:01", AudioFormFactor.headphone),
      ("AA:BB:CC:DD:EE:02", .headset), ("AA:BB:CC:DD:EE:03", .speaker),
    ].map {
      DiscoveredDevice(
        address: try #require(BluetoothAddress($0.0)), formFactor: $0.1)
    }
    #expect(classes.replace(from: devices))
    #expect(classes.addresses == ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"])
    #expect(!classes.replace(from: devices), "no change the second time")
  }
}
