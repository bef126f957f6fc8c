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
            && $0.contains("BlueZ")
        }, "\(listed)")
    }
  }
}
