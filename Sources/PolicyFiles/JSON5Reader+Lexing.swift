// The JSON5 reader's lexing: numbers, strings and their escapes, space and
// comments, identifiers, the bytes themselves, and where an error is.

import FoundationEssentials
import RoutingCore

extension JSON5Reader {
  // MARK: - Numbers

  mutating func readNumber() throws(SyntaxError) -> Double {
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
  mutating func readDecimal() throws(SyntaxError) -> Double {
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

  mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { offset += 1 }
  }

  // MARK: - Strings

  mutating func readString() throws(SyntaxError) -> String {
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
  mutating func readEscape(
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
  mutating func readUnicodeEscape(
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

  mutating func readHexDigits(
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

  func append(_ value: UInt32, to buffer: inout [UInt8]) {
    append(Unicode.Scalar(value)!, to: &buffer)
  }

  func append(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: UTF8.encode(scalar)!)
  }

  // MARK: - Space and comments

  /// Skips whitespace and comments.
  mutating func skipSpace() throws(SyntaxError) {
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

  func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}": true
    default: scalar.properties.generalCategory == .spaceSeparator
    }
  }

  func isLineTerminator(at index: Int) -> Bool {
    bytes[index] == ascii("\n") || bytes[index] == ascii("\r")
      || isLineSeparator(at: index)
  }

  /// Whether U+2028 or U+2029 starts at `index`.
  func isLineSeparator(at index: Int) -> Bool {
    index + 2 < bytes.count && bytes[index] == 0xE2
      && bytes[index + 1] == 0x80
      && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
  }

  // MARK: - Identifiers

  /// Whether an ECMAScript identifier may start at `index`: an ASCII
  /// letter, `$`, `_` or a Unicode letter.
  func isIdentifierStart(at index: Int) -> Bool {
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
  func isIdentifierPart(at index: Int) -> Bool {
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
  mutating func readWord() -> String {
    let start = offset
    while isIdentifierPart(at: offset) {
      offset += scalar(at: offset).length
    }
    return text(start..<offset)
  }

  // MARK: - Bytes

  func peek() -> UInt8? {
    offset < bytes.count ? bytes[offset] : nil
  }

  func peek(at index: Int) -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The scalar starting at `index` and its length in bytes; the text has
  /// been checked to be UTF-8.
  func scalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
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
  func firstInvalidUTF8() -> Int? {
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
  func error(_ message: String, at position: Int? = nil) -> SyntaxError {
    let (line, column) = location(of: position ?? offset)
    return SyntaxError(line: line, column: column, message: message)
  }

  /// The line and column of the byte at `position`, from 1.
  func location(of position: Int) -> (line: Int, column: Int) {
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
  func found() -> String {
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

func ascii(_ character: Unicode.Scalar) -> UInt8 {
  UInt8(character.value)
}

func isDigit(_ byte: UInt8) -> Bool {
  (ascii("0")...ascii("9")).contains(byte)
}

func isASCIILetter(_ byte: UInt8) -> Bool {
  (ascii("a")...ascii("z")).contains(byte | 0x20)
}

func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case ascii("0")...ascii("9"): UInt32(byte - ascii("0"))
  case ascii("a")...ascii("f"): UInt32(byte - ascii("a") + 10)
  case ascii("A")...ascii("F"): UInt32(byte - ascii("A") + 10)
  default: nil
  }
}

func hex(_ value: some BinaryInteger, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
