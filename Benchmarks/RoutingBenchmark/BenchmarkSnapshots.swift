// The snapshots the benchmark decides on, built deterministically from a
// fixed seed: a desk with a few accessories, and a very large registry.

import RoutingCore

/// SplitMix64: a small seeded generator, so that every run measures the
/// same snapshots.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a whole number below the bound.
  mutating func below(_ bound: Int) -> Int {
    Int.random(in: 0..<bound, using: &self)
  }
}

/// A snapshot to measure, with its size.
struct BenchmarkScenario {
  let name: String
  let accessoryCount: Int
  let outputCount: Int
  let streamCount: Int
  let snapshot: Snapshot

  /// The desk: 4 accessories, 8 outputs, 32 streams.
  static let small = make(
    name: "small", accessories: 4, outputs: 8, streams: 32)
  /// The stress case: 1,000 accessories, 500 outputs, 5,000 streams.
  static let large = make(
    name: "large", accessories: 1000, outputs: 500, streams: 5000)

  /// Builds a scenario.
  ///
  /// About half of the outputs belong to accessories; the rest are
  /// built-in speakers, USB devices, displays and virtual outputs.
  /// Accessories are worn, taken off, without placement, busy with
  /// other hosts, or lost their output a while ago; some have a card in the
  /// `off` profile. The first accessory was put on last, so it takes the
  /// output and the unpinned streams move to it; a manual choice made
  /// before that is set aside.
  static func make(
    name: String, accessories: Int, outputs: Int, streams: Int
  ) -> BenchmarkScenario {
    var rng = SeededGenerator(seed: 0x0BE0_C4A5_0000_0000 ^ UInt64(streams))
    let now: Instant = 1_700_000_000
    let host = "00:1A:7D:DA:71:01"
    let otherHost = "F0:0D:00:00:00:01"
    var snapshot = Snapshot(now: now)
    snapshot.hostAddresses = [host]

    let placements: [Accessory.Placement?] = [
      .inEar, .offHead, .onHead, nil, .offHead, .overTheEar,
    ]
    var addresses: [String] = []
    for index in 0..<accessories {
      let address = accessoryAddress(index)
      addresses.append(address)
      let reportsPlacement = index % 5 != 4
      snapshot.accessories.append(
        Accessory(
          address: address,
          name: "Headphones \(index + 1)",
          audioSwitching: index % 10 != 9,
          reportsPlacement: reportsPlacement,
          placement: reportsPlacement
            ? placements[index % placements.count] : nil,
          primarySource: [host, otherHost, nil][index % 3],
          secondarySource: index % 4 == 1 ? host : nil,
          placementChangedAt: now - Double(10 + rng.below(3600)),
          connectionChangedAt: now - Double(10 + rng.below(3600)),
          outputMissingSince: index % 7 == 3
            ? now - Double(30 + rng.below(300)) : nil))
    }
    // The first accessory was put on a moment ago: it takes the output, and
    // the streams follow it.
    if !snapshot.accessories.isEmpty {
      snapshot.accessories[0].placementChangedAt = now - 2
    }

    // Accessory outputs: about half of the outputs.
    let accessoryOutputs = min(accessories * 3 / 4, outputs / 2)
    for index in 0..<accessoryOutputs {
      let address = addresses[index]
      let underscored = String(address.map { $0 == ":" ? "_" : $0 })
      snapshot.outputs.append(
        Output(
          name: "bluez_output.\(underscored).1",
          description: "Headphones \(index + 1)",
          properties: [
            "device.bus": "bluetooth",
            "device.form_factor": index % 2 == 0 ? "headphone" : "headset",
          ],
          ports: [Output.Port(name: "headphone-output")],
          activePort: "headphone-output",
          accessory: address))
    }
    // Cards in the `off` profile for some accessories without an output.
    for index in accessoryOutputs..<accessories where index % 4 == 0 {
      let address = addresses[index]
      let underscored = String(address.map { $0 == ":" ? "_" : $0 })
      snapshot.cards.append(
        Card(
          name: "bluez_card.\(underscored)", accessory: address,
          activeProfile: "off",
          profiles: [
            .init(name: "off", outputCount: 0),
            .init(name: "a2dp-sink", outputCount: 1, priority: 40),
            .init(name: "headset-head-unit", outputCount: 1, priority: 20),
          ]))
    }
    // The host's own outputs.
    for index in 0..<(outputs - accessoryOutputs) {
      snapshot.outputs.append(hostOutput(index))
    }

    let names = snapshot.outputs.map(\.name)
    let roles: [String?] = [
      nil, "music", "phone", "video", nil, "game", "event",
    ]
    for index in 0..<streams {
      let pin: RoutingCore.Stream.Pin? =
        index % 10 == 0 ? (index % 20 == 0 ? .user : .application) : nil
      snapshot.streams.append(
        RoutingCore.Stream(
          id: UInt32(index + 1),
          output: index % 25 == 24
            ? "alsa_output.gone.analog-stereo" : names[rng.below(names.count)],
          role: roles[index % roles.count],
          application: ["Firefox", "Zoom", "mpv", "Spotify"][index % 4],
          pinnedBy: pin))
    }

    // The built-in speakers are the default; the history holds a few more.
    snapshot.defaultOutput = names[accessoryOutputs]
    snapshot.outputHistory =
      Array(
        names.dropFirst(accessoryOutputs + 1).prefix(3)) + names.prefix(2)
    snapshot.manualChoice = ManualChoice(
      output: names[names.count - 1], at: now - 7200)

    return BenchmarkScenario(
      name: name, accessoryCount: accessories, outputCount: outputs,
      streamCount: streams, snapshot: snapshot)
  }

