// What the decision core sees: everything it decides from, as plain values.
// The service builds a snapshot from the registry, the sound server and the
// clock; tests write snapshots as data.

/// A point in time, in seconds since 1970; the service's clock, as data.
public typealias Instant = Double

/// Everything one decision depends on.
///
/// The decision core reads nothing else: no clock, no files, no server.
public struct Snapshot: Sendable, Hashable, Codable {
  /// The registered accessories.
  public var accessories: [Accessory]
  /// The sound server's outputs (sinks) that exist now.
  public var outputs: [Output]
  /// Cards whose profiles can create an accessory's output.
  public var cards: [Card]
  /// The playback streams.
  public var streams: [Stream]
  /// The name of the current default output, if any.
  public var defaultOutput: String?
  /// The person's own choice of output, made outside this engine.
  public var manualChoice: ManualChoice?
  /// This host's Bluetooth adapter addresses, `AA:BB:CC:DD:EE:FF`.
  public var hostAddresses: [String]
  /// Outputs used before, most recent first (the current default is not
  /// in it).
  public var outputHistory: [String]
  /// An output that went while it was the default and that the sound
  /// server keeps as its configured default, making it the default again
  /// by itself when it comes back.
  public var goneConfiguredOutput: GoneConfiguredOutput?
  /// Bluetooth addresses of accessories the person unpaired: their outputs
  /// may linger a moment, and the fallback never picks them.
  public var forgottenAccessories: [String]
  /// The sound server's inputs (sources), monitors of outputs included.
  public var inputs: [Input]
  /// The capture streams (source outputs).
  public var captureStreams: [CaptureStream]
  /// The name of the current default input, if any.
  public var defaultInput: String?
  /// The person's own choice of input, made outside this engine.
  public var manualInputChoice: ManualChoice?
  /// Inputs used before, most recent first (the current default is not in
  /// it).
  public var inputHistory: [String]
  /// The cards this engine switched for a call, with the profile each is
  /// to get back.
  public var callProfiles: [CallProfile]
  /// When the last stream that made a call ended, while no such stream
  /// runs; `nil` during a call or when there was none.
  public var callEndedAt: Instant?
  /// The input this engine made the default for a call, to give back once
  /// no call runs; `nil` when there is none to give back.
  ///
  /// While it is the one a call chooses, it is not set again.
  public var callInput: String?
  /// The moment of the decision.
  public var now: Instant

  /// Creates a snapshot.
  public init(
    accessories: [Accessory] = [],
    outputs: [Output] = [],
    cards: [Card] = [],
    streams: [Stream] = [],
    defaultOutput: String? = nil,
    manualChoice: ManualChoice? = nil,
    hostAddresses: [String] = [],
    outputHistory: [String] = [],
    goneConfiguredOutput: GoneConfiguredOutput? = nil,
    forgottenAccessories: [String] = [],
    inputs: [Input] = [],
    captureStreams: [CaptureStream] = [],
    defaultInput: String? = nil,
    manualInputChoice: ManualChoice? = nil,
    inputHistory: [String] = [],
    callProfiles: [CallProfile] = [],
    callEndedAt: Instant? = nil,
    callInput: String? = nil,
    now: Instant
  ) {
    self.accessories = accessories
    self.outputs = outputs
    self.cards = cards
    self.streams = streams
    self.defaultOutput = defaultOutput
    self.manualChoice = manualChoice
    self.hostAddresses = hostAddresses
    self.outputHistory = outputHistory
    self.goneConfiguredOutput = goneConfiguredOutput
    self.forgottenAccessories = forgottenAccessories
    self.inputs = inputs
    self.captureStreams = captureStreams
    self.defaultInput = defaultInput
    self.manualInputChoice = manualInputChoice
    self.inputHistory = inputHistory
    self.callProfiles = callProfiles
    self.callEndedAt = callEndedAt
    self.callInput = callInput
    self.now = now
  }

