// A JSON5 reader (https://spec.json5.org) that turns UTF-8 text straight
// into a PolicyValue, so that a syntax error in a hand-edited policy can say
// on which line and column it is, what was expected there and what was
// found.

import FoundationEssentials

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

  private let bytes: [UInt8]
  private var offset = 0

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  // MARK: - Values

  private mutating func readDocument() throws(SyntaxError) -> PolicyValue {
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
  private mutating func readValue(
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

  private mutating func readObject(
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

  private mutating func readKey() throws(SyntaxError) -> String {
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

  private mutating func readArray(
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

  private func checkDepth(_ depth: Int) throws(SyntaxError) {
    guard depth <= Self.maximumDepth else {
      throw error(
        "expected at most \(Self.maximumDepth) objects and arrays inside "
          + "each other, found more")
    }
  }

  // MARK: - Numbers

  private mutating func readNumber() throws(SyntaxError) -> Double {
    let start = offset
    var negative = false
    if let sign = peek(), sign == ascii("+") || sign == ascii("-") {
      negative = sign == ascii("-")
      offset += 1
      if isIdentifierStart(at: offset) {
        let wordStart = offset
        switch readWord() {
        case "Infinity": return negative ? -.infinity : .infinity
        case "NaN": return .nan
        case let word:
          throw error(
            "expected a number after '\(Character(Unicode.Scalar(sign)))', "
              + "found '\(word)'", at: wordStart)
        }
      }
    }
    let value: Double
    if peek() == ascii("0"), let x = peek(at: offset + 1),
      x == ascii("x") || x == ascii("X")
    {
      offset += 2
      var number = 0.0
      let digitsStart = offset
      while let byte = peek(), let digit = hexValue(byte) {
        number = number * 16 + Double(digit)
        offset += 1
      }
      guard offset > digitsStart else {
        throw error(
          "expected a hexadecimal digit after '0\(Character(Unicode.Scalar(x)))'"
            + ", found \(found())")
      }
      value = number
    } else {
      value = try readDecimal()
    }
    if offset < bytes.count,
      isIdentifierStart(at: offset) || isDigit(bytes[offset])
    {
      _ = readWord()
      throw error(
        "expected a number, found '\(text(start..<offset))'", at: start)
    }
    return negative ? -value : value
  }

  /// Reads the digits of a decimal number, after any sign.
  private mutating func readDecimal() throws(SyntaxError) -> Double {
    let integerStart = offset
    skipDigits()
    let integer = text(integerStart..<offset)
    if integer.count > 1, integer.hasPrefix("0") {
      throw error(
        "expected a number without a leading zero, found '\(integer)'",
        at: integerStart)
    }
    var fraction = ""
    if peek() == ascii(".") {
      offset += 1
      let fractionStart = offset
      skipDigits()
      fraction = text(fractionStart..<offset)
      if integer.isEmpty, fraction.isEmpty {
        throw error("expected a digit after '.', found \(found())")
      }
    } else if integer.isEmpty {
      let sign = Character(Unicode.Scalar(bytes[offset - 1]))
      throw error("expected a number after '\(sign)', found \(found())")
    }
    var exponent = ""
    if let e = peek(), e == ascii("e") || e == ascii("E") {
      offset += 1
      let exponentStart = offset
      if let sign = peek(), sign == ascii("+") || sign == ascii("-") {
        offset += 1
      }
      let digitsStart = offset
      skipDigits()
      guard offset > digitsStart else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      exponent = "e" + text(exponentStart..<offset)
    }
    let normalized =
      (integer.isEmpty ? "0" : integer) + "."
      + (fraction.isEmpty ? "0" : fraction) + exponent
    return Double(normalized) ?? .infinity
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { offset += 1 }
  }

  // MARK: - Strings

  private mutating func readString() throws(SyntaxError) -> String {
    let start = offset
    let quote = bytes[offset]
    let quoteText = quote == ascii("'") ? "\"'\"" : "'\"'"
    offset += 1
    var buffer: [UInt8] = []
    while true {
      guard let byte = peek() else {
        throw error(
          "a string that does not end; expected a closing \(quoteText) "
            + "before the end of the file", at: start)
      }
      switch byte {
      case quote:
        offset += 1
        return String(decoding: buffer, as: UTF8.self)
      case ascii("\n"), ascii("\r"):
        throw error(
          "a string that does not end; expected a closing \(quoteText) "
            + "before the end of the line", at: start)
      case ascii("\\"):
        try readEscape(into: &buffer)
      default:
        buffer.append(byte)
        offset += 1
      }
    }
  }

  /// Reads an escape or a line continuation at the backslash, appending
  /// what it stands for as UTF-8.
  private mutating func readEscape(
    into buffer: inout [UInt8]
  ) throws(SyntaxError) {
    let escapeStart = offset
    offset += 1
    guard let byte = peek() else { return }  // the string does not end
    offset += 1
    switch byte {
    case ascii("'"), ascii("\""), ascii("\\"), ascii("/"):
      buffer.append(byte)
    case ascii("b"): buffer.append(0x08)
    case ascii("f"): buffer.append(0x0C)
    case ascii("n"): buffer.append(0x0A)
    case ascii("r"): buffer.append(0x0D)
    case ascii("t"): buffer.append(0x09)
    case ascii("v"): buffer.append(0x0B)
    case ascii("0"):
      if let next = peek(), isDigit(next) {
        throw error("expected no digit after '\\0', found \(found())")
      }
      buffer.append(0)
    case ascii("x"):
      append(try readHexDigits(2, after: "\\x"), to: &buffer)
    case ascii("u"):
      append(try readUnicodeEscape(at: escapeStart), to: &buffer)
    case ascii("\n"):
      break
    case ascii("\r"):
      if peek() == ascii("\n") { offset += 1 }
    case 0xE2 where isLineSeparator(at: offset - 1):
      offset += 2
    default:
      offset = escapeStart + 1
      throw error(
        "unknown escape '\\" + String(scalar(at: offset).scalar)
          + "'; expected one of \\' \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\v \\0 "
          + "\\xHH \\uHHHH, or \\\\ for a backslash", at: escapeStart)
    }
  }

  /// Reads the rest of a `\u` escape whose backslash is at `start`,
  /// joining a surrogate pair.
  private mutating func readUnicodeEscape(
    at start: Int
  ) throws(SyntaxError) -> Unicode.Scalar {
    let first = try readHexDigits(4, after: "\\u")
    switch first {
    case 0xD800...0xDBFF:
      let secondStart = offset
      if peek() == ascii("\\"), peek(at: offset + 1) == ascii("u") {
        offset += 2
        let second = try readHexDigits(4, after: "\\u")
        if (0xDC00...0xDFFF).contains(second) {
          return Unicode.Scalar(
            0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))!
        }
      }
      offset = secondStart
      throw error(
        "a lone surrogate '\(text(start..<secondStart))'; expected an escape "
          + "from '\\uDC00' to '\\uDFFF' after it", at: start)
    case 0xDC00...0xDFFF:
      throw error(
        "a lone surrogate '\(text(start..<offset))'; expected an escape "
          + "from '\\uD800' to '\\uDBFF' before it", at: start)
    default:
      return Unicode.Scalar(first)!
    }
  }

  private mutating func readHexDigits(
    _ count: Int, after escape: String
  ) throws(SyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<count {
      guard let byte = peek(), let digit = hexValue(byte) else {
        throw error(
          "expected \(count == 2 ? "two" : "four") hexadecimal digits after "
            + "'\(escape)', found \(found())")
      }
      value = value << 4 + digit
      offset += 1
    }
    return value
  }

  private func append(_ value: UInt32, to buffer: inout [UInt8]) {
    append(Unicode.Scalar(value)!, to: &buffer)
  }

  private func append(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: UTF8.encode(scalar)!)
  }

  // MARK: - Space and comments

  /// Skips whitespace and comments.
  private mutating func skipSpace() throws(SyntaxError) {
    while let byte = peek() {
      switch byte {
      case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20:
        offset += 1
      case ascii("/") where peek(at: offset + 1) == ascii("/"):
        offset += 2
        while offset < bytes.count, !isLineTerminator(at: offset) {
          offset += 1
        }
      case ascii("/") where peek(at: offset + 1) == ascii("*"):
        let start = offset
        offset += 2
        while !(peek() == ascii("*") && peek(at: offset + 1) == ascii("/")) {
          guard offset < bytes.count else {
            throw error(
              "a comment that does not end; expected '*/' before the end of "
                + "the file", at: start)
          }
          offset += 1
        }
        offset += 2
      case 0x80...:
        let (scalar, length) = scalar(at: offset)
        guard isSpace(scalar) else { return }
        offset += length
      default:
        return
      }
    }
  }

  private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}": true
    default: scalar.properties.generalCategory == .spaceSeparator
    }
  }

  private func isLineTerminator(at index: Int) -> Bool {
    bytes[index] == ascii("\n") || bytes[index] == ascii("\r")
      || isLineSeparator(at: index)
  }

  /// Whether U+2028 or U+2029 starts at `index`.
  private func isLineSeparator(at index: Int) -> Bool {
    index + 2 < bytes.count && bytes[index] == 0xE2
      && bytes[index + 1] == 0x80
      && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
  }

  // MARK: - Identifiers

  /// Whether an ECMAScript identifier may start at `index`: an ASCII
  /// letter, `$`, `_` or a Unicode letter.
  private func isIdentifierStart(at index: Int) -> Bool {
    guard index < bytes.count else { return false }
    let byte = bytes[index]
    if byte < 0x80 {
      return isASCIILetter(byte) || byte == ascii("$") || byte == ascii("_")
    }
    return scalar(at: index).scalar.properties.isAlphabetic
  }

  /// Whether an identifier may go on with the scalar at `index`: as at its
  /// start, or a digit, a combining mark, a connector or a zero-width
  /// joiner.
  private func isIdentifierPart(at index: Int) -> Bool {
    guard index < bytes.count else { return false }
    if isIdentifierStart(at: index) || isDigit(bytes[index]) { return true }
    guard bytes[index] >= 0x80 else { return false }
    let scalar = scalar(at: index).scalar
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
      return true
    default:
      return scalar == "\u{200C}" || scalar == "\u{200D}"
    }
  }

  /// Reads an identifier (or, after a number, the word it runs into).
  private mutating func readWord() -> String {
    let start = offset
    while isIdentifierPart(at: offset) {
      offset += scalar(at: offset).length
    }
    return text(start..<offset)
  }

  // MARK: - Bytes

  private func peek() -> UInt8? {
    offset < bytes.count ? bytes[offset] : nil
  }

  private func peek(at index: Int) -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The scalar starting at `index` and its length in bytes; the text has
  /// been checked to be UTF-8.
  private func scalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
    let lead = UInt32(bytes[index])
    let length =
      switch lead {
      case ..<0x80: 1
      case ..<0xE0: 2
      case ..<0xF0: 3
      default: 4
      }
    var value =
      length == 1 ? lead : lead & (0xFF >> UInt32(length + 1))
    for next in bytes[index + 1..<index + length] {
      value = value << 6 | UInt32(next & 0x3F)
    }
    return (Unicode.Scalar(value)!, length)
  }

  /// Where the text stops being UTF-8, if it does: a bad lead byte, a
  /// sequence cut short, an overlong form, a surrogate or a value beyond
  /// U+10FFFF.
  private func firstInvalidUTF8() -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      var second: ClosedRange<UInt8> = 0x80...0xBF
      let length: Int
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xE1...0xEF: length = 3
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      case 0xF1...0xF3: length = 4
      default: return index
      }
      guard index + length <= bytes.count,
        second.contains(bytes[index + 1]),
        bytes[index + 2..<index + length].allSatisfy({ $0 & 0xC0 == 0x80 })
      else { return index }
      index += length
    }
    return nil
  }

  // MARK: - Errors

  /// An error at `position`, or where the reader is.
  private func error(_ message: String, at position: Int? = nil) -> SyntaxError
  {
    let (line, column) = location(of: position ?? offset)
    return SyntaxError(line: line, column: column, message: message)
  }

  /// The line and column of the byte at `position`, from 1.
  private func location(of position: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var index = 0
    while index < position {
      let byte = bytes[index]
      if byte == ascii("\n")
        || (byte == ascii("\r") && peek(at: index + 1) != ascii("\n"))
      {
        (line, column) = (line + 1, 1)
      } else if isLineSeparator(at: index) {
        (line, column) = (line + 1, 1)
        index += 3
        continue
      } else if byte & 0xC0 != 0x80, byte != ascii("\r") {
        column += 1
      }
      index += 1
    }
    return (line, column)
  }

  /// What is at the reader's position, for an error: a quoted character,
  /// or a description of one that cannot be shown.
  private func found() -> String {
    guard offset < bytes.count else { return "the end of the file" }
    if isLineTerminator(at: offset) { return "the end of the line" }
    let scalar = scalar(at: offset).scalar
    switch scalar.value {
    case 0x09: return "a tab"
    case 0x27: return "\"'\""
    case 0..<0x20, 0x7F..<0xA0:
      return "the control character U+" + hex(scalar.value, width: 4)
    default: return "'\(Character(scalar))'"
    }
  }
}

private func ascii(_ character: Unicode.Scalar) -> UInt8 {
  UInt8(character.value)
}

private func isDigit(_ byte: UInt8) -> Bool {
  (ascii("0")...ascii("9")).contains(byte)
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
  (ascii("a")...ascii("z")).contains(byte | 0x20)
}

private func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case ascii("0")...ascii("9"): UInt32(byte - ascii("0"))
  case ascii("a")...ascii("f"): UInt32(byte - ascii("a") + 10)
  case ascii("A")...ascii("F"): UInt32(byte - ascii("A") + 10)
  default: nil
  }
}

private func hex(_ value: some BinaryInteger, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
