// What accessoryd reads from headphones itself, as the control protocol
// carries it: in `accessory.*` answers, in `daemon.status` and in the
// `headphones` event.

/// accessoryd's own link to an accessory that tells where it is: its
/// protocol, its state, and what the headphones last said.
public struct HeadphoneLink: Sendable, Hashable, Codable {
  /// The state of the link.
  public struct State: RawRepresentable, Sendable, Hashable, Codable,
    CustomStringConvertible
  {
    /// Connecting, or waiting for the first answer.
    public static let connecting = State(rawValue: "connecting")
    /// Connected; the headphones answer.
    public static let connected = State(rawValue: "connected")
    /// Connected, but the headphones said nothing; ``HeadphoneLink/message``
    /// says why that may be.
    public static let noAnswer = State(rawValue: "noAnswer")
    /// The link failed or dropped; accessoryd tries again
    /// (``HeadphoneLink/message`` says why).
    public static let retrying = State(rawValue: "retrying")
    /// This host cannot open the link (``HeadphoneLink/message`` says why);
    /// accessoryd does not try again.
    public static let unavailable = State(rawValue: "unavailable")

    /// The state's name; a newer daemon's is kept as it came.
    public let rawValue: String

    /// Creates a state from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name.
    public var description: String { rawValue }
  }

  /// One part's battery.
  public struct Battery: Sendable, Hashable, Codable {
    /// `left`, `right`, `case` or `single`.
    public var part: String
    /// The charge, 0 to 100.
    public var percent: Int
    /// Whether it charges, when the headphones say.
    public var charging: Bool?

    /// Creates a level.
    public init(part: String, percent: Int, charging: Bool? = nil) {
      self.part = part
      self.percent = percent
      self.charging = charging
    }
  }

  /// `aap` or `galaxyBuds`.
  public var protocolName: String
  /// The state of the link.
  public var state: State
  /// Why the link is not connected, or what to set up, for people.
  public var message: String?
  /// Where each bud is (`inEar`, `outOfEar`, `inCase`, `disconnected`), in
  /// the protocol's order; empty until the headphones say.
  public var buds: [String]
  /// The battery of each part, empty until the headphones say.
  public var battery: [Battery]

  /// Creates a link record.
  public init(
    protocolName: String, state: State, message: String? = nil,
    buds: [String] = [], battery: [Battery] = []
  ) {
    self.protocolName = protocolName
    self.state = state
    self.message = message
    self.buds = buds
    self.battery = battery
  }

  private enum CodingKeys: String, CodingKey {
    case protocolName = "protocol"
    case state, message, buds, battery
  }
}

/// The `headphones` event: accessoryd's link to an accessory changed, or
/// what the headphones say of themselves (buds, battery).
public struct HeadphoneLinkEvent: Sendable, Hashable, Codable {
  /// The accessory's address.
  public var address: String
  /// The link as it is now; nil once accessoryd stopped reading the
  /// accessory (disconnected, unpaired, or its built-in source turned off).
  public var link: HeadphoneLink?

  /// Creates an event.
  public init(address: String, link: HeadphoneLink?) {
    self.address = address
    self.link = link
  }

  private enum CodingKeys: String, CodingKey { case address, link }

  /// Writes the event with its `kind`, and `null` for no link.
  public func encode(to encoder: any Encoder) throws {
    try encoder.writeKind("headphones")
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(address, forKey: .address)
    try container.encode(link, forKey: .link)
  }
}