  private enum CodingKeys: String, CodingKey {
    case accessories, outputs, cards, streams, defaultOutput, manualChoice
    case hostAddresses, outputHistory, inputs, captureStreams, defaultInput
    case manualInputChoice, inputHistory, callProfiles, callEndedAt
    case callInput, now, goneConfiguredOutput, forgottenAccessories
  }

  /// Creates a snapshot by decoding it; lists may be left out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      accessories: try c.decodeIfPresent([Accessory].self, forKey: .accessories)
        ?? [],
      outputs: try c.decodeIfPresent([Output].self, forKey: .outputs) ?? [],
      cards: try c.decodeIfPresent([Card].self, forKey: .cards) ?? [],
      streams: try c.decodeIfPresent([Stream].self, forKey: .streams) ?? [],
      defaultOutput: try c.decodeIfPresent(String.self, forKey: .defaultOutput),
      manualChoice: try c.decodeIfPresent(
        ManualChoice.self, forKey: .manualChoice),
      hostAddresses: try c.decodeIfPresent(
        [String].self, forKey: .hostAddresses) ?? [],
      outputHistory: try c.decodeIfPresent(
        [String].self, forKey: .outputHistory) ?? [],
      goneConfiguredOutput: try c.decodeIfPresent(
        GoneConfiguredOutput.self, forKey: .goneConfiguredOutput),
      forgottenAccessories: try c.decodeIfPresent(
        [String].self, forKey: .forgottenAccessories) ?? [],
      inputs: try c.decodeIfPresent([Input].self, forKey: .inputs) ?? [],
      captureStreams: try c.decodeIfPresent(
        [CaptureStream].self, forKey: .captureStreams) ?? [],
      defaultInput: try c.decodeIfPresent(String.self, forKey: .defaultInput),
      manualInputChoice: try c.decodeIfPresent(
        ManualChoice.self, forKey: .manualInputChoice),
      inputHistory: try c.decodeIfPresent(
        [String].self, forKey: .inputHistory) ?? [],
      callProfiles: try c.decodeIfPresent(
        [CallProfile].self, forKey: .callProfiles) ?? [],
      callEndedAt: try c.decodeIfPresent(Instant.self, forKey: .callEndedAt),
      callInput: try c.decodeIfPresent(String.self, forKey: .callInput),
      now: try c.decode(Instant.self, forKey: .now)
    )
  }
}

/// An output that went while it was the default, which the sound server
/// keeps as its configured default: PulseAudio and WirePlumber both make it
/// the default again by themselves when it comes back.
public struct GoneConfiguredOutput: Sendable, Hashable, Codable {
  /// The output's name.
  public var name: String
  /// The Bluetooth address of the accessory whose output it was, when it
  /// carried one.
  public var accessory: String?

  /// Creates the record of a gone output.
  public init(name: String, accessory: String? = nil) {
    self.name = name
    self.accessory = accessory
  }
}

/// A registered accessory, as the decision core sees it.
public struct Accessory: Sendable, Hashable, Codable {
  /// Where an accessory is relative to the person, as AudioAccessoryKit
  /// reports it.
  public enum Placement: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the ear.
    case inEar
    /// On the head.
    case onHead
    /// Over the ear.
    case overTheEar
    /// Not worn.
    case offHead

