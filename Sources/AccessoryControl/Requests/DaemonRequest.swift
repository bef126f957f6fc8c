// One Swift type per method of the control protocol, with one codec: the
// client builds its params from it, the daemon reads them back into it,
// and both name the method and the reply the same way.

/// A request of the control protocol: one type per method.
///
/// ``params`` is what a client sends; ``init(params:)`` is how the daemon
/// reads it, refusing unknown members and ill-typed values with a message
/// that names them (`-32602`, invalid params).
public protocol DaemonRequest: Sendable, Hashable {
  /// What the daemon answers with.
  associatedtype Reply: Codable & Sendable

  /// The method, such as `accessory.update`.
  static var method: String { get }

  /// The params as sent: an object, or nil for none.
  var params: JSONValue? { get }

  /// Reads the params the daemon received.
  ///
  /// - Throws: ``ControlError`` `invalidParams`, naming the member.
  init(params: RequestParameters) throws(ControlError)
}

/// A method of the control protocol as a type: its name and its reply.
///
/// Requests of one shape, such as those that carry only an accessory,
/// share one codec and tell their method by it.
public protocol ControlMethod: Sendable {
  /// What the daemon answers with.
  associatedtype Reply: Codable & Sendable

  /// The method, such as `accessory.unpair`.
  static var name: String { get }
}

/// The answer of a method that answers with nothing but success: `{}`.
public struct EmptyReply: Codable, Sendable, Hashable {
  /// Creates the answer.
  public init() {}
}

extension ControlClient {
  /// Sends a request and decodes its reply.
  ///
  /// - Throws: ``ControlClientError``; ``ControlClientError/remote(_:)``
  ///   carries the daemon's error.
  public func call<Request: DaemonRequest>(
    _ request: Request
  ) throws(ControlClientError) -> Request.Reply {
    try call(Request.method, params: request.params, as: Request.Reply.self)
  }

  /// Sends a request and returns its reply as it came, for a caller that
  /// prints it whole.
  public func callForJSON<Request: DaemonRequest>(
    _ request: Request
  ) throws(ControlClientError) -> JSONValue {
    try call(Request.method, params: request.params)
  }
}

/// The params of a request, read with errors that name the member.
public struct RequestParameters: Sendable {
  /// The params' members.
  public let fields: [String: JSONValue]
  /// Where these params sit in the request, such as `items[0]`; nil for
  /// the request's own.
  public let path: String?

  /// Reads params: an object's members; none for anything else.
  public init(_ value: JSONValue?) {
    self.init(value, at: nil)
  }

  /// Reads params that sit at `path` in the request, such as an item of an
  /// array: an object's members; none for anything else.
  public init(_ value: JSONValue?, at path: String?) {
    if case .object(let fields) = value {
      self.fields = fields
    } else {
      self.fields = [:]
    }
    self.path = path
  }

  /// A member.
  public subscript(key: String) -> JSONValue? { fields[key] }

  /// How errors name a member: `'key'` among the request's own params,
  /// `items[0].key` among nested ones.
  public func name(_ key: String) -> String {
    path.map { "\($0).\(key)" } ?? "'\(key)'"
  }

  /// Refuses members other than these.
  public func allow(_ keys: [String]) throws(ControlError) {
    for key in fields.keys.sorted() where !keys.contains(key) {
      throw .invalidParams(
        "unknown parameter \(name(key))"
          + (keys.isEmpty
            ? "; this method takes none"
            : "; expected " + keys.map { "'\($0)'" }.joined(separator: ", ")))
    }
  }

  /// A string member; required, it must be there.
  public func string(
    _ key: String, required: Bool = false
  ) throws(ControlError) -> String? {
    switch fields[key] {
    case .string(let text): return text
    case nil, .null?:
      if required { throw .invalidParams("\(name(key)) is missing") }
      return nil
    default:
      throw .invalidParams("\(name(key)) must be a string")
    }
  }

  /// A string member that must be there.
  public func requiredString(_ key: String) throws(ControlError) -> String {
    guard let text = try string(key, required: true) else {
      throw .invalidParams("\(name(key)) is missing")
    }
    return text
  }

  /// A string member that must be there and not be empty, such as a name.
  public func nonEmptyString(_ key: String) throws(ControlError) -> String {
    guard let text = try string(key), !text.isEmpty else {
      throw .invalidParams("\(name(key)) must be a name that is not empty")
    }
    return text
  }

  /// A number member.
  public func number(_ key: String) throws(ControlError) -> Double? {
    switch fields[key] {
    case .number(let value): return value
    case nil, .null?: return nil
    default: throw .invalidParams("\(name(key)) must be a number")
    }
  }

  /// A true-or-false member.
  public func bool(_ key: String) throws(ControlError) -> Bool? {
    switch fields[key] {
    case .bool(let flag): return flag
    case nil, .null?: return nil
    default: throw .invalidParams("\(name(key)) must be true or false")
    }
  }

  /// An array member, each item read as params of its own that errors
  /// name `key[index]`.
  ///
  /// - Parameters:
  ///   - key: The member.
  ///   - nonEmpty: Whether it must hold an item at least.
  ///   - expected: What it must be, for the error, such as `an array of
  ///     devices`.
  public func items(
    _ key: String, nonEmpty: Bool = false, expected: String
  ) throws(ControlError) -> [RequestParameters] {
    guard case .array(let values)? = fields[key],
      !nonEmpty || !values.isEmpty
    else {
      throw .invalidParams("\(name(key)) must be \(expected)")
    }
    let prefix = path.map { "\($0).\(key)" } ?? key
    return values.enumerated().map { index, value in
      RequestParameters(value, at: "\(prefix)[\(index)]")
    }
  }
}
