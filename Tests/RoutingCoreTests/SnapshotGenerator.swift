// Seeded random snapshots and policies for the property tests, and a
// shrinker that reduces a failing snapshot to a small one. Everything is
// derived from one 64-bit seed, so a failure reproduces exactly.

import Foundation
import PolicyFiles
import RoutingCore

/// SplitMix64: a small, fast, seeded generator, so that runs reproduce.
struct PropertyRNG: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns true with the given probability.
  mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  /// Returns a whole number in the range.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// Returns one of the elements.
  mutating func pick<T>(_ elements: [T]) -> T {
    elements[Int.random(in: 0..<elements.count, using: &self)]
  }

  /// Returns a seed derived from a base seed and an index.
  static func derive(_ base: UInt64, _ index: Int) -> UInt64 {
    var rng = PropertyRNG(seed: base ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return rng.next()
  }
}

/// A policy the generator can start from, with a name for reports.
struct NamedPolicy: Sendable {
  let name: String
  let policy: Policy
}

/// One generated case: a snapshot, a policy, and the seed that made them.
struct PropertyCase: Sendable {
  let index: Int
  let seed: UInt64
  let policyName: String
  let policy: Policy
  let snapshot: Snapshot
}

/// Makes varied snapshots and policies from a seed.
struct SnapshotGenerator {
  var rng: PropertyRNG
  let basePolicies: [NamedPolicy]

  init(seed: UInt64, basePolicies: [NamedPolicy]) {
    rng = PropertyRNG(seed: seed)
    self.basePolicies = basePolicies
  }