    /// Whether the accessory is being worn.
    public var isWorn: Bool { self != .offHead }
  }

  /// The accessory's Bluetooth address, `AA:BB:CC:DD:EE:FF`.
  public var address: String
  /// The accessory's display name.
  public var name: String
  /// Whether it was registered with `.audioSwitching`.
  public var audioSwitching: Bool
  /// Whether it was registered with `.placement`.
  public var reportsPlacement: Bool
  /// The placement it last reported, if any.
  public var placement: Placement?
  /// The primary audio source's address, if set.
  public var primarySource: String?
  /// The secondary audio source's address, if set.
  public var secondarySource: String?
  /// When the placement last changed (or the accessory was registered).
  public var placementChangedAt: Instant
  /// When the accessory last connected, disconnected or changed sources.
  public var connectionChangedAt: Instant
  /// When its output disappeared, if it has none now but had one.
  public var outputMissingSince: Instant?
  /// When it was registered, or nil for long ago.
  public var registeredAt: Instant?
  /// Whether it was reported worn since it was registered; one taken off
  /// has the off-head grace time only then.
  public var reportedWorn: Bool

  /// Creates an accessory.
  public init(
    address: String,
    name: String,
    audioSwitching: Bool = true,
    reportsPlacement: Bool = true,
    placement: Placement? = nil,
    primarySource: String? = nil,
    secondarySource: String? = nil,
    placementChangedAt: Instant = 0,
    connectionChangedAt: Instant = 0,
    outputMissingSince: Instant? = nil,
    registeredAt: Instant? = nil,
    reportedWorn: Bool = true
  ) {
    self.address = address
    self.name = name
    self.audioSwitching = audioSwitching
    self.reportsPlacement = reportsPlacement
    self.placement = placement
    self.primarySource = primarySource
    self.secondarySource = secondarySource
    self.placementChangedAt = placementChangedAt
    self.connectionChangedAt = connectionChangedAt
    self.outputMissingSince = outputMissingSince
    self.registeredAt = registeredAt
    self.reportedWorn = reportedWorn
  }

  private enum CodingKeys: String, CodingKey {
    case address, name, audioSwitching, reportsPlacement, placement
    case primarySource, secondarySource, placementChangedAt
    case connectionChangedAt, outputMissingSince, registeredAt, reportedWorn
  }

  /// Creates an accessory by decoding it; flags and times may be left out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      address: try c.decode(String.self, forKey: .address),
      name: try c.decode(String.self, forKey: .name),
      audioSwitching: try c.decodeIfPresent(Bool.self, forKey: .audioSwitching)
        ?? true,
      reportsPlacement: try c.decodeIfPresent(
        Bool.self, forKey: .reportsPlacement) ?? true,
      placement: try c.decodeIfPresent(Placement.self, forKey: .placement),
      primarySource: try c.decodeIfPresent(String.self, forKey: .primarySource),
      secondarySource: try c.decodeIfPresent(
        String.self, forKey: .secondarySource),
      placementChangedAt: try c.decodeIfPresent(
        Instant.self, forKey: .placementChangedAt) ?? 0,
      connectionChangedAt: try c.decodeIfPresent(
        Instant.self, forKey: .connectionChangedAt) ?? 0,
      outputMissingSince: try c.decodeIfPresent(
        Instant.self, forKey: .outputMissingSince),
      registeredAt: try c.decodeIfPresent(Instant.self, forKey: .registeredAt),
      reportedWorn: try c.decodeIfPresent(Bool.self, forKey: .reportedWorn)
        ?? true
    )
  }
}

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

  /// Creates an output.
  public init(
    name: String,
    description: String? = nil,
    properties: [String: String] = [:],
    ports: [Port] = [],
    activePort: String? = nil,
    accessory: String? = nil
  ) {
    self.name = name
    self.description = description ?? name
    self.properties = properties
    self.ports = ports
    self.activePort = activePort
    self.accessory = accessory
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, properties, ports, activePort, accessory
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
      accessory: try c.decodeIfPresent(String.self, forKey: .accessory)
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

/// A card this engine switched to a headset profile for a call.
public struct CallProfile: Sendable, Hashable, Codable {
  /// The card's name.
  public var card: String
  /// The profile it had before, to give back after the call.
  public var previousProfile: String
  /// The headset profile it was switched to.
  public var callProfile: String

  /// Creates a record.
  public init(card: String, previousProfile: String, callProfile: String) {
    self.card = card
    self.previousProfile = previousProfile
    self.callProfile = callProfile
  }
}

/// A card that can create outputs, with its profiles.
public struct Card: Sendable, Hashable, Codable {
  /// A profile of a card.
  public struct Profile: Sendable, Hashable, Codable {
    /// The profile's name, such as `a2dp-sink`.
    public var name: String
    /// How many outputs the profile creates.
    public var outputCount: Int
    /// How many inputs (microphones) the profile creates.
    public var inputCount: Int
    /// How useful the profile is as a default: higher is better.
    public var priority: Int
    /// Whether the server knows of no reason it would not work.
    public var isAvailable: Bool

    /// Creates a profile.
    public init(
      name: String, outputCount: Int, inputCount: Int = 0, priority: Int = 0,
      isAvailable: Bool = true
    ) {
      self.name = name
      self.outputCount = outputCount
      self.inputCount = inputCount
      self.priority = priority
      self.isAvailable = isAvailable
    }

    /// Whether the profile both plays and records: a headset profile.
    public var isDuplex: Bool { outputCount > 0 && inputCount > 0 }

    private enum CodingKeys: String, CodingKey {
      case name, outputCount, inputCount, priority, isAvailable
    }

    /// Creates a profile by decoding it; the counts of inputs, the
    /// priority and the availability may be left out.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        name: try c.decode(String.self, forKey: .name),
        outputCount: try c.decode(Int.self, forKey: .outputCount),
        inputCount: try c.decodeIfPresent(Int.self, forKey: .inputCount) ?? 0,
        priority: try c.decodeIfPresent(Int.self, forKey: .priority) ?? 0,
        isAvailable: try c.decodeIfPresent(Bool.self, forKey: .isAvailable)
          ?? true)
    }
  }

  /// The card's name.
  public var name: String
  /// The address of the accessory the card belongs to, if any.
  public var accessory: String?
  /// The active profile's name.
  public var activeProfile: String?
  /// The card's profiles.
  public var profiles: [Profile]

  /// Creates a card.
  public init(
    name: String, accessory: String? = nil, activeProfile: String? = nil,
    profiles: [Profile] = []
  ) {
    self.name = name
    self.accessory = accessory
    self.activeProfile = activeProfile
    self.profiles = profiles
  }
}

