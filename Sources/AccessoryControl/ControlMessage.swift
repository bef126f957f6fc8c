// JSON-RPC 2.0 messages of the control socket: one JSON object per line.

import FoundationEssentials
import Glibc

/// A JSON-RPC 2.0 request or notification.
public struct ControlRequest: Sendable, Hashable, Codable {
  /// Always `"2.0"`.
  public var jsonrpc: String
  /// The request's id; `nil` for a notification.
  public var id: JSONValue?
  /// The method, such as `accessory.update`.
  public var method: String
  /// The parameters, an object.
  public var params: JSONValue?

  /// Creates a request.
  public init(id: JSONValue?, method: String, params: JSONValue? = nil) {
    self.jsonrpc = "2.0"
    self.id = id
    self.method = method
    self.params = params
  }

  /// The request as a JSON object, without the members that are `nil`.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "jsonrpc": .string(jsonrpc), "method": .string(method),
    ]
    members["id"] = id
    members["params"] = params
    return .object(members)
  }

  /// Reads one request line as the daemon does: JSON text holding an
  /// object with `jsonrpc` "2.0", a string `method`, an optional `id` (a
  /// string, a number or null) and optional `params` (an object or null).
  ///
  /// - Parameter line: The line, without its newline.
  /// - Throws: ``ControlRequestRejection``: the answer the line gets, and
  ///   the id to give it when the line had one.
  public init(line: some Collection<UInt8>) throws(ControlRequestRejection) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: line)
    } catch {
      throw ControlRequestRejection(
        id: nil, .parseError("the line is not valid JSON"))
    }
    guard case .object(let fields) = value else {
      throw ControlRequestRejection(
        id: nil, .invalidRequest("expected a JSON object"))
    }
    let id = fields["id"]
    switch id {
    case nil, .string?, .number?, .null?: break
    default:
      throw ControlRequestRejection(
        id: nil, .invalidRequest("'id' must be a string, a number or null"))
    }
    guard fields["jsonrpc"] == .string("2.0") else {
      throw ControlRequestRejection(
        id: id, .invalidRequest("'jsonrpc' must be \"2.0\""))
    }
    guard case .string(let method) = fields["method"] else {
      throw ControlRequestRejection(
        id: id, .invalidRequest("'method' must be a string"))
    }
    let params = fields["params"]
    switch params {
    case nil, .object?, .null?: break
    default:
      throw ControlRequestRejection(
        id: id, .invalidParams("'params' must be an object"))
    }
    self.init(id: id, method: method, params: params)
  }
}

/// Why a request line is refused, and the id to answer it with.
public struct ControlRequestRejection: Error, Sendable, Hashable {
  /// The request's id, when the line was an object with a valid one.
  public var id: JSONValue?
  /// The error the answer carries.
  public var error: ControlError

  /// Creates a rejection.
  public init(id: JSONValue?, _ error: ControlError) {
    self.id = id
    self.error = error
  }
}

/// A JSON-RPC 2.0 error object.
public struct ControlError: Error, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  /// The error code: JSON-RPC's own from -32768 to -32600, the service's
  /// from -32099 to -32000.
  public var code: ControlErrorCode
  /// What went wrong, for people.
  public var message: String
  /// Structured detail, such as `{ "case": "invalidRequest" }`.
  public var data: JSONValue?

  /// Creates an error.
  public init(
    code: ControlErrorCode, message: String, data: JSONValue? = nil
  ) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The message.
  public var description: String { message }

  /// The error as a JSON object.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "code": .number(Double(code.rawValue)), "message": .string(message),
    ]
    members["data"] = data
    return .object(members)
  }

  /// Reads an error object.
  ///
  /// - Returns: nil if `json` is not an object with a whole-number `code`
  ///   and a string `message`.
  public init?(json: JSONValue) {
    guard case .number(let code) = json["code"], code == code.rounded(),
      abs(code) < 1e15, case .string(let message) = json["message"]
    else { return nil }
    self.init(
      code: ControlErrorCode(rawValue: Int(code)), message: message,
      data: json["data"])
  }

  /// The request was not valid JSON.
  ///
  /// Its code is ``ControlErrorCode/parseError``.
  public static func parseError(_ detail: String) -> ControlError {
    ControlError(code: .parseError, message: "parse error: \(detail)")
  }
  /// The request was not a valid JSON-RPC request.
  ///
  /// Its code is ``ControlErrorCode/invalidRequest``.
  public static func invalidRequest(_ detail: String) -> ControlError {
    ControlError(code: .invalidRequest, message: "invalid request: \(detail)")
  }
  /// The method does not exist.
  ///
  /// Its code is ``ControlErrorCode/methodNotFound``.
  public static func methodNotFound(_ method: String) -> ControlError {
    ControlError(
      code: .methodNotFound, message: "method not found: '\(method)'")
  }
  /// The parameters do not fit the method.
  ///
  /// Its code is ``ControlErrorCode/invalidParams``.
  public static func invalidParams(_ detail: String) -> ControlError {
    ControlError(code: .invalidParams, message: "invalid params: \(detail)")
  }
  /// An error inside the service.
  ///
  /// Its code is ``ControlErrorCode/internalError``.
  public static func internalError(_ detail: String) -> ControlError {
    ControlError(code: .internalError, message: "internal error: \(detail)")
  }
  /// The peer is another user.
  ///
  /// Its code is ``ControlErrorCode/permissionDenied``.
  public static let permissionDenied = ControlError(
    code: .permissionDenied,
    message: "permission denied: the control socket belongs to another user")
  /// The daemon serves as many connections as it takes; the client may
  /// try again once others close.
  ///
  /// Its code is ``ControlErrorCode/busy``.
  public static func busy(_ detail: String) -> ControlError {
    ControlError(code: .busy, message: "busy: \(detail)")
  }
  /// A policy or configuration is invalid.
  ///
  /// Its code is ``ControlErrorCode/invalidConfiguration``.
  public static func invalidConfiguration(_ detail: String) -> ControlError {
    ControlError(code: .invalidConfiguration, message: detail)
  }
}

