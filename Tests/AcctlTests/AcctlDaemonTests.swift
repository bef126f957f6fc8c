// Tests of acctl against a fake daemon: the requests it sends, and the exit
// code for each JSON-RPC error. How it prints the answers and the events is
// in AcctlRenderingTests.swift.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import RoutingCore
import Testing

// MARK: - Canned answers

// The answers are the daemon's own messages, encoded by the codec the
// daemon uses, so that they cannot drift from what it sends.

/// An accessory as the daemon describes it, with a lower-case address that
/// acctl must print in canonical form.
let studioBudsRecord = DaemonAccessory(
  address: "aa:bb:cc:dd:ee:01", displayName: "Studio Buds",
  formFactor: "headphone",
  registration: .init(
    configuration: .init(
      devicePlacement: .inEar,
      deviceCapabilities: [.audioSwitching, .placement],
      primaryAudioSourceDeviceIdentifier: Data([
        0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC,
      ])),
    invalidated: false),
  output: "bluez_output.AA_BB_CC_DD_EE_01.1", placementSource: "aap",
  placementSourceChoice: "auto",
  headphones: HeadphoneLink(
    protocolName: "aap", state: .connected, buds: ["inEar", "outOfEar"],
    battery: [
      .init(part: "left", percent: 80, charging: false),
      .init(part: "right", percent: 75, charging: true),
      .init(part: "case", percent: 40),
    ]))
let studioBuds = FakeDaemon.text(studioBudsRecord)

let studioBudsText = """
  Studio Buds (AA:BB:CC:DD:EE:01)
    form factor:       headphone
    state:             authorized
    output:            bluez_output.AA_BB_CC_DD_EE_01.1
    registration:      registered
    capabilities:      audioSwitching,placement
    placement:         inEar
    placement from:    the AirPods themselves (AAP over Bluetooth)
    primary source:    12:34:56:78:9A:BC
    secondary source:  none
    headphones:        AirPods (AAP), connected, buds inEar and outOfEar
    battery:           left 80%, right 75% charging, case 40%

  """

let studioBudsJSON = """
  {
    "address": "AA:BB:CC:DD:EE:01",
    "displayName": "Studio Buds",
    "formFactor": "headphone",
    "headphones": {
      "battery": [
        {
          "charging": false,
          "part": "left",
          "percent": 80
        },
        {
          "charging": true,
          "part": "right",
          "percent": 75
        },
        {
          "part": "case",
          "percent": 40
        }
      ],
      "buds": [
        "inEar",
        "outOfEar"
      ],
      "protocol": "aap",
      "state": "connected"
    },
    "output": "bluez_output.AA_BB_CC_DD_EE_01.1",
    "placementSource": "aap",
    "placementSourceChoice": "auto",
    "registration": {
      "configuration": {
        "deviceCapabilities": [
          "audioSwitching",
          "placement"
        ],
        "devicePlacement": "inEar",
        "primaryAudioSourceDeviceIdentifier": "12:34:56:78:9A:BC"
      },
      "invalidated": false
    },
    "state": "authorized"
  }

  """

let route = FakeDaemon.text(
  RouteReport(
    output: "bluez_output.AA_BB_CC_DD_EE_01.1", description: "Studio Buds",
    pending: false, soundServer: .connected,
    summary: "Studio Buds is worn, so it plays",
    explanation: RouteReport.Explanation(
      summary: "Studio Buds is worn, so it plays",
      steps: [
        .init(
          rule: "placement", conclusion: "worn accessories first",
          candidates: [
            .init(subject: "Studio Buds", verdict: .chosen, reason: "inEar")
          ])
      ]),
    text: "Studio Buds is worn, so it plays.\n1. placement: worn "
      + "accessories first\n   Studio Buds: chosen (inEar)\n"))

/// Runs acctl against a fake daemon that answers each method with a
/// canned result, and returns the transcript and the requests.
func run(
  _ arguments: [String], results: [String: String]
) async throws -> (Transcript, [ControlRequest]) {
  let daemon = try FakeDaemon(results: results)
  defer { daemon.stop() }
  let transcript = try await acctl(arguments + ["--socket", daemon.path])
  return (transcript, daemon.requests)
}

