// Tests of acctl against a fake daemon, what it prints: the answers as text
// and JSON, and the events it follows. The canned answers both files use
// are in AcctlDaemonTests.swift.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import RoutingCore
import Testing

// MARK: - Canned answers only these tests print

/// A paired accessory without a registration or an output.
private let deskSpeaker = FakeDaemon.text(
  DaemonAccessory(
    address: "AA:BB:CC:DD:EE:02", displayName: "Desk Speaker",
    formFactor: "speaker"))

/// A registered accessory whose registration was invalidated.
private let oldBuds = FakeDaemon.text(
  DaemonAccessory(
    address: "AA:BB:CC:DD:EE:03", displayName: "Old Buds",
    formFactor: "headset",
    registration: .init(
      configuration: .init(deviceCapabilities: [.audioSwitching]),
      invalidated: true)))

// MARK: - Rendering

@Suite struct AcctlRenderingTests {
  @Test func currentAsText() async throws {
    let (transcript, requests) = try await run(
      ["current", "AA-BB-CC-DD-EE-01"],
      results: ["accessory.current": studioBuds])
    #expect(
      transcript == Transcript(output: studioBudsText, error: "", status: 0))
    #expect(requests.first?.method == "accessory.current")
    #expect(
      requests.first?.params
        == .object(["accessory": .string("AA:BB:CC:DD:EE:01")]))
  }

  @Test func currentAsJSON() async throws {
    let (transcript, _) = try await run(
      ["current", "Studio Buds", "--json"],
      results: ["accessory.current": studioBuds])
    #expect(
      transcript == Transcript(output: studioBudsJSON, error: "", status: 0))
  }

  @Test func currentOfAnUnregisteredAccessory() async throws {
    let (transcript, _) = try await run(
      ["current", "Desk Speaker"],
      results: ["accessory.current": deskSpeaker])
    #expect(
      transcript.output == """
        Desk Speaker (AA:BB:CC:DD:EE:02)
          form factor:       speaker
          state:             authorized
          output:            none
          registration:      none
          battery:           unknown: accessoryd reads the battery of AirPods and Galaxy Buds over Bluetooth; it has no link to these

        """)
  }

  @Test func updateWhileTheSoundServerIsAway() async throws {
    var record = studioBudsRecord
    record.routePending = true
    let pending = FakeDaemon.text(record)
    let (transcript, _) = try await run(
      ["update", "Studio Buds", "--placement", "inEar"],
      results: ["accessory.update": pending])
    #expect(
      transcript.output
        == studioBudsText
        + "  route:             pending until the sound server is back\n")
  }

  @Test func listAsText() async throws {
    let (transcript, requests) = try await run(
      ["list"],
      results: [
        "accessory.list":
          #"{"accessories":[\#(studioBuds),\#(deskSpeaker),\#(oldBuds)]}"#
      ])
    let expected = """
      ADDRESS            NAME          CAPABILITIES              PLACEMENT  BATTERY         OUTPUT
      AA:BB:CC:DD:EE:01  Studio Buds   audioSwitching,placement  inEar      L80% R75% C40%  bluez_output.AA_BB_CC_DD_EE_01.1
      AA:BB:CC:DD:EE:02  Desk Speaker  -                         -          not read        -
      AA:BB:CC:DD:EE:03  Old Buds      invalidated               -          not read        -

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
    #expect(requests.first?.method == "accessory.list")
    // acctl asks for the guarded headphones nobody registered too.
    #expect(requests.first?.params == .object(["headphones": .bool(true)]))
  }

  @Test func listWhenEmpty() async throws {
    let (transcript, _) = try await run(
      ["list"], results: ["accessory.list": #"{"accessories":[]}"#])
    #expect(
      transcript
        == Transcript(
          output: "No accessories are paired.\n", error: "", status: 0))
    let (json, _) = try await run(
      ["list", "--json"], results: ["accessory.list": #"{"accessories":[]}"#])
    #expect(
      json
        == Transcript(
          output: "{\n  \"accessories\": []\n}\n", error: "", status: 0))
  }

  @Test func statusWithoutTheOptionalFields() async throws {
    let (transcript, _) = try await run(
      ["status"],
      results: [
        "daemon.overview": FakeDaemon.text(
          DaemonOverview(
            status: DaemonStatus(
              version: "0.1.0", soundServer: .init(state: .disconnected),
              policyPath: "built-in default", statePath: "/s.json",
              socketPath: "/c.sock", hostAddresses: []),
            devices: AudioDevices(
              soundServer: .disconnected, outputs: [], inputs: [],
              streams: []),
            accessories: [],
            players: MediaPlayerList(
              media: MediaStatus(following: false, reason: "no session bus"),
              players: [])))
      ])
    let expected = """
      accessoryd 0.1.0
        sound server:   disconnected
        policy:         built-in default
        state:          /s.json
        socket:         /c.sock
        host addresses: none: no Bluetooth adapter, and no --host-address; multipoint reports cannot name this host

      No accessories are paired.

      Media players are not followed: no session bus. Pausing when the headphones come off is off.

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
  }

  @Test func listAsJSON() async throws {
    let (transcript, _) = try await run(
      ["list", "--json"],
      results: ["accessory.list": #"{"accessories":[\#(deskSpeaker)]}"#])
    let expected = """
      {
        "accessories": [
          {
            "address": "AA:BB:CC:DD:EE:02",
            "displayName": "Desk Speaker",
            "formFactor": "speaker",
            "headphones": null,
            "output": null,
            "placementSource": null,
            "placementSourceChoice": null,
            "registration": null,
            "state": "authorized"
          }
        ]
      }

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
  }

  @Test func jsonEscapesStringsAndKeepsNumbers() async throws {
    let (transcript, _) = try await run(
      ["current", "x", "--json"],
      results: [
        "accessory.current": #"""
        {"displayName":"Bob's \"Buds\"/2\n\u0001é","weight":2.5,\#
        "count":3,"nested":{"empty":{},"list":[]}}
        """#
      ])
    let expected = #"""
      {
        "count": 3,
        "displayName": "Bob's \"Buds\"/2\n\u0001é",
        "nested": {
          "empty": {},
          "list": []
        },
        "weight": 2.5
      }

      """#
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
  }

  @Test func routeExplained() async throws {
    let (transcript, requests) = try await run(
      ["route", "--explain"], results: ["route.get": route])
    let expected = """
      output:       bluez_output.AA_BB_CC_DD_EE_01.1 (Studio Buds)
      pending:      no
      sound server: connected

      Studio Buds is worn, so it plays.
      1. placement: worn accessories first
         Studio Buds: chosen (inEar)

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
    #expect(requests.first?.method == "route.get")
    #expect(requests.first?.params == .object(["explain": .bool(true)]))
  }

  @Test func routeWithoutExplanation() async throws {
    let (transcript, requests) = try await run(
      ["route"],
      results: [
        "route.get": FakeDaemon.text(
          RouteReport(
            output: nil, description: nil, pending: true,
            soundServer: .disconnected, summary: "No output yet"))
      ])
    let expected = """
      output:       unknown: the sound server is away
      pending:      yes, until the sound server is back
      sound server: disconnected
      summary:      No output yet

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
    #expect(requests.first?.params == .object(["explain": .bool(false)]))
  }

  @Test func routeAsJSON() async throws {
    let (transcript, _) = try await run(
      ["route", "--explain", "--json"], results: ["route.get": route])
    let expected = """
      {
        "description": "Studio Buds",
        "explanation": {
          "steps": [
            {
              "candidates": [
                {
                  "reason": "inEar",
                  "subject": "Studio Buds",
                  "verdict": "chosen"
                }
              ],
              "conclusion": "worn accessories first",
              "rule": "placement"
            }
          ],
          "summary": "Studio Buds is worn, so it plays"
        },
        "output": "bluez_output.AA_BB_CC_DD_EE_01.1",
        "pending": false,
        "soundServer": "connected",
        "summary": "Studio Buds is worn, so it plays",
        "text": "Studio Buds is worn, so it plays.\\n1. placement: worn accessories first\\n   Studio Buds: chosen (inEar)\\n"
      }

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
  }

  @Test func status() async throws {
    let (transcript, _) = try await run(
      ["status"],
      results: [
        "daemon.overview": FakeDaemon.text(
          DaemonOverview(
            status: DaemonStatus(
              version: "0.1.0",
              soundServer: .init(
                state: .connected, name: "PulseAudio (on PipeWire 1.2.7)",
                version: "15.0.0"),
              policyPath: "/home/u/.config/accessoryd/policy.json5",
              statePath: "/home/u/.local/state/accessoryd/state.json",
              socketPath: "/run/user/1000/accessoryd/control.sock",
              hostAddresses: ["12:34:56:78:9a:bc", "12:34:56:78:9A:BD"]),
            devices: AudioDevices(
              soundServer: .connected,
              outputs: [
                .init(
                  name: "speaker", description: "Speaker", isDefault: false,
                  isPersonsChoice: false, isAvailable: true, accessory: nil,
                  accessoryName: nil, why: ""),
                .init(
                  name: "buds", description: "Studio Buds", isDefault: true,
                  isPersonsChoice: false, isAvailable: true,
                  accessory: "AA:BB:CC:DD:EE:01", accessoryName: "Studio Buds",
                  why: "default: Studio Buds is worn; belongs to Studio Buds"),
              ],
              inputs: [],
              streams: [
                .init(
                  index: 7, application: "mpv", output: "buds", isPinned: false)
              ]),
            accessories: [],
            players: MediaPlayerList(
              media: MediaStatus(following: true), players: [])))
      ])
    let expected = """
      accessoryd 0.1.0
        sound server:   connected (PulseAudio (on PipeWire 1.2.7) 15.0.0)
        policy:         /home/u/.config/accessoryd/policy.json5
        state:          /home/u/.local/state/accessoryd/state.json
        socket:         /run/user/1000/accessoryd/control.sock
        host addresses: 12:34:56:78:9A:BC, 12:34:56:78:9A:BD

         OUTPUT   DESCRIPTION  WHY
         speaker  Speaker      -
      *  buds     Studio Buds  default: Studio Buds is worn; belongs to Studio Buds

      No inputs.

      STREAM  APPLICATION  PLAYS ON
      #7      mpv          buds

      No accessories are paired.

      No media player is on the session bus.

      """
    #expect(transcript == Transcript(output: expected, error: "", status: 0))
  }

  @Test func statusOfADaemonOlderThanAcctl() async throws {
    // A daemon from before daemon.overview, still running after an
    // upgrade: its status, and a word on restarting it.
    let (transcript, requests) = try await run(
      ["status"],
      results: [
        "daemon.status": FakeDaemon.text(
          DaemonStatus(
            version: "0.0.9", soundServer: .init(state: .disconnected),
            policyPath: "built-in default", statePath: "/s.json",
            socketPath: "/c.sock", hostAddresses: ["12:34:56:78:9A:BC"]))
      ])
    #expect(requests.map(\.method) == ["daemon.overview", "daemon.status"])
    #expect(transcript.status == 0, "\(transcript)")
    #expect(transcript.output.hasPrefix("accessoryd 0.0.9\n"), "\(transcript)")
    #expect(
      transcript.error
        == "The running accessoryd is older than acctl (it keeps running "
        + "through an upgrade); restart it: systemctl --user restart "
        + "accessoryd\n")
    let (output, _) = try await run(["output"], results: [:])
    #expect(output.status == 1, "\(output)")
    #expect(
      output.error.hasSuffix(
        "restart it: systemctl --user restart accessoryd\n"), "\(output)")
  }

  @Test func policyShowPrintsTheText() async throws {
    let (transcript, _) = try await run(
      ["policy", "show"],
      results: [
        "policy.show":
          #"{"path":"/p.json5","description":"d","text":"{ version: 1 }\n"}"#
      ])
    #expect(
      transcript
        == Transcript(output: "{ version: 1 }\n", error: "", status: 0))
  }
}