/// A JSON-RPC 2.0 response, or a notification from the service.
public struct ControlResponse: Sendable, Hashable, Codable {
  /// Always `"2.0"`.
  public var jsonrpc: String
  /// The id of the request answered; `null` when it could not be read.
  public var id: JSONValue?
  /// The result, on success.
  public var result: JSONValue?
  /// The error, on failure.
  public var error: ControlError?
  /// For a notification: its method, such as `event`.
  public var method: String?
  /// For a notification: its parameters.
  public var params: JSONValue?

  /// Creates a success response.
  public static func success(
    id: JSONValue?, _ result: JSONValue
  )
    -> ControlResponse
  {
    ControlResponse(jsonrpc: "2.0", id: id ?? .null, result: result)
  }

  /// Creates an error response.
  public static func failure(
    id: JSONValue?, _ error: ControlError
  )
    -> ControlResponse
  {
    ControlResponse(jsonrpc: "2.0", id: id ?? .null, error: error)
  }

  /// Creates a notification.
  public static func notification(
    method: String, _ params: JSONValue
  )
    -> ControlResponse
  {
    ControlResponse(jsonrpc: "2.0", method: method, params: params)
  }

  /// Whether this is a notification rather than a response.
  public var isNotification: Bool { method != nil }

  /// The message as a JSON object, without the members that are `nil`.
  public var json: JSONValue {
    var members: [String: JSONValue] = ["jsonrpc": .string(jsonrpc)]
    members["id"] = id
    members["result"] = result
    members["error"] = error?.json
    members["method"] = method.map(JSONValue.string)
    members["params"] = params
    return .object(members)
  }

  /// Encodes the message as one line of JSON, with its newline.
  public func line() -> Data {
    var bytes = json.serialized()
    bytes.append(0x0A)
    return Data(bytes)
  }
}

extension ControlResponse {
  /// Reads a response or notification.
  ///
  /// - Returns: nil if `json` is not a JSON-RPC 2.0 response or
  ///   notification.
  public init?(json: JSONValue) {
    guard case .object(let members) = json,
      members["jsonrpc"] == .string("2.0")
    else { return nil }
    var error: ControlError?
    if let value = members["error"] {
      guard let parsed = ControlError(json: value) else { return nil }
      error = parsed
    }
    var method: String?
    if let value = members["method"] {
      guard case .string(let name) = value else { return nil }
      method = name
    }
    self.init(
      jsonrpc: "2.0", id: members["id"], result: members["result"],
      error: error, method: method, params: members["params"])
  }
}

/// Where the control socket is: `$XDG_RUNTIME_DIR/accessoryd/control.sock`.
public enum ControlSocketPath {
  /// The environment variable that overrides the socket path.
  public static let environmentVariable = "ACCESSORYD_SOCKET"

  /// Returns the socket path for an environment.
  ///
  /// `ACCESSORYD_SOCKET` wins; then `$XDG_RUNTIME_DIR/accessoryd/control.sock`;
  /// without `XDG_RUNTIME_DIR`, `/run/user/<uid>/accessoryd/control.sock`.
  public static func resolve(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    if let path = environment[environmentVariable], !path.isEmpty {
      return path
    }
    let runtime =
      environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? "/run/user/\(getuid())"
    return runtime + "/accessoryd/control.sock"
  }

  /// Returns the runtime directory the socket's place falls back on,
  /// `/run/user/<uid>`, when the environment names neither the socket nor
  /// an absolute `XDG_RUNTIME_DIR` (su, ssh without a login session, a
  /// container); nil when it does.
  ///
  /// A login session makes that directory; the daemon never does.
  public static func fallbackRuntimeDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let path = environment[environmentVariable], !path.isEmpty {
      return nil
    }
    if environment["XDG_RUNTIME_DIR"]?.hasPrefix("/") == true { return nil }
    return "/run/user/\(getuid())"
  }
}
