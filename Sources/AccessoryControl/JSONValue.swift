// A JSON value, for the parts of the control protocol that are not typed:
// JSON-RPC ids, params, results and error data.

import FoundationEssentials

/// Any JSON value.
public enum JSONValue: Sendable, Hashable, Codable {
  /// An object.
  case object([String: JSONValue])
  /// An array.
  case array([JSONValue])
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// Creates a value by decoding any JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value as JSON.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .object(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .null: try container.encodeNil()
    }
  }

  /// Creates a value from an `Encodable` value.
  ///
  /// - Throws: An encoding error.
  public init<Value: Encodable>(encoding value: Value) throws {
    self = try JSONValue(parsing: JSONEncoder().encode(value))
  }

  /// Decodes a `Decodable` value from this value.
  ///
  /// - Throws: A decoding error that names the field.
  public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
    try JSONDecoder().decode(type, from: Data(serialized()))
  }

  /// The member of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    if case .object(let fields) = self { return fields[key] }
    return nil
  }

  /// The string, or nil for any other kind of value.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The elements, or nil for any other kind of value.
  public var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  /// Creates a string value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// Creates a boolean value.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// Creates a number value.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// Creates a number value.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// Creates an array value.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Creates an object value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
  }
  /// Creates `null`.
  public init(nilLiteral: ()) { self = .null }
}