// MARK: - Requests

@Suite struct AcctlRequestTests {
  @Test func updateSendsOnlyTheGivenChanges() async throws {
    let daemon = try FakeDaemon(results: ["accessory.update": studioBuds])
    defer { daemon.stop() }
    let transcript = try await acctl(
      "update", "Studio Buds", "--placement", "inEar", "--primary-source",
      "none", "--socket", daemon.path)
    #expect(
      transcript
        == Transcript(output: studioBudsText, error: "", status: 0))
    let request = try #require(daemon.requests.first)
    #expect(daemon.requests.count == 1)
    #expect(request.method == "accessory.update")
    #expect(
      request.params
        == .object([
          "accessory": .string("Studio Buds"),
          "changes": .object([
            "devicePlacement": .string("inEar"),
            "primaryAudioSourceDeviceIdentifier": .null,
          ]),
        ]))
    #expect(
      daemon.lines.first?.contains(
        #""changes":{"devicePlacement":"inEar","#
          + #""primaryAudioSourceDeviceIdentifier":null}"#) == true)
  }

  @Test func updateWritesAddressesInCanonicalForm() async throws {
    let (transcript, requests) = try await run(
      [
        "update", "aa-bb-cc-dd-ee-01", "--secondary-source",
        "12-34-56-78-9a-bc", "--placement=none",
      ],
      results: ["accessory.update": studioBuds])
    #expect(transcript.status == 0)
    #expect(
      requests.first?.params
        == .object([
          "accessory": .string("AA:BB:CC:DD:EE:01"),
          "changes": .object([
            "devicePlacement": .null,
            "secondaryAudioSourceDeviceIdentifier": .string(
              "12:34:56:78:9A:BC"),
          ]),
        ]))
  }

  @Test func registerSendsTheWholeConfiguration() async throws {
    let (transcript, requests) = try await run(
      [
        "register", "Studio Buds", "--capabilities",
        "audioSwitching,placement", "--placement", "offHead",
        "--primary-source", "12:34:56:78:9a:bc",
      ],
      results: ["accessory.register": studioBuds])
    #expect(transcript.status == 0)
    #expect(requests.first?.method == "accessory.register")
    #expect(
      requests.first?.params
        == .object([
          "accessory": .string("Studio Buds"),
          "configuration": .object([
            "deviceCapabilities": .array([
              .string("audioSwitching"), .string("placement"),
            ]),
            "devicePlacement": .string("offHead"),
            "primaryAudioSourceDeviceIdentifier": .string(
              "12:34:56:78:9A:BC"),
          ]),
        ]))
  }

  @Test func pairSendsTheAddressAndName() async throws {
    let (transcript, requests) = try await run(
      ["pair", "aa:bb:cc:dd:ee:01", "--name", "Studio Buds", "--json"],
      results: ["accessory.pair": studioBuds])
    #expect(
      transcript == Transcript(output: studioBudsJSON, error: "", status: 0))
    // First whether an app's picker waits: this daemon has none.
    #expect(requests.map(\.method) == ["picker.pending", "accessory.pair"])
    #expect(
      requests.last?.params
        == .object([
          "address": .string("AA:BB:CC:DD:EE:01"),
          "name": .string("Studio Buds"),
        ]))
  }

  @Test func pairAnswersTheAppsPicker() async throws {
    let (transcript, requests) = try await run(
      ["pair", "--select", "aa:bb:cc:dd:ee:01"],
      results: [
        "picker.pending": """
        {"picker":{"pickerID":"7","items":[{"name":"My Buds",\
        "descriptor":{"bluetoothCompanyIdentifier":76},"setupOptions":[]}]}}
        """,
        "picker.choose": studioBuds,
      ])
    #expect(
      transcript == Transcript(output: studioBudsText, error: "", status: 0))
    #expect(requests.map(\.method) == ["picker.pending", "picker.choose"])
    #expect(
      requests.last?.params
        == .object([
          "pickerID": .string("7"), "address": .string("AA:BB:CC:DD:EE:01"),
        ]))
  }

  @Test func unpair() async throws {
    let (transcript, requests) = try await run(
      ["unpair", "Studio Buds"], results: ["accessory.unpair": "{}"])
    #expect(
      transcript
        == Transcript(output: "Unpaired 'Studio Buds'.\n", error: "", status: 0)
    )
    #expect(requests.first?.method == "accessory.unpair")
    #expect(
      requests.first?.params == .object(["accessory": .string("Studio Buds")]))
  }

  /// `policy check` reads the file itself, with no daemon to ask, and
  /// names it by its absolute path.
  @Test func policyCheckReadsTheFileWithoutTheDaemon() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("acctl-policy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try #"{ version: 1, description: "Worn first" }"#.write(
      to: directory.appendingPathComponent("strict.json5"), atomically: true,
      encoding: .utf8)
    let transcript = try await acctl(
      ["policy", "check", "policies/../strict.json5"],
      environment: ["ACCESSORYD_SOCKET": directory.path + "/no-daemon.sock"],
      directory: directory)
    #expect(
      transcript
        == Transcript(
          output: "'\(directory.path)/strict.json5' is a valid policy: "
            + "Worn first\n",
          error: "", status: 0))
    let json = try await acctl(
      ["policy", "check", "strict.json5", "--json"], directory: directory)
    #expect(
      json
        == Transcript(
          output: """
            {
              "description": "Worn first",
              "path": "\(directory.path)/strict.json5"
            }

            """, error: "", status: 0))
  }
}

