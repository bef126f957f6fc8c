// The events of the control protocol: the `params` of each `event`
// notification after `events.subscribe` or `discovery.subscribe`.

/// One event, told apart by its `kind`.
///
/// A kind this version does not know decodes as ``other(_:)``, and so does
/// an event of a known kind with a value this version does not know (a
/// newer daemon's `eventType` or `change`), so that a client keeps working
/// with a newer daemon.
public enum ControlEvent<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// An accessory was paired, unpaired, renamed, registered, updated or
  /// invalidated.
  case accessory(AccessoryEvent<Configuration>)
  /// An AccessorySetupKit session event: a picker's progress or the end
  /// of a migration.
  case session(SessionEvent)
  /// A decision changed the route, or the person chose the default.
  case route(RouteEvent)
  /// The sound server connected or went away.
  case soundServer(SoundServerEvent)
  /// A device that matches a discovery subscription came, changed or went.
  case discovery(DiscoveryEvent)
  /// accessoryd paused or resumed media players.
  case media(MediaEvent)
  /// accessoryd's own link to headphones changed, or what they say of
  /// themselves did (buds, battery).
  case headphones(HeadphoneLinkEvent)
  /// An event of a kind this version does not know, as it came.
  case other(JSONValue)

  private enum CodingKeys: String, CodingKey { case kind }

  /// Reads an event by its `kind`; one that does not fit its kind's type
  /// is kept as it came.
  public init(from decoder: any Decoder) throws {
    do {
      self = try Self.known(from: decoder)
    } catch {
      self = .other(try JSONValue(from: decoder))
    }
  }

  private static func known(from decoder: any Decoder) throws -> Self {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    return switch try container.decodeIfPresent(String.self, forKey: .kind) {
    case "accessory": .accessory(try AccessoryEvent(from: decoder))
    case "session": .session(try SessionEvent(from: decoder))
    case "route": .route(try RouteEvent(from: decoder))
    case "soundServer": .soundServer(try SoundServerEvent(from: decoder))
    case "discovery": .discovery(try DiscoveryEvent(from: decoder))
    case "media": .media(try MediaEvent(from: decoder))
    case "headphones": .headphones(try HeadphoneLinkEvent(from: decoder))
    default: .other(try JSONValue(from: decoder))
    }
  }

  /// Writes the event with its `kind`.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .accessory(let event): try event.encode(to: encoder)
    case .session(let event): try event.encode(to: encoder)
    case .route(let event): try event.encode(to: encoder)
    case .soundServer(let event): try event.encode(to: encoder)
    case .discovery(let event): try event.encode(to: encoder)
    case .media(let event): try event.encode(to: encoder)
    case .headphones(let event): try event.encode(to: encoder)
    case .other(let value): try value.encode(to: encoder)
    }
  }

  /// The event as the JSON object a notification carries.
  public var json: JSONValue {
    (try? JSONValue(encoding: self)) ?? .null
  }
}

/// The key every event begins with.
private enum KindKey: String, CodingKey { case kind }

extension Encoder {
  /// Writes an event's `kind`.
  func writeKind(_ kind: String) throws {
    var container = container(keyedBy: KindKey.self)
    try container.encode(kind, forKey: .kind)
  }
}

/// `kind: "accessory"`: a change to a paired or registered accessory.
public struct AccessoryEvent<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// What changed.
  public enum Change: String, Sendable, Hashable, Codable, CaseIterable {
    /// Authorized (AccessorySetupKit's `accessoryAdded`).
    case paired
    /// No longer authorized (`accessoryRemoved`).
    case unpaired
    /// Given another name (`accessoryChanged`).
    case renamed
    /// Registered with AudioAccessoryKit.
    case registered
    /// Its configuration was updated.
    case updated
    /// Its registration was invalidated.
    case invalidated

    /// AccessorySetupKit's event type for the change, where it has one.
    public var eventType: String? {
      switch self {
      case .paired: "accessoryAdded"
      case .unpaired: "accessoryRemoved"
      case .renamed: "accessoryChanged"
      case .registered, .updated, .invalidated: nil
      }
    }
  }

  /// The accessory as the event describes it: its identity and, when it
  /// is registered, its configuration at the top level.
  public struct Accessory: Sendable, Hashable, Codable {
    /// The Bluetooth address.
    public var address: String
    /// The name the person sees.
    public var displayName: String
    /// The form factor, if known.
    public var formFactor: String?
    /// The configuration, when registered.
    public var configuration: Configuration?
    /// Whether the registration is invalidated, when registered.
    public var invalidated: Bool?

    /// Creates the accessory of an event.
    public init(
      address: String, displayName: String, formFactor: String? = nil,
      configuration: Configuration? = nil, invalidated: Bool? = nil
    ) {
      self.address = address
      self.displayName = displayName
      self.formFactor = formFactor
      self.configuration = configuration
      self.invalidated = invalidated
    }

    private enum CodingKeys: String, CodingKey {
      case address, displayName, formFactor, configuration, invalidated
    }

    /// Writes the accessory: `formFactor` always, `null` when unknown.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(address, forKey: .address)
      try container.encode(displayName, forKey: .displayName)
      try container.encode(formFactor, forKey: .formFactor)
      try container.encodeIfPresent(configuration, forKey: .configuration)
      try container.encodeIfPresent(invalidated, forKey: .invalidated)
    }
  }

  /// What changed.
  public var change: Change
  /// The accessory after the change.
  public var accessory: Accessory

  /// Creates an event.
  public init(change: Change, accessory: Accessory) {
    self.change = change
    self.accessory = accessory
  }

  private enum CodingKeys: String, CodingKey {
    case change, accessory, eventType
  }

  /// Reads an event; its `eventType` follows from `change`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    change = try container.decode(Change.self, forKey: .change)
    accessory = try container.decode(Accessory.self, forKey: .accessory)
  }

  /// Writes the event, with AccessorySetupKit's `eventType` where the
  /// change has one.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("accessory")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(change, forKey: .change)
    try container.encode(accessory, forKey: .accessory)
    try container.encodeIfPresent(change.eventType, forKey: .eventType)
  }
}

