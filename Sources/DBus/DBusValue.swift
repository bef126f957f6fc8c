// One D-Bus value of any type, decoded once, generically, from a message
// (DBusValue+Message.swift) and read by the BlueZ mapping through the typed
// accessors below. Nothing here touches C.

/// A value of the D-Bus type system.
///
/// Containers hold decoded values: an `ay` becomes ``bytes(_:)``, an
/// `a{..}` a ``dictionary(_:)``, a `v` a ``variant(_:)`` around its content.
package indirect enum DBusValue: Hashable, Sendable {
  case byte(UInt8)
  case boolean(Bool)
  case int16(Int16)
  case uint16(UInt16)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// A Unix file descriptor. In an incoming method call it is a copy the
  /// handler owns and must close; in signals and replies the copy is
  /// closed on decoding and -1 is kept.
  case unixFileDescriptor(Int32)
  /// An array of bytes (`ay`).
  case bytes([UInt8])
  /// An array of any other element type.
  case array([DBusValue])
  /// An array of dictionary entries (`a{..}`).
  case dictionary([DBusValue: DBusValue])
  /// A structure (`(..)`).
  case structure([DBusValue])
  /// A variant (`v`) and the value it holds.
  case variant(DBusValue)
  /// A type this decoder does not know, by its type code.
  case unsupported(Int32)
  /// A value to send with the given signature, for what the value alone
  /// does not tell: an empty array's element type, or a number's width
  /// when it is read back. Never decoded.
  case typed(signature: String, DBusValue)

  /// The value inside any number of variants.
  package var unwrapped: DBusValue {
    switch self {
    case .variant(let inner), .typed(_, let inner): inner.unwrapped
    default: self
    }
  }

  /// The signature the value is sent with: its own type's, given by
  /// ``typed(signature:_:)`` or read from the first element of an array;
  /// nil for an empty array not given one (an empty dictionary is sent as
  /// `a{sv}`).
  package var inferredSignature: String? {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int16: "n"
    case .uint16: "q"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .unixFileDescriptor: "h"
    case .bytes: "ay"
    case .array(let elements):
      elements.first?.inferredSignature.map { "a" + $0 }
    case .dictionary(let entries):
      if let (key, value) = entries.first {
        key.inferredSignature.flatMap { key in
          value.inferredSignature.map { "a{\(key)\($0)}" }
        }
      } else {
        "a{sv}"
      }
    case .structure(let fields):
      fields.reduce("(" as String?) { signature, field in
        signature.flatMap { signature in
          field.inferredSignature.map { signature + $0 }
        }
      }.map { $0 + ")" }
    case .variant: "v"
    case .typed(let signature, _): signature
    case .unsupported: nil
    }
  }

  /// The text of a string, object path or signature.
  package var string: String? {
    switch unwrapped {
    case .string(let text), .objectPath(let text), .signature(let text):
      text
    default: nil
    }
  }

  /// The value of a boolean.
  package var bool: Bool? {
    if case .boolean(let value) = unwrapped { return value }
    return nil
  }

  /// The value of any integer type that fits an `Int`.
  package var integer: Int? {
    switch unwrapped {
    case .byte(let value): Int(value)
    case .int16(let value): Int(value)
    case .uint16(let value): Int(value)
    case .int32(let value): Int(value)
    case .uint32(let value): Int(value)
    case .int64(let value): Int(value)
    case .uint64(let value): Int(exactly: value)
    default: nil
    }
  }

  /// The bytes of an `ay` (or of an array that happens to hold bytes).
  package var byteArray: [UInt8]? {
    switch unwrapped {
    case .bytes(let bytes): return bytes
    case .array(let elements):
      var bytes: [UInt8] = []
      for element in elements {
        guard case .byte(let byte) = element else { return nil }
        bytes.append(byte)
      }
      return bytes
    default: return nil
    }
  }

  /// The elements of an array.
  package var array: [DBusValue]? {
    switch unwrapped {
    case .array(let elements): elements
    case .bytes(let bytes): bytes.map { .byte($0) }
    default: nil
    }
  }

  /// The entries of a dictionary.
  ///
  /// An empty array of any type counts as an empty dictionary, since an
  /// empty container says nothing through its contents.
  package var dictionary: [DBusValue: DBusValue]? {
    switch unwrapped {
    case .dictionary(let entries): entries
    case .array(let elements) where elements.isEmpty: [:]
    default: nil
    }
  }

  /// The entries of a dictionary whose keys are strings, such as `a{sv}`.
  package var stringKeyedDictionary: [String: DBusValue]? {
    guard let entries = dictionary else { return nil }
    var result: [String: DBusValue] = [:]
    for (key, value) in entries {
      guard let text = key.string else { return nil }
      result[text] = value
    }
    return result
  }
}
