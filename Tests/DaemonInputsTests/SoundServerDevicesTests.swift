// The sound server's Bluetooth outputs as discovered devices: one record
// per address, with the card's profiles, the active one first.

import AccessorySetupKit
import DaemonInputs
import DaemonLifecycle
import SoundServerModel
import Testing

@Suite("Sound-server discovery source")
struct SoundServerDevicesTests {
  private func sink(
    _ index: UInt32, _ name: String, card: UInt32?,
    _ properties: [String: String]
  ) -> Sink {
    Sink(
      index: index, name: name, description: "Desc \(name)",
      properties: properties, ports: [], activePortName: nil,
      state: .running, isMuted: false, cardIndex: card,
      ownerModuleIndex: nil, driver: nil)
  }

  private func profile(_ name: String) -> CardProfile {
    CardProfile(
      name: name, description: name, sinkCount: 1, sourceCount: 0,
      priority: 0, isAvailable: true)
  }

  @Test func bluetoothSinksBecomeDevicesWithTheirCardsProfiles() {
    let card = Card(
      index: 7, name: "bluez_card.AA_BB_CC_DD_EE_01", driver: nil,
      properties: [:],
      profiles: [
        profile("a2dp-sink"), profile("headset-head-unit"), profile("off"),
      ],
      activeProfileName: "headset-head-unit", ownerModuleIndex: nil)
    let sinks = [
      sink(1, "speaker", card: nil, [:]),
      sink(
        2, "bluez_output.AA_BB_CC_DD_EE_01.1", card: 7,
        [
          "api.bluez5.address": "AA:BB:CC:DD:EE:01",
          "device.form_factor": "headset", "device.icon_name": "audio-headset",
        ]),
      // A second sink of the same device adds nothing.
      sink(
        3, "bluez_output.AA_BB_CC_DD_EE_01.2", card: 7,
        ["api.bluez5.address": "AA:BB:CC:DD:EE:01"]),
      sink(
        4, "phones", card: nil,
        ["device.api": "bluez", "device.string": "aa-bb-cc-dd-ee-02"]),
    ]
    let devices = SoundServerDevices.devices(in: sinks, cards: [card])
    #expect(
      devices.map(\.address.description) == [
        "AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02",
      ])
    let headset = devices[0]
    #expect(headset.alias == "Desc bluez_output.AA_BB_CC_DD_EE_01.1")
    #expect(headset.formFactor == .headset)
    #expect(headset.icon == "audio-headset")
    #expect(headset.audioOutput == "bluez_output.AA_BB_CC_DD_EE_01.1")
    #expect(headset.audioProfiles == ["headset-head-unit", "a2dp-sink", "off"])
    #expect(headset.isPaired && headset.isConnected)
    #expect(headset.sources == [.soundServer])
    #expect(devices[1].audioProfiles == [])
  }
}
