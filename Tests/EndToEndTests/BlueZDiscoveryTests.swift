// Discovery through BlueZ end to end: BlueZ's D-Bus API served by
// python3-dbusmock on a private bus, a real sound server, and the daemon
// joining the two into one record per device.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Discovery through BlueZ, end to end")
struct BlueZDiscoveryTests {
  @Test(
    "BlueZ and the sound server join; descriptors, migration, a device goes",
    .timeLimit(.minutes(2)), arguments: SoundServerKind.allCases)
  func bluezAndSoundServer(_ kind: SoundServerKind) async throws {
    let mock = try await BlueZMock.start()
    defer { mock.stop() }
    try await mock.addAdapter("hci0", systemName: "laptop")
    // The buds: paired and connected, advertising A2DP sink and Apple-style
    // manufacturer data; the sound server has their output too.
    try await mock.addDevice(address: budsAddress, name: "Studio Buds")
    for (name, value): (String, BlueZMock.PropertyValue) in [
      ("UUIDs", .strings(["0000110b-0000-1000-8000-00805f9b34fb"])),
      ("ManufacturerData", .manufacturerData([0x004C: [0x07, 0x19, 0x01]])),
      ("RSSI", .int16(-48)), ("Icon", .string("audio-headphones")),
      ("Paired", .bool(true)), ("Connected", .bool(true)),
    ] {
      try await mock.setDeviceProperty(budsAddress, name, value)
    }
    // A lamp nearby: seen, not paired, no audio.
    let lamp = "AA:BB:CC:DD:EE:07"
    try await mock.addDevice(address: lamp, name: "Kitchen Lamp")

    let server = try await SoundServer.start(
      kind, sinks: sinks(kind, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(
      on: server, hostAddresses: [], systemBusAddress: mock.busAddress)
    defer { daemon.shutDown() }
    let rig = Rig(server: server, daemon: daemon)

    // One record per device: BlueZ's advertisement joined with the sound
    // server's output.
    let buds = try await rig.eventuallyDiscovered(budsAddress) {
      $0["sources"] == ["bluez", "soundServer"]
    }
    #expect(buds["name"] == "Studio Buds")
    #expect(buds["rssi"] == -48)
    #expect(buds["formFactor"] == "headphone")
    #expect(buds["manufacturerData"]?["76"] == "071901")
    #expect(buds["audioOutput"]?.stringValue != nil)
    _ = try await rig.eventuallyDiscovered(lamp) { $0["sources"] == ["bluez"] }

    // The adapter's address is this host's identity.
    let status = try await rig.json(["status"])
    #expect(status["hostAddresses"] == ["00:01:02:03:04:05"])

    // Descriptors: the A2DP service and Apple's data under a mask.
    let matching = try await rig.ok(
      [
        "discover", "--company-id", "0x004C", "--service-uuid", "110B",
        "--manufacturer-data", "0700", "--manufacturer-mask", "FF00",
      ])
    #expect(matching.stdout.contains(budsAddress))
    #expect(!matching.stdout.contains(lamp))
    let nearby = try await rig.ok(
      [
        "discover", "--name-substring", "Lamp", "--company-id", "76",
        "--all",
      ])
    #expect(
      nearby.stdout.contains(
        "Kitchen Lamp  AA:BB:CC:DD:EE:07  -          -79 dBm  (no match: it "
          + "advertises no manufacturer data for company 0x004C (it "
          + "advertises no manufacturer data))"))

    // Migration takes the paired audio device, not the lamp.
    let migrated = try await rig.ok(["pair", "--migrate"])
    #expect(migrated.stdout.contains(budsAddress))
    #expect(!migrated.stdout.contains(lamp))
    #expect(
      migrated.stdout.hasSuffix("Migration complete: 1 accessory authorized.\n")
    )

    // A device that goes away is no longer offered, and cannot be paired.
    try await mock.removeDevice(address: lamp)
    try await rig.eventuallyGone(lamp)
    let refused = try await daemon.acctl(["pair", lamp])
    #expect(refused.status == 3)
    #expect(
      refused.stderr == """
        Error: the sound server has no Bluetooth output with the address \
        \(lamp), and BlueZ does not see it; connect the accessory first

        """)
    #expect(daemon.stop() == 0)
  }
}

extension Rig {
  /// Waits until `acctl discover` lists a device for which a condition
  /// holds, and returns its record.
  func eventuallyDiscovered(
    _ address: String, _ condition: (JSONValue) -> Bool
  ) async throws -> JSONValue {
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      if case .array(let devices) = try await json(["discover"]),
        let device = devices.first(where: {
          $0["address"]?.stringValue == address
        }), condition(device)
      {
        return device
      }
      guard ContinuousClock.now < deadline else {
        throw RigFailure(
          "acctl discover never listed \(address) as expected",
          details: await diagnostics())
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  /// Waits until `acctl discover` no longer lists a device.
  func eventuallyGone(_ address: String) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while try await ok(["discover"]).stdout.contains(address) {
      guard ContinuousClock.now < deadline else {
        throw RigFailure(
          "acctl discover still lists \(address)",
          details: await diagnostics())
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
