// How acctl prints the daemon's answers: stable, human-friendly text, or
// pretty-printed JSON with sorted keys and canonical addresses.

import AccessoryControl
import AudioAccessoryKit
import FoundationEssentials

/// Renders the daemon's values as text or JSON.
enum Rendering {
  // MARK: - JSON

  /// Returns a value as JSON indented by two spaces, with sorted keys.
  ///
  /// Bluetooth addresses are rewritten as `AA:BB:CC:DD:EE:FF`. The layout
  /// is acctl's own, so it stays the same whatever Foundation's encoder
  /// does: `"key": value`, and `[]` or `{}` when empty.
  static func json(_ value: JSONValue) -> String {
    var text = ""
    write(canonical(value), to: &text, indent: 0, pretty: true)
    return text
  }

  /// Returns a value as JSON on one line, with sorted keys.
  static func compactJSON(_ value: JSONValue) -> String {
    var text = ""
    write(canonical(value), to: &text, indent: 0, pretty: false)
    return text
  }

  private static func write(
    _ value: JSONValue, to text: inout String, indent: Int, pretty: Bool
  ) {
    let inner = pretty ? "\n" + String(repeating: " ", count: indent + 2) : ""
    let outer = pretty ? "\n" + String(repeating: " ", count: indent) : ""
    switch value {
    case .null: text += "null"
    case .bool(let flag): text += flag ? "true" : "false"
    case .number(let number): text += numberText(number)
    case .string(let string): text += quoted(string)
    case .array(let items):
      guard !items.isEmpty else {
        text += "[]"
        return
      }
      text += "["
      for (index, item) in items.enumerated() {
        text += (index == 0 ? "" : ",") + inner
        write(item, to: &text, indent: indent + 2, pretty: pretty)
      }
      text += outer + "]"
    case .object(let fields):
      guard !fields.isEmpty else {
        text += "{}"
        return
      }
      text += "{"
      for (index, key) in fields.keys.sorted().enumerated() {
        text += (index == 0 ? "" : ",") + inner + quoted(key)
        text += pretty ? ": " : ":"
        write(fields[key]!, to: &text, indent: indent + 2, pretty: pretty)
      }
      text += outer + "}"
    }
  }

  /// Returns a number as JSON: integers without a fraction.
  private static func numberText(_ number: Double) -> String {
    guard number.isFinite else { return "null" }
    if number == number.rounded(), abs(number) < 1e15 {
      return String(Int64(number))
    }
    return "\(number)"
  }

  /// Returns a string as a JSON string literal.
  private static func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static let addressKeys: Set<String> = [
    "address", "primaryAudioSourceDeviceIdentifier",
    "secondaryAudioSourceDeviceIdentifier",
  ]

