// The objects the sound server reports, as plain Swift values. Indexes are
// the server's own: on PipeWire they are object serials, not the ids that
// pw-cli and wpctl show.

/// The sound server's identity and defaults.
public struct ServerInfo: Sendable, Hashable {
  /// The server's name, such as `pulseaudio` or
  /// `PulseAudio (on PipeWire 0.3.65)`.
  public var serverName: String
  /// The server's version, such as `16.1`.
  public var serverVersion: String
  /// The name of the default sink, if there is one.
  public var defaultSinkName: String?
  /// The name of the default source, if there is one.
  public var defaultSourceName: String?
  /// The host the server runs on.
  public var hostName: String
  /// The user the server runs as.
  public var userName: String
  /// A random number the server drew when it started: it tells one run of
  /// a server from the next, whose stream indexes start again.
  public var cookie: UInt32 = 0

  /// Whether the server is PipeWire's PulseAudio compatibility layer.
  public var isPipeWire: Bool { serverName.contains("PipeWire") }

  /// Creates the value from its parts, as the server reports them.
  public init(
    serverName: String,
    serverVersion: String,
    defaultSinkName: String? = nil,
    defaultSourceName: String? = nil,
    hostName: String,
    userName: String,
    cookie: UInt32 = 0
  ) {
    self.serverName = serverName
    self.serverVersion = serverVersion
    self.defaultSinkName = defaultSinkName
    self.defaultSourceName = defaultSourceName
    self.hostName = hostName
    self.userName = userName
    self.cookie = cookie
  }
}

/// The state of a sink.
public struct SinkState: RawRepresentable, Sendable, Hashable,
  CustomStringConvertible
{
  /// The libpulse value, a `pa_sink_state_t`.
  public let rawValue: Int32
  /// Creates a state from its libpulse value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The state is not known.

  ///

  /// The corresponding C constant is
  /// `PA_SINK_INVALID_STATE`.
  public static let invalid = SinkState(rawValue: -1)
  /// Playing.
  ///
  /// The corresponding C constant is `PA_SINK_RUNNING`.
  public static let running = SinkState(rawValue: 0)
  /// Open but idle.
  ///
  /// The corresponding C constant is `PA_SINK_IDLE`.
  public static let idle = SinkState(rawValue: 1)
  /// Suspended.
  ///
  /// The corresponding C constant is `PA_SINK_SUSPENDED`.
  public static let suspended = SinkState(rawValue: 2)

  /// The state's name.
  public var description: String {
    switch self {
    case .running: "running"
    case .idle: "idle"
    case .suspended: "suspended"
    default: "invalid"
    }
  }
}

/// Whether a port, or a card profile, is known to be usable.
public struct PortAvailability: RawRepresentable, Sendable, Hashable,
  CustomStringConvertible
{
  /// The libpulse value, a `pa_port_available_t`.
  public let rawValue: Int32
  /// Creates an availability from its libpulse value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Not known.

  ///

  /// The corresponding C constant is `PA_PORT_AVAILABLE_UNKNOWN`.
  public static let unknown = PortAvailability(rawValue: 0)
  /// Unavailable, for example unplugged.
  ///
  /// The corresponding C constant is
  /// `PA_PORT_AVAILABLE_NO`.
  public static let unavailable = PortAvailability(rawValue: 1)
  /// Available.
  ///
  /// The corresponding C constant is `PA_PORT_AVAILABLE_YES`.
  public static let available = PortAvailability(rawValue: 2)

  /// The availability's name.
  public var description: String {
    switch self {
    case .unavailable: "unavailable"
    case .available: "available"
    default: "unknown"
    }
  }
}

/// A port of a sink, such as speakers or a headphone jack.
public struct SinkPort: Sendable, Hashable {
  /// The port's name.
  public var name: String
  /// The port's description, for people.
  public var description: String
  /// How useful the port is as a default: higher is better.
  public var priority: UInt32
  /// Whether the port is known to be usable.
  public var availability: PortAvailability
  /// What the port is: speakers, headphones, a line out.
  public var kind: PortKind

