// Linux addition: a Bluetooth device address as a value. Apple identifies
// accessories by an opaque UUID; on Linux the address is the identity that
// BlueZ and the sound servers use.

import FoundationEssentials

/// A 48-bit Bluetooth device address, such as `AA:BB:CC:DD:EE:FF`.
///
/// Parsing accepts any letter case and `:` or `-` separators; the text form
/// is always upper case with `:` separators.
public struct BluetoothAddress: Sendable, Hashable, Comparable, Codable,
  CustomStringConvertible
{
  /// The 48 address bits, the first byte written the most significant:
  /// an address is one machine word, so hashing, comparing and copying it
  /// (the registry's keys, every decision) allocate nothing.
  private let value: UInt64

  /// The six address bytes, most significant first, as written.
  public var bytes: [UInt8] {
    (0..<6).map { UInt8(truncatingIfNeeded: value >> (40 - 8 * $0)) }
  }

  /// Creates an address from six bytes, most significant first.
  private init<Bytes: Sequence<UInt8>>(sixBytes: Bytes) {
    value = sixBytes.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// Creates an address from exactly six bytes, or returns nil.
  ///
  /// - Parameter data: The address bytes, most significant first.
  public init?(data: Data) {
    guard data.count == 6 else { return nil }
    self.init(sixBytes: data)
  }

  /// Creates an address from its text form, or returns nil.
  ///
  /// - Parameter text: Six two-digit hexadecimal bytes separated by `:` or
  ///   `-`, in any letter case.
  public init?(_ text: String) {
    guard let address = try? BluetoothAddress(parsing: text) else {
      return nil
    }
    self = address
  }

  /// Creates an address from its text form.
  ///
  /// - Parameter text: Six two-digit hexadecimal bytes separated by `:` or
  ///   `-`, in any letter case.
  /// - Throws: ``ParseError`` naming the text and the expected form.
  public init(parsing text: String) throws(ParseError) {
    let parts = text.split(
      omittingEmptySubsequences: false,
      whereSeparator: { $0 == ":" || $0 == "-" }
    )
    guard parts.count == 6 else { throw ParseError(text: text) }
    var value: UInt64 = 0
    for part in parts {
      guard part.count == 2, let byte = UInt8(part, radix: 16) else {
        throw ParseError(text: text)
      }
      value = value << 8 | UInt64(byte)
    }
    self.value = value
  }

  /// The address bytes as `Data`, most significant first.
  public var data: Data { Data(bytes) }

  /// Whether every byte is zero, which no real device uses.
  public var isZero: Bool { value == 0 }

  /// The text form, upper case with `:` separators.
  public var description: String {
    // Written byte by byte: routing formats every registered address on
    // each decision.
    String(unsafeUninitializedCapacity: 17) { buffer in
      var position = 0
      for index in 0..<6 {
        let byte = UInt8(truncatingIfNeeded: value >> (40 - 8 * index))
        if index > 0 {
          buffer[position] = UInt8(ascii: ":")
          position += 1
        }
        buffer[position] = hexDigits[Int(byte >> 4)]
        buffer[position + 1] = hexDigits[Int(byte & 0x0F)]
        position += 2
      }
      return position
    }
  }

  /// Returns whether the first address sorts before the second.
  public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
    // The first byte is the most significant: the order of the values is
    // the order of the bytes as written.
    lhs.value < rhs.value
  }

  /// Creates an address by decoding its text form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: error.description)
    }
  }

  /// Encodes the text form of the address.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The error thrown for text that is not a Bluetooth address.
  public struct ParseError: Error, Hashable, CustomStringConvertible {
    /// The text that failed to parse.
    public let text: String

    /// A message naming the text and the expected form.
    public var description: String {
      "'\(text)' is not a Bluetooth address; expected six hexadecimal bytes "
        + "such as 'AA:BB:CC:DD:EE:FF'"
    }
  }
}

/// The upper-case hexadecimal digits, as ASCII.
private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

/// Returns a byte as two upper-case hexadecimal digits.
package func hexByte(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

extension BluetoothAddress {
  /// The stable `UUID` that stands for this address in Apple-shaped APIs.
  ///
  /// Apple gives each accessory an opaque `bluetoothIdentifier`; on Linux it
  /// is derived from the address, so it is the same on every run and can be
  /// turned back into the address with ``init(identifier:)``.
  public var identifier: UUID {
    let b = bytes
    return UUID(
      uuid: (
        0x41, 0x43, 0x43, 0x44, 0x00, 0x00, 0x40, 0x00,
        0x80, 0x00, b[0], b[1], b[2], b[3], b[4], b[5]
      ))
  }

  /// Creates the address that a derived identifier stands for, or nil when
  /// the identifier was not derived from an address.
  ///
  /// - Parameter identifier: A value of ``identifier``.
  public init?(identifier: UUID) {
    let u = identifier.uuid
    let prefix: [UInt8] = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9]
    guard
      prefix == [0x41, 0x43, 0x43, 0x44, 0x00, 0x00, 0x40, 0x00, 0x80, 0x00]
    else { return nil }
    self.init(sixBytes: [u.10, u.11, u.12, u.13, u.14, u.15])
  }
}
