// Bad input end to end: each refusal gives its exact message and exit
// code, and the daemon still answers afterwards.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Bad input, end to end")
struct BadInputTests {
  /// One bad command and what acctl must say.
  struct Row: CustomStringConvertible {
    var label: String
    var arguments: [String]
    var status: Int32
    var stderr: String
    var stdout = ""
    /// Whether `stderr` is only the beginning of the message, for text
    /// that comes from the system.
    var stderrIsPrefix = false

    var description: String { label }
  }

  static let updateUsage = """
    Usage: acctl update <accessory> [--placement <placement>]
           [--primary-source <address>] [--secondary-source <address>] [--json]
           [--socket <path>]
      See 'acctl update --help' for more information.

    """

  static let registerUsage = """
    Usage: acctl register <accessory> --capabilities <capabilities>
           [--placement <placement>] [--primary-source <address>]
           [--secondary-source <address>] [--placement-source <source>] [--json]
           [--socket <path>]
      See 'acctl register --help' for more information.

    """

  @Test(
    "Each bad input gives its message and exit code; the daemon lives on",
    arguments: SoundServerKind.allCases)
  func badInputs(_ kind: SoundServerKind) async throws {
    try await withRig(kind, phones: true, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let badPolicy = rig.daemon.directory + "/bad.json5"
      try """
      { version: 1, placement: { offHeadGraceSeconds: 900 } }
      """.write(toFile: badPolicy, atomically: true, encoding: .utf8)
      let missingPolicy = rig.daemon.directory + "/missing.json5"

      // Each refusal, as a row of the README's table.
      var table: [String] = []
      // Before the phones are paired.
      table += try await check(
        rig,
        [
          Row(
            label: "malformed address",
            arguments: ["pair", "AA:BB:CC:DD:EE"], status: 64,
            stderr: """
              Error: The value 'AA:BB:CC:DD:EE' is invalid for '<address>': \
              expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF'
              Usage: acctl pair [<address>] [--select <address>] \
              [--name <name>] [--migrate]
                     [--service-uuid <uuid>] [--company-id <id>] \
              [--name-substring <text>]
                     [--manufacturer-data <hex>] [--manufacturer-mask <hex>]
                     [--service-data <hex>] [--service-data-mask <hex>] \
              [--range <range>]
                     [--descriptor <file>] [--json] [--socket <path>]
                See 'acctl pair --help' for more information.

              """),
          Row(
            label: "malformed source address",
            arguments: ["update", budsAddress, "--primary-source", "12:34"],
            status: 64,
            stderr: """
              Error: The value '12:34' is invalid for '--primary-source': \
              expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF', or \
              none

              """ + Self.updateUsage),
          Row(
            label: "unknown placement",
            arguments: ["update", budsAddress, "--placement", "onTable"],
            status: 64,
            stderr: """
              Error: The value 'onTable' is invalid for '--placement': \
              expected one of inEar, onHead, overTheEar, offHead, none

              """ + Self.updateUsage),
          Row(
            label: "unknown capability",
            arguments: [
              "register", budsAddress, "--capabilities",
              "audioSwitching,flying",
            ],
            status: 64,
            stderr: """
              Error: The value 'audioSwitching,flying' is invalid for \
              '--capabilities': 'flying' is not a capability; expected a \
              comma-separated list of audioSwitching, placement

              """ + Self.registerUsage),
          Row(
            label: "accessory named by a malformed address",
            arguments: ["current", "AA:BB:CC:DD:EE"], status: 64,
            stderr: """
              Error: The value 'AA:BB:CC:DD:EE' is invalid for '<accessory>': \
              not a Bluetooth address; expected six hexadecimal bytes such as \
              'AA:BB:CC:DD:EE:FF', or a display name
              Usage: acctl current <accessory> [--json] [--socket <path>]
                See 'acctl current --help' for more information.

              """),
          Row(
            label: "unknown accessory name",
            arguments: ["current", "Nobody"], status: 3,
            stderr: """
              Error: no accessory is named 'Nobody'; paired: 'Studio Buds'

              """),
          Row(
            label: "pairing an address the sound server does not have",
            arguments: ["pair", "AA:BB:CC:DD:EE:09"], status: 3,
            stderr: """
              Error: the sound server has no Bluetooth output with the \
              address AA:BB:CC:DD:EE:09, and BlueZ could not be asked: \
              accessoryd cannot reach the system bus (acctl doctor says \
              why); connect the accessory first

              """),
          Row(
            label: "bad policy file",
            arguments: ["policy", "check", badPolicy], status: 78,
            stderr: """
              Error: \(badPolicy): placement.offHeadGraceSeconds: is the \
              number 900; expected a number of seconds from 0 to 600

              """),
          Row(
            label: "missing policy file",
            arguments: ["policy", "check", missingPolicy], status: 78,
            stderr: "Error: \(missingPolicy): cannot be read: ",
            stderrIsPrefix: true),
          Row(
            label: "a setting that is not a switch",
            arguments: [
              "policy", "set", "placement.offHeadGraceSeconds", "off",
            ],
            status: 3,
            stderr: "Error: placement.offHeadGraceSeconds: is not a switch "
              + "(true or false) and is set in the policy file only; "
              + "expected one of: placement.eligibleWhenUnknown, ",
            stderrIsPrefix: true),
          Row(
            label: "a mistyped switch",
            arguments: ["policy", "set", "media.pauseWhenTakenof", "on"],
            status: 3,
            stderr: """
              Error: media.pauseWhenTakenof: is not a setting; did you mean \
              media.pauseWhenTakenOff?

              """),
          Row(
            label: "a switch's value",
            arguments: ["policy", "set", "media.pauseWhenTakenOff", "maybe"],
            status: 64,
            stderr: """
              Error: The value 'maybe' is invalid for '<value>': expected on, \
              off or default
              Usage: acctl policy set <key> <value> [--json] [--socket <path>]
                See 'acctl policy set --help' for more information.

              """),
        ])

      // An address nobody paired, and an accessory that is not paired:
      // exit 3, naming it and what to do first.
      table += try await check(
        rig,
        [
          Row(
            label: "an address nobody paired",
            arguments: ["update", "AA:BB:CC:DD:EE:09", "--placement", "inEar"],
            status: 3,
            stderr: "Error: accessory AA:BB:CC:DD:EE:09 is neither paired "
              + "nor registered; pair it first (AccessorySetupKit's picker, "
              + "or 'acctl pair'), then register it\n"),
          Row(
            label: "an unpaired accessory",
            arguments: [
              "register", phonesAddress, "--capabilities", "audioSwitching",
            ],
            status: 3,
            stderr: "Error: accessory \(phonesAddress) is not paired; pair it "
              + "first (AccessorySetupKit's picker, or 'acctl pair') before "
              + "registering it\n"),
        ])

      // The phones are paired and registered without placement.
      try await rig.pairAndRegister(
        phonesAddress, capabilities: "audioSwitching", placement: nil)
      table += try await check(
        rig,
        [
          Row(
            label: "placement without the capability (update)",
            arguments: ["update", phonesAddress, "--placement", "inEar"],
            status: 2,
            stderr: """
              Error: placement 'inEar' reported for 'Travel Phones' \
              (AA:BB:CC:DD:EE:02) without the placement capability

              """),
          Row(
            label: "placement without the capability (register)",
            arguments: [
              "register", "Travel Phones", "--capabilities", "audioSwitching",
              "--placement", "onHead",
            ],
            status: 2,
            stderr: """
              Error: placement 'onHead' reported for 'Travel Phones' \
              (AA:BB:CC:DD:EE:02) without the placement capability

              """),
          Row(
            label: "another accessory's name",
            arguments: ["rename", phonesAddress, "studio buds"],
            status: 3,
            stderr: "Error: 'studio buds' is the name of \(budsAddress) "
              + "already; choose a name no other accessory has\n"),
          Row(
            label: "an output the server does not have",
            arguments: ["output", "choose", "Kitchen"],
            status: 3,
            stderr: "Error: 'Kitchen' is not an output or input of the sound "
              + "server; expected one of: speaker, buds, phones (acctl output "
              + "lists them)\n"),
        ])

      // The buds are unpaired: their registration is invalidated.
      let unpairing = try await rig.ok(["unpair", budsAddress])
      #expect(unpairing.stdout == "Unpaired 'AA:BB:CC:DD:EE:01'.\n")
      table += try await check(
        rig,
        [
          Row(
            label: "invalidated registration (current)",
            arguments: ["current", budsAddress], status: 4,
            stderr: """
              Error: the registration of 'Studio Buds' (AA:BB:CC:DD:EE:01) \
              was invalidated because the accessory was unpaired; pair and \
              register it again

              """),
          Row(
            label: "invalidated registration (update)",
            arguments: ["update", budsAddress, "--placement", "inEar"],
            status: 4,
            stderr: """
              Error: the registration of 'Studio Buds' (AA:BB:CC:DD:EE:01) \
              was invalidated because the accessory was unpaired; pair and \
              register it again

              """),
          Row(
            label: "unpairing twice",
            arguments: ["unpair", budsAddress], status: 3,
            stderr: """
              Error: AA:BB:CC:DD:EE:01 is not paired

              """),
        ])

      // Raw lines on the socket: JSON-RPC errors, and the connection or
      // the daemon survives.
      let garbage = try await rig.daemon.sendRaw(
        Data(
          "hello\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"daemon.status\"}\n"
            .utf8), lines: 2)
      #expect(
        garbage.first
          == #"{"error":{"code":-32700,"message":"parse error: the line is "#
          + #"not valid JSON"},"id":null,"jsonrpc":"2.0"}"#)
      #expect(
        garbage.count == 2 && garbage[1].contains(#""id":2"#)
          && garbage[1].contains(#""result""#),
        "the connection did not answer after the garbage: \(garbage)")
      try await stillAnswers(rig, after: "a garbage line")
      table.append(Self.socketRow("a line that is not JSON: `hello`", garbage))

      let notAnObject = try await rig.daemon.sendRaw(Data("[1,2]\n".utf8))
      #expect(
        notAnObject
          == [
            #"{"error":{"code":-32600,"message":"invalid request: expected a "#
              + #"JSON object"},"id":null,"jsonrpc":"2.0"}"#
          ])
      table.append(
        Self.socketRow("a JSON line that is not an object", notAnObject))
      let unknownMethod = try await rig.daemon.sendRaw(
        Data(#"{"jsonrpc":"2.0","id":"x","method":"no.such"}"#.utf8 + [0x0A]))
      #expect(
        unknownMethod.first?.contains(#""code":-32601"#) == true
          && unknownMethod.first?.contains(#""id":"x""#) == true,
        "\(unknownMethod)")
      try await stillAnswers(rig, after: "an unknown method")
      table.append(
        Self.socketRow("an unknown method: `no.such`", unknownMethod))

      var oversized = Data(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8)
      oversized.append(Data(repeating: UInt8(ascii: "a"), count: 1 << 20))
      oversized.append(Data("\"}\n".utf8))
      let refused = try await rig.daemon.sendRaw(oversized, lines: 2)
      #expect(
        refused
          == [
            #"{"error":{"code":-32600,"message":"invalid request: the line is "#
              + #"longer than 1048576 bytes"},"id":null,"jsonrpc":"2.0"}"#
          ], "the oversized line was not refused alone: \(refused)")
      try await stillAnswers(rig, after: "an oversized line")
      table.append(Self.socketRow("a line of more than 1 MiB", refused))
      if kind == .pulseAudio {
        try Self.checkReadmeTable(
          table.map {
            $0.replacingOccurrences(of: rig.daemon.directory + "/", with: "")
          })
      }

      // The daemon reports its sound server, as the protocol says.
      let status = try await rig.json(["status"])
      #expect(
        status["soundServer"]?["state"] == "connected",
        "daemon.status has no soundServer state: \(status)")
      #expect(status["socketPath"]?.stringValue == rig.daemon.socketPath)
      #expect(status["policyPath"]?.stringValue == rig.daemon.policyPath)
    }
  }

  /// Runs each row, requires its exact output and exit code, and checks
  /// that the daemon still answers after it.
  ///
  /// - Returns: The rows of the README's table: the command, its exit code
  ///   and the first line acctl wrote.
  private func check(_ rig: Rig, _ rows: [Row]) async throws -> [String] {
    var table: [String] = []
    for row in rows {
      let result = try await rig.daemon.acctl(row.arguments)
      let said = result.stderr.split(separator: "\n").first.map(String.init)
      table.append(
        Self.tableRow(
          "`acctl "
            + row.arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }
            .joined(separator: " ") + "`",
          "\(result.status)", said ?? ""))
      #expect(result.status == row.status, "\(row.label): \(result)")
      if row.stderrIsPrefix {
        #expect(
          result.stderr.hasPrefix(row.stderr) && result.stderr.hasSuffix("\n")
            && result.stderr.count(where: { $0 == "\n" }) == 1,
          "\(row.label): \(result)")
      } else {
        #expect(result.stderr == row.stderr, "\(row.label): \(result)")
      }
      #expect(result.stdout == row.stdout, "\(row.label): \(result)")
      try await stillAnswers(rig, after: row.label)
    }
    return table
  }

  // MARK: - The README's table

  /// The line before a table in the README that `suite` writes.
  static func tableStart(_ name: String, suite: String) -> String {
    "<!-- \(name): written by \(suite); "
      + "ACCESSORYD_WRITE_README=1 swift test --filter \(suite) "
      + "writes it again -->"
  }

  /// The line after a table in the README.
  static func tableEnd(_ name: String) -> String { "<!-- end of \(name) -->" }

  /// One row of the table, its cells escaped.
  static func tableRow(_ cells: String...) -> String {
    "| "
      + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }
      .joined(separator: " | ") + " |"
  }

  /// The row of a raw line on the socket: the daemon answers with a
  /// JSON-RPC error and the connection stays open.
  static func socketRow(_ input: String, _ answer: [String]) -> String {
    let error = (try? JSONValue(parsing: Data((answer.first ?? "").utf8)))?[
      "error"]
    let code: String
    if case .number(let number)? = error?["code"] {
      code = String(Int(number))
    } else {
      code = "none"
    }
    let message = error?["message"]?.stringValue ?? "(no answer)"
    return tableRow("socket: " + input, "JSON-RPC \(code)", message)
  }

  /// Requires a table of the README to be these rows; writes them into it
  /// instead when ACCESSORYD_WRITE_README is set.
  ///
  /// - Parameters:
  ///   - rows: The rows, from ``tableRow(_:)``.
  ///   - name: The table's name in its markers.
  ///   - suite: The suite that writes it, named in its markers.
  ///   - header: The header of the third column.
  static func checkReadmeTable(
    _ rows: [String], name: String = "bad inputs",
    suite: String = "BadInputTests",
    header: String = "what acctl or the daemon says"
  ) throws {
    let tableStart = tableStart(name, suite: suite)
    let tableEnd = tableEnd(name)
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs")
      .appendingPathComponent("reliability.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    guard let start = text.range(of: tableStart),
      let end = text.range(
        of: tableEnd, range: start.upperBound..<text.endIndex)
    else {
      Issue.record(
        "docs/reliability.md has no table '\(name)' between its markers")
      return
    }
    let table =
      "\n\n" + tableRow("input", "exit", header)
      + "\n| --- | --- | --- |\n" + rows.joined(separator: "\n") + "\n\n"
    if ProcessInfo.processInfo.environment["ACCESSORYD_WRITE_README"] != nil {
      try text.replacingCharacters(
        in: start.upperBound..<end.lowerBound, with: table
      )
      .write(to: readme, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      String(text[start.upperBound..<end.lowerBound]) == table,
      """
      docs/reliability.md's table '\(name)' is not what was said; \
      ACCESSORYD_WRITE_README=1 swift test --filter \(suite) writes it \
      again:
      \(table)
      """)
  }

  /// Requires the daemon to run and `acctl status` to succeed.
  private func stillAnswers(_ rig: Rig, after what: String) async throws {
    #expect(rig.daemon.isRunning, "accessoryd died after \(what)")
    let status = try await rig.daemon.acctl(["status"])
    #expect(status.status == 0, "after \(what): \(status)")
    #expect(status.stdout.hasPrefix("accessoryd "), "after \(what): \(status)")
  }
}