  /// Creates a port.
  public init(
    name: String, description: String, priority: UInt32,
    availability: PortAvailability, kind: PortKind = .unknown
  ) {
    self.name = name
    self.description = description
    self.priority = priority
    self.availability = availability
    self.kind = kind
  }

  /// Whether the port is a wired headphone (or headset) jack: its kind
  /// says so, or, where the server gives no kind, its name (ALSA's paths
  /// name it `analog-output-headphones` on both servers).
  public var isHeadphoneJack: Bool {
    switch kind {
    case .headphones, .headset: return true
    case .unknown: return name.lowercased().contains("headphone")
    default: return false
    }
  }
}

/// What a port is, as the server tells (`pa_device_port_type_t`, since
/// PulseAudio 14).
public struct PortKind: RawRepresentable, Sendable, Hashable {
  /// The libpulse value.
  public let rawValue: UInt32
  /// Creates a kind from its libpulse value.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Not known.
  ///
  /// The C constant is `PA_DEVICE_PORT_TYPE_UNKNOWN`.
  public static let unknown = PortKind(rawValue: 0)
  /// Speakers.
  ///
  /// The C constant is `PA_DEVICE_PORT_TYPE_SPEAKER`.
  public static let speaker = PortKind(rawValue: 2)
  /// Headphones.
  ///
  /// The C constant is `PA_DEVICE_PORT_TYPE_HEADPHONES`.
  public static let headphones = PortKind(rawValue: 3)
  /// A headset (headphones with a microphone).
  ///
  /// The C constant is `PA_DEVICE_PORT_TYPE_HEADSET`.
  public static let headset = PortKind(rawValue: 6)
}

/// An audio output of the sound server.
public struct Sink: Sendable, Hashable {
  /// The server's index of the sink.
  public var index: UInt32
  /// The sink's name, unique on the server.
  public var name: String
  /// The sink's description, for people.
  public var description: String
  /// Every property of the sink, such as `device.bus` or
  /// `api.bluez5.address`.
  public var properties: [String: String]
  /// The sink's ports.
  public var ports: [SinkPort]
  /// The name of the active port, if the sink has ports.
  public var activePortName: String?
  /// The sink's state.
  public var state: SinkState
  /// Whether the sink is muted.
  public var isMuted: Bool
  /// The index of the card the sink belongs to, if any.
  public var cardIndex: UInt32?
  /// The index of the module that owns the sink, if any.
  public var ownerModuleIndex: UInt32?
  /// The driver that implements the sink.
  public var driver: String?

  /// Creates the value from its parts, as the server reports them.
  public init(
    index: UInt32,
    name: String,
    description: String,
    properties: [String: String],
    ports: [SinkPort],
    activePortName: String? = nil,
    state: SinkState,
    isMuted: Bool,
    cardIndex: UInt32? = nil,
    ownerModuleIndex: UInt32? = nil,
    driver: String? = nil
  ) {
    self.index = index
    self.name = name
    self.description = description
    self.properties = properties
    self.ports = ports
    self.activePortName = activePortName
    self.state = state
    self.isMuted = isMuted
    self.cardIndex = cardIndex
    self.ownerModuleIndex = ownerModuleIndex
    self.driver = driver
  }
}

/// A playback stream: an application's audio going to a sink.
public struct SinkInput: Sendable, Hashable {
  /// The server's index of the stream.
  public var index: UInt32
  /// The stream's name, if it has one.
  public var name: String?
  /// The index of the sink the stream plays on.
  public var sinkIndex: UInt32
  /// The index of the client that owns the stream, if any.
  public var clientIndex: UInt32?
  /// The name of the client that owns the stream, if known.
  public var clientName: String?
  /// Every property of the stream.
  public var properties: [String: String]
  /// Whether the stream is paused.
  public var isCorked: Bool
  /// Whether the stream is muted.
  public var isMuted: Bool
  /// The index of the module that owns the stream, if any.
  public var ownerModuleIndex: UInt32?

