// Concurrent clients end to end: 50 acctl processes update one accessory at
// once; none fails, none is torn, and everyone agrees on the result.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Concurrent clients, end to end")
struct ConcurrencyTests {
  @Test(
    "Four event readers that stop reading stall neither updates nor acctl",
    arguments: SoundServerKind.allCases)
  func stalledReadersStallNothing(_ kind: SoundServerKind) async throws {
    try await withRig(kind, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let socket = rig.daemon.socketPath
      // Four clients subscribe to events, then never read again.
      let readers = try await onOwnThread {
        try (0..<4).map { _ in
          let reader = try ControlClient(path: socket)
          _ = try reader.call("events.subscribe", params: nil)
          return reader
        }
      }
      defer { readers.forEach { $0.close() } }
      // 3,000 updates on another connection, each with its events: more
      // than the readers' socket buffers and the daemon's bound hold.
      let answered = try await onOwnThread {
        let client = try ControlClient(path: socket)
        defer { client.close() }
        var answered = 0
        for number in 0..<3000 {
          let placement = number.isMultiple(of: 2) ? "inEar" : "offHead"
          _ = try client.call(
            "accessory.update",
            params: [
              "accessory": .string(budsAddress),
              "changes": ["devicePlacement": .string(placement)],
            ])
          answered += 1
        }
        return answered
      }
      #expect(answered == 3000)
      let list = try await rig.ok(["list"])
      #expect(list.stdout.contains(budsAddress))
      // Their events outgrew the bound: the daemon cut them off.
      #expect(
        rig.daemon.log.contains("Disconnected a client that stopped reading"),
        "\(rig.daemon.logTail())")
    }
  }

  @Test(
    "acctl events that falls behind is told so and exits 1; with --reconnect it carries on"
  )
  func eventsReaderCutOff() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let plain = try rig.daemon.startAcctl(["events"])
      let reconnecting = try rig.daemon.startAcctl(["events", "--reconnect"])
      defer {
        plain.stop()
        reconnecting.stop()
      }
      // Both follow: an update shows in each (each check sends one, as
      // they may not have subscribed yet).
      try await waitUntil("both readers print an update", within: .seconds(30))
      {
        try await rig.place(budsAddress, "inEar")
        return plain.outputSoFar.contains("updated")
          && reconnecting.outputSoFar.contains("updated")
      }
      // Paused, as a terminal with Ctrl-S, while 3,000 updates are answered.
      plain.signal(SIGSTOP)
      reconnecting.signal(SIGSTOP)
      let socket = rig.daemon.socketPath
      try await onOwnThread {
        let client = try ControlClient(path: socket)
        defer { client.close() }
        for number in 0..<3000 {
          _ = try client.call(
            "accessory.update",
            params: [
              "accessory": .string(budsAddress),
              "changes": [
                "devicePlacement": .string(
                  number.isMultiple(of: 2) ? "offHead" : "inEar")
              ],
            ])
        }
      }
      #expect(
        rig.daemon.log.contains("Disconnected a client that stopped reading"),
        "\(rig.daemon.logTail())")
      plain.signal(SIGCONT)
      reconnecting.signal(SIGCONT)
      let ended = try await plain.result()
      #expect(ended.status == 1, "\(ended)")
      #expect(
        ended.stderr
          == "Error: accessoryd ended the event stream: it stopped, or this "
          + "reader fell more than 256 KiB of events behind\n")
      // The other one connected again and still follows.
      try await waitUntil("--reconnect connects again", within: .seconds(30)) {
        reconnecting.errorOutputSoFar.contains("connected again")
      }
      try await rig.ok(["rename", budsAddress, "Renamed Buds"])
      try await waitUntil(
        "--reconnect prints a later event", within: .seconds(30)
      ) {
        reconnecting.outputSoFar.contains("Renamed Buds")
      }
      #expect(reconnecting.isRunning)
    }
  }

  /// One update: a placement and a secondary source unique to it.
  struct Update {
    var placement: String
    var secondary: String
  }

  @Test(
    "50 concurrent acctl updates all succeed and the last applied stays",
    arguments: SoundServerKind.allCases)
  func fiftyConcurrentUpdates(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(
        budsAddress, placement: "offHead",
        extra: ["--primary-source", thisHost])
      let updates = (0..<50).map { number in
        Update(
          placement: number.isMultiple(of: 2) ? "inEar" : "offHead",
          secondary: String(format: "02:00:00:00:00:%02X", number))
      }
      let placementOf = Dictionary(
        uniqueKeysWithValues: updates.map { ($0.secondary, $0.placement) })

      // All 50 at once, each its own process and connection.
      let runs = try updates.map { update in
        try rig.daemon.startAcctl([
          "update", budsAddress, "--placement", update.placement,
          "--secondary-source", update.secondary, "--json",
        ])
      }
      var results: [AcctlResult] = []
      for run in runs { results.append(try await run.result()) }

      var replies: [String?] = []
      for result in results {
        #expect(result.status == 0, "\(result)")
        guard result.status == 0 else {
          replies.append(nil)
          continue
        }
        let state = try configuration(in: try decodeJSON(result.stdout))
        // A reply shows a whole update, never a mix of two.
        #expect(
          placementOf[state.secondary ?? ""] == state.placement,
          "a torn configuration in \(result)")
        replies.append(state.secondary)
      }

      // The daemon, its state file and its list agree on one of the 50.
      let final = try configuration(
        in: try await rig.json(["current", budsAddress]))
      #expect(placementOf[final.secondary ?? ""] == final.placement, "\(final)")
      let listed = try await rig.json(["list"])
      guard case .array(let accessories)? = listed["accessories"],
        let first = accessories.first
      else {
        Issue.record("no accessories in \(listed)")
        return
      }
      #expect(try configuration(in: first) == final)
      let registry = try StateFile.decode(
        Data(
          contentsOf: URL(
            fileURLWithPath: rig.daemon.stateDirectory + "/state.json")))
      let stored = try #require(
        registry.registrations[BluetoothAddress(budsAddress)!]?.configuration)
      #expect(stored.devicePlacement?.rawValue == final.placement)
      #expect(
        stored.secondaryAudioSourceDeviceIdentifier.flatMap {
          BluetoothAddress(data: $0)?.description
        } == final.secondary)
      // The update that holds was applied last: nothing changed after it,
      // so its own reply shows it.
      let index = try #require(
        updates.firstIndex { $0.secondary == final.secondary })
      #expect(
        replies[index] == final.secondary,
        "the update that holds answered with \(replies[index] ?? "an error")")
      // And the sound server follows the state that holds.
      try await rig.eventuallyRouted(
        to: final.placement == "inEar" ? "buds" : "speaker")

      // One more update, alone: exactly that one holds.
      try await rig.ok([
        "update", budsAddress, "--placement", "onHead", "--secondary-source",
        "02:00:00:00:00:FF",
      ])
      let last = try configuration(
        in: try await rig.json(["current", budsAddress]))
      #expect(
        last == State(placement: "onHead", secondary: "02:00:00:00:00:FF"))
      try await rig.eventuallyRouted(to: "buds")
    }
  }
}

/// The fields of a configuration the updates change.
struct State: Equatable, CustomStringConvertible {
  var placement: String?
  var secondary: String?

  var description: String {
    "placement \(placement ?? "none"), secondary \(secondary ?? "none")"
  }
}

/// Reads the placement and secondary source of an accessory's
/// configuration.
func configuration(in accessory: JSONValue) throws -> State {
  guard let configuration = accessory["registration"]?["configuration"] else {
    throw RigFailure("no configuration in \(accessory)")
  }
  return State(
    placement: configuration["devicePlacement"]?.stringValue,
    secondary: configuration["secondaryAudioSourceDeviceIdentifier"]?
      .stringValue)
}