// MARK: - Events

@Suite struct AcctlEventTests {
  static let budsInEvents = AccessoryEvent<
    AccessoryControlDevice.Configuration
  >.Accessory(
    address: "aa:bb:cc:dd:ee:01", displayName: "Studio Buds",
    formFactor: "headphone",
    configuration: studioBudsRecord.registration?.configuration,
    invalidated: false)

  static let events: [String] = [
    DaemonEvent.soundServer(.init(state: .connected)),
    .accessory(.init(change: .updated, accessory: budsInEvents)),
    .route(
      RouteEvent(
        output: "bluez_output.AA_BB_CC_DD_EE_01.1",
        summary: "Studio Buds is worn, so it plays", moves: 2,
        defaultChanged: true, pending: false, chosenBy: .accessoryd)),
    .accessory(.init(change: .paired, accessory: budsInEvents)),
    .accessory(.init(change: .renamed, accessory: budsInEvents)),
    .accessory(.init(change: .unpaired, accessory: budsInEvents)),
    .session(SessionEvent(migrated: 1)),
    .session(
      SessionEvent(picker: "pickerDidDismiss", pickerID: "1", session: nil)),
    .media(
      MediaEvent(
        eventType: .mediaPaused, accessory: "AA:BB:CC:DD:EE:01",
        players: [
          .init(
            busName: "org.mpris.MediaPlayer2.mpv", name: "mpv Media Player"),
          .init(busName: "org.mpris.MediaPlayer2.spotify", name: "Spotify"),
        ],
        reason: "the accessory that had the output was taken off")),
    .route(
      RouteEvent(
        output: "bluez_output.AA_BB_CC_DD_EE_01.1",
        summary: "Studio Buds is worn, so it plays; input "
          + "bluez_input.AA_BB_CC_DD_EE_01.0", moves: 0,
        defaultChanged: false, pending: false, chosenBy: .accessoryd,
        inputChanged: "bluez_input.AA_BB_CC_DD_EE_01.0",
        profiles: [
          RouteEvent.ProfileSwitch(
            card: "bluez_card.AA_BB_CC_DD_EE_01", profile: "headset-head-unit",
            purpose: .call, previousProfile: "a2dp-sink-sbc")
        ])),
  ].map(FakeDaemon.text)