/// `kind: "session"`: AccessorySetupKit's events for the app that showed a
/// picker, and the end of a migration.
public struct SessionEvent: Sendable, Hashable, Codable {
  /// AccessorySetupKit's event type, such as `pickerDidDismiss` or
  /// `migrationComplete`.
  public var eventType: String
  /// The picker's id, for picker events.
  public var pickerID: String?
  /// The token of the app session that showed the picker (`null` when it
  /// gave none), for picker events.
  public var session: String?
  /// Why the picker was dismissed or setup failed, such as
  /// `userCancelled`.
  public var error: String?
  /// For `migrationComplete`: how many accessories were migrated.
  public var count: Int?

  /// Creates a picker event.
  public init(
    picker eventType: String, pickerID: String, session: String?,
    error: String? = nil
  ) {
    self.eventType = eventType
    self.pickerID = pickerID
    self.session = session
    self.error = error
  }

  /// Creates the `migrationComplete` event.
  public init(migrated count: Int) {
    eventType = "migrationComplete"
    self.count = count
  }

  private enum CodingKeys: String, CodingKey {
    case eventType, pickerID, session, error, count
  }

  /// Writes the event; a picker event always has `session`, `null` when
  /// the app gave no token.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("session")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(eventType, forKey: .eventType)
    if let pickerID {
      try container.encode(pickerID, forKey: .pickerID)
      try container.encode(session, forKey: .session)
    }
    try container.encodeIfPresent(error, forKey: .error)
    try container.encodeIfPresent(count, forKey: .count)
  }
}

/// `kind: "route"`: a decision that changed the route, or the person's own
/// choice of the default output.
public struct RouteEvent: Sendable, Hashable, Codable {
  /// Who chose the output.
  public enum Chooser: String, Sendable, Hashable, Codable {
    /// accessoryd's decision.
    case accessoryd
    /// The person, with another program; accessoryd keeps it as their
    /// choice.
    case person
  }

  /// The output chosen, if any.
  public var output: String?
  /// Why, in one line.
  public var summary: String
  /// How many streams moved.
  public var moves: Int
  /// Whether the default output changed.
  public var defaultChanged: Bool
  /// Whether the change waits for the sound server.
  public var pending: Bool
  /// Who chose it.
  public var chosenBy: Chooser
  /// The new default input, when it changed.
  public var inputChanged: String?
  /// The card profiles switched, for a call, after one, or so that an
  /// accessory gets an output.
  public var profiles: [ProfileSwitch]

  /// Creates a route event.
  public init(
    output: String?, summary: String, moves: Int, defaultChanged: Bool,
    pending: Bool, chosenBy: Chooser, inputChanged: String? = nil,
    profiles: [ProfileSwitch] = []
  ) {
    self.output = output
    self.summary = summary
    self.moves = moves
    self.defaultChanged = defaultChanged
    self.pending = pending
    self.chosenBy = chosenBy
    self.inputChanged = inputChanged
    self.profiles = profiles
  }

  private enum CodingKeys: String, CodingKey {
    case output, summary, moves, defaultChanged, pending, chosenBy
    case inputChanged, profiles
  }

