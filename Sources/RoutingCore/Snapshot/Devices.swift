// The sound server's outputs and inputs, and the capture streams, as the
// decision core sees them.

/// An output (sink) of the sound server.
public struct Output: Sendable, Hashable, Codable {
  /// A port of an output, with whether it is plugged in.
  public struct Port: Sendable, Hashable, Codable {
    /// The port's name.
    public var name: String
    /// Whether the port can be used: `false` when it is known to be
    /// unplugged.
    public var isAvailable: Bool

    /// Creates a port.
    public init(name: String, isAvailable: Bool = true) {
      self.name = name
      self.isAvailable = isAvailable
    }
  }

  /// The output's name, unique on the server.
  public var name: String
  /// The output's description, for people.
  public var description: String
  /// The output's properties, such as `device.bus`.
  public var properties: [String: String]
  /// The output's ports; empty when it has none.
  public var ports: [Port]
  /// The name of the active port, if any.
  public var activePort: String?
  /// The address of the accessory the output belongs to, if any.
  public var accessory: String?
  /// Whether the output is headphones, registered or not: a Bluetooth
  /// headphone, headset or hands-free device, or a wired headphone port.
  public var isHeadphones: Bool

  /// Creates an output.
  public init(
    name: String,
    description: String? = nil,
    properties: [String: String] = [:],
    ports: [Port] = [],
    activePort: String? = nil,
    accessory: String? = nil,
    isHeadphones: Bool = false
  ) {
    self.name = name
    self.description = description ?? name
    self.properties = properties
    self.ports = ports
    self.activePort = activePort
    self.accessory = accessory
    self.isHeadphones = isHeadphones
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, properties, ports, activePort, accessory
    case isHeadphones
  }

  /// Creates an output by decoding it; everything but the name may be left
  /// out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try c.decode(String.self, forKey: .name),
      description: try c.decodeIfPresent(String.self, forKey: .description),
      properties: try c.decodeIfPresent(
        [String: String].self, forKey: .properties) ?? [:],
      ports: try c.decodeIfPresent([Port].self, forKey: .ports) ?? [],
      activePort: try c.decodeIfPresent(String.self, forKey: .activePort),
      accessory: try c.decodeIfPresent(String.self, forKey: .accessory),
      isHeadphones: try c.decodeIfPresent(Bool.self, forKey: .isHeadphones)
        ?? false
    )
  }

  /// Whether the output can play: its active port, or, without an active
  /// port, at least one port, is not known to be unplugged.
  public var isAvailable: Bool {
    Port.canBeUsed(ports, activePort: activePort)
  }
}

extension Output.Port {
  /// Whether a device with these ports can be used: its active port, or,
  /// without an active port, at least one port, is not known to be
  /// unplugged; a device without ports can.
  static func canBeUsed(_ ports: [Self], activePort: String?) -> Bool {
    if ports.isEmpty { return true }
    if let activePort, let port = ports.first(where: { $0.name == activePort })
    {
      return port.isAvailable
    }
    return ports.contains(where: \.isAvailable)
  }
}

/// An input (source) of the sound server: a microphone, or the monitor of
/// an output.
public struct Input: Sendable, Hashable, Codable {
  /// A port of an input, with whether it is plugged in.
  public typealias Port = Output.Port

  /// The input's name, unique on the server.
  public var name: String
  /// The input's description, for people.
  public var description: String
  /// The input's properties, such as `device.bus`.
  public var properties: [String: String]
  /// The input's ports; empty when it has none.
  public var ports: [Port]
  /// The name of the active port, if any.
  public var activePort: String?
  /// The address of the accessory the input belongs to, if any.
  public var accessory: String?
  /// The output it is the monitor of, if it is one: what plays there,
  /// not a microphone.
  public var monitorOf: String?

  /// Creates an input.
  public init(
    name: String,
    description: String? = nil,
    properties: [String: String] = [:],
    ports: [Port] = [],
    activePort: String? = nil,
    accessory: String? = nil,
    monitorOf: String? = nil
  ) {
    self.name = name
    self.description = description ?? name
    self.properties = properties
    self.ports = ports
    self.activePort = activePort
    self.accessory = accessory
    self.monitorOf = monitorOf
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, properties, ports, activePort, accessory
    case monitorOf
  }

  /// Creates an input by decoding it; everything but the name may be left
  /// out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try c.decode(String.self, forKey: .name),
      description: try c.decodeIfPresent(String.self, forKey: .description),
      properties: try c.decodeIfPresent(
        [String: String].self, forKey: .properties) ?? [:],
      ports: try c.decodeIfPresent([Port].self, forKey: .ports) ?? [],
      activePort: try c.decodeIfPresent(String.self, forKey: .activePort),
      accessory: try c.decodeIfPresent(String.self, forKey: .accessory),
      monitorOf: try c.decodeIfPresent(String.self, forKey: .monitorOf)
    )
  }

  /// Whether the input can record: its active port, or, without an active
  /// port, at least one port, is not known to be unplugged.
  public var isAvailable: Bool {
    Port.canBeUsed(ports, activePort: activePort)
  }
}

/// A capture stream (source output): an application recording from an
/// input.
public struct CaptureStream: Sendable, Hashable, Codable {
  /// The server's index of the stream.
  public var id: UInt32
  /// The name of the input it records from.
  public var input: String
  /// Its `media.role`, such as `phone` or `communication`.
  public var role: String?
  /// The application's name (`application.name`).
  public var application: String?
  /// Whether it is corked (paused): it records nothing now.
  public var isCorked: Bool
  /// Whether it only measures the level (a peak meter such as
  /// pavucontrol's) rather than recording.
  public var isPeakMeter: Bool
  /// Since when it has been recording: when it started or was last
  /// uncorked.
  public var recordingSince: Instant

  /// Creates a capture stream.
  public init(
    id: UInt32, input: String, role: String? = nil,
    application: String? = nil, isCorked: Bool = false,
    isPeakMeter: Bool = false, recordingSince: Instant = 0
  ) {
    self.id = id
    self.input = input
    self.role = role
    self.application = application
    self.isCorked = isCorked
    self.isPeakMeter = isPeakMeter
    self.recordingSince = recordingSince
  }

  private enum CodingKeys: String, CodingKey {
    case id, input, role, application, isCorked, isPeakMeter
    case recordingSince
  }

  /// Creates a capture stream by decoding it; all but the index and input
  /// may be left out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decode(UInt32.self, forKey: .id),
      input: try c.decode(String.self, forKey: .input),
      role: try c.decodeIfPresent(String.self, forKey: .role),
      application: try c.decodeIfPresent(String.self, forKey: .application),
      isCorked: try c.decodeIfPresent(Bool.self, forKey: .isCorked) ?? false,
      isPeakMeter: try c.decodeIfPresent(Bool.self, forKey: .isPeakMeter)
        ?? false,
      recordingSince: try c.decodeIfPresent(
        Instant.self, forKey: .recordingSince) ?? 0)
  }
}