  /// A daemon that sends the events after the subscription, then closes
  /// the connection.
  private func daemon() throws -> FakeDaemon {
    try FakeDaemon { request in
      guard request.method == "events.subscribe" else { return .close }
      return .lines(
        [FakeDaemon.result(request, "{}")]
          + Self.events.map(FakeDaemon.event), close: true)
    }
  }

  @Test func eventsAsText() async throws {
    let daemon = try daemon()
    defer { daemon.stop() }
    var transcript = try await acctl("events", "--socket", daemon.path)
    // Each line starts with the local time it came at, HH:MM:SS.mmm.
    let lines = transcript.output.split(separator: "\n")
    #expect(
      lines.allSatisfy { line in
        let time = Array(line.prefix(13))
        return time.count == 13 && time[2] == ":" && time[5] == ":"
          && time[8] == "." && time[12] == " "
      }, "\(transcript)")
    transcript.output = lines.map { String($0.dropFirst(13)) + "\n" }
      .joined()
    #expect(
      transcript
        == Transcript(
          output: """
            sound server connected
            accessory updated: Studio Buds (AA:BB:CC:DD:EE:01)
            route bluez_output.AA_BB_CC_DD_EE_01.1: Studio Buds is worn, so it \
            plays [2 streams moved, default changed]
            accessoryAdded: accessory paired: Studio Buds (AA:BB:CC:DD:EE:01)
            accessoryChanged: accessory renamed: Studio Buds (AA:BB:CC:DD:EE:01)
            accessoryRemoved: accessory unpaired: Studio Buds (AA:BB:CC:DD:EE:01)
            migrationComplete (1 accessory)
            pickerDidDismiss (picker 1)
            mediaPaused: mpv Media Player, Spotify: the accessory that had the \
            output was taken off
            route bluez_output.AA_BB_CC_DD_EE_01.1: Studio Buds is worn, so it \
            plays; input bluez_input.AA_BB_CC_DD_EE_01.0 [input \
            bluez_input.AA_BB_CC_DD_EE_01.0, bluez_card.AA_BB_CC_DD_EE_01 to \
            'headset-head-unit' for the call]

            """,
          error: "Error: accessoryd ended the event stream: it stopped, or "
            + "this reader fell more than 256 KiB of events behind\n",
          status: 1))
    #expect(daemon.requests.map(\.method) == ["events.subscribe"])
  }

  @Test func eventsAsJSONLines() async throws {
    let daemon = try daemon()
    defer { daemon.stop() }
    let transcript = try await acctl(
      "events", "--json", "--socket", daemon.path)
    let lines = transcript.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 10)
    #expect(lines.first == #"{"kind":"soundServer","state":"connected"}"#)
    #expect(
      lines[2]
        == #"{"chosenBy":"accessoryd","defaultChanged":true,"kind":"route","#
        + #""moves":2,"output":"bluez_output.AA_BB_CC_DD_EE_01.1","#
        + #""pending":false,"summary":"Studio Buds is worn, so it plays"}"#)
    #expect(lines[1].contains(#""address":"AA:BB:CC:DD:EE:01""#))
    #expect(
      lines[9].contains(
        #""inputChanged":"bluez_input.AA_BB_CC_DD_EE_01.0","#
          + #""kind":"route","moves":0"#), "\(lines[9])")
    #expect(
      lines[9].contains(
        #""profiles":[{"card":"bluez_card.AA_BB_CC_DD_EE_01","#
          + #""previousProfile":"a2dp-sink-sbc","profile":"headset-head-unit","#
          + #""purpose":"call"}]"#), "\(lines[9])")
    #expect(transcript.status == 1)
  }
}
