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
    .timeLimit(.minutes(4)), arguments: SoundServerKind.allCases)
  func bluezAndSoundServer(_ kind: SoundServerKind) async throws {
    let lamp = "AA:BB:CC:DD:EE:07"
    let devices = [
      // The buds: paired and connected, advertising A2DP sink and
      // Apple-style manufacturer data; the sound server has their output.
      MockDevice(
        address: budsAddress, name: "Studio Buds",
        properties: [
          ("UUIDs", .strings([a2dpSinkUUID])),
          (
            "ManufacturerData", .manufacturerData([0x004C: [0x07, 0x19, 0x01]])
          ),
          ("RSSI", .int16(-48)), ("Icon", .string("audio-headphones")),
          ("Paired", .bool(true)), ("Connected", .bool(true)),
        ]),
      // A lamp nearby: seen, not paired, no audio.
      MockDevice(address: lamp, name: "Kitchen Lamp"),
    ]
    try await withBlueZRig(kind, devices: devices, hostAddresses: []) {
      rig, mock in
      try await checkJoinedDiscovery(rig, mock, lamp: lamp)
      // BlueZ's mock offers no battery providers, as BlueZ 5.66 without
      // --experimental does not: the log says what to do, once.
      let said = "BlueZ offers no battery providers on /org/bluez/hci0"
      try await waitUntil("the word on battery providers", within: .seconds(30))
      {
        rig.daemon.log.contains(said)
      }
      #expect(rig.daemon.log.components(separatedBy: said).count == 2)
      #expect(rig.daemon.log.contains("needs bluetoothd --experimental (-E)"))
    }
  }

  /// The checks of ``bluezAndSoundServer(_:)``.
  private func checkJoinedDiscovery(
    _ rig: Rig, _ mock: BlueZMock, lamp: String
  ) async throws {
    let daemon = rig.daemon
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
    // acctl status says BlueZ's state beside them.
    let text = try await rig.ok(["status"]).stdout
    #expect(text.contains("  bluez:          running (1 adapter)\n"), "\(text)")
    #expect(
      text.contains("  host addresses: 00:01:02:03:04:05"), "\(text)")

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
  }
}

extension BlueZDiscoveryTests {
  /// Four devices BlueZ sees, and which descriptor options match which.
  static let table: [(options: [String], matches: [String])] = [
    (["--service-uuid", "110B"], ["01", "02"]),
    (["--company-id", "0x004C"], ["01"]),
    (["--service-uuid", "FE2C"], ["03"]),
    (["--service-uuid", "0000FE2C-0000-1000-8000-00805F9B34FB"], ["03"]),
    (["--service-uuid", "110B", "--name-substring", "Galaxy"], ["02"]),
    (["--company-id", "0x0075", "--name-substring", "buds"], []),
    (
      [
        "--company-id", "76", "--manufacturer-data", "0700",
        "--manufacturer-mask", "FF00",
      ], ["01"]
    ),
    (
      [
        "--company-id", "76", "--manufacturer-data", "0718",
        "--manufacturer-mask", "FFFF",
      ], []
    ),
    (
      [
        "--service-uuid", "FE2C", "--service-data", "1011",
        "--service-data-mask", "0FFF",
      ], ["03"]
    ),
    (
      [
        "--service-uuid", "FE2C", "--service-data", "0012",
        "--service-data-mask", "FFFF",
      ], []
    ),
    (["--service-uuid", "110B", "--range", "immediate"], ["01"]),
    (["--service-uuid", "FE2C", "--range", "immediate"], ["03"]),
    (
      [
        "--service-uuid", "110B", "--company-id", "0x004C",
        "--name-substring", "Studio", "--range", "immediate",
      ], ["01"]
    ),
    (
      [
        "--service-uuid", "110B", "--company-id", "0x004C",
        "--name-substring", "Galaxy",
      ], []
    ),
  ]

  @Test(
    "Descriptor options over a table of BlueZ devices",
    .timeLimit(.minutes(4)))
  func descriptorTable() async throws {
    let devices = [
      MockDevice(
        address: "AA:BB:CC:DD:EE:01", name: "Studio Buds",
        properties: [
          ("UUIDs", .strings([a2dpSinkUUID])),
          (
            "ManufacturerData", .manufacturerData([0x004C: [0x07, 0x19, 0x01]])
          ),
          ("RSSI", .int16(-48)),
        ]),
      MockDevice(
        address: "AA:BB:CC:DD:EE:02", name: "Galaxy Buds",
        properties: [
          ("UUIDs", .strings([a2dpSinkUUID])),
          ("ManufacturerData", .manufacturerData([0x0075: [0x01, 0x02]])),
          ("RSSI", .int16(-70)),
        ]),
      MockDevice(
        address: "AA:BB:CC:DD:EE:03", name: "Pixel Buds",
        properties: [
          ("UUIDs", .strings(["0000fe2c-0000-1000-8000-00805f9b34fb"])),
          (
            "ServiceData",
            .serviceData([
              "0000fe2c-0000-1000-8000-00805f9b34fb": [0, 0x11, 0x22]
            ])
          ),
          ("RSSI", .int16(-58)),
        ]),
      MockDevice(
        address: "AA:BB:CC:DD:EE:04", name: "Kitchen Lamp",
        properties: [("RSSI", .int16(-79))]),
    ]
    try await withBlueZRig(devices: devices) { rig, _ in
      _ = try await rig.eventuallyDiscovered("AA:BB:CC:DD:EE:03") {
        $0["rssi"] == -58 && $0["serviceData"] != [:]
      }
      _ = try await rig.eventuallyDiscovered("AA:BB:CC:DD:EE:04") {
        $0["rssi"] == -79
      }
      try await checkTable(rig)
    }
  }

  /// Runs `acctl discover` with each row's options.
  private func checkTable(_ rig: Rig) async throws {
    for row in Self.table {
      guard
        case .array(let listed) = try await rig.json(["discover"] + row.options)
      else {
        Issue.record("acctl discover \(row.options) printed no array")
        continue
      }
      let matched = listed.compactMap { $0["address"]?.stringValue }
      #expect(
        matched == row.matches.map { "AA:BB:CC:DD:EE:" + $0 },
        "acctl discover \(row.options.joined(separator: " "))")
    }
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

extension BlueZDiscoveryTests {
  @Test(
    "The adapters scan only while someone follows discovery",
    // BlueZ's mock and gdbus start slowly beside busy loops, as for the
    // other BlueZ tests.
    .timeLimit(.minutes(4)))
  func scansOnlyWhileFollowed() async throws {
    try await withBlueZRig(devices: []) { rig, mock in
      /// Polls the adapter's `Discovering` until it is `expected`.
      func discovering(_ expected: Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
          let answer = try await mock.bus.gdbus([
            "call", "--dest", "org.bluez", "--object-path", "/org/bluez/hci0",
            "--method", "org.freedesktop.DBus.Properties.Get",
            "org.bluez.Adapter1", "Discovering",
          ])
          if answer.contains("<\(expected)>") { return }
          guard ContinuousClock.now < deadline else {
            throw RigFailure(
              "Discovering never became \(expected): \(answer)",
              details: rig.daemon.logTail())
          }
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      _ = try await rig.json(["status"])
      try await discovering(false)
      let follower = try ControlClient(path: rig.daemon.socketPath)
      _ = try await follower.request("discovery.subscribe", params: nil)
      try await discovering(true)
      follower.close()
      try await discovering(false)
    }
  }
}
