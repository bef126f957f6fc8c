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
  func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }

  /// The string with spaces before it up to `width` characters.
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}

/// The line without the spaces at its end.
func trimmingTrailingSpaces(_ line: String) -> String {
  String(line.reversed().drop { $0 == " " }.reversed())
}
