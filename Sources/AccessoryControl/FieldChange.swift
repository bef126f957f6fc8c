// A change to one optional field: leave it, set it, or clear it. On the
// control socket's wire it is the key left out, a value, or null.

/// What a partial update does to one optional field.
///
/// ```swift
/// var placement: FieldChange<Placement> = .set(.inEar)
/// placement.apply(to: &configuration.devicePlacement)
/// ```
public enum FieldChange<Value> {
  /// The field keeps its value.
  case unchanged
  /// The field takes a value.
  case set(Value)
  /// The field loses its value.
  case cleared

  /// Creates a change that sets `value`, or clears the field for nil.
  public init(setting value: Value?) {
    self = value.map(FieldChange.set) ?? .cleared
  }

  /// Whether the field keeps its value.
  public var isUnchanged: Bool {
    if case .unchanged = self { true } else { false }
  }

  /// Changes a field.
  public func apply(to field: inout Value?) {
    switch self {
    case .unchanged: break
    case .set(let value): field = value
    case .cleared: field = nil
    }
  }

  /// Returns the same change with the value transformed.
  public func map<NewValue, Failure: Error>(
    _ transform: (Value) throws(Failure) -> NewValue
  ) throws(Failure) -> FieldChange<NewValue> {
    switch self {
    case .unchanged: .unchanged
    case .set(let value): .set(try transform(value))
    case .cleared: .cleared
    }
  }

  /// Writes the change into a JSON object: nothing for
  /// ``unchanged``, the encoded value for ``set(_:)``, null for
  /// ``cleared``.
  public func write(
    into object: inout [String: JSONValue], key: String,
    _ encode: (Value) -> JSONValue
  ) {
    switch self {
    case .unchanged: break
    case .set(let value): object[key] = encode(value)
    case .cleared: object[key] = .null
    }
  }

  /// Reads the change of `key` from a JSON object: absent is
  /// ``unchanged``, null is ``cleared``, anything else is decoded.
  public static func read<Failure: Error>(
    _ object: [String: JSONValue], key: String,
    _ decode: (JSONValue) throws(Failure) -> Value
  ) throws(Failure) -> FieldChange {
    switch object[key] {
    case nil: .unchanged
    case .null?: .cleared
    case let value?: .set(try decode(value))
    }
  }
}

extension FieldChange: Sendable where Value: Sendable {}
extension FieldChange: Equatable where Value: Equatable {}
extension FieldChange: Hashable where Value: Hashable {}