  private static func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let fields):
      var result: [String: JSONValue] = [:]
      for (key, field) in fields {
        if addressKeys.contains(key), let text = field.stringValue,
          let address = BluetoothAddress(text)
        {
          result[key] = .string(address.description)
        } else {
          result[key] = canonical(field)
        }
      }
      return .object(result)
    case .array(let items): return .array(items.map(canonical))
    default: return value
    }
  }

  // MARK: - Text

  /// Returns an accessory as a block of labelled lines.
  static func accessory(_ accessory: JSONValue) -> String {
    let name = text(accessory["displayName"]) ?? "unnamed"
    let address = text(accessory["address"]).map(canonicalAddress) ?? "?"
    var lines = ["\(name) (\(address))"]
    func add(_ label: String, _ value: String) {
      lines.append(labelled(label, value, width: 19))
    }
    add("form factor", text(accessory["formFactor"]) ?? "unknown")
    add("state", text(accessory["state"]) ?? "unknown")
    add("output", text(accessory["output"]) ?? "none")
    if let registration = accessory["registration"], registration != .null {
      let invalidated = bool(registration["invalidated"]) ?? false
      add("registration", invalidated ? "invalidated" : "registered")
      let configuration = registration["configuration"] ?? .null
      add("capabilities", capabilities(configuration) ?? "none")
      add("placement", text(configuration["devicePlacement"]) ?? "none")
      add(
        "primary source",
        text(configuration["primaryAudioSourceDeviceIdentifier"])
          .map(canonicalAddress) ?? "none")
      add(
        "secondary source",
        text(configuration["secondaryAudioSourceDeviceIdentifier"])
          .map(canonicalAddress) ?? "none")
    } else {
      add("registration", "none")
    }
    if bool(accessory["routePending"]) == true {
      add("route", "pending until the sound server is back")
    }
    return lines.joined(separator: "\n")
  }

  /// Returns accessories as a table, one row each.
  static func accessoryList(_ accessories: [JSONValue]) -> String {
    guard !accessories.isEmpty else { return "No accessories are paired." }
    var rows = [["ADDRESS", "NAME", "CAPABILITIES", "PLACEMENT", "OUTPUT"]]
    for accessory in accessories {
      let registration = accessory["registration"] ?? .null
      let configuration = registration["configuration"] ?? .null
      let capabilitiesCell: String
      if registration == .null {
        capabilitiesCell = "-"
      } else if bool(registration["invalidated"]) == true {
        capabilitiesCell = "invalidated"
      } else {
        capabilitiesCell = capabilities(configuration) ?? "none"
      }
      rows.append([
        text(accessory["address"]).map(canonicalAddress) ?? "?",
        text(accessory["displayName"]) ?? "-",
        capabilitiesCell,
        text(configuration["devicePlacement"]) ?? "-",
        text(accessory["output"]) ?? "-",
      ])
    }
    return table(rows)
  }

  /// Returns the route: the output, whether it waits for the sound server,
  /// and with `explain` the daemon's explanation.
  static func route(_ route: JSONValue, explain: Bool) -> String {
    var output = text(route["output"]) ?? "none"
    if let description = text(route["description"]), !description.isEmpty {
      output += " (\(description))"
    }
    let pending = bool(route["pending"]) ?? false
    var lines = [
      labelled("output", output, width: 14, indent: 0),
      labelled(
        "pending",
        pending ? "yes, until the sound server is back" : "no",
        width: 14, indent: 0),
      labelled(
        "sound server", text(route["soundServer"]) ?? "unknown", width: 14,
        indent: 0),
    ]
    if let decidedAt = number(route["decidedAt"]),
      let trigger = text(route["trigger"])
    {
      lines.append(
        labelled(
          "decided", "\(ago(decidedAt)), because \(trigger)", width: 14,
          indent: 0))
    }
    // The explanation begins with the summary: print it once.
    if !explain, let summary = text(route["summary"]), !summary.isEmpty {
      lines.append(labelled("summary", summary, width: 14, indent: 0))
    }
    var result = lines.joined(separator: "\n")
    if explain {
      let explanation = trimmingTrailingNewlines(text(route["text"]) ?? "")
      result += "\n\n" + (explanation.isEmpty ? "No explanation." : explanation)
    }
    return result
  }

  /// Returns the decisions that changed the route, newest first: when, the
  /// output, what triggered it and why, one block each.
  static func routeHistory(_ history: JSONValue) -> String {
    guard case .array(let decisions)? = history["decisions"],
      !decisions.isEmpty
    else { return "No decision has changed the route yet." }
    return decisions.map { decision in
      let when = number(decision["decidedAt"]).map(ago) ?? "at an unknown time"
      let output = text(decision["output"]) ?? "none"
      var changed: [String] = []
      if bool(decision["defaultChanged"]) == true { changed.append("default") }
      let moves = Int(number(decision["moves"]) ?? 0)
      if moves > 0 { changed.append("\(moves) stream\(moves == 1 ? "" : "s")") }
      return [
        "\(when): \(output) (\(changed.joined(separator: ", ")))",
        labelled("trigger", text(decision["trigger"]) ?? "", width: 10),
        labelled("why", text(decision["summary"]) ?? "", width: 10),
      ].joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// How long ago an instant (seconds since 1970) was: "4 s ago",
  /// "2 min ago", "3 h ago", "just now".
  static func ago(_ instant: Double) -> String {
    let seconds = Int((Date().timeIntervalSince1970 - instant).rounded())
    switch seconds {
    case ..<1: return "just now"
    case ..<120: return "\(seconds) s ago"
    case ..<7200: return "\(seconds / 60) min ago"
    default: return "\(seconds / 3600) h ago"
    }
  }

  /// Returns discovered devices as a numbered table: name, address, form
  /// factor, signal and state; with `explainMismatches`, each device that
  /// does not match says why.
  ///
  /// - Parameters:
  ///   - numbers: The number of each device; nil to count from 1.
  ///   - header: Whether a first line names the columns.
  static func devices(
    _ devices: [JSONValue], explainMismatches: Bool, numbers: [Int]? = nil,
    header: Bool = false
  ) -> String {
    guard !devices.isEmpty else { return "No matching devices." }
    let rows = devices.map(deviceColumns)
    let names = ["NAME", "ADDRESS", "FORM", "SIGNAL", "STATE"]
    let widths = (0..<4).map { column in
      ((header ? [names] : []) + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ number: String, _ columns: [String]) -> String {
      var line = number.leftPadded(to: 3) + "  "
      for column in 0..<4 {
        line += columns[column].padding(to: widths[column]) + "  "
      }
      return trimmingTrailingSpaces(line + columns[4])
    }
    var lines = header ? [line("#", names)] : []
    for (index, (device, row)) in zip(devices, rows).enumerated() {
      var text = line("\(numbers?[index] ?? index + 1)", row)
      if explainMismatches, let mismatch = Self.text(device["mismatch"]) {
        text += "  (no match: \(mismatch))"
      }
      lines.append(text)
    }
    return lines.joined(separator: "\n")
  }

  /// The columns of one device: name, address, form factor, signal, state.
  static func deviceColumns(_ device: JSONValue) -> [String] {
    var state: [String] = []
    if bool(device["authorized"]) == true { state.append("authorized") }
    if bool(device["paired"]) == true { state.append("paired") }
    if bool(device["connected"]) == true { state.append("connected") }
    if text(device["audioOutput"]) != nil { state.append("audio output") }
    return [
      text(device["displayName"]) ?? "unnamed",
      text(device["address"]).map(canonicalAddress) ?? "?",
      text(device["formFactor"]) ?? "-",
      number(device["rssi"]).map { "\(Int($0)) dBm" } ?? "-",
      state.joined(separator: ", "),
    ]
  }

  /// Returns one event as one line.
  static func event(_ event: JSONValue) -> String {
    switch text(event["kind"]) {
    case "accessory":
      let accessory = event["accessory"] ?? .null
      let name = text(accessory["displayName"]) ?? "unnamed"
      let address = text(accessory["address"]).map(canonicalAddress) ?? "?"
      let change = text(event["change"]) ?? "changed"
      let line = "accessory \(change): \(name) (\(address))"
      guard let eventType = text(event["eventType"]) else { return line }
      return "\(eventType): " + line
    case "route":
      var line = "route \(text(event["output"]) ?? "none")"
      if let summary = text(event["summary"]), !summary.isEmpty {
        line += ": " + summary
      }
      var notes: [String] = []
      if let moves = number(event["moves"]), moves > 0 {
        let count = Int(moves)
        notes.append("\(count) stream\(count == 1 ? "" : "s") moved")
      }
      if bool(event["defaultChanged"]) == true {
        notes.append("default changed")
      }
      if bool(event["pending"]) == true { notes.append("pending") }
      if text(event["chosenBy"]) == "person" { notes.append("your choice") }
      if !notes.isEmpty { line += " [" + notes.joined(separator: ", ") + "]" }
      return line
    case "soundServer":
      return "sound server \(text(event["state"]) ?? "unknown")"
    case "session":
      var line = text(event["eventType"]) ?? "session event"
      var details: [String] = []
      if let picker = text(event["pickerID"]) {
        details.append("picker \(picker)")
      }
      if let count = number(event["count"]).map(Int.init) {
        details.append("\(count) accessor\(count == 1 ? "y" : "ies")")
      }
      if let session = text(event["session"]) {
        details.append("session \(session)")
      }
      if !details.isEmpty {
        line += " (" + details.joined(separator: ", ") + ")"
      }
      if let error = text(event["error"]) { line += ": " + error }
      return line
    case "discovery":
      let device = event["device"] ?? .null
      let address = text(device["address"]).map(canonicalAddress) ?? "?"
      let change = text(event["change"]) ?? "changed"
      guard let name = text(device["displayName"]) else {
        return "device \(change): \(address)"
      }
      return "device \(change): \(name) (\(address))"
    default:
      return compactJSON(event)
    }
  }

  /// Returns the daemon's status: its version, the sound server, its
  /// paths and the host's addresses, each line only when the daemon gives
  /// it.
  static func status(_ status: JSONValue) -> String {
    var lines = ["accessoryd \(text(status["version"]) ?? "unknown")"]
    func add(_ label: String, _ value: String?) {
      if let value { lines.append(labelled(label, value, width: 16)) }
    }
    switch status["soundServer"] {
    case .object(let server)?:
      var state = text(server["state"]) ?? "unknown"
      let product = [text(server["name"]), text(server["version"])]
        .compactMap { $0 }.filter { !$0.isEmpty }
      if !product.isEmpty {
        state += " (" + product.joined(separator: " ") + ")"
      }
      add("sound server", state)
    case .string(let state)?:
      add("sound server", state)
    default:
      break
    }
    add("policy", text(status["policyPath"]))
    add("state", text(status["statePath"]))
    add("socket", text(status["socketPath"]))
    if case .array(let addresses)? = status["hostAddresses"],
      !addresses.isEmpty
    {
      add(
        "host addresses",
        addresses.compactMap(\.stringValue).map(canonicalAddress)
          .joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  // MARK: - Helpers

  /// Returns `  label:` padded to `width` columns after the indent, then
  /// the value.
  static func labelled(
    _ label: String, _ value: String, width: Int, indent: Int = 2
  ) -> String {
    let head = String(repeating: " ", count: indent) + label + ":"
    let padding = max(1, indent + width - head.count)
    return head + String(repeating: " ", count: padding) + value
  }

  /// Returns rows as columns separated by two spaces.
  static func table(_ rows: [[String]]) -> String {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell
          : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ")
    }.joined(separator: "\n")
  }

  /// Returns the capability names of a configuration, joined by commas.
  static func capabilities(_ configuration: JSONValue) -> String? {
    guard case .array(let names) = configuration["deviceCapabilities"] ?? .null
    else { return nil }
    let list = names.compactMap(\.stringValue)
    return list.isEmpty ? "none" : list.joined(separator: ",")
  }

  /// Returns an address in canonical form, or the text as it is.
  static func canonicalAddress(_ text: String) -> String {
    BluetoothAddress(text)?.description ?? text
  }

  /// Returns text without its trailing newlines.
  static func trimmingTrailingNewlines(_ text: String) -> String {
    var text = text
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  /// The string, or nil for a missing or other value.
  static func text(_ value: JSONValue?) -> String? {
    value?.stringValue
  }

  /// The Boolean, or nil for a missing or other value.
  static func bool(_ value: JSONValue?) -> Bool? {
    if case .bool(let flag) = value { return flag }
    return nil
  }

  /// The number, or nil for a missing or other value.
  static func number(_ value: JSONValue?) -> Double? {
    if case .number(let number) = value { return number }
    return nil
  }
}

extension String {
  /// The string with spaces after it up to `width` characters.
  fileprivate func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }

  /// The string with spaces before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}

/// The line without the spaces at its end.
private func trimmingTrailingSpaces(_ line: String) -> String {
  String(line.reversed().drop { $0 == " " }.reversed())
}