  /// Reads every policy file in a folder, plus the built-in defaults.
  static func loadPolicies(in directory: URL) throws -> [NamedPolicy] {
    let files = try FileManager.default.contentsOfDirectory(
      at: directory, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "json5" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    var policies = [NamedPolicy(name: "built-in Policy()", policy: Policy())]
    for file in files {
      policies.append(
        NamedPolicy(
          name: file.lastPathComponent,
          policy: try PolicyLoader.load(contentsOf: file)))
    }
    return policies
  }

  /// Makes one case from a seed.
  static func makeCase(
    index: Int, seed: UInt64, basePolicies: [NamedPolicy]
  ) throws -> PropertyCase {
    var generator = SnapshotGenerator(seed: seed, basePolicies: basePolicies)
    let (name, policy) = try generator.makePolicy()
    let snapshot = generator.makeSnapshot()
    return PropertyCase(
      index: index, seed: seed, policyName: name, policy: policy,
      snapshot: snapshot)
  }

  // MARK: - Policies

  /// Returns a policy: a file's, the built-in one, or a generated one, with
  /// random tweaks of the grace times and flags.
  mutating func makePolicy() throws -> (String, Policy) {
    var name: String
    var policy: Policy
    if rng.chance(0.15) {
      let text = makePolicyText()
      name = "generated: \(text)"
      policy = try PolicyLoader.parse(Data(text.utf8))
    } else {
      let base = rng.pick(basePolicies)
      name = base.name
      policy = base.policy
    }
    if rng.chance(0.6) {
      var tweaks: [String] = []
      if rng.chance(0.3) {
        policy.offHeadGraceSeconds = seconds([0, 1, 3, 5, 30])
        tweaks.append("offHeadGraceSeconds=\(policy.offHeadGraceSeconds)")
      }
      if rng.chance(0.3) {
        policy.reappearGraceSeconds = seconds([0, 2, 5, 10])
        tweaks.append("reappearGraceSeconds=\(policy.reappearGraceSeconds)")
      }
      if rng.chance(0.3) {
        policy.manualChoiceHoldSeconds = seconds([0, 0, 1, 5, 60])
        tweaks.append(
          "manualChoiceHoldSeconds=\(policy.manualChoiceHoldSeconds)")
      }
      if rng.chance(0.3) {
        policy.eligibleWhenPlacementUnknown.toggle()
        tweaks.append(
          "eligibleWhenPlacementUnknown=\(policy.eligibleWhenPlacementUnknown)"
        )
      }
      if rng.chance(0.2) {
        policy.requirePlacement.toggle()
        tweaks.append("requirePlacement=\(policy.requirePlacement)")
      }
      if rng.chance(0.3) {
        policy.whenTakenOff = rng.pick(Policy.TakenOffAction.allCases)
        tweaks.append("whenTakenOff=\(policy.whenTakenOff)")
      }
      if rng.chance(0.3) {
        policy.takeWhenSecondarySource.toggle()
        tweaks.append(
          "takeWhenSecondarySource=\(policy.takeWhenSecondarySource)")
      }
      if rng.chance(0.3) {
        policy.manualChoiceRespect = rng.pick(
          Policy.ManualChoiceRespect.allCases)
        tweaks.append("manualChoiceRespect=\(policy.manualChoiceRespect)")
      }
      if rng.chance(0.2) {
        policy.streamsFollow.toggle()
        tweaks.append("streamsFollow=\(policy.streamsFollow)")
      }
      if rng.chance(0.2) {
        policy.activateOutputProfile.toggle()
        tweaks.append("activateOutputProfile=\(policy.activateOutputProfile)")
      }
      if !tweaks.isEmpty {
        name += " with " + tweaks.joined(separator: ", ")
      }
    }
    return (name, policy)
  }

  private mutating func seconds(_ choices: [Double]) -> Double {
    rng.chance(0.2)
      ? (Double.random(in: 0...12, using: &rng) * 4).rounded() / 4
      : rng.pick(choices)
  }

  /// Returns a JSON5 policy with random exclusions, priorities and routes.
  private mutating func makePolicyText() -> String {
    let matches = [
      "{ name: \"*hdmi*\" }",
      "{ activePort: \"*hdmi*\" }",
      "{ name: \"*displayport*\" }",
      "{ properties: { \"device.form_factor\": \"tv\" } }",
      "{ properties: { \"device.form_factor\": \"monitor\" } }",
      "{ properties: { \"device.bus\": \"usb\" } }",
      "{ properties: { \"device.form_factor\": \"headset\" } }",
      "{ properties: { \"device.form_factor\": \"internal\" } }",
      "{ description: \"*speaker*\" }",
      "{ name: \"alsa_output.pci-*\" }",
      "{ name: \"bluez_output.*\" }",
      "{ activePort: \"*headphone*\" }",
    ]
    let excludes = matches.filter { _ in rng.chance(0.3) }
    let priorities = matches.filter { _ in rng.chance(0.3) }.map {
      "{ match: \($0), priority: \(rng.int(-20...100)) }"
    }
    var roles: [String] = []
    for role in ["phone", "music", "game"] where rng.chance(0.4) {
      let outputs = matches.filter { _ in rng.chance(0.25) }
      roles.append(
        "{ role: \"\(role)\", outputs: [\(outputs.joined(separator: ", "))] }")
    }
    return
      "{ version: 1, streams: { roles: [\(roles.joined(separator: ", "))] }, "
      + "outputs: { exclude: [\(excludes.joined(separator: ", "))], "
      + "priorities: [\(priorities.joined(separator: ", "))] } }"
  }

  // MARK: - Snapshots

  /// Addresses of accessories (registered or not).
  private static let accessoryPool = (1...8).map {
    "AA:BB:CC:DD:EE:\(hex($0))"
  }
  /// Addresses of this host's adapters.
  private static let hostPool = ["00:1A:7D:DA:71:01", "00:1A:7D:DA:71:02"]
  /// Addresses of other hosts.
  private static let otherPool = ["F0:0D:00:00:00:01", "F0:0D:00:00:00:02"]

  private static func hex(_ value: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
  }

  /// Writes an address as a client might: upper or lower case, `:` or `-`.
  private mutating func spell(_ address: String) -> String {
    var text = address
    if rng.chance(0.2) { text = text.lowercased() }
    if rng.chance(0.1) {
      text = String(text.map { $0 == ":" ? "-" : $0 })
    }
    return text
  }

  /// Returns a time near now, often exactly at a grace time's edge.
  private mutating func time(near now: Instant) -> Instant {
    if rng.chance(0.3) {
      return now - Double.random(in: -1...20, using: &rng)
    }
    return now
      - rng.pick([
        3600, 60, 30, 10, 6, 5, 4.5, 3, 2.5, 1, 0.5, 0, -0.5, -2,
      ])
  }

  /// Returns a random snapshot.
  mutating func makeSnapshot() -> Snapshot {
    let now = 1_700_000_000 + Double(rng.int(0...100_000))
    var snapshot = Snapshot(now: now)

    // Host adapters.
    let hostCount = rng.pick([0, 1, 1, 2])
    for address in Self.hostPool.prefix(hostCount) {
      snapshot.hostAddresses.append(spell(address))
    }

    // Accessories.
    let addresses = Self.accessoryPool.shuffled(using: &rng)
    let accessoryCount = rng.int(0...6)
    for (position, address) in addresses.prefix(accessoryCount).enumerated() {
      let reportsPlacement = rng.chance(0.7)
      var placement: Accessory.Placement?
      if reportsPlacement, !rng.chance(0.2) {
        placement =
          rng.chance(0.35)
          ? .offHead : rng.pick([.inEar, .onHead, .overTheEar])
      }
      snapshot.accessories.append(
        Accessory(
          address: spell(address),
          name: "Accessory \(position + 1)",
          audioSwitching: rng.chance(0.85),
          reportsPlacement: reportsPlacement,
          placement: placement,
          primarySource: source(0.6),
          secondarySource: source(0.35),
          placementChangedAt: time(near: now),
          connectionChangedAt: time(near: now),
          outputMissingSince: rng.chance(0.3) ? time(near: now) : nil))
    }
    let registered = Array(addresses.prefix(accessoryCount))
    let unregistered = Array(addresses.dropFirst(accessoryCount))

    // Outputs.
    let outputCount = rng.int(0...10)
    for index in 0..<outputCount {
      snapshot.outputs.append(
        makeOutput(
          index: index, registered: registered, unregistered: unregistered))
    }

    // Cards: at most one per accessory (a Bluetooth device has one card),
    // plus cards of the host's own sound hardware.
    for address in registered + unregistered.prefix(1) where rng.chance(0.35) {
      snapshot.cards.append(makeAccessoryCard(address))
    }
    for index in 0..<rng.pick([0, 0, 1, 2]) {
      snapshot.cards.append(
        Card(
          name: "alsa_card.pci-0000_00_1f.\(index)",
          activeProfile: "output:analog-stereo",
          profiles: [
            .init(name: "off", outputCount: 0),
            .init(name: "output:analog-stereo", outputCount: 1, priority: 60),
          ]))
    }

    // Streams, on outputs that exist and on outputs that have gone.
    let names = snapshot.outputs.map(\.name)
    let stale = ["alsa_output.gone.analog-stereo", "bluez_output.gone.1"]
    var ids = Set<UInt32>()
    for _ in 0..<rng.int(0...20) {
      var id = UInt32(rng.int(0...400))
      while ids.contains(id) { id = UInt32(rng.int(0...400)) }
      ids.insert(id)
      let output =
        !names.isEmpty && rng.chance(0.85) ? rng.pick(names) : rng.pick(stale)
      snapshot.streams.append(
        RoutingCore.Stream(
          id: id, output: output,
          role: rng.pick([nil, nil, "music", "phone", "phone", "video", "game"]
          ),
          application: rng.pick([nil, "Firefox", "Zoom", "mpv", "Spotify"]),
          pinnedBy: rng.chance(0.75)
            ? nil : rng.pick([RoutingCore.Stream.Pin.user, .application])))
    }

    // The default, the person's choice and the history.
    func anyName() -> String {
      !names.isEmpty && rng.chance(0.8) ? rng.pick(names) : rng.pick(stale)
    }
    snapshot.defaultOutput = rng.chance(0.15) ? nil : anyName()
    if rng.chance(0.35) {
      snapshot.manualChoice = ManualChoice(
        output: anyName(), at: time(near: now))
    }
    for _ in 0..<rng.int(0...4) {
      let name = anyName()
      if name != snapshot.defaultOutput, !snapshot.outputHistory.contains(name)
      {
        snapshot.outputHistory.append(name)
      }
    }
    return snapshot
  }

  /// Returns an audio source address: none, this host, or another host.
  private mutating func source(_ probability: Double) -> String? {
    guard rng.chance(probability) else { return nil }
    return spell(
      rng.chance(0.55) ? rng.pick(Self.hostPool) : rng.pick(Self.otherPool))
  }

  private mutating func ports(
    _ names: [String]
  ) -> (ports: [Output.Port], active: String?) {
    let ports = names.map {
      Output.Port(name: $0, isAvailable: rng.chance(0.75))
    }
    if ports.isEmpty || rng.chance(0.15) { return (ports, nil) }
    if rng.chance(0.08) { return (ports, "missing-port") }
    return (ports, rng.pick(ports).name)
  }

  private mutating func makeOutput(
    index: Int, registered: [String], unregistered: [String]
  ) -> Output {
    let kind = rng.int(0...10)
    switch kind {
    case 0...3:
      // An accessory's output, usually one that is registered.
      let owner =
        !registered.isEmpty && rng.chance(0.8)
        ? rng.pick(registered) : rng.pick(unregistered + registered)
      let underscored = String(owner.map { $0 == ":" ? "_" : $0 })
      let (ports, active) =
        rng.chance(0.5)
        ? ([], nil) : ports(["headphone-output", "headset-output"])
      return Output(
        name: "bluez_output.\(underscored).\(index)",
        description: "Headphones \(index)",
        properties: [
          "device.bus": "bluetooth",
          "device.form_factor": rng.pick(["headset", "headphone", "hands-free"]
          ),
        ],
        ports: ports, activePort: active, accessory: spell(owner))
    case 4:
      // A display, by name or by port.
      let (ports, active) = ports(["hdmi-output-0", "hdmi-output-1"])
      return Output(
        name: rng.chance(0.7)
          ? "alsa_output.pci-0000_01_00.1.hdmi-stereo.\(index)"
          : "alsa_output.pci-0000_01_00.1.displayport.\(index)",
        description: "HDMI / DisplayPort \(index)",
        properties: ["device.bus": "pci"],
        ports: ports, activePort: active)
    case 5:
      // A television or a monitor, known by its form factor.
      return Output(
        name: "alsa_output.platform-display.\(index)",
        description: "Living Room TV \(index)",
        properties: ["device.form_factor": rng.pick(["tv", "monitor"])])
    case 6, 7:
      // The built-in card: speakers, headphones jack, maybe HDMI.
      let (ports, active) = ports(
        ["analog-output-speaker", "analog-output-headphones", "hdmi-output-0"])
      return Output(
        name: "alsa_output.pci-0000_00_1f.3.analog-stereo.\(index)",
        description: "Built-in Audio Speaker \(index)",
        properties: ["device.bus": "pci", "device.form_factor": "internal"],
        ports: ports, activePort: active)
    case 8, 9:
      // A USB device, sometimes a headset.
      let (ports, active) = ports(["analog-output"])
      return Output(
        name: "alsa_output.usb-Focusrite-00.analog-stereo.\(index)",
        description: "USB Audio \(index)",
        properties: [
          "device.bus": "usb",
          "device.form_factor": rng.pick(["headset", "speaker", "headphone"]),
        ],
        ports: ports, activePort: active)
    default:
      // A virtual output without properties.
      return Output(name: "null-sink.\(index)")
    }
  }

  private mutating func makeAccessoryCard(_ address: String) -> Card {
    let underscored = String(address.map { $0 == ":" ? "_" : $0 })
    let profiles = [
      Card.Profile(name: "off", outputCount: 0),
      Card.Profile(
        name: "a2dp-sink", outputCount: 1, priority: rng.int(0...60),
        isAvailable: rng.chance(0.8)),
      Card.Profile(
        name: "headset-head-unit", outputCount: 1, priority: rng.int(0...60),
        isAvailable: rng.chance(0.8)),
    ]
    return Card(
      name: "bluez_card.\(underscored)", accessory: spell(address),
      activeProfile: rng.pick([
        nil, "off", "off", "a2dp-sink", "headset-head-unit", "gone",
      ]),
      profiles: profiles)
  }
}

// MARK: - Shrinking

/// Reduces a failing snapshot: removes elements and clears fields while the
/// failure remains, until no single step keeps it failing.
enum SnapshotShrinker {
  /// Returns a smaller snapshot for which `fails` still holds.
  static func shrink(
    _ snapshot: Snapshot, fails: (Snapshot) -> Bool
  ) -> Snapshot {
    var current = snapshot
    var improved = true
    var rounds = 0
    while improved, rounds < 50 {
      improved = false
      rounds += 1
      for candidate in reductions(of: current) where fails(candidate) {
        current = candidate
        improved = true
        break
      }
    }
    return current
  }

