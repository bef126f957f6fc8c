// Discovery and authorization end to end, with the sound server as the
// only discovery source: acctl discover, pair --select, rename, migrate and
// unpair, and the AccessorySetupKit events they cause, in order.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Discovery, end to end")
struct DiscoveryTests {
  @Test(
    "Sound-server outputs are discovered, paired, renamed, migrated, removed",
    .timeLimit(.minutes(4)), arguments: SoundServerKind.allCases)
  func soundServerDevices(_ kind: SoundServerKind) async throws {
    try await withRig(kind, phones: true, streams: 0) { rig in
      // Both headsets are seen, from the sound server, with their outputs.
      guard case .array(let listed) = try await rig.json(["discover"]) else {
        Issue.record("acctl discover --json printed no array")
        return
      }
      let addresses = listed.compactMap { $0["address"]?.stringValue }
      #expect(addresses == [budsAddress, phonesAddress])
      for device in listed {
        #expect(device["sources"] == ["soundServer"])
        #expect(device["paired"] == true)
        #expect(device["audioOutput"]?.stringValue != nil)
        #expect(device["authorized"] == false)
      }

      // A descriptor that needs an advertised service matches neither: the
      // sound server knows no advertisement. --all says why.
      let explained = try await rig.ok(
        ["discover", "--service-uuid", "110B", "--all"])
      #expect(explained.stdout.contains("(no match: "))
      let none = try await rig.ok(["discover", "--service-uuid", "110B"])
      #expect(none.stdout == "No matching devices.\n")

      let events = try await EventReader.subscribe(
        socketPath: rig.daemon.socketPath)
      let paired = try await rig.json(
        ["pair", "--select", budsAddress, "--name", "My Buds"])
      #expect(paired["displayName"] == "My Buds")
      #expect(paired["state"] == "authorized")
      try await rig.ok(["rename", "My Buds", "Studio Buds"])
      let migrated = try await rig.ok(["pair", "--migrate"])
      #expect(
        migrated.stdout.hasSuffix(
          "Migration complete: 1 accessory authorized.\n"))
      #expect(migrated.stdout.contains(phonesAddress))
      try await rig.ok(["unpair", budsAddress])

      let seen = try await events.setupEvents(count: 5)
      #expect(
        seen == [
          "accessoryAdded \(budsAddress) My Buds",
          "accessoryChanged \(budsAddress) Studio Buds",
          "accessoryAdded \(phonesAddress) Travel Phones",
          "migrationComplete",
          "accessoryRemoved \(budsAddress) Studio Buds",
        ])
    }
  }
}

/// Follows the daemon's events on a connection of its own.
struct EventReader {
  let client: ControlClient

  private init(client: ControlClient) {
    self.client = client
  }

  /// Connects to a daemon and subscribes to its events.
  static func subscribe(socketPath: String) async throws -> EventReader {
    let client = try ControlClient(path: socketPath, timeout: 20)
    _ = try await client.request("events.subscribe")
    return EventReader(client: client)
  }

  /// Reads events until `count` AccessorySetupKit events have come, and
  /// returns them as "eventType address name" ("migrationComplete" alone).
  func setupEvents(count: Int) async throws -> [String] {
    var seen: [String] = []
    while seen.count < count {
      let notification = try await client.nextEvent()
      guard let event = notification.params,
        let eventType = event["eventType"]?.stringValue
      else { continue }
      let accessory = event["accessory"]
      seen.append(
        [
          eventType, accessory?["address"]?.stringValue,
          accessory?["displayName"]?.stringValue,
        ].compactMap { $0 }.joined(separator: " "))
    }
    return seen
  }
}

extension DiscoveryTests {
  @Test(
    "A picker whose app goes away is dismissed, and the next one can show",
    .timeLimit(.minutes(3)))
  func pickerOfAGoneAppIsDismissed() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      let events = try await EventReader.subscribe(
        socketPath: rig.daemon.socketPath)
      let item: JSONValue = [
        "name": "Buds", "descriptor": ["bluetoothServiceUUID": "110B"],
      ]
      let app = try ControlClient(path: rig.daemon.socketPath)
      _ = try await app.request(
        "picker.show",
        params: ["session": "gone", "items": [item]])
      // Another app cannot show one meanwhile.
      let other = try ControlClient(path: rig.daemon.socketPath)
      await #expect(throws: ControlClientError.self) {
        try await other.request(
          "picker.show", params: ["session": "next", "items": [item]])
      }
      app.close()
      await #expect(
        try events.pickerEvents(count: 2) == [
          "pickerDidPresent gone", "pickerDidDismiss gone invalidated",
        ])
      _ = try await other.request(
        "picker.show", params: ["session": "next", "items": [item]])
      #expect(
        try await other.request("picker.pending")["picker"]?["pickerID"] == "2")
    }
  }
}

extension EventReader {
  /// Reads events until `count` picker events have come, and returns them
  /// as "eventType session error".
  func pickerEvents(count: Int) async throws -> [String] {
    var seen: [String] = []
    while seen.count < count {
      let notification = try await client.nextEvent()
      guard let event = notification.params, event["pickerID"] != nil,
        let eventType = event["eventType"]?.stringValue
      else { continue }
      seen.append(
        [eventType, event["session"]?.stringValue, event["error"]?.stringValue]
          .compactMap { $0 }.joined(separator: " "))
    }
    return seen
  }
}
