// Reading a policy from JSON5, checking every key: an unknown key, a wrong
// type or a value out of range is an error that names the key path and what
// is allowed.

import FoundationEssentials
import RoutingCore
import SystemCalls

/// The error for a policy that cannot be used.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key path of the bad value, such as `placement.offHeadGraceSeconds`,
  /// or empty for the whole document.
  public var keyPath: String
  /// What is wrong and what is allowed.
  public var problem: String
  /// The file the policy came from, if any.
  public var file: String?

  /// Creates an error.
  public init(keyPath: String, problem: String, file: String? = nil) {
    self.keyPath = keyPath
    self.problem = problem
    self.file = file
  }

  /// The file, the key path and the problem, for example
  /// `strict.json5: placement.offHeadGraceSeconds: is -1; expected a number
  /// from 0 to 600`.
  public var description: String {
    var text = ""
    if let file { text += "\(file): " }
    if !keyPath.isEmpty { text += "\(keyPath): " }
    return text + problem
  }
}

/// Reads policies from JSON5.
public enum PolicyLoader {
  /// Reads a policy file.
  ///
  /// - Parameter url: The file's location.
  /// - Throws: ``PolicyError`` naming the file, the key path and what is
  ///   allowed.
  public static func load(contentsOf url: URL) throws(PolicyError) -> Policy {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw PolicyError(
        keyPath: "", problem: "cannot be read: \(readFailure(error))",
        file: url.path)
    }
    do {
      return try parse(data)
    } catch {
      var located = error
      located.file = url.path
      throw located
    }
  }

  /// Reads a policy from JSON5 text.
  ///
  /// - Throws: ``PolicyError`` naming the key path and what is allowed, or
  ///   for a syntax error the line, the column and what was expected and
  ///   found there, such as `line 3, column 40: expected a key or '}',
  ///   found ','`.
  public static func parse(_ data: Data) throws(PolicyError) -> Policy {
    let root: PolicyValue
    do {
      root = try JSON5Reader.read(data)
    } catch {
      throw PolicyError(keyPath: "", problem: error.description)
    }
    return try read(root)
  }

  // MARK: - The schema

  private static func read(_ root: PolicyValue) throws(PolicyError) -> Policy {
    var policy = Policy()
    let top = try ObjectReader(
      root, path: "", keys: PolicySchema.keys(in: ""))
    for section in [""] + PolicySchema.sections {
      let object: ObjectReader
      if section.isEmpty {
        object = top
      } else if let inner = try top.object(
        section, keys: PolicySchema.keys(in: section))
      {
        object = inner
      } else {
        continue
      }
      for setting in PolicySchema.settings where setting.section == section {
        try setting.read(object, &policy)
      }
    }
    return policy
  }

}

/// Reads an output match, refusing one that matches every output.
func readOutputMatch(
  _ value: PolicyValue, path: String
) throws(PolicyError) -> Policy.OutputMatch {
  let reader = try ObjectReader(
    value, path: path, keys: PolicySchema.outputMatchFields.map(\.key))
  var match = Policy.OutputMatch(
    name: try reader.string("name"),
    description: try reader.string("description"),
    activePort: try reader.string("activePort"))
  if let properties = reader.fields["properties"] {
    let propertiesPath = reader.path("properties")
    guard case .object(let fields) = properties else {
      throw PolicyError(
        keyPath: propertiesPath,
        problem: "is \(properties.kind); expected an object of property "
          + "patterns such as { \"device.bus\": \"bluetooth\" }")
    }
    for key in fields.keys.sorted() {
      guard case .string(let pattern) = fields[key]! else {
        throw PolicyError(
          keyPath: propertiesPath + "." + key,
          problem: "is \(fields[key]!.kind); expected a text pattern")
      }
      match.properties[key] = pattern
    }
  }
  if match.name == nil, match.description == nil, match.activePort == nil,
    match.properties.isEmpty
  {
    throw PolicyError(
      keyPath: path,
      problem: "matches every output; expected at least one of "
        + PolicySchema.outputMatchFields.map { "'\($0.key)'" }.joined(
          separator: ", "))
  }
  return match
}

/// A JSON5 value, read before the schema is applied so that every error can
/// name its key path.
enum PolicyValue: Hashable {
  /// An object: its keys and values.
  case object([String: PolicyValue])
  /// An array.
  case array([PolicyValue])
  /// A string.
  case string(String)
  /// A number, which may be infinite or NaN: the schema refuses those.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// The kind of value, with the value for scalars, for error messages.
  var kind: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string(let text): "the text '\(text)'"
    case .number(let number) where number.isNaN: "the number NaN"
    case .number(let number) where number.isInfinite:
      "the number \(number < 0 ? "-" : "")Infinity"
    case .number(let number): "the number \(formatNumber(number))"
    case .bool(let flag): "\(flag)"
    case .null: "null"
    }
  }
}

