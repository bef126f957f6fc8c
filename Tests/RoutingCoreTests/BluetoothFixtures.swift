// A Bluetooth headset as PipeWire 0.3.65 and PulseAudio 16.1 show it
// through the PulseAudio protocol: its card with the profiles of
// spa/plugins/bluez5/bluez5-device.c and module-bluez5-device.c, the sinks
// and sources each profile makes, and a speaker and microphones built in.

import Foundation
import RoutingCore
import Testing

/// One headset on one server, with the machine's own devices.
struct BluetoothFixtures {
  /// Which server's names and properties.
  enum Server: String, CaseIterable, CustomTestStringConvertible {
    case pipeWire
    case pulseAudio

    var testDescription: String {
      self == .pipeWire ? "PipeWire" : "PulseAudio"
    }
  }

  /// The headset's Bluetooth address.
  static let address = "AA:BB:CC:DD:EE:FF"

  /// The built-in speaker.
  static let speaker = Output(
    name: "alsa_output.pci-0000_00_1f.3.analog-stereo",
    description: "Built-in Audio Analog Stereo",
    properties: ["device.bus": "pci", "device.form_factor": "internal"])
  /// The built-in microphone.
  static let builtInMicrophone = Input(
    name: "alsa_input.pci-0000_00_1f.3.analog-stereo",
    description: "Built-in Audio Analog Stereo",
    properties: ["device.bus": "pci", "device.form_factor": "internal"])
  /// The monitor of the speaker: what it plays, not a microphone.
  static let speakerMonitor = Input(
    name: speaker.name + ".monitor",
    description: "Monitor of Built-in Audio Analog Stereo",
    monitorOf: speaker.name)
  /// A USB microphone the person may choose.
  static let usbMicrophone = Input(
    name: "alsa_input.usb-Blue_Yeti-00.analog-stereo",
    description: "Yeti Stereo Microphone", properties: ["device.bus": "usb"])

  let server: Server
  let cardName: String
  /// The profile it plays music in.
  let musicProfile: String
  /// The headset profile a call should get.
  let headsetProfile: String
  let card: Card
  let musicSink: Output
  let headsetSink: Output
  let headsetSource: Input

