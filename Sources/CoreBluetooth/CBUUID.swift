// A minimal Linux CBUUID: enough of Apple's CoreBluetooth type for code that
// names Bluetooth services (`CBUUID(string: "180D")`) to compile unchanged.
//
// A CBUUID is kept in its shortest form. A 128-bit UUID built on the
// Bluetooth base UUID (xxxxxxxx-0000-1000-8000-00805F9B34FB) shrinks to its
// 16-bit or 32-bit alias, so "180D", "0000180D" and
// "0000180D-0000-1000-8000-00805F9B34FB" are one and the same value.

import FoundationEssentials

/// A universally unique identifier of a Bluetooth attribute, such as a
/// service.
///
/// Create one from its text form, `CBUUID(string: "180D")` for a 16-bit
/// alias assigned by the Bluetooth SIG or
/// `CBUUID(string: "12345678-1234-1234-1234-123456789ABC")` for a full
/// 128-bit UUID. As in Apple's CoreBluetooth, ``init(string:)`` and
/// ``init(data:)`` trap on malformed input; code that handles input it does
/// not control uses the failable ``init(validating:)-(String)`` instead.
///
/// Two values are equal when they name the same 128-bit UUID: a 16-bit or
/// 32-bit alias equals its expansion over the Bluetooth base UUID
/// `00000000-0000-1000-8000-00805F9B34FB`.
public struct CBUUID: Hashable, Sendable, CustomStringConvertible {
  /// The last twelve bytes of the Bluetooth base UUID,
  /// `00000000-0000-1000-8000-00805F9B34FB`.
  private static let baseSuffix: [UInt8] = [
    0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
  ]

  /// The identifier in its shortest form: 2, 4 or 16 bytes, most
  /// significant first.
  private let bytes: [UInt8]

  /// Creates an identifier from its shortest-form bytes.
  private init(canonical bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Creates an identifier from 2, 4 or 16 bytes, shrinking a base UUID
  /// expansion to its alias; returns nil for any other length.
  private init?(bytes: [UInt8]) {
    switch bytes.count {
    case 2:
      self.init(canonical: bytes)
    case 4:
      // A 32-bit alias whose upper half is zero is a 16-bit alias.
      if bytes[0] == 0, bytes[1] == 0 {
        self.init(canonical: Array(bytes[2...]))
      } else {
        self.init(canonical: bytes)
      }
    case 16:
      if Array(bytes[4...]) == Self.baseSuffix {
        self.init(bytes: Array(bytes[..<4]))
      } else {
        self.init(canonical: bytes)
      }
    default:
      return nil
    }
  }

  /// Creates an identifier from its text form, and traps if the text is not
  /// a UUID.
  ///
  /// This is Apple's initializer, with Apple's behavior on bad input. Use
  /// ``init(validating:)-(String)`` for text that may be malformed.
  ///
  /// - Parameter string: Four hexadecimal digits (a 16-bit alias such as
  ///   `180D`), eight (a 32-bit alias), or a 128-bit UUID in the form
  ///   `12345678-1234-1234-1234-123456789ABC`, in any letter case.
  public init(string: String) {
    guard let uuid = CBUUID(validating: string) else {
      preconditionFailure(
        "CBUUID(string:): '\(string)' is not a 16-bit, 32-bit or 128-bit "
          + "UUID string"
      )
    }
    self = uuid
  }

  /// Creates an identifier from its text form, or returns nil if the text is
  /// not a UUID.
  ///
  /// This Linux addition accepts exactly what ``init(string:)`` accepts.
  ///
  /// - Parameter string: Four hexadecimal digits (a 16-bit alias such as
  ///   `180D`), eight (a 32-bit alias), or a 128-bit UUID in the form
  ///   `12345678-1234-1234-1234-123456789ABC`, in any letter case.
  public init?(validating string: String) {
    let characters = Array(string.utf8)
    let digits: [UInt8]
    switch characters.count {
    case 4, 8:
      digits = characters
    case 36:
      let hyphen = UInt8(ascii: "-")
      for (index, character) in characters.enumerated() {
        let isHyphenPosition = [8, 13, 18, 23].contains(index)
        if isHyphenPosition != (character == hyphen) { return nil }
      }
      digits = characters.filter { $0 != hyphen }
    default:
      return nil
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = Self.hexValue(digits[index]),
        let low = Self.hexValue(digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    self.init(bytes: bytes)
  }

  /// Creates an identifier from its bytes, and traps if there are not 2, 4
  /// or 16 of them.
  ///
  /// This is Apple's initializer, with Apple's behavior on bad input. Use
  /// ``init(validating:)-(Data)`` for data that may be malformed.
  ///
  /// - Parameter data: The UUID's 2, 4 or 16 bytes, most significant first.
  public init(data: Data) {
    guard let uuid = CBUUID(validating: data) else {
      preconditionFailure(
        "CBUUID(data:): \(data.count) bytes is not a 16-bit, 32-bit or "
          + "128-bit UUID"
      )
    }
    self = uuid
  }

  /// Creates an identifier from its bytes, or returns nil if there are not
  /// 2, 4 or 16 of them.
  ///
  /// This Linux addition accepts exactly what ``init(data:)`` accepts.
  ///
  /// - Parameter data: The UUID's 2, 4 or 16 bytes, most significant first.
  public init?(validating data: Data) {
    self.init(bytes: Array(data))
  }

  /// Creates an identifier from a 128-bit Foundation UUID.
  ///
  /// - Parameter nsuuid: The UUID. A Bluetooth base UUID expansion becomes
  ///   its 16-bit or 32-bit alias.
  public init(nsuuid: UUID) {
    let uuid = nsuuid.uuid
    let bytes = [
      uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5, uuid.6, uuid.7,
      uuid.8, uuid.9, uuid.10, uuid.11, uuid.12, uuid.13, uuid.14, uuid.15,
    ]
    // Sixteen bytes always make an identifier.
    self.init(bytes: bytes)!
  }

  /// The identifier in text form: four or eight upper-case hexadecimal
  /// digits for an alias, such as `180D`, or a hyphenated 128-bit UUID.
  public var uuidString: String {
    var text = ""
    for (index, byte) in bytes.enumerated() {
      if bytes.count == 16, [4, 6, 8, 10].contains(index) { text += "-" }
      text += Self.hexDigits(byte)
    }
    return text
  }

  /// The identifier's bytes, most significant first: 2 for a 16-bit alias,
  /// 4 for a 32-bit alias, 16 for any other UUID.
  public var data: Data { Data(bytes) }

  /// The identifier in text form, the same as ``uuidString``.
  ///
  /// Apple's CoreBluetooth describes well-known identifiers by name, such
  /// as "Heart Rate"; this Linux type always uses the text form.
  public var description: String { uuidString }

  /// Returns the value of one ASCII hexadecimal digit, or nil.
  private static func hexValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"):
      return character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"):
      return character - UInt8(ascii: "A") + 10
    default:
      return nil
    }
  }

  /// Returns a byte as two upper-case hexadecimal digits.
  private static func hexDigits(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }
}

extension CBUUID: Codable {
  /// Creates an identifier from its text form in a single-value container.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` if the text is not a UUID.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let uuid = CBUUID(validating: text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "'\(text)' is not a Bluetooth UUID; expected four "
          + "or eight hexadecimal digits such as '180D', or a 128-bit UUID "
          + "such as '12345678-1234-1234-1234-123456789ABC'"
      )
    }
    self = uuid
  }

  /// Writes the identifier's ``uuidString`` to a single-value container.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(uuidString)
  }
}
