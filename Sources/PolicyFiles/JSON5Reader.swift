// A JSON5 reader (https://spec.json5.org) that turns UTF-8 text straight
// into a PolicyValue, so that a syntax error in a hand-edited policy can say
// on which line and column it is, what was expected there and what was
// found.

import FoundationEssentials
import RoutingCore

/// Reads JSON5 text into a ``PolicyValue``, reporting syntax errors with
/// their line and column.
///
/// It reads the whole of JSON5: comments, trailing commas, unquoted keys,
/// single-quoted strings, hexadecimal numbers, `Infinity` and `NaN`. It is
/// stricter than the specification in three ways, each reported as an error
/// that says so:
///
/// - a key that appears twice in one object (the specification keeps the
///   last; a policy with two values for one setting is a mistake);
/// - an escape that is not one of `\' \" \\ \/ \b \f \n \r \t \v \0 \xHH
///   \uHHHH` or a line continuation (the specification reads `\q` as `q`,
///   which hides a backslash the author meant);
/// - an unquoted key written with `\u` escapes (quote the key instead).
///
/// `Infinity` and `NaN` are read as numbers; the policy schema refuses them
/// with the key path, as it does any number out of range.
package struct JSON5Reader {
  /// A syntax error: where it is, what was expected and what was found.
  package struct SyntaxError: Error, Hashable, Sendable,
    CustomStringConvertible
  {
    /// The line, from 1; lines end at LF, CR, CR LF, U+2028 and U+2029.
    package var line: Int
    /// The column, from 1, counted in Unicode scalars (characters) of the
    /// line, so a tab or an `é` counts as one.
    package var column: Int
    /// What was expected and what was found.
    package var message: String

    /// `line L, column C: message`.
    package var description: String {
      "line \(line), column \(column): \(message)"
    }
  }

  /// Checks that `data` is JSON5 text, for files that are then decoded
  /// another way (the daemon's configuration file), so that their syntax
  /// errors too name the line and column.
  ///
  /// - Throws: ``SyntaxError`` at the first problem.
  package static func check(_ data: Data) throws(SyntaxError) {
    _ = try read(data)
  }

  /// The deepest nesting of objects and arrays read; deeper input is an
  /// error rather than a stack overflow.
  static let maximumDepth = 128

  /// Reads one JSON5 value that fills the whole of `data`.
  ///
  /// - Throws: ``SyntaxError`` with the line, the column and what was
  ///   expected and found.
  static func read(_ data: Data) throws(SyntaxError) -> PolicyValue {
    var reader = JSON5Reader(bytes: Array(data))
    return try reader.readDocument()
  }

  let bytes: [UInt8]
  var offset = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  // MARK: - Values

  mutating func readDocument() throws(SyntaxError) -> PolicyValue {
    if let bad = firstInvalidUTF8() {
      throw error(
        "expected UTF-8 text, found the byte 0x" + hex(bytes[bad], width: 2),
        at: bad)
    }
    let value = try readValue(depth: 0)
    try skipSpace()
    guard offset == bytes.count else {
      throw error(
        "expected the end of the file after the policy, found \(found())")
    }
    return value
  }

  /// Reads a value inside `depth` objects and arrays.
  mutating func readValue(
    depth: Int
  ) throws(SyntaxError) -> PolicyValue {
    try skipSpace()
    guard let byte = peek() else {
      throw error("expected a value, found \(found())")
    }
    switch byte {
    case ascii("{"):
      return try readObject(depth: depth + 1)
    case ascii("["):
      return try readArray(depth: depth + 1)
    case ascii("\""), ascii("'"):
      return .string(try readString())
    case ascii("0")...ascii("9"), ascii("+"), ascii("-"), ascii("."):
      return .number(try readNumber())
    default:
      break
    }
    guard isIdentifierStart(at: offset) else {
      throw error("expected a value, found \(found())")
    }
    let start = offset
    let word = readWord()
    switch word {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    case "Infinity": return .number(.infinity)
    case "NaN": return .number(.nan)
    default: break
    }
    var message = "expected a value, found '\(word)'"
    if ["true", "false", "null"].contains(word.lowercased()) {
      message += "; write true, false and null in lower case"
    } else if !["true", "false", "null"].contains(where: {
      $0.hasPrefix(word)
    }) {
      message += "; text must be in quotes"
    }
    throw error(message, at: start)
  }

  mutating func readObject(
    depth: Int
  ) throws(SyntaxError) -> PolicyValue {
    try checkDepth(depth)
    offset += 1
    var fields: [String: PolicyValue] = [:]
    var keyOffsets: [String: Int] = [:]
    while true {
      try skipSpace()
      if peek() == ascii("}") {
        offset += 1
        return .object(fields)
      }
      let keyOffset = offset
      let key = try readKey()
      if let first = keyOffsets[key] {
        let (line, column) = location(of: first)
        throw error(
          "the key '\(key)' appears twice; it is first at line \(line), "
            + "column \(column)",
          at: keyOffset)
      }
      keyOffsets[key] = keyOffset
      try skipSpace()
      guard peek() == ascii(":") else {
        throw error("expected ':' after the key '\(key)', found \(found())")
      }
      offset += 1
      fields[key] = try readValue(depth: depth)
      try skipSpace()
      switch peek() {
      case ascii(","):
        offset += 1
      case ascii("}"):
        offset += 1
        return .object(fields)
      default:
        throw error(
          "expected ',' or '}' after the value of '\(key)', found \(found())")
      }
    }
  }

  mutating func readKey() throws(SyntaxError) -> String {
    switch peek() {
    case ascii("\""), ascii("'"):
      return try readString()
    default:
      guard isIdentifierStart(at: offset) else {
        throw error("expected a key or '}', found \(found())")
      }
      return readWord()
    }
  }

  mutating func readArray(
    depth: Int
  ) throws(SyntaxError) -> PolicyValue {
    try checkDepth(depth)
    offset += 1
    var elements: [PolicyValue] = []
    while true {
      try skipSpace()
      if peek() == ascii("]") {
        offset += 1
        return .array(elements)
      }
      elements.append(try readValue(depth: depth))
      try skipSpace()
      switch peek() {
      case ascii(","):
        offset += 1
      case ascii("]"):
        offset += 1
        return .array(elements)
      default:
        throw error(
          "expected ',' or ']' after an element of the array, found \(found())"
        )
      }
    }
  }

  func checkDepth(_ depth: Int) throws(SyntaxError) {
    guard depth <= Self.maximumDepth else {
      throw error(
        "expected at most \(Self.maximumDepth) objects and arrays inside "
          + "each other, found more")
    }
  }
}
