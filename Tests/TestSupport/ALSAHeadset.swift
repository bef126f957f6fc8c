// A real sound card as a Bluetooth headset, for calls: inside the Bluetooth
// VM (scripts/run-in-vm with snd-dummy and snd-aloop), the dummy card gets
// an accessory's Bluetooth properties, so it has a real output-only profile
// (as A2DP) and a real duplex one (as the headset profile); the loopback
// card's capture side is the built-in microphone. On PulseAudio the test
// loads the cards with module-alsa-card and module-alsa-source; on PipeWire
// WirePlumber's ALSA monitor opens them (udev must know them: the VM has no
// udevd of its own, so one is started) and rules give the dummy card and
// its nodes the properties. PipeWire names a node made again after a
// profile switch anew (`….stereo-fallback.2`), as its Bluetooth nodes may
// be: the headset's devices are told by their prefix.

import Foundation

/// Properties WirePlumber's ALSA monitor gives one real sound card and its
/// nodes, so that the card can stand for another device.
public struct ALSACardIdentity: Sendable, Hashable {
  /// The card's `device.name` as WirePlumber names it, such as
  /// `alsa_card.platform-snd_dummy.0`.
  public var deviceName: String
  /// The properties the card and each of its nodes get.
  public var properties: [String: String]

  /// Creates an identity.
  public init(deviceName: String, properties: [String: String]) {
    self.deviceName = deviceName
    self.properties = properties
  }

  /// WirePlumber 0.4's `alsa_monitor.rules` that give the properties: one
  /// for the device, one for its nodes (`alsa_output.<card>.*`,
  /// `alsa_input.<card>.*`).
  var wirePlumberRules: String {
    let card =
      deviceName.hasPrefix("alsa_card.")
      ? String(deviceName.dropFirst("alsa_card.".count)) : deviceName
    let values = properties.sorted { $0.key < $1.key }
      .map { "[\"\($0.key)\"] = \"\($0.value)\"" }.joined(separator: ", ")
    return [("device.name", deviceName), ("node.name", "alsa_*.\(card).*")]
      .map { key, pattern in
        """
        table.insert(alsa_monitor.rules, {
          matches = { { { "\(key)", "matches", "\(pattern)" } } },
          apply_properties = { \(values) },
        })
        """
      }.joined(separator: "\n")
  }
}

/// The dummy card as an accessory's headset, and the loopback card as the
/// laptop's microphone, on one server.
public struct ALSAHeadset: Sendable {
  /// The kernel modules the VM must load for it.
  public static let modules = ["snd-dummy", "snd-aloop"]
  /// The profile that only plays, as A2DP.
  public static let outputOnly = "output:stereo-fallback"
  /// The profile that plays and records, as the headset profile.
  public static let duplex = "output:stereo-fallback+input:stereo-fallback"

  /// The server.
  public let kind: SoundServerKind
  /// The headset's card.
  public let card: String
  /// The laptop's microphone.
  public let laptopMicrophone: String
  /// How the headset's sink is named, in either profile: PipeWire adds
  /// `.2`, `.3`, … each time a profile switch makes it again.
  public let sinkPrefix: String
  /// How the headset's microphone is named, likewise.
  public let microphonePrefix: String

  private init(_ kind: SoundServerKind) {
    self.kind = kind
    switch kind {
    case .pulseAudio:
      card = "alsa_card.buds"
      sinkPrefix = "alsa_output.buds.stereo-fallback"
      microphonePrefix = "alsa_input.buds.stereo-fallback"
      laptopMicrophone = "laptopmic"
    case .pipeWire:
      card = "alsa_card.platform-snd_dummy.0"
      sinkPrefix = "alsa_output.platform-snd_dummy.0.stereo-fallback"
      microphonePrefix = "alsa_input.platform-snd_dummy.0.stereo-fallback"
      laptopMicrophone = "alsa_input.platform-snd_aloop.0.analog-stereo"
    }
  }

  /// Whether a sink is the headset's, in either profile.
  public func isSink(_ name: String?) -> Bool {
    name?.hasPrefix(sinkPrefix) ?? false
  }

  /// Whether a source is the headset's microphone; its monitor is not.
  public func isMicrophone(_ name: String?) -> Bool {
    guard let name else { return false }
    return name.hasPrefix(microphonePrefix) && !name.hasSuffix(".monitor")
  }

