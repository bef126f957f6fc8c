// The requests about the route, the policy, the players, BlueZ, events
// and the daemon itself.

/// `route.get`: the route now; with `explain`, the decision behind it.
public struct RouteGetRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = RouteReport
  /// The method.
  public static let method = "route.get"
  /// Whether to explain the decision.
  public var explain: Bool

  /// Creates the request.
  public init(explain: Bool = false) { self.explain = explain }

  /// The params as sent.
  public var params: JSONValue? { .object(["explain": .bool(explain)]) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["explain"])
    explain = try params.bool("explain") ?? false
  }
}

/// `route.history`: the last decisions that changed the route.
public struct RouteHistoryRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = RouteHistory
  /// The method.
  public static let method = "route.history"
  /// How many, newest first; the daemon's default (10) when nil.
  public var limit: Int?

  /// Creates the request.
  public init(limit: Int? = nil) { self.limit = limit }

  /// The params as sent.
  public var params: JSONValue? {
    limit.map { .object(["limit": .number(Double($0))]) }
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["limit"])
    guard let value = try params.number("limit") else {
      limit = nil
      return
    }
    guard value >= 1, value <= Double(RouteHistory.maximumLimit),
      value.rounded() == value
    else {
      throw .invalidParams(
        "'limit' is \(value); expected a whole number from 1 to "
          + "\(RouteHistory.maximumLimit)")
    }
    limit = Int(value)
  }
}

/// `daemon.status`: the daemon's version, files, sound server and readers.
public struct DaemonStatusRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = DaemonStatus
  /// The method.
  public static let method = "daemon.status"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `policy.show`: the policy in force, with its text.
public struct PolicyShowRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = PolicyDocument
  /// The method.
  public static let method = "policy.show"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `policy.reload`: reads the policy again, as SIGHUP does: the file named
/// at the start, or, when none was, the configuration directory's
/// `policy.json5` if it exists now, else the built-in default.
public struct PolicyReloadRequest: DaemonRequest {
  /// What the daemon answers with: the policy now in force.
  public typealias Reply = PolicyDocument
  /// The method.
  public static let method = "policy.reload"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `policy.set`: changes a switch of the policy while the daemon runs.
///
/// A switch is a true-or-false setting, such as `media.pauseWhenTakenOff`;
/// the change holds over what the policy file says, is kept in the state
/// directory and outlasts restarts and reloads. A `value` of null goes
/// back to the file's value.
public struct PolicySetRequest: DaemonRequest {
  /// What the daemon answers with: the policy now in force, with its
  /// settings.
  public typealias Reply = PolicyDocument
  /// The method.
  public static let method = "policy.set"
  /// The key path, such as `media.pauseWhenTakenOff`.
  public var key: String
  /// The value, or nil for the policy file's.
  public var value: Bool?

  /// Creates the request.
  public init(key: String, value: Bool?) {
    self.key = key
    self.value = value
  }

  /// The params as sent.
  public var params: JSONValue? {
    .object(["key": .string(key), "value": value.map { .bool($0) } ?? .null])
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["key", "value"])
    key = try params.nonEmptyString("key")
    guard params["value"] != nil else {
      throw .invalidParams(
        "\(params.name("value")) is missing; expected true, false, or null "
          + "for the policy file's value")
    }
    value = try params.bool("value")
  }
}

/// `policy.check`: reads a policy file as the daemon would, without using
/// it.
public struct PolicyCheckRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = PolicyDocument
  /// The method.
  public static let method = "policy.check"
  /// The file.
  public var path: String

  /// Creates the request.
  public init(path: String) { self.path = path }

  /// The params as sent.
  public var params: JSONValue? { .object(["path": .string(path)]) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["path"])
    path = try params.requiredString("path")
  }
}

/// A policy: where it was read from, what it says in a line, and (for
/// `policy.show`) its text.
public struct PolicyDocument: Codable, Sendable, Hashable {
  /// The file; nil for the built-in default.
  public var path: String?
  /// What it does, in a line.
  public var description: String
  /// Its text; nil from `policy.check`.
  public var text: String?
  /// The switches changed while the daemon runs (`policy.set`), over the
  /// file's values, by key path; nil from `policy.check`.
  public var settings: [String: Bool]?

  /// Creates a document.
  public init(
    path: String?, description: String, text: String? = nil,
    settings: [String: Bool]? = nil
  ) {
    self.path = path
    self.description = description
    self.text = text
    self.settings = settings
  }

  private enum CodingKeys: String, CodingKey {
    case path, description, text, settings
  }

  /// Writes the document; `path` is `null` for the built-in default.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(path, forKey: .path)
    try container.encode(description, forKey: .description)
    try container.encodeIfPresent(text, forKey: .text)
    try container.encodeIfPresent(settings, forKey: .settings)
  }
}

/// `media.players`: the session's media players and their streams.
public struct MediaPlayersRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = MediaPlayerList
  /// The method.
  public static let method = "media.players"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `bluetooth.status`: BlueZ as the daemon reaches it.
public struct BluetoothStatusRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = BluetoothStatus
  /// The method.
  public static let method = "bluetooth.status"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `events.subscribe`: from now on, the connection receives events.
public struct EventsSubscribeRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = EmptyReply
  /// The method.
  public static let method = "events.subscribe"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}
