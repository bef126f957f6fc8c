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
  /// When the current default output became the default, if known.
  public var defaultOutputSince: Instant?
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
  /// The default the sound server gave, by itself, to an output that had
  /// just come (PulseAudio's `module-switch-on-connect` does), while the
  /// current default is that output.
  public var defaultTakenOnArrival: DefaultTakenOnArrival?
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
  /// Whether the server, with no input configured, moves the default
  /// input from the default output's monitor to the new default output's
  /// with it (PulseAudio does; pipewire-pulse does not).
  public var monitorFollowsTheDefault = false

  /// Creates a snapshot.
  public init(
    accessories: [Accessory] = [],
    outputs: [Output] = [],
    cards: [Card] = [],
    streams: [Stream] = [],
    defaultOutput: String? = nil,
    defaultOutputSince: Instant? = nil,
    manualChoice: ManualChoice? = nil,
    hostAddresses: [String] = [],
    outputHistory: [String] = [],
    goneConfiguredOutput: GoneConfiguredOutput? = nil,
    defaultTakenOnArrival: DefaultTakenOnArrival? = nil,
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
    self.defaultOutputSince = defaultOutputSince
    self.manualChoice = manualChoice
    self.hostAddresses = hostAddresses
    self.outputHistory = outputHistory
    self.goneConfiguredOutput = goneConfiguredOutput
    self.defaultTakenOnArrival = defaultTakenOnArrival
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
    case defaultTakenOnArrival, defaultOutputSince, monitorFollowsTheDefault
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
      defaultOutputSince: try c.decodeIfPresent(
        Instant.self, forKey: .defaultOutputSince),
      manualChoice: try c.decodeIfPresent(
        ManualChoice.self, forKey: .manualChoice),
      hostAddresses: try c.decodeIfPresent(
        [String].self, forKey: .hostAddresses) ?? [],
      outputHistory: try c.decodeIfPresent(
        [String].self, forKey: .outputHistory) ?? [],
      goneConfiguredOutput: try c.decodeIfPresent(
        GoneConfiguredOutput.self, forKey: .goneConfiguredOutput),
      defaultTakenOnArrival: try c.decodeIfPresent(
        DefaultTakenOnArrival.self, forKey: .defaultTakenOnArrival),
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
    monitorFollowsTheDefault =
      try c.decodeIfPresent(Bool.self, forKey: .monitorFollowsTheDefault)
      ?? false
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

/// The default the sound server gave, by itself, to an output that had just
/// come, and the output that had it before.
public struct DefaultTakenOnArrival: Sendable, Hashable, Codable {
  /// The output that came and took the default.
  public var output: String
  /// The output that was the default before.
  public var previous: String

  /// Creates the record of a default taken on arrival.
  public init(output: String, previous: String) {
    self.output = output
    self.previous = previous
  }
}
