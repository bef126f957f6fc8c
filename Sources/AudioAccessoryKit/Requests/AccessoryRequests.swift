// Linux addition: the `accessory.*` requests of the control protocol,
// which carry this framework's configuration, one type per method.

import AccessoryControl

/// `accessory.list` with this framework's configuration.
public typealias DaemonAccessoryListRequest = AccessoryListRequest<
  AccessoryControlDevice.Configuration
>

/// `accessory.current` with this framework's configuration.
public typealias DaemonAccessoryCurrentRequest = AccessoryCurrentRequest<
  AccessoryControlDevice.Configuration
>

/// `accessory.rename` with this framework's configuration.
public typealias DaemonAccessoryRenameRequest = AccessoryRenameRequest<
  AccessoryControlDevice.Configuration
>

/// `accessory.register`: AudioAccessoryKit's `register`.
public struct AccessoryRegisterRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = DaemonAccessory
  /// The method.
  public static let method = "accessory.register"

  /// Whether accessoryd reads the headphones' own placement.
  public enum PlacementSource: String, Sendable, Hashable, CaseIterable {
    /// When accessoryd knows their protocol.
    case auto
    /// Never: only the companion reports it (`none` on the wire).
    case companionOnly = "none"
  }

  /// The accessory: its address or its name.
  public var accessory: String
  /// What it can do and where it is.
  public var configuration: AccessoryControlDevice.Configuration
  /// Whether accessoryd reads the headphones; nil leaves it as it was.
  public var placementSource: PlacementSource?

  /// Creates the request.
  public init(
    accessory: String, configuration: AccessoryControlDevice.Configuration,
    placementSource: PlacementSource? = nil
  ) {
    self.accessory = accessory
    self.configuration = configuration
    self.placementSource = placementSource
  }

  /// The params as sent.
  public var params: JSONValue? {
    var members: [String: JSONValue] = [
      "accessory": .string(accessory), "configuration": configuration.json,
    ]
    members["placementSource"] = placementSource.map { .string($0.rawValue) }
    return .object(members)
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["accessory", "configuration", "placementSource"])
    accessory = try params.requiredString("accessory")
    configuration = try params.configuration("configuration")
    switch try params.string("placementSource") {
    case nil: placementSource = nil
    case let text?:
      guard let source = PlacementSource(rawValue: text) else {
        throw .invalidParams(
          "'placementSource' is '\(text)'; expected 'auto' (read the "
            + "headphones when accessoryd knows their protocol) or 'none'")
      }
      placementSource = source
    }
  }
}

/// `accessory.update`: AudioAccessoryKit's `update`, with a whole
/// configuration or only the fields to change.
public struct AccessoryUpdateRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = DaemonAccessory
  /// The method.
  public static let method = "accessory.update"

  /// What changes.
  public enum Change: Sendable, Hashable {
    /// The whole configuration.
    case configuration(AccessoryControlDevice.Configuration)
    /// Only these fields.
    case changes(AccessoryConfigurationChanges)
  }

  /// The accessory: its address or its name.
  public var accessory: String
  /// What changes.
  public var change: Change

  /// Creates the request.
  public init(accessory: String, _ change: Change) {
    self.accessory = accessory
    self.change = change
  }

  /// The params as sent.
  public var params: JSONValue? {
    switch change {
    case .configuration(let configuration):
      .object([
        "accessory": .string(accessory), "configuration": configuration.json,
      ])
    case .changes(let changes):
      .object(["accessory": .string(accessory), "changes": changes.json])
    }
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["accessory", "configuration", "changes"])
    accessory = try params.requiredString("accessory")
    if params["configuration"] != nil {
      guard params["changes"] == nil else {
        throw .invalidParams("give 'configuration' or 'changes', not both")
      }
      change = .configuration(try params.configuration("configuration"))
    } else {
      change = .changes(try params.changes("changes"))
    }
  }
}

extension RequestParameters {
  /// An accessory configuration member, which must be there.
  public func configuration(
    _ key: String
  ) throws(ControlError) -> AccessoryControlDevice.Configuration {
    guard let value = fields[key], value != .null else {
      throw .invalidParams("'\(key)' is missing")
    }
    do {
      return try AccessoryControlDevice.Configuration(json: value)
    } catch {
      throw .invalidParams(
        "'\(key)' is not a configuration: \(error.explained)")
    }
  }

  /// The fields to change of an accessory's configuration.
  public func changes(
    _ key: String
  ) throws(ControlError) -> AccessoryConfigurationChanges {
    guard case .object(let changes) = fields[key] else {
      throw .invalidParams(
        "give 'configuration' or 'changes' (an object of fields to change)")
    }
    do {
      return try AccessoryConfigurationChanges(json: changes)
    } catch {
      throw .invalidParams(error.description)
    }
  }
}

/// `daemon.overview` with this framework's configuration.
public typealias DaemonOverviewRequest = StatusOverviewRequest<
  AccessoryControlDevice.Configuration
>
