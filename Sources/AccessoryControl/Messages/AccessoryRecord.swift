// The Accessory value of the control protocol: what `accessory.pair`,
// `accessory.register`, `accessory.update`, `accessory.current`,
// `accessory.rename` and `accessory.list` answer with.

import FoundationEssentials

/// A configuration as the control protocol carries it.
///
/// AudioAccessoryKit's `AccessoryControlDevice.Configuration` is the one
/// the daemon and its clients use; code that only passes a configuration
/// along can keep it as a ``JSONValue``.
public typealias WireConfiguration = Codable & Sendable & Hashable

/// An accessory as accessoryd describes it: its identity, whether it is
/// authorized, its registration and the output that carries it now.
///
/// Members that have no value are written as `null`, never left out, so
/// that clients written against the protocol find every member.
public struct AccessoryRecord<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// Whether the person authorized the accessory.
  public enum State: String, Sendable, Hashable, Codable {
    /// Paired through AccessorySetupKit.
    case authorized
    /// Registered, but no longer (or never) paired.
    case unauthorized
    /// Neither paired nor registered: headphones the sound server shows
    /// (a Bluetooth headphone, headset or hands-free output), which
    /// accessoryd guards when they go away.
    case headphones
  }

  /// An accessory's registration with AudioAccessoryKit.
  public struct Registration: Sendable, Hashable, Codable {
    /// The configuration the companion last sent.
    public var configuration: Configuration
    /// Whether the registration was invalidated, as by unpairing.
    public var invalidated: Bool

    /// Creates a registration.
    public init(configuration: Configuration, invalidated: Bool) {
      self.configuration = configuration
      self.invalidated = invalidated
    }
  }

  /// The Bluetooth address, such as `AA:BB:CC:DD:EE:01`.
  public var address: String
  /// The name the person sees.
  public var displayName: String
  /// AccessorySetupKit's form factor, such as `headphone`, if known.
  public var formFactor: String?
  /// Whether it is authorized.
  public var state: State
  /// The registration, or nil when not registered.
  public var registration: Registration?
  /// The sink that carries the accessory's address now, if any.
  public var output: String?
  /// For `register` and `update`: whether the route waits for the sound
  /// server; nil (left out) for the other methods.
  public var routePending: Bool?
  /// Who reported the placement last: `update` (a companion or `acctl
  /// update`), `aap` or `galaxyBuds` (accessoryd read the headphones);
  /// nil before any report.
  public var placementSource: String?
  /// Whether accessoryd reads the placement from the headphones when they
  /// speak a protocol it knows: `auto` (the default) or `none`.
  public var placementSourceChoice: String?
  /// accessoryd's own link to the headphones, while it reads them.
  public var headphones: HeadphoneLink?
  /// Where accessoryd's knowledge of the accessory comes from, in this
  /// order: `registration`, `pairing`, `headphones` (their own link),
  /// `bluez`, `soundServer`; left out by a daemon that does not say.
  public var knownFrom: [String]?
  /// For `pair`: the other accessories whose names differ from this one's
  /// at most in case, which a name alone cannot tell apart; nil (left
  /// out) for the other methods and when there are none.
  public var sharesNameWith: [String]?

  /// Creates a record.
  public init(
    address: String, displayName: String, formFactor: String? = nil,
    state: State = .authorized, registration: Registration? = nil,
    output: String? = nil, routePending: Bool? = nil,
    placementSource: String? = nil, placementSourceChoice: String? = nil,
    headphones: HeadphoneLink? = nil, knownFrom: [String]? = nil
  ) {
    self.knownFrom = knownFrom
    self.placementSource = placementSource
    self.placementSourceChoice = placementSourceChoice
    self.headphones = headphones
    self.address = address
    self.displayName = displayName
    self.formFactor = formFactor
    self.state = state
    self.registration = registration
    self.output = output
    self.routePending = routePending
  }

  private enum CodingKeys: String, CodingKey {
    case address, displayName, formFactor, state, registration, output
    case routePending, placementSource, placementSourceChoice, headphones
    case knownFrom, sharesNameWith
  }

  /// Writes the record, with `null` for the members without a value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(address, forKey: .address)
    try container.encode(displayName, forKey: .displayName)
    try container.encode(formFactor, forKey: .formFactor)
    try container.encode(state, forKey: .state)
    try container.encode(registration, forKey: .registration)
    try container.encode(output, forKey: .output)
    try container.encodeIfPresent(routePending, forKey: .routePending)
    try container.encode(placementSource, forKey: .placementSource)
    try container.encode(
      placementSourceChoice, forKey: .placementSourceChoice)
    try container.encode(headphones, forKey: .headphones)
    try container.encodeIfPresent(knownFrom, forKey: .knownFrom)
    try container.encodeIfPresent(sharesNameWith, forKey: .sharesNameWith)
  }
}

/// The answer to `accessory.list`: every accessory, sorted by address.
public struct AccessoryList<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// The accessories.
  public var accessories: [AccessoryRecord<Configuration>]

  /// Creates a list.
  public init(accessories: [AccessoryRecord<Configuration>]) {
    self.accessories = accessories
  }
}

/// The answer to `accessory.migrate`: the accessories it authorized.
public struct MigrationResult<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// The accessories migrated, in address order.
  public var migrated: [AccessoryRecord<Configuration>]

  /// Creates a result.
  public init(migrated: [AccessoryRecord<Configuration>]) {
    self.migrated = migrated
  }
}