  /// Reads an event; one without `chosenBy` (from an older daemon) is
  /// accessoryd's.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    output = try container.decodeIfPresent(String.self, forKey: .output)
    summary = try container.decode(String.self, forKey: .summary)
    moves = try container.decode(Int.self, forKey: .moves)
    defaultChanged = try container.decode(Bool.self, forKey: .defaultChanged)
    pending = try container.decode(Bool.self, forKey: .pending)
    chosenBy =
      try container.decodeIfPresent(Chooser.self, forKey: .chosenBy)
      ?? .accessoryd
    inputChanged = try container.decodeIfPresent(
      String.self, forKey: .inputChanged)
    // A purpose a newer daemon knows and this version does not leaves
    // the profiles out rather than the event.
    profiles =
      (try? container.decodeIfPresent([ProfileSwitch].self, forKey: .profiles))
      ?? nil ?? []
  }

  /// Writes the event, with `null` for no output.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("route")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(summary, forKey: .summary)
    try container.encode(moves, forKey: .moves)
    try container.encode(defaultChanged, forKey: .defaultChanged)
    try container.encode(pending, forKey: .pending)
    try container.encode(chosenBy, forKey: .chosenBy)
    try container.encodeIfPresent(inputChanged, forKey: .inputChanged)
    if !profiles.isEmpty { try container.encode(profiles, forKey: .profiles) }
  }
}

/// `kind: "soundServer"`: the sound server connected or went away.
public struct SoundServerEvent: Sendable, Hashable, Codable {
  /// The new state.
  public var state: SoundServerState

  /// Creates an event.
  public init(state: SoundServerState) {
    self.state = state
  }

  private enum CodingKeys: String, CodingKey { case state }

  /// Writes the event.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("soundServer")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
  }
}

/// `kind: "discovery"`: after `discovery.subscribe`, a matching device
/// came, changed or went.
public struct DiscoveryEvent: Sendable, Hashable, Codable {
  /// What happened to the device.
  public enum Change: String, Sendable, Hashable, Codable {
    /// It is seen and matches.
    case added
    /// Something about it changed.
    case changed
    /// It is gone or no longer matches.
    case removed
  }

  /// What happened.
  public var change: Change
  /// The Device value (see `docs/control-protocol.md`); for `removed`,
  /// only its `address`.
  public var device: JSONValue

  /// Creates an event.
  public init(change: Change, device: JSONValue) {
    self.change = change
    self.device = device
  }

  private enum CodingKeys: String, CodingKey { case change, device }

  /// Writes the event.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("discovery")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(change, forKey: .change)
    try container.encode(device, forKey: .device)
  }
}

/// `kind: "media"`: accessoryd paused media players because the accessory
/// they played on was taken off, or resumed them when it was put back on.
public struct MediaEvent: Sendable, Hashable, Codable {
  /// What accessoryd did.
  public enum EventType: String, Sendable, Hashable, Codable {
    /// It paused players.
    case mediaPaused
    /// It resumed the players it had paused.
    case mediaResumed
    /// It muted streams no player could pause.
    case streamMuted
    /// It unmuted the streams it had muted.
    case streamUnmuted
  }

  /// One player it paused or resumed.
  public struct Player: Sendable, Hashable, Codable {
    /// The player's bus name.
    public var busName: String
    /// Its name for people.
    public var name: String

    /// Creates a player.
    public init(busName: String, name: String) {
      self.busName = busName
      self.name = name
    }
  }

  /// What accessoryd did.
  public var eventType: EventType
  /// The accessory's Bluetooth address.
  public var accessory: String
  /// The players, by bus name; empty for stream events.
  public var players: [Player]
  /// For stream events, the sink inputs muted or unmuted.
  public var streams: [UInt32]
  /// Why, in one line.
  public var reason: String

  /// Creates an event.
  public init(
    eventType: EventType, accessory: String, players: [Player],
    streams: [UInt32] = [], reason: String
  ) {
    self.eventType = eventType
    self.accessory = accessory
    self.players = players
    self.streams = streams
    self.reason = reason
  }

  private enum CodingKeys: String, CodingKey {
    case eventType, accessory, players, streams, reason
  }

  /// Reads an event; `streams` may be left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    eventType = try container.decode(EventType.self, forKey: .eventType)
    accessory = try container.decode(String.self, forKey: .accessory)
    players = try container.decode([Player].self, forKey: .players)
    streams =
      try container.decodeIfPresent([UInt32].self, forKey: .streams) ?? []
    reason = try container.decode(String.self, forKey: .reason)
  }

  /// Writes the event.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("media")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(eventType, forKey: .eventType)
    try container.encode(accessory, forKey: .accessory)
    try container.encode(players, forKey: .players)
    if !streams.isEmpty { try container.encode(streams, forKey: .streams) }
    try container.encode(reason, forKey: .reason)
  }
}
