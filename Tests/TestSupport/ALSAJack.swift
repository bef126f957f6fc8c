// A real sound card with a headphone jack, for wired headphones: inside the
// Bluetooth VM (scripts/run-in-vm with snd-dummy), the dummy card is given
// the kernel's user-defined controls a laptop's codec has: "Headphone Jack"
// (the jack's presence, as the codec's jack detection reports it) and the
// headphone and speaker playback switches and volumes. Both servers read
// them through ALSA's mixer paths (`analog-output-headphones`, `[Jack
// Headphone]`): the card's output gets a speaker port and a headphone port
// whose availability follows the jack, and the server switches the active
// port as the jack is plugged and pulled (PulseAudio with
// module-switch-on-port-available, WirePlumber by itself). The test plugs
// and pulls the jack by writing the control, as the driver would.

import Foundation

/// The dummy card as a laptop's sound card with a headphone jack.
public struct ALSAJack: Sendable {
  /// The kernel modules the VM must load for it.
  public static let modules = ["snd-dummy"]
  /// The headphone port's name, on both servers.
  public static let headphonePort = "analog-output-headphones"
  /// The speaker port's name, on both servers.
  public static let speakerPort = "analog-output-speaker"

  /// The server.
  public let kind: SoundServerKind
  /// The card's output.
  public let sink: String

  private init(_ kind: SoundServerKind) {
    self.kind = kind
    sink =
      kind == .pulseAudio
      ? "alsa_output.laptop.stereo-fallback"
      : "alsa_output.platform-snd_dummy.0.stereo-fallback"
  }

  /// The controls, as `alsactl restore` makes them: user-defined, so the
  /// dummy driver, which has no jack of its own, carries them (volumes from
  /// -50 dB to 0 dB in 0.5 dB steps).
  private static var controls: String {
    var parts = [
      control(101, "CARD", "Headphone Jack", type: "BOOLEAN", values: ["false"])
    ]
    for (offset, part) in ["Headphone", "Speaker"].enumerated() {
      parts.append(
        control(
          102 + 2 * offset, "MIXER", "\(part) Playback Switch",
          type: "BOOLEAN", values: ["true", "true"]))
      parts.append(
        control(
          103 + 2 * offset, "MIXER", "\(part) Playback Volume",
          type: "INTEGER", values: ["80", "80"],
          extra: "range '0 - 100'\ntlv '0000000100000008ffffec7800000032'"))
    }
    return "state.Dummy {\n" + parts.joined(separator: "\n") + "\n}\n"
  }

  private static func control(
    _ number: Int, _ interface: String, _ name: String, type: String,
    values: [String], extra: String = ""
  ) -> String {
    let valueLines =
      values.count == 1
      ? ["value \(values[0])"]
      : values.enumerated().map { "value.\($0.offset) \($0.element)" }
    return """
      control.\(number) {
      iface \(interface)
      name '\(name)'
      \(valueLines.joined(separator: "\n"))
      comment {
      access 'read write user'
      type \(type)
      count \(values.count)
      \(extra)
      }
      }
      """
  }

  /// Starts a private server with the card, the headphones plugged in and
  /// playing, runs `body`, and stops the server, returning once its
  /// processes have exited.
  ///
  /// - Throws: ``FixtureError`` outside the Bluetooth VM, whose card is the
  ///   test's own.
  public static func withServer<Result: Sendable>(
    _ kind: SoundServerKind,
    _ body: (SoundServer, ALSAJack) async throws -> Result
  ) async throws -> Result {
    guard BluetoothVM.isInside else {
      throw FixtureError("the headphone jack needs the Bluetooth VM's card")
    }
    let jack = ALSAJack(kind)
    // A second output, as a laptop's HDMI, on PulseAudio, whose fixture
    // starts with one of its own. On PipeWire the card is the only output:
    // beside another, WirePlumber 0.4 moves its default to it and back as
    // the card's routes change.
    let hdmi = NullSinkSpec.speaker(name: "hdmi", description: "HDMI")
    try await prepareServerRootInsideTheVM()
    try await makeControls()
    try await jack.plug(true)
    let server: SoundServer
    switch kind {
    case .pulseAudio:
      server = try await SoundServer.start(.pulseAudio, sinks: [hdmi])
      do {
        _ = try await server.pactl([
          "load-module", "module-alsa-card", "device_id=0", "name=laptop",
          "card_properties=device.description=Laptop",
        ])
        _ = try await server.pactl([
          "load-module", "module-switch-on-port-available",
        ])
      } catch {
        await server.stopAndWait()
        throw error
      }
    case .pipeWire:
      try await startUdevForSoundCards(rules: nil)
      server = try await SoundServer.start(
        .pipeWire, sinks: [],
        alsaCards: [
          ALSACardIdentity(
            deviceName: "alsa_card.platform-snd_dummy.0",
            properties: ["device.description": "Laptop"])
        ])
    }
    do {
      try await jack.awaitSink(on: server)
      _ = try await server.pactl(["set-default-sink", jack.sink])
      try await jack.awaitHeadphonesAtTheStart(on: server)
      let result = try await body(server, jack)
      await server.stopAndWait()
      return result
    } catch {
      await server.stopAndWait()
      throw error
    }
  }