  private static func accessoryAddress(_ index: Int) -> String {
    let bytes = [
      0xAA, 0xBB, 0xCC, (index >> 16) & 0xFF, (index >> 8) & 0xFF, index & 0xFF,
    ]
    return bytes.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return digits.count < 2 ? "0" + digits : digits
    }.joined(separator: ":")
  }

  /// One of the host's outputs, in a fixed rotation of kinds.
  private static func hostOutput(_ index: Int) -> Output {
    switch index % 6 {
    case 0:
      return Output(
        name: "alsa_output.pci-0000_00_1f.3.analog-stereo.\(index)",
        description: "Built-in Audio Analog Stereo",
        properties: ["device.bus": "pci", "device.form_factor": "internal"],
        ports: [
          Output.Port(name: "analog-output-speaker"),
          Output.Port(name: "analog-output-headphones", isAvailable: false),
        ],
        activePort: "analog-output-speaker")
    case 1:
      return Output(
        name: "alsa_output.pci-0000_01_00.1.hdmi-stereo.\(index)",
        description: "HDMI Audio",
        properties: ["device.bus": "pci"],
        ports: [Output.Port(name: "hdmi-output-0")],
        activePort: "hdmi-output-0")
    case 2:
      return Output(
        name: "alsa_output.usb-Jabra-00.analog-stereo.\(index)",
        description: "USB Headset",
        properties: ["device.bus": "usb", "device.form_factor": "headset"],
        ports: [Output.Port(name: "analog-output")],
        activePort: "analog-output")
    case 3:
      return Output(
        name: "alsa_output.platform-display.\(index)",
        description: "Living Room TV",
        properties: ["device.form_factor": "tv"])
    case 4:
      return Output(
        name: "alsa_output.usb-Focusrite-00.analog-stereo.\(index)",
        description: "USB Interface",
        properties: ["device.bus": "usb", "device.form_factor": "speaker"],
        ports: [
          Output.Port(name: "analog-output", isAvailable: index % 4 != 0)
        ],
        activePort: "analog-output")
    default:
      return Output(name: "null-sink.\(index)", description: "Null Output")
    }
  }
}
