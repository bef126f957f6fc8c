// The `accessory.*` requests that carry no configuration, one type per
// method; the replies carry the configuration type the caller reads them
// with (AudioAccessoryKit's, or JSON as it came).

/// `accessory.list`: every paired or registered accessory, and, when
/// asked, the headphones nobody paired or registered that accessoryd
/// guards.
public struct AccessoryListRequest<
  Configuration: WireConfiguration
>: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = AccessoryList<Configuration>
  /// The method.
  public static var method: String { "accessory.list" }
  /// Whether to list the guarded headphones nobody paired or registered
  /// too (state `headphones`); an app's session never asks, as Apple's
  /// lists only the accessories the app was authorized for.
  public var includesHeadphones: Bool
  /// Creates the request.
  public init(includesHeadphones: Bool = false) {
    self.includesHeadphones = includesHeadphones
  }
  /// The params as sent.
  public var params: JSONValue? {
    includesHeadphones ? .object(["headphones": .bool(true)]) : nil
  }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["headphones"])
    includesHeadphones = try params.bool("headphones") ?? false
  }
}

/// `accessory.current`: one accessory, with its registration.
public typealias AccessoryCurrentRequest<Configuration: WireConfiguration> =
  AccessorySelectorRequest<AccessoryCurrentMethod<Configuration>>

/// The method of ``AccessoryCurrentRequest``.
public enum AccessoryCurrentMethod<Configuration: WireConfiguration>:
  ControlMethod
{
  /// What the daemon answers with.
  public typealias Reply = AccessoryRecord<Configuration>
  /// The method.
  public static var name: String { "accessory.current" }
}

/// `accessory.unpair`: takes the authorization back (`accessoryRemoved`).
public typealias AccessoryUnpairRequest = AccessorySelectorRequest<
  AccessoryUnpairMethod
>

/// The method of ``AccessoryUnpairRequest``.
public enum AccessoryUnpairMethod: ControlMethod {
  /// What the daemon answers with.
  public typealias Reply = EmptyReply
  /// The method.
  public static var name: String { "accessory.unpair" }
}

/// A request that carries nothing but the accessory it is about, such as
/// `accessory.current` and `accessory.unpair`; `Method` names the method
/// and its reply.
public struct AccessorySelectorRequest<Method: ControlMethod>: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = Method.Reply
  /// The method.
  public static var method: String { Method.name }
  /// The accessory: its address or its name.
  public var accessory: String

  /// Creates the request.
  public init(accessory: String) { self.accessory = accessory }

  /// The params as sent.
  public var params: JSONValue? { .object(["accessory": .string(accessory)]) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["accessory"])
    accessory = try params.requiredString("accessory")
  }
}

/// `accessory.rename`: a new display name (`accessoryChanged`).
public struct AccessoryRenameRequest<
  Configuration: WireConfiguration
>: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = AccessoryRecord<Configuration>
  /// The method.
  public static var method: String { "accessory.rename" }
  /// The accessory: its address or its name.
  public var accessory: String
  /// The new name.
  public var name: String

  /// Creates the request.
  public init(accessory: String, name: String) {
    self.accessory = accessory
    self.name = name
  }

  /// The params as sent.
  public var params: JSONValue? {
    .object(["accessory": .string(accessory), "name": .string(name)])
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["accessory", "name"])
    accessory = try params.requiredString("accessory")
    name = try params.requiredString("name")
  }
}