  /// Makes the controls once per boot: they stay until the card goes.
  private static func makeControls() async throws {
    let listed = try await runProgram(
      "/usr/bin/amixer", ["-c", "0", "controls"],
      environment: ["PATH": SoundServer.searchPath])
    guard !listed.stdout.contains("'Headphone Jack'") else { return }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-jack-\(UUID().uuidString).state")
    try controls.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    // -I: no generic initialisation of the card, which has no such file.
    try await runMachineProgram([
      "/usr/sbin/alsactl", "-I", "-f", file.path, "restore", "0",
    ])
  }

  /// Plugs the headphones in, or pulls them out: writes the jack's
  /// control, as the codec's driver does.
  public func plug(_ plugged: Bool) async throws {
    try await runMachineProgram([
      "/usr/bin/amixer", "-q", "-c", "0", "cset",
      "iface=CARD,name=Headphone Jack", plugged ? "on" : "off",
    ])
  }

  /// The card's output's active port, as the server shows it.
  public func activePort(on server: SoundServer) async throws -> String? {
    let listed = try await server.pactl(["list", "sinks"])
    var inSink = false
    for line in listed.split(separator: "\n") {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("Name: ") { inSink = text == "Name: \(sink)" }
      if inSink, text.hasPrefix("Active Port: ") {
        return String(text.dropFirst("Active Port: ".count))
      }
    }
    return nil
  }

  /// Waits until the card's output has this active port.
  public func awaitActivePort(
    _ port: String, on server: SoundServer,
    within limit: Duration = .seconds(20)
  ) async throws {
    try await waitFor(
      "the active port \(port)", within: limit,
      observing: { try await activePort(on: server) ?? "none" }
    ) { $0 == port }
  }

  /// Waits until the card's output plays on the headphones as the server
  /// starts.
  ///
  /// WirePlumber now and then misses a jack plugged before it opened the
  /// card and stays on the speakers: the jack is pulled and plugged again
  /// every 5 s meanwhile, up to six times.
  private func awaitHeadphonesAtTheStart(on server: SoundServer) async throws {
    for attempt in 1...6 {
      do {
        try await awaitActivePort(
          ALSAJack.headphonePort, on: server, within: .seconds(5))
        return
      } catch let error as FixtureError {
        guard attempt < 6 else { throw error }
        try await plug(false)
        try await plug(true)
      }
    }
  }

  /// Waits until the server shows the card's output.
  ///
  /// WirePlumber's ALSA monitor now and then holds a card back until the
  /// jack changes: the jack is pulled and plugged again every 3 s
  /// meanwhile.
  private func awaitSink(on server: SoundServer) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    var lastNudge = ContinuousClock.now
    while true {
      let sinks = try await server.pactl(["list", "short", "sinks"])
      if sinks.contains(sink) { return }
      guard ContinuousClock.now < deadline else {
        throw FixtureError(
          "the card's output \(sink) never came; sinks:\n\(sinks)",
          logTail: server.logTail(lines: 60))
      }
      if kind == .pipeWire, ContinuousClock.now - lastNudge > .seconds(3) {
        try await plug(false)
        try await plug(true)
        lastNudge = ContinuousClock.now
      }
      try await Task.sleep(for: .milliseconds(100))
    }
  }
}
