// Headphones nobody registered take part in routing as an accessory that
// switches audio and reports no placement
// (connection.followUnregisteredHeadphones), end to end on both servers: a
// Bluetooth headset paired in the desktop's settings, never registered,
// takes the output when it connects, and the streams go with it; where the
// server's properties do not say what the device is, BlueZ's class does.

import TestSupport
import Testing

@Suite("Headphones nobody registered, end to end", .serialized)
struct HeadphonesNobodyRegisteredTests {
  @Test(
    "A headset nobody registered that connects takes the output, the streams with it",
    arguments: SoundServerKind.allCases)
  func connects(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      // The buds were there before the daemon: they leave the speaker be.
      try await rig.eventuallyRouted(to: "speaker")
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress,
          description: "Travel Phones", deviceAPI: kind.bluetoothDeviceAPI))
      try await rig.eventuallyRouted(to: "phones")
      try await rig.staysRouted(to: "phones", for: .seconds(1))
      let explained = try await rig.ok(["route", "--explain"]).stdout
      #expect(
        explained.contains("Travel Phones (\(phonesAddress), not registered)"),
        "\(explained)")
      #expect(
        explained.contains("(1 of them headphones nobody registered)"),
        "\(explained)")
    }
  }

  @Test(
    "A headset nobody registered that connects while registered buds are worn leaves the output with them",
    arguments: SoundServerKind.allCases)
  func connectsWhileBudsAreWorn(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")
      let defaults = try await DefaultTrace.start(rig.server)
      defer { defaults.stop() }
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress,
          description: "Travel Phones", deviceAPI: kind.bluetoothDeviceAPI))
      do {
        try await waitUntil(
          "the daemon to decide on the headset", within: .seconds(30)
        ) {
          try await rig.ok(["route", "--explain"]).stdout.contains(
            "Travel Phones does not take it")
        }
      } catch {
        throw RigFailure("\(error)", details: await rig.diagnostics())
      }
      // A sink made after the headset: once the trace has seen it, it has
      // seen every default change before it.
      _ = try await rig.server.loadNullSink(
        .speaker(name: "marker", description: "Marker"))
      try await waitUntil(
        "the trace to reach the marker", within: .seconds(30)
      ) { defaults.marks >= 2 }
      #expect(!defaults.seen.contains("phones"), "\(defaults.seen)")
      let state = try await rig.observe()
      #expect(state.isRouted(to: "buds", streams: 3), "\(state)")
      let explained = try await rig.ok(["route", "--explain"]).stdout
      #expect(
        explained.contains(
          "Studio Buds is worn (inEar); connection.keepAudioWithHeadphones "
            + "is true"), "\(explained)")
    }
  }

  @Test(
    "An output whose properties do not say is headphones when BlueZ's class says so"
  )
  func bluezClass() async throws {
    let address = "AA:BB:CC:DD:EE:0C"
    let device = MockDevice(
      address: address, name: "Quiet Cans",
      properties: [
        ("Icon", .string("audio-headset")), ("Paired", .bool(true)),
        ("Connected", .bool(true)),
      ])
    try await withBlueZRig(devices: [device]) { rig, _ in
      // The server's properties say nothing of what it is (PipeWire
      // writes `unknown` for a device without a class).
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "cans", address: address, description: "Quiet Cans",
          formFactor: "unknown"))
      try await rig.eventually("the default on the headset") {
        $0.defaultSink == "cans"
      }
      let listed = try await rig.ok(["list"]).stdout
      #expect(
        listed.split(separator: "\n").contains {
          $0.contains(address) && $0.contains("guarded")
            && $0.contains("bluez")
        }, "\(listed)")
    }
  }
}
