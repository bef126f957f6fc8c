// Which protocol a device speaks and which Galaxy Buds it is, from the
// services, name and Device ID BlueZ lists, and which AirPods are worn over
// the ears, from their Device ID.

import HeadphoneProtocols
import Testing

@Suite struct HeadphoneProtocolTests {
  let a2dp = "0000110b-0000-1000-8000-00805f9b34fb"

  @Test func theServicesNameTheProtocol() {
    #expect(
      HeadphoneDialect(
        DeviceIdentity(
          serviceUUIDs: [a2dp, "74EC2172-0BAD-4D01-8F77-997B2BE0722A"]))
        == .aap)
    // The Buds2 and later's own service is theirs alone, whatever the name.
    #expect(
      HeadphoneDialect(
        DeviceIdentity(
          serviceUUIDs: [a2dp, "2E73A4AD-332D-41FC-90E2-16BEF06523F2"],
          name: "Kitchen"))
        == .galaxyBuds(.laterRenamed))
    // AirPods also offer the serial port: AAP wins.
    #expect(
      HeadphoneProtocol(
        DeviceIdentity(
          serviceUUIDs: ["1101", AAP.serviceUUID], name: "Galaxy Buds+ (1)"))
        == .aap)
    #expect(HeadphoneProtocol(DeviceIdentity(serviceUUIDs: [a2dp])) == nil)
    #expect(HeadphoneProtocol(DeviceIdentity(serviceUUIDs: [])) == nil)
  }

  @Test(arguments: [
    // Bose, Shokz and QCY headsets offer the serial port too.
    ("Bose QC35 II", nil),
    ("OpenRun by Shokz", nil),
    ("QCY-T13", nil),
    // Another maker's buds of a similar name.
    ("Redmi Buds Pro", nil),
    // The serial-port models cannot be renamed: their name says it.
    ("Galaxy Buds+ (7808)", GalaxyBudsModel.budsPlus),
    ("Galaxy Buds Live (5566)", .budsLive),
    ("Galaxy Buds Pro (3F09)", .budsPro),
  ])
  func theSerialPortAloneIsNoGalaxyBuds(
    _ name: String, _ model: GalaxyBudsModel?
  ) {
    // The 16-bit alias of the serial port service is the same service.
    for uuid in [GalaxyBuds.serialPortUUID, "1101"] {
      let device = DeviceIdentity(serviceUUIDs: [a2dp, uuid], name: name)
      #expect(GalaxyBudsModel(device) == model, "\(name), \(uuid)")
      #expect(
        HeadphoneProtocol(device) == (model == nil ? nil : .galaxyBuds))
    }
  }

  @Test func theDeviceIDRulesOutOtherMakers() {
    let named = DeviceIdentity(
      serviceUUIDs: ["1101"], name: "Galaxy Buds Pro (3F09)")
    for (modalias, model) in [
      ("bluetooth:v0075p0101d0001", GalaxyBudsModel?.some(.budsPro)),
      ("usb:v04E8pA051d0100", .budsPro),
      ("bluetooth:v000Ap0001d0001", nil),  // not Samsung
      ("usb:v0075p0001d0001", nil),  // 0x0075 is not Samsung's USB number
      ("junk", .budsPro),  // not read: it says nothing
    ] {
      var device = named
      device.modalias = modalias
      #expect(GalaxyBudsModel(device) == model, "\(modalias)")
    }
  }

  @Test func theNameSaysWhichLaterBudsTheyAre() {
    let own = [a2dp, GalaxyBuds.buds2UUID]
    for (name, model) in [
      ("Galaxy Buds2 (4E2A)", GalaxyBudsModel.buds2),
      ("Galaxy Buds2 Pro (DAC1)", .buds2Pro),
      ("Galaxy Buds FE (B2C4)", .budsFE),
      ("Galaxy Buds3 Pro (1234)", .buds3Pro),
      ("Galaxy Buds3 FE (1234)", .buds3FE),
      ("Galaxy Buds3 (1234)", .buds3),
      ("Galaxy Buds Core (1234)", .budsCore),
      ("Galaxy Buds4 Pro (1234)", .buds4Pro),
      // A model that never offers that service: renamed, not that model.
      ("Galaxy Buds Pro (3F09)", .laterRenamed),
      ("Anna's buds", .laterRenamed),
    ] {
      #expect(
        GalaxyBudsModel(DeviceIdentity(serviceUUIDs: own, name: name))
          == model, "\(name)")
    }
    // The 2019 Buds' own serial port, which ends in fd, not fb.
    #expect(
      GalaxyBudsModel(
        DeviceIdentity(
          serviceUUIDs: [GalaxyBuds.legacySerialPortUUID.uppercased()]))
        == .buds)
    #expect(
      GalaxyBudsModel(
        DeviceIdentity(
          serviceUUIDs: ["00001102-0000-1000-8000-00805f9b34fb"],
          name: "Galaxy Buds (7A1C)")) == nil)
  }

  @Test func galaxyBudsConnectToTheirModelsService() {
    #expect(
      GalaxyBudsModel.buds.connectionUUID == GalaxyBuds.legacySerialPortUUID)
    #expect(GalaxyBudsModel.budsPro.connectionUUID == GalaxyBuds.serialPortUUID)
    #expect(GalaxyBudsModel.buds2.connectionUUID == GalaxyBuds.buds2UUID)
    #expect(GalaxyBudsModel.laterRenamed.connectionUUID == GalaxyBuds.buds2UUID)
    #expect(GalaxyBudsModel.buds.framing == .legacy)
    #expect(GalaxyBudsModel.budsPlus.framing == .standard)
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
