// The answer to `bluetooth.status`: BlueZ as the daemon sees it, so that
// the command line never talks to BlueZ itself.

/// BlueZ as accessoryd sees it on the system bus: whether the bus and BlueZ
/// answer, the host's adapters, and the devices BlueZ knows.
public struct BluetoothStatus: Sendable, Hashable, Codable {
  /// Whether accessoryd reaches BlueZ.
  public struct State: RawRepresentable, Sendable, Hashable, Codable,
    CustomStringConvertible
  {
    /// BlueZ answers on the system bus; ``BluetoothStatus/adapters`` and
    /// ``BluetoothStatus/devices`` are what it reported just now.
    public static let running = State(rawValue: "running")
    /// The system bus answers, but BlueZ does not
    /// (``BluetoothStatus/reason`` says how it failed).
    public static let notRunning = State(rawValue: "notRunning")
    /// accessoryd cannot reach the system bus
    /// (``BluetoothStatus/reason`` says why); it does not try again until
    /// it is restarted.
    public static let busUnreachable = State(rawValue: "busUnreachable")
    /// accessoryd is still connecting to the system bus.
    public static let connecting = State(rawValue: "connecting")
    /// BlueZ did not answer in the time `daemon.status` gives it.
    public static let notAnswering = State(rawValue: "notAnswering")
    /// accessoryd does not follow BlueZ (it is stopping, or was built
    /// without it).
    public static let notFollowed = State(rawValue: "notFollowed")

    /// The state's name; a newer daemon's is kept as it came.
    public let rawValue: String

    /// Creates a state from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name.
    public var description: String { rawValue }

    /// The state in a person's words, for the text acctl and the daemon
    /// show (the name stays the protocol's).
    public var words: String {
      switch self {
      case .running: "running"
      case .notRunning: "BlueZ is not running"
      case .busUnreachable: "accessoryd cannot reach the system bus"
      case .connecting: "accessoryd is still connecting to the system bus"
      case .notAnswering: "BlueZ does not answer"
      case .notFollowed: "accessoryd does not follow BlueZ"
      default: "BlueZ is \(rawValue)"
      }
    }
  }

  /// Why BlueZ could not be asked, in a person's words.
  ///
  /// The reason underneath is `acctl doctor`'s to show.
  ///
  /// - Returns: The words, or nil while BlueZ runs.
  public static func whyNotAsked(_ state: State) -> String? {
    guard state != .running else { return nil }
    return "BlueZ could not be asked: " + state.words
  }

  /// One of the host's Bluetooth adapters (`org.bluez.Adapter1`).
  public struct Adapter: Sendable, Hashable, Codable {
    /// The kernel's name for it, such as `hci0`.
    public var interface: String
    /// Its Bluetooth address, upper case with colons.
    public var address: String
    /// Whether its radio is on.
    public var powered: Bool

    /// Creates an adapter record.
    public init(interface: String, address: String, powered: Bool) {
      self.interface = interface
      self.address = address
      self.powered = powered
    }
  }

  /// A device BlueZ knows, paired or discovered (`org.bluez.Device1`).
  public struct Device: Sendable, Hashable, Codable {
    /// Its Bluetooth address, upper case with colons.
    public var address: String
    /// The name it gives itself, if known.
    public var name: String?
    /// The name the host shows for it, if any.
    public var alias: String?
    /// Whether it is paired with the host.
    public var paired: Bool
    /// Whether it is connected now.
    public var connected: Bool
    /// The service UUIDs BlueZ lists for it, as BlueZ writes them.
    public var serviceUUIDs: [String]

    /// Creates a device record.
    public init(
      address: String, name: String? = nil, alias: String? = nil,
      paired: Bool, connected: Bool, serviceUUIDs: [String]
    ) {
      self.address = address
      self.name = name
      self.alias = alias
      self.paired = paired
      self.connected = connected
      self.serviceUUIDs = serviceUUIDs
    }

    private enum CodingKeys: String, CodingKey {
      case address, name, alias, paired, connected, serviceUUIDs
    }

    /// Writes the device, with `null` for a name that is not known.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(address, forKey: .address)
      try container.encode(name, forKey: .name)
      try container.encode(alias, forKey: .alias)
      try container.encode(paired, forKey: .paired)
      try container.encode(connected, forKey: .connected)
      try container.encode(serviceUUIDs, forKey: .serviceUUIDs)
    }
  }

  /// Whether accessoryd reaches BlueZ.
  public var state: State
  /// Why it does not, for people; nil while BlueZ answers.
  public var reason: String?
  /// The host's adapters, in BlueZ's order (`hci0` first); empty unless
  /// BlueZ runs.
  public var adapters: [Adapter]
  /// The devices BlueZ knows, in BlueZ's order; empty unless BlueZ runs.
  ///
  /// A device two adapters see is listed twice.
  public var devices: [Device]

  /// Creates a status.
  public init(
    state: State, reason: String? = nil, adapters: [Adapter] = [],
    devices: [Device] = []
  ) {
    self.state = state
    self.reason = reason
    self.adapters = adapters
    self.devices = devices
  }

  private enum CodingKeys: String, CodingKey {
    case state, reason, adapters, devices
  }

  /// Writes the status, with `null` for no reason.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
    try container.encode(reason, forKey: .reason)
    try container.encode(adapters, forKey: .adapters)
    try container.encode(devices, forKey: .devices)
  }
}