  /// The application's name, the `application.name` property.
  public var applicationName: String? { properties["application.name"] }

  /// The stream's role, the `media.role` property, such as `music` or
  /// `phone`.
  public var mediaRole: String? { properties["media.role"] }

  /// The process that plays it, the `application.process.id` property, as
  /// the server's side of the connection sees it.
  public var processID: Int32? {
    properties["application.process.id"].flatMap { Int32($0) }
  }

  /// Creates the value from its parts, as the server reports them.
  public init(
    index: UInt32,
    name: String? = nil,
    sinkIndex: UInt32,
    clientIndex: UInt32? = nil,
    clientName: String? = nil,
    properties: [String: String],
    isCorked: Bool,
    isMuted: Bool,
    ownerModuleIndex: UInt32? = nil
  ) {
    self.index = index
    self.name = name
    self.sinkIndex = sinkIndex
    self.clientIndex = clientIndex
    self.clientName = clientName
    self.properties = properties
    self.isCorked = isCorked
    self.isMuted = isMuted
    self.ownerModuleIndex = ownerModuleIndex
  }
}

/// A port of a source, such as a microphone or a line-in jack: the same
/// fields as a sink's port.
public typealias SourcePort = SinkPort

/// An audio input of the sound server: a microphone, or the monitor of a
/// sink.
public struct Source: Sendable, Hashable {
  /// The server's index of the source.
  public var index: UInt32
  /// The source's name, unique on the server.
  public var name: String
  /// The source's description, for people.
  public var description: String
  /// Every property of the source, such as `device.bus` or
  /// `api.bluez5.address`.
  public var properties: [String: String]
  /// The source's ports.
  public var ports: [SourcePort]
  /// The name of the active port, if the source has ports.
  public var activePortName: String?
  /// Whether the source is muted.
  public var isMuted: Bool
  /// The index of the sink it is the monitor of, if it is a monitor.
  public var monitorOfSinkIndex: UInt32?
  /// The index of the card the source belongs to, if any.
  public var cardIndex: UInt32?
  /// The index of the module that owns the source, if any.
  public var ownerModuleIndex: UInt32?
  /// The driver that implements the source.
  public var driver: String?

  /// Whether it is the monitor of a sink: what plays there, not a
  /// microphone.
  public var isMonitor: Bool { monitorOfSinkIndex != nil }

  /// Creates the value from its parts, as the server reports them.
  public init(
    index: UInt32,
    name: String,
    description: String,
    properties: [String: String],
    ports: [SourcePort],
    activePortName: String? = nil,
    isMuted: Bool,
    monitorOfSinkIndex: UInt32? = nil,
    cardIndex: UInt32? = nil,
    ownerModuleIndex: UInt32? = nil,
    driver: String? = nil
  ) {
    self.index = index
    self.name = name
    self.description = description
    self.properties = properties
    self.ports = ports
    self.activePortName = activePortName
    self.isMuted = isMuted
    self.monitorOfSinkIndex = monitorOfSinkIndex
    self.cardIndex = cardIndex
    self.ownerModuleIndex = ownerModuleIndex
    self.driver = driver
  }
}

/// A recording stream: an application's capture from a source.
public struct SourceOutput: Sendable, Hashable {
  /// The server's index of the stream.
  public var index: UInt32
  /// The stream's name, if it has one.
  public var name: String?
  /// The index of the source the stream records from.
  public var sourceIndex: UInt32
  /// The index of the client that owns the stream, if any.
  public var clientIndex: UInt32?
  /// Every property of the stream.
  public var properties: [String: String]
  /// Whether the stream is paused.
  public var isCorked: Bool
  /// Whether the stream is muted.
  public var isMuted: Bool
  /// The resampler the server uses for it, such as `speex-float-1`;
  /// `peaks` for a stream that only measures the level.
  public var resampleMethod: String?
  /// The index of the module that owns the stream, if any.
  public var ownerModuleIndex: UInt32?

