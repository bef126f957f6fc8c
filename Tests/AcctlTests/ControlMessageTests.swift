// The control protocol's messages: each has one codec, used by the daemon
// and its clients; these tests pin the wire shape docs/control-protocol.md
// describes, and what a client does with what it does not know.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import RoutingCore
import Testing

/// The message as one line of JSON with sorted keys.
private func wire(_ message: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(message), as: UTF8.self)
}

/// A message read back from its wire text.
private func read<Message: Decodable>(
  _ text: String, as type: Message.Type
) throws -> Message {
  try JSONDecoder().decode(type, from: Data(text.utf8))
}

@Suite struct ControlMessageTests {
  @Test func overviewKeepsTheStatusAtTheTopAndReadsBack() throws {
    let overview = DaemonOverview(
      status: DaemonStatus(
        version: "0.1.0", soundServer: .init(state: .connected),
        policyPath: "built-in default", statePath: "/s.json",
        socketPath: "/c.sock", hostAddresses: []),
      devices: AudioDevices(
        soundServer: .connected,
        outputs: [
          .init(
            name: "buds", description: "Studio Buds", isDefault: true,
            isPersonsChoice: false, isAvailable: true,
            accessory: "AA:BB:CC:DD:EE:01", accessoryName: "Studio Buds",
            why: "default")
        ],
        inputs: [],
        streams: [
          .init(index: 4, application: nil, output: "buds", isPinned: true)
        ]),
      accessories: [],
      players: MediaPlayerList(media: .init(following: true), players: []))
    let text = try wire(overview)
    let object = try read(text, as: JSONValue.self)
    #expect(object["version"] == "0.1.0")
    #expect(object["soundServer"]?["state"] == "connected")
    #expect(object["outputs"]?.arrayValue?.first?["why"] == "default")
    #expect(object["streams"]?.arrayValue?.first?["isPinned"] == .bool(true))
    #expect(try read(text, as: DaemonOverview.self) == overview)
  }

  @Test func accessoryWritesEveryMemberWithNullForNone() throws {
    let record = DaemonAccessory(
      address: "AA:BB:CC:DD:EE:02", displayName: "Desk Speaker")
    #expect(
      try wire(record)
        == #"{"address":"AA:BB:CC:DD:EE:02","displayName":"Desk Speaker","#
        + #""formFactor":null,"headphones":null,"output":null,"#
        + #""placementSource":null,"placementSourceChoice":null,"#
        + #""registration":null,"state":"authorized"}"#)
  }

