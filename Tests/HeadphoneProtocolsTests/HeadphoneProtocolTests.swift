// Which protocol a device speaks, from the services BlueZ lists, and which
// AirPods are worn over the ears, from their Device ID.

import HeadphoneProtocols
import Testing

@Suite struct HeadphoneProtocolTests {
  @Test func theServicesNameTheProtocol() {
    let a2dp = "0000110b-0000-1000-8000-00805f9b34fb"
    #expect(
      HeadphoneProtocol(
        serviceUUIDs: [a2dp, "74EC2172-0BAD-4D01-8F77-997B2BE0722A"]) == .aap)
    #expect(
      HeadphoneProtocol(
        serviceUUIDs: [a2dp, "2e73a4ad-332d-41fc-90e2-16bef06523f2"])
        == .galaxyBuds)
    #expect(
      HeadphoneProtocol(serviceUUIDs: [a2dp, GalaxyBuds.serialPortUUID])
        == .galaxyBuds)
    // The 16-bit alias of the serial port service is the same service.
    #expect(HeadphoneProtocol(serviceUUIDs: ["1101"]) == .galaxyBuds)
    // AirPods also offer the serial port: AAP wins.
    #expect(
      HeadphoneProtocol(serviceUUIDs: ["1101", AAP.serviceUUID]) == .aap)
    #expect(HeadphoneProtocol(serviceUUIDs: [a2dp]) == nil)
    #expect(HeadphoneProtocol(serviceUUIDs: []) == nil)
  }

  @Test func galaxyBudsConnectToTheirNewestService() {
    #expect(
      HeadphoneProtocol.galaxyBuds.connectionUUID(
        among: [GalaxyBuds.serialPortUUID, GalaxyBuds.buds2UUID])
        == GalaxyBuds.buds2UUID)
    #expect(
      HeadphoneProtocol.galaxyBuds.connectionUUID(among: ["1101"])
        == GalaxyBuds.serialPortUUID)
    #expect(
      HeadphoneProtocol.aap.connectionUUID(among: []) == AAP.serviceUUID)
  }

  @Test(arguments: [
    ("bluetooth:v004Cp200Ad0001", true),  // AirPods Max, Lightning
    ("bluetooth:v004cp201fd0b01", true),  // AirPods Max, USB-C
    ("bluetooth:v004Cp2014d0001", false),  // AirPods Pro 2
    ("bluetooth:v0075p200Ad0001", false),  // another vendor
    ("usb:v004Cp200A", false),
    ("", false),
  ])
  func overEarByDeviceID(_ modalias: String, _ overEar: Bool) {
    #expect(HeadphoneProtocol.aap.isOverEar(modalias: modalias) == overEar)
    #expect(!HeadphoneProtocol.galaxyBuds.isOverEar(modalias: modalias))
  }

  @Test func wornUnderEachRule() {
    #expect(WearRule.either.isWorn([.inEar, .inCase]))
    #expect(!WearRule.both.isWorn([.inEar, .inCase]))
    #expect(WearRule.both.isWorn([.inEar, .inEar]))
    // A bud not connected to the other does not count.
    #expect(WearRule.both.isWorn([.inEar, .disconnected]))
    #expect(!WearRule.either.isWorn([.outOfEar, .inCase]))
    #expect(!WearRule.either.isWorn([.disconnected, .disconnected]))
    #expect(!WearRule.either.isWorn([]))
  }
}