/// A playback stream.
public struct Stream: Sendable, Hashable, Codable {
  /// Who fixed a stream to its output, so that it must not be moved.
  public enum Pin: String, Sendable, Hashable, Codable {
    /// The person moved it there.
    case user
    /// The application asked for that output.
    case application
    /// It started there rather than on the default: the application, the
    /// person or the sound server's memory of an earlier move put it there.
    case startedThere

    /// Why the stream stays on `output`, for explanations.
    public func reason(onOutput output: String) -> String {
      switch self {
      case .user: "pinned to \(output) by the user"
      case .application: "pinned to \(output) by the application"
      case .startedThere:
        "pinned to \(output): it started there, not on the default"
      }
    }
  }

  /// The server's index of the stream.
  public var id: UInt32
  /// The name of the output it plays on.
  public var output: String
  /// Its `media.role`, such as `music` or `phone`.
  public var role: String?
  /// The application's name, for explanations.
  public var application: String?
  /// Who pinned it, if anyone.
  public var pinnedBy: Pin?

  /// Creates a stream.
  public init(
    id: UInt32, output: String, role: String? = nil,
    application: String? = nil, pinnedBy: Pin? = nil
  ) {
    self.id = id
    self.output = output
    self.role = role
    self.application = application
    self.pinnedBy = pinnedBy
  }
}

/// The person's own choice of output.
public struct ManualChoice: Sendable, Hashable, Codable {
  /// The chosen output's name.
  public var output: String
  /// When the choice was made.
  public var at: Instant

  /// Creates a manual choice.
  public init(output: String, at: Instant) {
    self.output = output
    self.at = at
  }
}