  @Test func accessoryRoundTripsWithItsConfiguration() throws {
    let record = DaemonAccessory(
      address: "AA:BB:CC:DD:EE:01", displayName: "Studio Buds",
      formFactor: "headphone", state: .unauthorized,
      registration: .init(
        configuration: .init(
          devicePlacement: .offHead, deviceCapabilities: [.placement],
          secondaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6])),
        invalidated: true),
      output: "bluez_output.AA_BB_CC_DD_EE_01.1", routePending: true)
    let text = try wire(record)
    #expect(text.contains(#""routePending":true"#))
    #expect(try read(text, as: DaemonAccessory.self) == record)
  }

  @Test func routeReportKeepsItsTimesInSecondsSince1970() throws {
    let report = RouteReport(
      output: nil, description: nil, pending: true, soundServer: .disconnected,
      summary: "No decision yet",
      decidedAt: Date(timeIntervalSince1970: 1_796_000_000.25),
      trigger: "an accessory was updated")
    let text = try wire(report)
    #expect(
      text
        == #"{"decidedAt":1796000000.25,"description":null,"output":null,"#
        + #""pending":true,"soundServer":"disconnected","#
        + #""summary":"No decision yet","trigger":"an accessory was updated"}"#
    )
    #expect(try read(text, as: RouteReport.self) == report)
  }

  @Test func pausedMediaSaysWhyAndWhatItMuted() throws {
    let pause = PausedMedia(
      accessory: "AA:BB:CC:DD:EE:01",
      players: [.init(busName: "org.mpris.MediaPlayer2.mpv", name: "mpv")],
      pausedAt: 1_796_000_000.5, resumeUntil: nil, mutedStreams: [7, 9],
      cause: .disconnected)
    let text = try wire(pause)
    #expect(
      text
        == #"{"accessory":"AA:BB:CC:DD:EE:01","cause":"disconnected","#
        + #""mutedStreams":[7,9],"pausedAt":1796000000.5,"#
        + #""players":[{"busName":"org.mpris.MediaPlayer2.mpv","name":"mpv"}],"#
        + #""resumeUntil":null}"#)
    #expect(try read(text, as: PausedMedia.self) == pause)
    // An older daemon's record: taken off, nothing muted; a newer daemon's
    // cause is kept as it came.
    let older = try read(
      #"{"accessory":"AA:BB:CC:DD:EE:01","pausedAt":1,"players":[],"#
        + #""resumeUntil":61}"#, as: PausedMedia.self)
    #expect(older.cause == .takenOff && older.mutedStreams.isEmpty)
    let newer = try read(
      #"{"accessory":"AA:BB:CC:DD:EE:01","cause":"docked","pausedAt":1,"#
        + #""players":[],"resumeUntil":null}"#, as: PausedMedia.self)
    #expect(newer.cause.rawValue == "docked")
  }

  @Test func statusWritesTheServerWithNullsWhileAway() throws {
    let status = DaemonStatus(
      version: "1.0", soundServer: .init(state: .disconnected),
      policyPath: "built-in default", statePath: "/s", socketPath: "/c",
      hostAddresses: [])
    #expect(
      try wire(status)
        == #"{"hostAddresses":[],"policyPath":"built-in default","#
        + #""socketPath":"/c","soundServer":{"name":null,"state":"#
        + #""disconnected","version":null},"statePath":"/s","version":"1.0"}"#)
    #expect(try read(wire(status), as: DaemonStatus.self) == status)
  }

  @Test func bluetoothStatusWritesEveryMemberWithNullForNone() throws {
    let status = BluetoothStatus(
      state: .running,
      adapters: [
        .init(interface: "hci0", address: "00:01:02:03:04:05", powered: true)
      ],
      devices: [
        .init(
          address: "AA:BB:CC:DD:EE:0A", alias: "Pods", paired: true,
          connected: false,
          serviceUUIDs: ["0000110b-0000-1000-8000-00805f9b34fb"])
      ])
    #expect(
      try wire(status)
        == #"{"adapters":[{"address":"00:01:02:03:04:05","interface":"hci0","#
        + #""powered":true}],"devices":[{"address":"AA:BB:CC:DD:EE:0A","#
        + #""alias":"Pods","connected":false,"name":null,"paired":true,"#
        + #""serviceUUIDs":["0000110b-0000-1000-8000-00805f9b34fb"]}],"#
        + #""reason":null,"state":"running"}"#)
    #expect(try read(wire(status), as: BluetoothStatus.self) == status)
    // A state a newer daemon adds is kept as it came.
    let newer = try read(
      #"{"state":"asleep","reason":"r","adapters":[],"devices":[]}"#,
      as: BluetoothStatus.self)
    #expect(newer.state.rawValue == "asleep")
  }

  @Test(arguments: AccessoryEvent<JSONValue>.Change.allCases)
  func accessoryEventsCarryAccessorySetupKitsNames(
    change: AccessoryEvent<JSONValue>.Change
  ) throws {
    let event = ControlEvent<JSONValue>.accessory(
      .init(
        change: change,
        accessory: .init(address: "AA:BB:CC:DD:EE:01", displayName: "Buds")))
    let text = try wire(event)
    #expect(text.hasPrefix(#"{"accessory":{"address":"AA:BB:CC:DD:EE:01""#))
    #expect(text.contains(#""kind":"accessory""#))
    let names = [
      "paired": "accessoryAdded", "unpaired": "accessoryRemoved",
      "renamed": "accessoryChanged",
    ]
    #expect(
      text.contains(#""eventType""#) == (names[change.rawValue] != nil))
    if let name = names[change.rawValue] {
      #expect(text.contains(#""eventType":"\#(name)""#))
    }
    #expect(try read(text, as: ControlEvent<JSONValue>.self) == event)
  }

  @Test func everyKindOfEventRoundTrips() throws {
    let events: [DaemonEvent] = [
      .route(
        RouteEvent(
          output: nil, summary: "Nothing to play on", moves: 0,
          defaultChanged: false, pending: true, chosenBy: .accessoryd)),
      .route(
        RouteEvent(
          output: "speaker", summary: "You chose Speaker", moves: 0,
          defaultChanged: true, pending: false, chosenBy: .person)),
      .route(
        RouteEvent(
          output: "buds", summary: "A call", moves: 0, defaultChanged: false,
          pending: false, chosenBy: .accessoryd, inputChanged: "buds-mic",
          profiles: [
            RouteEvent.ProfileSwitch(
              card: "card", profile: "headset-head-unit", purpose: .call,
              previousProfile: "a2dp-sink"),
            RouteEvent.ProfileSwitch(card: "other", profile: "a2dp-sink"),
          ])),
      .soundServer(.init(state: .disconnected)),
      .session(SessionEvent(migrated: 3)),
      .session(
        SessionEvent(
          picker: "pickerDidDismiss", pickerID: "7", session: "s1",
          error: "userCancelled")),
      .discovery(
        DiscoveryEvent(
          change: .removed, device: ["address": "AA:BB:CC:DD:EE:09"])
      ),
      .media(
        MediaEvent(
          eventType: .mediaPaused, accessory: "AA:BB:CC:DD:EE:01",
          players: [.init(busName: "org.mpris.MediaPlayer2.mpv", name: "mpv")],
          reason: "the accessory that had the output was taken off")),
    ]
    for event in events {
      #expect(try read(wire(event), as: DaemonEvent.self) == event)
    }
  }

  @Test func aPickerEventWithoutASessionSaysNull() throws {
    let event = DaemonEvent.session(
      SessionEvent(picker: "pickerDidPresent", pickerID: "1", session: nil))
    #expect(
      try wire(event)
        == #"{"eventType":"pickerDidPresent","kind":"session","#
        + #""pickerID":"1","session":null}"#)
  }

  @Test func aRouteEventFromAnOlderDaemonIsAccessorydsChoice() throws {
    let event = try read(
      #"{"kind":"route","output":"a","summary":"s","moves":1,"#
        + #""defaultChanged":true,"pending":false}"#,
      as: DaemonEvent.self)
    guard case .route(let route) = event else {
      Issue.record("not a route event: \(event)")
      return
    }
    #expect(route.chosenBy == .accessoryd)
  }

  @Test func anEventWithANewerValueIsKeptAsItCame() throws {
    let text =
      #"{"accessory":"AA:BB:CC:DD:EE:01","eventType":"callStarted","#
      + #""kind":"media","players":[],"reason":"a call"}"#
    let event = try read(text, as: DaemonEvent.self)
    guard case .other(let value) = event else {
      Issue.record("read as \(event)")
      return
    }
    #expect(value["eventType"]?.stringValue == "callStarted")
  }

  @Test func anEventOfAnUnknownKindIsKeptAsItCame() throws {
    let text = #"{"kind":"calls","started":["phone"]}"#
    let event = try read(text, as: DaemonEvent.self)
    #expect(event == .other(["kind": "calls", "started": ["phone"]]))
    #expect(try wire(event) == text)
  }

  @Test func anAnswerThatIsNotTheMessageNamesTheMember() throws {
    #expect(
      throws: ControlClientError.unexpectedAnswer(
        method: "route.get",
        reason: "pending: Expected to decode Bool but found a string instead.")
    ) {
      try ControlClient.decode(
        [
          "output": nil, "description": nil, "pending": "no",
          "soundServer": "connected", "summary": "",
        ], as: RouteReport.self, of: "route.get")
    }
  }
}

@Suite struct AcctlUnexpectedAnswerTests {
  @Test func acctlSaysWhatDoesNotFitAndFails() async throws {
    let daemon = try FakeDaemon(results: ["route.get": #"{"output":3}"#])
    defer { daemon.stop() }
    let transcript = try await acctl("route", "--socket", daemon.path)
    #expect(transcript.status == 1)
    #expect(transcript.output.isEmpty)
    #expect(
      transcript.error.hasPrefix(
        "Error: accessoryd's answer to route.get is not what this version "
          + "expects: "))
    #expect(transcript.error.contains("output"))
  }
}

@Suite("The route's wire types")
struct RouteWireTypeTests {
  @Test func aNewerDaemonsVerdictAndPurposeAreKept() throws {
    let report = try JSONDecoder().decode(
      RouteReport.self,
      from: Data(
        #"""
        {"output":null,"description":null,"pending":false,
         "soundServer":"connected","summary":"s",
         "explanation":{"summary":"s","steps":[{"rule":"r","conclusion":"c",
           "candidates":[{"subject":"x","verdict":"deferred","reason":"y"}]}]}}
        """#.utf8))
    let verdict = report.explanation?.steps.first?.candidates.first?.verdict
    #expect(verdict?.rawValue == "deferred")
    let switched = try JSONDecoder().decode(
      RouteEvent.ProfileSwitch.self,
      from: Data(#"{"card":"c","profile":"p","purpose":"ringing"}"#.utf8))
    #expect(switched.purpose.rawValue == "ringing")
    let older = try JSONDecoder().decode(
      RouteEvent.ProfileSwitch.self,
      from: Data(#"{"card":"c","profile":"p"}"#.utf8))
    #expect(older.purpose == .output)
  }

  @Test func verdictsAndPurposesAreWrittenAsTheirNames() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let candidate = RouteReport.Explanation.Candidate(
      subject: "buds", verdict: .passedOver, reason: "r")
    #expect(
      String(decoding: try encoder.encode(candidate), as: UTF8.self)
        == #"{"reason":"r","subject":"buds","verdict":"passedOver"}"#)
    let switched = RouteEvent.ProfileSwitch(
      card: "c", profile: "p", purpose: .afterCall)
    #expect(
      String(decoding: try encoder.encode(switched), as: UTF8.self)
        == #"{"card":"c","profile":"p","purpose":"afterCall"}"#)
  }
}
