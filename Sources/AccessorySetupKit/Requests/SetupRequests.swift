// Linux addition: the control protocol's requests that carry discovery
// descriptors, one type per method: discovery, pairing and migration.

import AccessoryControl

/// `discovery.list`: the devices seen now, each with whether it matches
/// the descriptors (any of them) and, if not, why.
public typealias DiscoveryListRequest = DescriptorsRequest<DiscoveryListMethod>

/// The method of ``DiscoveryListRequest``.
public enum DiscoveryListMethod: ControlMethod {
  /// What the daemon answers with: `{"devices": [...]}`.
  public typealias Reply = DiscoveryList
  /// The method.
  public static var name: String { "discovery.list" }
}

/// `discovery.subscribe`: from the answer on, a `discovery` event for each
/// device that is added, changes or goes away, among those that match.
public typealias DiscoverySubscribeRequest = DescriptorsRequest<
  DiscoverySubscribeMethod
>

/// The method of ``DiscoverySubscribeRequest``.
public enum DiscoverySubscribeMethod: ControlMethod {
  /// What the daemon answers with: `{}`.
  public typealias Reply = EmptyReply
  /// The method.
  public static var name: String { "discovery.subscribe" }
}

/// A request that carries nothing but discovery descriptors, such as
/// `discovery.list` and `discovery.subscribe`; `Method` names the method
/// and its reply.
public struct DescriptorsRequest<Method: ControlMethod>: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = Method.Reply
  /// The method.
  public static var method: String { Method.name }
  /// The descriptors; none matches every device.
  public var descriptors: [ASDiscoveryDescriptor]

  /// Creates the request.
  public init(descriptors: [ASDiscoveryDescriptor] = []) {
    self.descriptors = descriptors
  }

  /// The params as sent.
  public var params: JSONValue? { .object(descriptorFields(descriptors)) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["descriptor", "descriptors"])
    descriptors = try params.descriptors()
  }
}

/// `accessory.pair`: authorizes a device the daemon sees
/// (`accessoryAdded`).
public struct AccessoryPairRequest<Configuration: WireConfiguration>:
  DaemonRequest
{
  /// What the daemon answers with.
  public typealias Reply = AccessoryRecord<Configuration>
  /// The method.
  public static var method: String { "accessory.pair" }
  /// The device's Bluetooth address, as given.
  public var address: String
  /// The name to give it; nil keeps the device's.
  public var name: String?
  /// A descriptor the device must match.
  public var descriptor: ASDiscoveryDescriptor?

  /// Creates the request.
  public init(
    address: String, name: String? = nil,
    descriptor: ASDiscoveryDescriptor? = nil
  ) {
    self.address = address
    self.name = name
    self.descriptor = descriptor
  }

  /// The params as sent.
  public var params: JSONValue? {
    var fields = descriptorFields(descriptor.map { [$0] } ?? [])
    fields["address"] = .string(address)
    fields["name"] = name.map(JSONValue.string)
    return .object(fields)
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["address", "name", "descriptor"])
    address = try params.requiredString("address")
    descriptor = try params.descriptor("descriptor")
    name = try params.string("name")
  }
}

/// `accessory.migrate`: authorizes the Bluetooth audio devices the host
/// paired before accessoryd, that match the descriptor if one is given.
public struct AccessoryMigrateRequest<Configuration: WireConfiguration>:
  DaemonRequest
{
  /// What the daemon answers with.
  public typealias Reply = MigrationResult<Configuration>
  /// The method.
  public static var method: String { "accessory.migrate" }
  /// A descriptor the devices must match.
  public var descriptor: ASDiscoveryDescriptor?

  /// Creates the request.
  public init(descriptor: ASDiscoveryDescriptor? = nil) {
    self.descriptor = descriptor
  }

  /// The params as sent.
  public var params: JSONValue? {
    .object(descriptorFields(descriptor.map { [$0] } ?? []))
  }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["descriptor"])
    descriptor = try params.descriptor("descriptor")
  }
}

/// `descriptor` for one, `descriptors` for several, nothing for none.
func descriptorFields(
  _ descriptors: [ASDiscoveryDescriptor]
) -> [String: JSONValue] {
  let values = descriptors.compactMap { try? JSONValue(encoding: $0) }
  switch values.count {
  case 0: return [:]
  case 1: return ["descriptor": values[0]]
  default: return ["descriptors": .array(values)]
  }
}

extension RequestParameters {
  /// Reads `descriptor` or `descriptors` (not both), each checked with
  /// Apple's rules; none when neither is given.
  public func descriptors() throws(ControlError) -> [ASDiscoveryDescriptor] {
    if let one = try descriptor("descriptor") {
      guard fields["descriptors"] == nil else {
        throw .invalidParams("give 'descriptor' or 'descriptors', not both")
      }
      return [one]
    }
    guard let value = fields["descriptors"], value != .null else {
      return []
    }
    guard case .array(let values) = value, !values.isEmpty else {
      throw .invalidParams("'descriptors' must be an array of descriptors")
    }
    var descriptors: [ASDiscoveryDescriptor] = []
    for (index, value) in values.enumerated() {
      descriptors.append(
        try Self.descriptor(from: value, named: "descriptors[\(index)]"))
    }
    return descriptors
  }

  /// Reads a discovery descriptor (Apple's property names as keys) and
  /// checks it with Apple's rules; nil when the key is absent.
  public func descriptor(
    _ key: String
  ) throws(ControlError) -> ASDiscoveryDescriptor? {
    guard let value = fields[key], value != .null else { return nil }
    return try Self.descriptor(from: value, named: name(key))
  }

  /// Decodes and checks a descriptor; `name` names it in errors.
  public static func descriptor(
    from value: JSONValue, named key: String
  ) throws(ControlError) -> ASDiscoveryDescriptor {
    let descriptor: ASDiscoveryDescriptor
    do {
      descriptor = try value.decode(as: ASDiscoveryDescriptor.self)
    } catch let error as DecodingError {
      throw .invalidParams(
        "\(key) is not a discovery descriptor: \(error.explained)")
    } catch {
      throw .invalidParams("\(key) is not a discovery descriptor")
    }
    do {
      try descriptor.validate()
    } catch {
      throw .invalidParams("\(key) is not a valid descriptor: \(error)")
    }
    return descriptor
  }
}
