// Linux addition: the control protocol's picker requests, one type per
// method: an app's ASAccessorySession shows a picker and offers devices in
// it, and `acctl pair` reads it and answers it.

import AccessoryControl

/// `picker.show`: opens the picker for an app's items; with migration
/// items only, migrates at once and closes it.
public struct PickerShowRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = PickerShowReply
  /// The method.
  public static let method = "picker.show"
  /// The items, at least one.
  public var items: [PickerItem]
  /// The app session's token, echoed in its picker events.
  public var session: String?
  /// Whether the app chooses what the picker offers, with `picker.update`
  /// (`filterDiscoveryResults`).
  public var filtersDiscoveryResults: Bool

  /// Creates the request.
  public init(
    items: [PickerItem], session: String? = nil,
    filtersDiscoveryResults: Bool = false
  ) {
    self.items = items
    self.session = session
    self.filtersDiscoveryResults = filtersDiscoveryResults
  }

  /// The params as sent.
  public var params: JSONValue? {
    var fields: [String: JSONValue] = [
      "items": .array(items.compactMap { try? JSONValue(encoding: $0) }),
      "filterDiscoveryResults": .bool(filtersDiscoveryResults),
    ]
    fields["session"] = session.map(JSONValue.string)
    return .object(fields)
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["items", "session", "filterDiscoveryResults"])
    items = try params.pickerItems("items")
    session = try params.string("session")
    filtersDiscoveryResults = try params.bool("filterDiscoveryResults") ?? false
  }
}

/// `picker.pending`: the open picker, for `acctl pair` to answer.
public struct PickerPendingRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = PickerPendingReply
  /// The method.
  public static let method = "picker.pending"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `picker.choose`: authorizes a device for the open picker.
public struct PickerChooseRequest<Configuration: WireConfiguration>:
  DaemonRequest
{
  /// What the daemon answers with.
  public typealias Reply = AccessoryRecord<Configuration>
  /// The method.
  public static var method: String { "picker.choose" }
  /// The picker, as `picker.pending` names it.
  public var pickerID: String
  /// The device's Bluetooth address, as given.
  public var address: String
  /// The name to give it; nil keeps the one the picker shows.
  public var name: String?

  /// Creates the request.
  public init(pickerID: String, address: String, name: String? = nil) {
    self.pickerID = pickerID
    self.address = address
    self.name = name
  }

  /// The params as sent.
  public var params: JSONValue? {
    var fields: [String: JSONValue] = [
      "pickerID": .string(pickerID), "address": .string(address),
    ]
    fields["name"] = name.map(JSONValue.string)
    return .object(fields)
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["pickerID", "address", "name"])
    pickerID = try params.requiredString("pickerID")
    address = try params.requiredString("address")
    name = try params.string("name")
  }
}

/// `picker.cancel`: closes the open picker without an accessory; the app
/// hears `pickerDidDismiss` with the reason.
public struct PickerCancelRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = EmptyReply
  /// The method.
  public static let method = "picker.cancel"

  /// How the request names the picker.
  public enum Target: Sendable, Hashable {
    /// By its identifier (`pickerID`).
    case pickerID(String)
    /// By the app session that showed it (`session`).
    case session(String)
  }

  /// Why the picker closes, as the app hears it.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    /// The person cancelled.
    case userCancelled
    /// The app's session ended.
    case invalidated
  }

  /// The picker.
  public var target: Target
  /// Why it closes; nil sends none, which the daemon reads as
  /// ``Reason/userCancelled``.
  public var reason: Reason?

  /// Creates the request.
  public init(_ target: Target, reason: Reason? = nil) {
    self.target = target
    self.reason = reason
  }

  /// The params as sent.
  public var params: JSONValue? {
    var fields: [String: JSONValue] = [:]
    switch target {
    case .pickerID(let id): fields["pickerID"] = .string(id)
    case .session(let session): fields["session"] = .string(session)
    }
    fields["reason"] = reason.map { .string($0.rawValue) }
    return .object(fields)
  }

  /// Reads the params the daemon received; a `session` names the picker
  /// before a `pickerID`.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["pickerID", "session", "reason"])
    switch try params.string("reason") {
    case nil: reason = nil
    case let text?:
      guard let known = Reason(rawValue: text) else {
        throw .invalidParams(
          "'reason' must be 'userCancelled' or 'invalidated', not '\(text)'")
      }
      reason = known
    }
    if let session = try params.string("session") {
      target = .session(session)
    } else {
      target = .pickerID(try params.requiredString("pickerID"))
    }
  }
}

/// `picker.update`: in `filterDiscoveryResults` mode, replaces the devices
/// the app's open picker offers.
public struct PickerUpdateRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = EmptyReply
  /// The method.
  public static let method = "picker.update"
  /// The app session that showed the picker.
  public var session: String
  /// The devices offered, in the app's order; none offers nothing.
  public var items: [OfferedDevice]

  /// Creates the request.
  public init(session: String, items: [OfferedDevice]) {
    self.session = session
    self.items = items
  }

  /// The params as sent.
  public var params: JSONValue? {
    .object([
      "session": .string(session),
      "items": .array(items.compactMap { try? JSONValue(encoding: $0) }),
    ])
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["session", "items"])
    session = try params.requiredString("session")
    items = []
    for item in try params.items("items", expected: "an array of devices") {
      items.append(try OfferedDevice(params: item))
    }
  }
}

/// `picker.finishDiscovery`: the app is done filtering; a picker that
/// offers nothing ends with `discoveryTimeout`.
public struct PickerFinishDiscoveryRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = EmptyReply
  /// The method.
  public static let method = "picker.finishDiscovery"
  /// The app session that showed the picker.
  public var session: String

  /// Creates the request.
  public init(session: String) { self.session = session }

  /// The params as sent.
  public var params: JSONValue? { .object(["session": .string(session)]) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["session"])
    session = try params.requiredString("session")
  }
}

extension RequestParameters {
  /// Reads picker items: objects with `name`, `descriptor`, and optionally
  /// `setupOptions`, `productImage` and `migration`; at least one.
  public func pickerItems(_ key: String) throws(ControlError) -> [PickerItem] {
    var read: [PickerItem] = []
    for item in try items(
      key, nonEmpty: true, expected: "a non-empty array of items")
    {
      read.append(try PickerItem(params: item))
    }
    return read
  }
}