  /// Every snapshot one step smaller than the given one.
  private static func reductions(of s: Snapshot) -> [Snapshot] {
    var result: [Snapshot] = []
    func removing<T>(
      _ keyPath: WritableKeyPath<Snapshot, [T]>
    ) {
      for index in s[keyPath: keyPath].indices {
        var copy = s
        copy[keyPath: keyPath].remove(at: index)
        result.append(copy)
      }
    }
    removing(\.accessories)
    removing(\.outputs)
    removing(\.cards)
    removing(\.streams)
    removing(\.hostAddresses)
    removing(\.outputHistory)
    if s.manualChoice != nil {
      var copy = s
      copy.manualChoice = nil
      result.append(copy)
    }
    if s.defaultOutput != nil {
      var copy = s
      copy.defaultOutput = nil
      result.append(copy)
    }
    for index in s.accessories.indices {
      let accessory = s.accessories[index]
      var edits: [(inout Accessory) -> Void] = []
      if accessory.primarySource != nil {
        edits.append { $0.primarySource = nil }
      }
      if accessory.secondarySource != nil {
        edits.append { $0.secondarySource = nil }
      }
      if accessory.outputMissingSince != nil {
        edits.append { $0.outputMissingSince = nil }
      }
      if accessory.placementChangedAt != 0 {
        edits.append { $0.placementChangedAt = 0 }
      }
      if accessory.connectionChangedAt != 0 {
        edits.append { $0.connectionChangedAt = 0 }
      }
      for edit in edits {
        var copy = s
        edit(&copy.accessories[index])
        result.append(copy)
      }
    }
    for index in s.outputs.indices {
      let output = s.outputs[index]
      var edits: [(inout Output) -> Void] = []
      for key in output.properties.keys.sorted() {
        edits.append { $0.properties[key] = nil }
      }
      for port in output.ports.indices {
        edits.append { $0.ports.remove(at: port) }
      }
      if output.activePort != nil { edits.append { $0.activePort = nil } }
      if output.description != output.name {
        edits.append { $0.description = $0.name }
      }
      for edit in edits {
        var copy = s
        edit(&copy.outputs[index])
        result.append(copy)
      }
    }
    for index in s.cards.indices {
      for profile in s.cards[index].profiles.indices {
        var copy = s
        copy.cards[index].profiles.remove(at: profile)
        result.append(copy)
      }
    }
    for index in s.streams.indices {
      let stream = s.streams[index]
      var edits: [(inout RoutingCore.Stream) -> Void] = []
      if stream.role != nil { edits.append { $0.role = nil } }
      if stream.application != nil { edits.append { $0.application = nil } }
      if stream.pinnedBy != nil { edits.append { $0.pinnedBy = nil } }
      for edit in edits {
        var copy = s
        edit(&copy.streams[index])
        result.append(copy)
      }
    }
    return result
  }
}

extension Snapshot {
  /// The snapshot as sorted, indented JSON, for failure reports.
  var propertyReportJSON: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let data = try? encoder.encode(self) else { return "\(self)" }
    return String(decoding: data, as: UTF8.self)
  }
}