  /// The application's name, the `application.name` property.
  public var applicationName: String? { properties["application.name"] }

  /// The stream's role, the `media.role` property, such as `phone`.
  public var mediaRole: String? { properties["media.role"] }

  /// Whether the stream only measures the level, as a volume control's
  /// meter does: PulseAudio resamples a peak-detect stream with `peaks`,
  /// pipewire-pulse marks it `stream.monitor`, and pavucontrol, GNOME's
  /// and KDE's volume controls name themselves by `application.id`.
  public var isPeakMeter: Bool {
    resampleMethod == "peaks" || properties["stream.monitor"] == "true"
      || properties["application.id"].map(Self.volumeControls.contains)
        == true
  }

  /// The `application.id` of volume controls, whose capture streams are
  /// level meters.
  static let volumeControls: Set<String> = [
    "org.PulseAudio.pavucontrol", "org.gnome.VolumeControl", "org.kde.kmixd",
    "org.kde.plasma-pa",
  ]

  /// Creates the value from its parts, as the server reports them.
  public init(
    index: UInt32,
    name: String? = nil,
    sourceIndex: UInt32,
    clientIndex: UInt32? = nil,
    properties: [String: String],
    isCorked: Bool,
    isMuted: Bool,
    resampleMethod: String? = nil,
    ownerModuleIndex: UInt32? = nil
  ) {
    self.index = index
    self.name = name
    self.sourceIndex = sourceIndex
    self.clientIndex = clientIndex
    self.properties = properties
    self.isCorked = isCorked
    self.isMuted = isMuted
    self.resampleMethod = resampleMethod
    self.ownerModuleIndex = ownerModuleIndex
  }
}

/// A profile of a card, such as `a2dp-sink` or `headset-head-unit`.
public struct CardProfile: Sendable, Hashable {
  /// The profile's name.
  public var name: String
  /// The profile's description, for people.
  public var description: String
  /// How many sinks the profile creates.
  public var sinkCount: UInt32
  /// How many sources the profile creates.
  public var sourceCount: UInt32
  /// How useful the profile is as a default: higher is better.
  public var priority: UInt32
  /// Whether the server knows of no reason the profile would not work.
  public var isAvailable: Bool

  /// Creates the value from its parts, as the server reports them.
  public init(
    name: String,
    description: String,
    sinkCount: UInt32,
    sourceCount: UInt32,
    priority: UInt32,
    isAvailable: Bool
  ) {
    self.name = name
    self.description = description
    self.sinkCount = sinkCount
    self.sourceCount = sourceCount
    self.priority = priority
    self.isAvailable = isAvailable
  }
}

/// A sound card, or a Bluetooth device, with its profiles.
public struct Card: Sendable, Hashable {
  /// The server's index of the card.
  public var index: UInt32
  /// The card's name.
  public var name: String
  /// The driver that implements the card.
  public var driver: String?
  /// Every property of the card.
  public var properties: [String: String]
  /// The card's profiles.
  public var profiles: [CardProfile]
  /// The name of the active profile, if any.
  public var activeProfileName: String?
  /// The index of the module that owns the card, if any.
  public var ownerModuleIndex: UInt32?

  /// Creates the value from its parts, as the server reports them.
  public init(
    index: UInt32,
    name: String,
    driver: String? = nil,
    properties: [String: String],
    profiles: [CardProfile],
    activeProfileName: String? = nil,
    ownerModuleIndex: UInt32? = nil
  ) {
    self.index = index
    self.name = name
    self.driver = driver
    self.properties = properties
    self.profiles = profiles
    self.activeProfileName = activeProfileName
    self.ownerModuleIndex = ownerModuleIndex
  }
}