// MARK: - Exit codes

@Suite struct AcctlExitCodeTests {
  @Test(
    arguments: [
      (
        ControlErrorCode.accessoryNotCapable,
        ProcessExitCode.accessoryNotCapable
      ),
      (.accessoryInvalidRequest, .requestRefused),
      (.invalidParams, .requestRefused),
      (.accessoryInvalidated, .invalidated), (.accessoryUnknown, .failure),
      (.internalError, .failure), (.methodNotFound, .failure),
      (.invalidConfiguration, .configuration),
    ])
  func daemonErrors(
    code: ControlErrorCode, status: ProcessExitCode
  ) async throws {
    let message = "accessory 'Studio Buds' (AA:BB:CC:DD:EE:01) says no"
    let daemon = try FakeDaemon { request in
      .lines([FakeDaemon.error(request, code: code, message: message)])
    }
    defer { daemon.stop() }
    let transcript = try await acctl(
      "update", "Studio Buds", "--placement", "offHead", "--socket",
      daemon.path)
    // A method the daemon does not know: it is older than acctl.
    let hint =
      code == .methodNotFound
      ? "The running accessoryd is older than acctl (it keeps running "
        + "through an upgrade); restart it: systemctl --user restart "
        + "accessoryd\n" : ""
    #expect(
      transcript
        == Transcript(
          output: "", error: "Error: \(message)\n" + hint,
          status: status.rawValue))
  }

  @Test func permissionDenied() async throws {
    let daemon = try FakeDaemon { request in
      .lines([
        FakeDaemon.error(
          request, code: .permissionDenied,
          message: "permission denied: the control socket belongs to another "
            + "user")
      ])
    }
    defer { daemon.stop() }
    let transcript = try await acctl("list", "--socket", daemon.path)
    #expect(
      transcript
        == Transcript(
          output: "",
          error: "Error: permission denied: '\(daemon.path)' belongs to "
            + "another user\n",
          status: 77))
  }

  @Test func invalidPolicy() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("acctl-bad-\(UUID().uuidString).json5").path
    try "{ version: 1, placement: { offHeadGraceSeconds: 900 } }".write(
      toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let transcript = try await acctl("policy", "check", path)
    #expect(
      transcript
        == Transcript(
          output: "",
          error: "Error: \(path): placement.offHeadGraceSeconds: is the number "
            + "900; expected a number of seconds from 0 to 600\n",
          status: 78))
  }

  @Test func connectionClosedBeforeAnAnswer() async throws {
    let daemon = try FakeDaemon { _ in .close }
    defer { daemon.stop() }
    let transcript = try await acctl("status", "--socket", daemon.path)
    #expect(
      transcript
        == Transcript(
          output: "",
          error: "Error: the connection to accessoryd broke: accessoryd "
            + "closed the connection\n",
          status: 69))
  }
}