  init(_ server: Server) {
    self.server = server
    let underscored = Self.address.replacingOccurrences(of: ":", with: "_")
    cardName = "bluez_card.\(underscored)"
    let common = [
      "device.bus": "bluetooth", "device.form_factor": "headset",
      "device.description": "Buds",
    ]
    switch server {
    case .pipeWire:
      // PipeWire 0.3.65 lists a generic profile and one per codec, and
      // reports the active one by its codec: priorities 16 for A2DP, 16 +
      // the codec's rank for each codec, 1 for the generic headset unit
      // (the server picks its codec), 2 for CVSD, 3 for mSBC.
      musicProfile = "a2dp-sink-sbc"
      headsetProfile = "headset-head-unit"
      card = Card(
        name: cardName, accessory: Self.address, activeProfile: musicProfile,
        profiles: [
          .init(name: "off", outputCount: 0, priority: 0),
          .init(name: "a2dp-sink", outputCount: 1, priority: 16),
          .init(name: "a2dp-sink-aac", outputCount: 1, priority: 18),
          .init(name: "a2dp-sink-sbc", outputCount: 1, priority: 17),
          .init(
            name: "headset-head-unit", outputCount: 1, inputCount: 1,
            priority: 1),
          .init(
            name: "headset-head-unit-cvsd", outputCount: 1, inputCount: 1,
            priority: 2),
          .init(
            name: "headset-head-unit-msbc", outputCount: 1, inputCount: 1,
            priority: 3),
        ])
      // The node names stay across profiles; api.bluez5.profile tells.
      let properties = common.merging([
        "api.bluez5.address": Self.address, "device.api": "bluez5",
        "device.string": Self.address, "api.bluez5.profile": "a2dp-sink",
        "api.bluez5.codec": "sbc",
      ]) { $1 }
      musicSink = Output(
        name: "bluez_output.\(underscored).1", description: "Buds",
        properties: properties, accessory: Self.address)
      headsetSink = Output(
        name: "bluez_output.\(underscored).1", description: "Buds",
        properties: properties.merging([
          "api.bluez5.profile": "headset-head-unit",
          "api.bluez5.codec": "msbc", "device.intended_roles": "Communication",
        ]) { $1 }, accessory: Self.address)
      headsetSource = Input(
        name: "bluez_input.\(underscored).0", description: "Buds",
        properties: properties.merging(
          ["api.bluez5.profile": "headset-head-unit"]) { $1 },
        accessory: Self.address)
    case .pulseAudio:
      // PulseAudio 16.1: one profile per role, the codec in
      // bluetooth.codec; the names of sinks and sources change with the
      // profile.
      musicProfile = "a2dp_sink"
      headsetProfile = "handsfree_head_unit"
      card = Card(
        name: cardName, accessory: Self.address, activeProfile: musicProfile,
        profiles: [
          .init(name: "off", outputCount: 0, priority: 0),
          .init(name: "a2dp_sink", outputCount: 1, priority: 40),
          .init(
            name: "headset_head_unit", outputCount: 1, inputCount: 1,
            priority: 30),
          .init(
            name: "handsfree_head_unit", outputCount: 1, inputCount: 1,
            priority: 30),
          .init(
            name: "a2dp_source", outputCount: 0, inputCount: 1, priority: 20),
        ])
      let properties = common.merging([
        "device.string": Self.address, "device.api": "bluez",
      ]) { $1 }
      musicSink = Output(
        name: "bluez_sink.\(underscored).a2dp_sink", description: "Buds",
        properties: properties.merging(["bluetooth.protocol": "a2dp_sink"]) {
          $1
        }, accessory: Self.address)
      headsetSink = Output(
        name: "bluez_sink.\(underscored).handsfree_head_unit",
        description: "Buds",
        properties: properties.merging([
          "bluetooth.protocol": "handsfree_head_unit",
          "device.intended_roles": "phone",
        ]) { $1 }, accessory: Self.address)
      headsetSource = Input(
        name: "bluez_source.\(underscored).handsfree_head_unit",
        description: "Buds",
        properties: properties.merging([
          "bluetooth.protocol": "handsfree_head_unit"
        ]) { $1 }, accessory: Self.address)
    }
  }

  /// The headset registered, in its music profile, playing music, with a
  /// placement and capture streams.
  func snapshot(
    placement: Accessory.Placement, captureStreams: [CaptureStream],
    now: Instant
  ) -> Snapshot {
    Snapshot(
      accessories: [
        Accessory(
          address: Self.address, name: "Buds", placement: placement,
          placementChangedAt: 10, connectionChangedAt: 5, registeredAt: 1)
      ],
      outputs: [Self.speaker, musicSink],
      cards: [card],
      streams: [Stream(id: 7, output: musicSink.name, role: "music")],
      defaultOutput: musicSink.name,
      inputs: [Self.builtInMicrophone, Self.speakerMonitor],
      captureStreams: captureStreams,
      defaultInput: Self.builtInMicrophone.name,
      now: now)
  }

  /// Worn, switched by the engine to its headset profile for a call that
  /// records since 90: its headset sink and microphone exist.
  func inCall(now: Instant) -> Snapshot {
    var snapshot = snapshot(
      placement: .inEar,
      captureStreams: [
        CaptureStream(
          id: 40, input: Self.builtInMicrophone.name, role: "phone",
          application: "Signal", recordingSince: 90)
      ], now: now)
    snapshot.cards[0].activeProfile = headsetProfile
    snapshot.outputs = [Self.speaker, headsetSink]
    snapshot.streams = [Stream(id: 7, output: headsetSink.name)]
    snapshot.defaultOutput = headsetSink.name
    snapshot.inputs.append(headsetSource)
    snapshot.callProfiles = [
      CallProfile(
        card: cardName, previousProfile: musicProfile,
        callProfile: headsetProfile)
    ]
    return snapshot
  }
}
