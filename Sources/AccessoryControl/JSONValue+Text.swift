// JSON text to and from JSONValue, without going through Codable: the
// control protocol reads and writes every line this way, which takes a few
// microseconds where JSONEncoder and JSONDecoder take tens.

import FoundationEssentials
import Glibc

/// JSON text that cannot be read, with where and why.
public struct JSONSyntaxError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// The byte offset of the problem in the text.
  public var offset: Int
  /// What was expected or found there.
  public var reason: String

  /// Creates an error.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// The reason and the offset, such as `expected ':' at byte 12`.
  public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
  /// How deeply arrays and objects may nest in text that is read.
  public static let maximumNestingDepth = 256

  /// Reads one JSON value from UTF-8 text (RFC 8259), with nothing but
  /// white space around it.
  ///
  /// - Parameter text: The UTF-8 bytes.
  /// - Throws: ``JSONSyntaxError`` at the first byte that does not fit,
  ///   for invalid UTF-8 in a string, and for nesting deeper than
  ///   ``maximumNestingDepth``.
  public init(parsing text: some Collection<UInt8>) throws(JSONSyntaxError) {
    let bytes = Array(text)
    var result: Result<JSONValue, JSONSyntaxError> = .success(.null)
    bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONTextReader(bytes: buffer)
      result = Result { () throws(JSONSyntaxError) in try reader.readDocument()
      }
    }
    self = try result.get()
  }

  /// The value as compact JSON text in UTF-8, with object members sorted
  /// by name and `/` left unescaped.
  ///
  /// Numbers that are whole and within ±2⁵³ are written without a
  /// fraction; a number that is not finite is written as `null`.
  public func serialized() -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(128)
    write(into: &output)
    return output
  }

  /// The value as compact JSON text; see ``serialized()``.
  public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

  private func write(into output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value):
      output.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let value): Self.write(number: value, into: &output)
    case .string(let value): Self.write(string: value, into: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        element.write(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (position, name) in members.keys.sorted().enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        Self.write(string: name, into: &output)
        output.append(UInt8(ascii: ":"))
        members[name]!.write(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static func write(number: Double, into output: inout [UInt8]) {
    guard number.isFinite else {
      output.append(contentsOf: "null".utf8)
      return
    }
    if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
      output.append(contentsOf: String(Int64(number)).utf8)
    } else {
      output.append(contentsOf: number.description.utf8)
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func write(string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0..<0x20:
        output.append(contentsOf: Array("\\u00".utf8))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

/// A reader of JSON text over a buffer of UTF-8 bytes.
private struct JSONTextReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func readDocument() throws(JSONSyntaxError) -> JSONValue {
    let value = try readValue()
    skipWhiteSpace()
    guard position == bytes.count else {
      throw failure("unexpected text after the value")
    }
    return value
  }

  private func failure(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: position, reason: reason)
  }

  private mutating func skipWhiteSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
    skipWhiteSpace()
    guard position < bytes.count else {
      throw failure("expected a value, found the end")
    }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"):
      try readWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try readWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try readWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try readNumber())
    default:
      throw failure("expected a value")
    }
  }

  private mutating func readWord(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard bytes.count - position >= count,
      memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0
    else { throw failure("expected '\(word)'") }
    position += count
  }

  private mutating func enterContainer() throws(JSONSyntaxError) {
    depth += 1
    guard depth <= JSONValue.maximumNestingDepth else {
      throw failure(
        "nested deeper than \(JSONValue.maximumNestingDepth) levels")
    }
    position += 1
  }

  private mutating func readObject() throws(JSONSyntaxError) -> JSONValue {
    try enterContainer()
    var members: [String: JSONValue] = [:]
    if closesAtOnce(UInt8(ascii: "}")) { return .object(members) }
    while true {
      skipWhiteSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw failure("expected a member name in quotes")
      }
      let name = try readString()
      skipWhiteSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw failure("expected ':'")
      }
      position += 1
      members[name] = try readValue()
      if try readSeparator(closing: UInt8(ascii: "}")) {
        return .object(members)
      }
    }
  }

  private mutating func readArray() throws(JSONSyntaxError) -> JSONValue {
    try enterContainer()
    var elements: [JSONValue] = []
    if closesAtOnce(UInt8(ascii: "]")) { return .array(elements) }
    while true {
      elements.append(try readValue())
      if try readSeparator(closing: UInt8(ascii: "]")) {
        return .array(elements)
      }
    }
  }

  /// Right after `{` or `[`: consumes the closing byte and leaves the
  /// container if it comes next.
  private mutating func closesAtOnce(_ closing: UInt8) -> Bool {
    skipWhiteSpace()
    guard position < bytes.count, bytes[position] == closing else {
      return false
    }
    position += 1
    depth -= 1
    return true
  }

  /// After a member or an element: consumes `,` and returns false, or
  /// consumes the closing byte, leaves the container and returns true.
  private mutating func readSeparator(
    closing: UInt8
  ) throws(JSONSyntaxError) -> Bool {
    skipWhiteSpace()
    let expected = "expected ',' or '\(Character(Unicode.Scalar(closing)))'"
    guard position < bytes.count else {
      throw failure(expected + ", found the end")
    }
    switch bytes[position] {
    case UInt8(ascii: ","):
      position += 1
      return false
    case closing:
      position += 1
      depth -= 1
      return true
    default:
      throw failure(expected)
    }
  }

  private mutating func readDigits() -> Int {
    let start = position
    while position < bytes.count,
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
    {
      position += 1
    }
    return position - start
  }

  private mutating func readNumber() throws(JSONSyntaxError) -> Double {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count else { throw failure("expected a digit") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
    } else if readDigits() == 0 {
      throw failure("expected a digit")
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard readDigits() > 0 else { throw failure("expected a digit") }
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e")
        || bytes[position] == UInt8(ascii: "E")
    {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+")
          || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard readDigits() > 0 else { throw failure("expected a digit") }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      position = start
      throw failure("the number \(text) is out of range")
    }
    return value
  }

  private mutating func readHexQuad() throws(JSONSyntaxError) -> UInt32 {
    guard bytes.count - position >= 4 else {
      throw failure("expected four hexadecimal digits")
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"):
        digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"):
        digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("expected a hexadecimal digit")
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  private mutating func readString() throws(JSONSyntaxError) -> String {
    position += 1
    let start = position
    // The common case: no escapes, so the bytes are the string.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let text = String(validating: slice, as: UTF8.self) else {
          position = start
          throw failure("a string that is not valid UTF-8")
        }
        position += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      position += 1
    }
    var scalars = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: scalars, as: UTF8.self) else {
          position = start
          throw failure("a string that is not valid UTF-8")
        }
        position += 1
        return text
      case UInt8(ascii: "\\"):
        position += 1
        guard position < bytes.count else { break }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
          scalars.append(escape)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "u"):
          var code = try readHexQuad()
          if (0xD800..<0xDC00).contains(code) {
            guard bytes.count - position >= 6,
              bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else {
              throw failure("expected the second half of a surrogate pair")
            }
            position += 2
            let low = try readHexQuad()
            guard (0xDC00..<0xE000).contains(low) else {
              throw failure("expected the second half of a surrogate pair")
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else {
            throw failure("a lone surrogate in a \\u escape")
          }
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          position -= 1
          throw failure(
            "an unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
        }
      case 0..<0x20:
        throw failure("a control character in a string")
      default:
        scalars.append(byte)
        position += 1
      }
    }
    throw failure("a string that does not end")
  }
}