  /// Starts a private server with a null speaker and both cards, the
  /// headset in its output-only profile and the laptop's microphone the
  /// default input, and waits until the server shows it.
  ///
  /// - Parameters:
  ///   - kind: The server.
  ///   - address: The accessory's Bluetooth address.
  /// - Throws: ``FixtureError`` outside the Bluetooth VM, whose cards are
  ///   the test's own.
  public static func start(
    _ kind: SoundServerKind, address: String
  ) async throws -> (SoundServer, ALSAHeadset) {
    guard BluetoothVM.isInside else {
      throw FixtureError(
        "the ALSA headset needs the Bluetooth VM's own sound cards")
    }
    let headset = ALSAHeadset(kind)
    let speaker = NullSinkSpec.speaker(
      name: "speaker", description: "Built-in Speaker")
    let server: SoundServer
    switch kind {
    case .pulseAudio:
      server = try await SoundServer.start(.pulseAudio, sinks: [speaker])
    case .pipeWire:
      try await startUdev()
      server = try await startPipeWire(
        headset, speaker: speaker, address: address)
    }
    do {
      if kind == .pulseAudio {
        try await headset.loadIntoPulseAudio(server, address: address)
      }
      try await headset.waitUntil(server, "the headset's card") {
        $0.profile != nil
      }
      _ = try await server.pactl(["set-card-profile", headset.card, outputOnly])
      try await headset.awaitLaptopMicrophone(on: server, within: .seconds(20))
      _ = try await server.pactl([
        "set-default-source", headset.laptopMicrophone,
      ])
      try await headset.waitUntil(server, "the headset in its music profile") {
        $0.profile == outputOnly && $0.input == headset.laptopMicrophone
      }
    } catch {
      await server.stopAndWait()
      throw error
    }
    return (server, headset)
  }

  /// Starts a server with both cards as ``start(_:address:)`` does, runs
  /// `body` with it, and stops it, returning only once its processes have
  /// exited: a server still closing would keep the cards busy for the
  /// next one, whose probe of them would then find no microphone.
  ///
  /// - Parameters:
  ///   - kind: The server.
  ///   - address: The accessory's Bluetooth address.
  ///   - body: What to do with the server and the headset.
  /// - Returns: What `body` returns.
  public static func withServer<Result: Sendable>(
    _ kind: SoundServerKind, address: String,
    _ body: (SoundServer, ALSAHeadset) async throws -> Result
  ) async throws -> Result {
    let (server, headset) = try await start(kind, address: address)
    do {
      let result = try await body(server, headset)
      await server.stopAndWait()
      return result
    } catch {
      await server.stopAndWait()
      throw error
    }
  }

  private func loadIntoPulseAudio(
    _ server: SoundServer, address: String
  ) async throws {
    let bluetooth =
      "device.bus=bluetooth device.api=bluez device.string=\(address) "
      + "device.form_factor=headset"
    // Values with spaces are quoted for PulseAudio's module arguments.
    _ = try await server.pactl([
      "load-module", "module-alsa-card", "device_id=0", "name=buds",
      "card_properties=\"\(bluetooth) device.description=Buds\"",
      "sink_properties=\"\(bluetooth)\"", "source_properties=\"\(bluetooth)\"",
    ])
    _ = try await server.pactl([
      "load-module", "module-alsa-source", "device=hw:1,1",
      "source_name=\(laptopMicrophone)",
      "source_properties=\"device.description=Laptop_Mic device.bus=pci "
        + "device.form_factor=internal\"",
    ])
  }

  /// Starts udevd inside the VM and has it learn the sound cards, as
  /// PipeWire's ALSA monitor finds cards through udev.
  ///
  /// A rule of its own makes the dummy card a headset: PipeWire's ALSA
  /// nodes take their form factor from udev's `SOUND_FORM_FACTOR`, over
  /// WirePlumber's rules.
  private static func startUdev() async throws {
    try await startUdevForSoundCards(
      rules: """
        SUBSYSTEM=="sound", KERNEL=="card*", ATTR{id}=="Dummy", \
          ENV{SOUND_FORM_FACTOR}="headset"

        """)
  }