/// Reads the fields of one object of a policy, refusing unknown keys.
struct ObjectReader {
  let fields: [String: PolicyValue]
  let prefix: String

  init(
    _ value: PolicyValue, path: String, keys: [String]
  ) throws(PolicyError) {
    guard case .object(let fields) = value else {
      throw PolicyError(
        keyPath: path, problem: "is \(value.kind); expected an object")
    }
    self.fields = fields
    self.prefix = path.isEmpty ? "" : path + "."
    for key in fields.keys.sorted() where !keys.contains(key) {
      throw PolicyError(
        keyPath: prefix + key,
        problem: "is not a known setting; expected one of "
          + keys.map { "'\($0)'" }.joined(separator: ", "))
    }
  }

  func path(_ key: String) -> String { prefix + key }

  private func value(
    _ key: String, required: Bool, expected: String
  ) throws(PolicyError) -> PolicyValue? {
    guard let value = fields[key], value != .null else {
      if required {
        throw PolicyError(
          keyPath: path(key), problem: "is missing; expected \(expected)")
      }
      return nil
    }
    return value
  }

  private func wrongType(
    _ key: String, _ value: PolicyValue, expected: String
  ) -> PolicyError {
    PolicyError(
      keyPath: path(key), problem: "is \(value.kind); expected \(expected)")
  }

  func object(
    _ key: String, keys: [String]
  ) throws(PolicyError)
    -> ObjectReader?
  {
    guard let value = try value(key, required: false, expected: "an object")
    else { return nil }
    return try ObjectReader(value, path: path(key), keys: keys)
  }

  func array(
    _ key: String, required: Bool = false
  ) throws(PolicyError) -> [(path: String, value: PolicyValue)] {
    guard
      let value = try value(key, required: required, expected: "an array")
    else { return [] }
    guard case .array(let elements) = value else {
      throw wrongType(key, value, expected: "an array")
    }
    return elements.enumerated().map {
      ("\(path(key))[\($0.offset)]", $0.element)
    }
  }

  func bool(_ key: String) throws(PolicyError) -> Bool? {
    let expected = "true or false"
    guard let value = try value(key, required: false, expected: expected)
    else { return nil }
    guard case .bool(let flag) = value else {
      throw wrongType(key, value, expected: expected)
    }
    return flag
  }

  func string(
    _ key: String, required: Bool = false
  ) throws(PolicyError)
    -> String?
  {
    let expected = "text"
    guard let value = try value(key, required: required, expected: expected)
    else { return nil }
    guard case .string(let text) = value else {
      throw wrongType(key, value, expected: expected)
    }
    return text
  }

  func number(
    _ key: String, in range: ClosedRange<Double>, unit: String = "",
    required: Bool = false
  ) throws(PolicyError) -> Double? {
    let expected =
      "a number\(unit) from \(formatNumber(range.lowerBound)) to "
      + formatNumber(range.upperBound)
    guard let value = try value(key, required: required, expected: expected)
    else { return nil }
    guard case .number(let number) = value else {
      throw wrongType(key, value, expected: expected)
    }
    guard number.isFinite, range.contains(number) else {
      throw wrongType(key, value, expected: expected)
    }
    return number
  }

  func seconds(
    _ key: String, upTo limit: Double = 600
  ) throws(PolicyError) -> Double? {
    try number(key, in: 0...limit, unit: " of seconds")
  }

  func integer(
    _ key: String, in range: ClosedRange<Int>, required: Bool = false
  ) throws(PolicyError) -> Int? {
    let expected =
      "a whole number from \(range.lowerBound) to \(range.upperBound)"
    guard let value = try value(key, required: required, expected: expected)
    else { return nil }
    guard case .number(let number) = value, number == number.rounded(),
      abs(number) < 1e9, range.contains(Int(number))
    else {
      throw wrongType(key, value, expected: expected)
    }
    return Int(number)
  }

  func choice<Choice: RawRepresentable & CaseIterable>(
    _ key: String, of type: Choice.Type
  ) throws(PolicyError) -> Choice? where Choice.RawValue == String {
    let expected =
      "one of "
      + Choice.allCases.map { "'\($0.rawValue)'" }.joined(
        separator: ", ")
    guard let value = try value(key, required: false, expected: expected)
    else { return nil }
    guard case .string(let text) = value, let choice = Choice(rawValue: text)
    else {
      throw wrongType(key, value, expected: expected)
    }
    return choice
  }
}

/// What went wrong reading a file, as the system says it ("No such file or
/// directory"), or the error itself where it carries no system code.
func readFailure(_ error: any Error) -> String {
  guard let code = (error as? CocoaError)?.underlying as? POSIXError else {
    return "\(error)"
  }
  return Errno(rawValue: code.code.rawValue).message
}