  /// Starts PipeWire, whose WirePlumber opens both cards, and waits until
  /// it shows the headset's card and the laptop's microphone.
  ///
  /// Now and then a start in a fresh VM comes up without the loopback
  /// card's microphone, which WirePlumber's ALSA monitor then never adds:
  /// the card is given a profile that records, and failing that, the
  /// stack is started again, up to three times; the fixture says so on
  /// its output.
  private static func startPipeWire(
    _ headset: ALSAHeadset, speaker: NullSinkSpec, address: String
  ) async throws -> SoundServer {
    let cards = [
      ALSACardIdentity(
        deviceName: headset.card,
        properties: [
          "api.bluez5.address": address, "device.bus": "bluetooth",
          "device.form_factor": "headset", "device.description": "Buds",
        ])
    ]
    for attempt in 1...3 {
      let server = try await SoundServer.start(
        .pipeWire, sinks: [speaker], alsaCards: cards)
      do {
        try await headset.waitUntil(server, "the headset's card") {
          $0.profile != nil
        }
        do {
          try await headset.awaitLaptopMicrophone(
            on: server, within: .seconds(10))
        } catch is FixtureError {
          // The loopback card listed with no profile that records: given
          // one, as a person would in the sound settings.
          let profile = try await headset.giveTheLoopbackCardAnInput(server)
          print("ALSAHeadset: the loopback card had no input; set \(profile)")
          try await headset.awaitLaptopMicrophone(
            on: server, within: .seconds(20))
        }
        return server
      } catch let error as FixtureError where attempt < 3 {
        await server.stopAndWait()
        print(
          "ALSAHeadset: PipeWire came up without both cards; starting it "
            + "again. \(error)")
      } catch {
        await server.stopAndWait()
        throw error
      }
    }
    throw FixtureError("PipeWire never came up with both cards")
  }

  /// Waits until the server lists the laptop's microphone.
  ///
  /// - Throws: ``FixtureError`` after `limit`, with the server's cards,
  ///   the state of the machine's PCMs and the server's logs.
  /// Sets the loopback card's profile to one that records, when it is
  /// listed without one.
  ///
  /// - Returns: The profile set, or what the card showed instead.
  private func giveTheLoopbackCardAnInput(
    _ server: SoundServer
  ) async throws -> String {
    let card = "alsa_card.platform-snd_aloop.0"
    let cards = try await server.pactl(["list", "cards"])
    guard let start = cards.range(of: "Name: \(card)") else {
      return "nothing: the card is not listed"
    }
    let section =
      cards[start.upperBound...].components(
        separatedBy: "\nCard #"
      ).first ?? ""
    for profile in [
      "output:analog-stereo+input:analog-stereo", "input:analog-stereo",
    ] where section.contains("\t\t\(profile):") {
      _ = try await server.pactl(["set-card-profile", card, profile])
      return profile
    }
    return "nothing: its profiles are\n\(section)"
  }

  private func awaitLaptopMicrophone(
    on server: SoundServer, within limit: Duration
  ) async throws {
    let microphone = laptopMicrophone
    do {
      try await waitFor(
        "the laptop's microphone", within: limit,
        observing: { try await server.pactl(["list", "short", "sources"]) }
      ) { $0.contains(microphone) }
    } catch let error as FixtureError {
      let cards = (try? await server.pactl(["list", "short", "cards"])) ?? "?"
      let devices = try? await runProgram(
        "/bin/sh",
        [
          "-c",
          "grep -H . /proc/asound/card*/pcm*/sub*/status | grep -v closed; "
            + "udevadm info /sys/class/sound/card* | grep -E '^P|SOUND'",
        ],
        environment: ["PATH": SoundServer.searchPath])
      throw FixtureError(
        "\(error.message)\n--- pactl list short cards\n\(cards)\n"
          + "--- PCMs open, and udev's cards\n\(devices?.stdout ?? "?")",
        logTail: server.logTail(lines: 60))
    }
  }

  /// The headset card's profile and the default input, as the server
  /// shows them.
  public struct Observed: Sendable, CustomStringConvertible {
    /// The headset card's active profile, or nil while it is not listed.
    public var profile: String?
    /// The default input.
    public var input: String?

    /// Both, for failure messages.
    public var description: String {
      "profile \(profile ?? "none"), input \(input ?? "none")"
    }
  }

  /// Reads the headset card's profile and the default input.
  public func observe(_ server: SoundServer) async throws -> Observed {
    let cards = try await server.pactl(["list", "cards"])
    var profile: String?
    var inCard = false
    for line in cards.split(separator: "\n") {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("Name: ") { inCard = text == "Name: \(card)" }
      if inCard, text.hasPrefix("Active Profile: ") {
        profile = String(text.dropFirst("Active Profile: ".count))
      }
    }
    return Observed(
      profile: profile, input: try await server.defaultSourceName())
  }

  /// Polls every 50 ms until a condition holds, for 20 s at most.
  ///
  /// - Throws: ``FixtureError`` with the last observation after 20 s.
  public func waitUntil(
    _ server: SoundServer, _ what: String,
    _ condition: (Observed) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    var last = try await observe(server)
    while !condition(last) {
      guard ContinuousClock.now < deadline else {
        throw FixtureError(
          "timed out waiting for \(what); last: \(last)"
            + (await server.defaultsMetadata()))
      }
      try await Task.sleep(for: .milliseconds(50))
      last = try await observe(server)
    }
  }
}
