// The Route value of the control protocol (`route.get`) and the decisions
// of `route.history`.

import FoundationEssentials

/// Whether accessoryd is connected to the sound server.
public enum SoundServerState: String, Sendable, Hashable, Codable {
  /// Connected: decisions are applied at once.
  case connected
  /// Away: decisions wait until it is back.
  case disconnected
}

/// The output accessoryd chose, and why (`route.get`).
///
/// ``output`` is the current decision's. ``summary``, ``explanation`` and
/// ``text`` explain the decision that last moved the output, chose another
/// one, or was made on a request, a timer or a policy reload;
/// ``decidedAt`` and ``trigger`` say when and why it was made.
public struct RouteReport: Sendable, Hashable, Codable {
  /// The sink the decision chose, if any.
  public var output: String?
  /// The sink's description, if any.
  public var description: String?
  /// Whether the decision waits for the sound server.
  public var pending: Bool
  /// The connection to the sound server.
  public var soundServer: SoundServerState
  /// The explained decision in one line.
  public var summary: String
  /// The rule-by-rule account, when `explain` was asked for.
  public var explanation: Explanation?
  /// The account as text, when `explain` was asked for.
  public var text: String?
  /// When the explained decision was made.
  public var decidedAt: Date?
  /// What made the router decide, such as `an accessory was updated`.
  public var trigger: String?
  /// The media players accessoryd paused and will resume, when `explain`
  /// was asked for.
  public var paused: [PausedMedia]?
  /// The source the decision chose as the default input, if any.
  public var input: String?
  /// The input's description, if any.
  public var inputDescription: String?
  /// Where a call stands, as the current decision saw it.
  public var call: CallPhase?
  /// The cards accessoryd switched for a call, with the profile each gets
  /// back after it.
  public var callProfiles: [CallProfile]?

  /// Creates a report.
  public init(
    output: String?, description: String?, pending: Bool,
    soundServer: SoundServerState, summary: String,
    explanation: Explanation? = nil, text: String? = nil,
    decidedAt: Date? = nil, trigger: String? = nil
  ) {
    self.output = output
    self.description = description
    self.pending = pending
    self.soundServer = soundServer
    self.summary = summary
    self.explanation = explanation
    self.text = text
    self.decidedAt = decidedAt
    self.trigger = trigger
  }

  private enum CodingKeys: String, CodingKey {
    case output, description, pending, soundServer, summary, explanation
    case text, decidedAt, trigger, paused, input, inputDescription, call
    case callProfiles
  }

  /// Reads a report; `decidedAt` is in seconds since 1970.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    output = try container.decodeIfPresent(String.self, forKey: .output)
    description = try container.decodeIfPresent(
      String.self, forKey: .description)
    pending = try container.decode(Bool.self, forKey: .pending)
    soundServer = try container.decode(
      SoundServerState.self, forKey: .soundServer)
    summary = try container.decode(String.self, forKey: .summary)
    explanation = try container.decodeIfPresent(
      Explanation.self, forKey: .explanation)
    text = try container.decodeIfPresent(String.self, forKey: .text)
    decidedAt = try container.decodeIfPresent(Double.self, forKey: .decidedAt)
      .map(Date.init(timeIntervalSince1970:))
    trigger = try container.decodeIfPresent(String.self, forKey: .trigger)
    paused = try container.decodeIfPresent(
      [PausedMedia].self, forKey: .paused)
    input = try container.decodeIfPresent(String.self, forKey: .input)
    inputDescription = try container.decodeIfPresent(
      String.self, forKey: .inputDescription)
    // A phase a newer daemon knows and this version does not reads as
    // none known.
    call = try? container.decodeIfPresent(CallPhase.self, forKey: .call)
    callProfiles = try container.decodeIfPresent(
      [CallProfile].self, forKey: .callProfiles)
  }

  /// Writes the report: `output` and `description` always, `null` when
  /// there is none; the explanation, `decidedAt`, `trigger`, the input
  /// and the call when known.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(description, forKey: .description)
    try container.encode(pending, forKey: .pending)
    try container.encode(soundServer, forKey: .soundServer)
    try container.encode(summary, forKey: .summary)
    try container.encodeIfPresent(explanation, forKey: .explanation)
    try container.encodeIfPresent(text, forKey: .text)
    try container.encodeIfPresent(
      decidedAt?.timeIntervalSince1970, forKey: .decidedAt)
    try container.encodeIfPresent(trigger, forKey: .trigger)
    try container.encodeIfPresent(paused, forKey: .paused)
    try container.encodeIfPresent(input, forKey: .input)
    try container.encodeIfPresent(inputDescription, forKey: .inputDescription)
    try container.encodeIfPresent(call, forKey: .call)
    try container.encodeIfPresent(callProfiles, forKey: .callProfiles)
  }
}

/// Media players accessoryd paused, and streams it muted, for one
/// accessory: because it was taken off, because its output went away for
/// good, or, with no players, while its output is expected back.
public struct PausedMedia: Sendable, Hashable, Codable {
  /// Why accessoryd paused or muted.
  ///
  /// Values this version does not know (from a newer daemon) are kept as
  /// they came.
  public struct Cause: RawRepresentable, Sendable, Hashable, Codable {
    /// The value on the wire.
    public var rawValue: String

    /// Creates a cause from its value on the wire.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The accessory that had the output was taken off.
    public static let takenOff = Cause(rawValue: "takenOff")
    /// The accessory's output went away for good: BlueZ said it
    /// disconnected, a jack was pulled, or it did not come back in time.
    public static let disconnected = Cause(rawValue: "disconnected")
    /// The accessory's output went away and is expected back (a profile
    /// switch): the streams the server moved elsewhere are muted.
    public static let outputAway = Cause(rawValue: "outputAway")

    /// Reads the value as a string.
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the value as a string.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  /// The accessory's Bluetooth address.
  public var accessory: String
  /// The players, by bus name.
  public var players: [MediaEvent.Player]
  /// When they were paused or the streams muted, in seconds since 1970.
  public var pausedAt: Double
  /// Until when putting the accessory back on resumes them, in seconds
  /// since 1970; nil when it never does.
  public var resumeUntil: Double?
  /// The streams accessoryd muted, by index, which no player could pause
  /// or which the server moved off the accessory's output.
  public var mutedStreams: [UInt32]
  /// Why.
  public var cause: Cause
  /// When the players resume, the accessory being back after a
  /// disconnect, unless it drops again before, in seconds since 1970; nil
  /// while it is not back.
  public var resumesAt: Double?

  /// Creates a record.
  public init(
    accessory: String, players: [MediaEvent.Player], pausedAt: Double,
    resumeUntil: Double?, mutedStreams: [UInt32] = [],
    cause: Cause = .takenOff
  ) {
    self.accessory = accessory
    self.players = players
    self.pausedAt = pausedAt
    self.resumeUntil = resumeUntil
    self.mutedStreams = mutedStreams
    self.cause = cause
  }

  private enum CodingKeys: String, CodingKey {
    case accessory, players, pausedAt, resumeUntil, mutedStreams, cause
    case resumesAt
  }

  /// Reads a record; one from a daemon before `mutedStreams` and `cause`
  /// has no muted streams and was taken off.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    accessory = try container.decode(String.self, forKey: .accessory)
    players = try container.decode([MediaEvent.Player].self, forKey: .players)
    pausedAt = try container.decode(Double.self, forKey: .pausedAt)
    resumeUntil = try container.decodeIfPresent(
      Double.self, forKey: .resumeUntil)
    mutedStreams =
      try container.decodeIfPresent([UInt32].self, forKey: .mutedStreams) ?? []
    cause =
      try container.decodeIfPresent(Cause.self, forKey: .cause)
      ?? .takenOff
    resumesAt = try container.decodeIfPresent(Double.self, forKey: .resumesAt)
  }

  /// Writes the record, with `null` when it never resumes.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(accessory, forKey: .accessory)
    try container.encode(players, forKey: .players)
    try container.encode(pausedAt, forKey: .pausedAt)
    try container.encode(resumeUntil, forKey: .resumeUntil)
    try container.encode(mutedStreams, forKey: .mutedStreams)
    try container.encode(cause, forKey: .cause)
    try container.encodeIfPresent(resumesAt, forKey: .resumesAt)
  }
}

/// The decisions that changed the route, newest first (`route.history`).
public struct RouteHistory: Sendable, Hashable, Codable {
  /// The most decisions the daemon keeps, and `route.history` lists.
  public static let maximumLimit = 100

  /// One decision that changed the default or moved streams.
  public struct Change: Sendable, Hashable, Codable {
    /// When it was made.
    public var decidedAt: Date
    /// What made the router decide.
    public var trigger: String
    /// The output it chose, if any.
    public var output: String?
    /// Why, in one line.
    public var summary: String
    /// Whether it changed the default output.
    public var defaultChanged: Bool
    /// How many streams it moved.
    public var moves: Int
    /// How often accessoryd sent its changes again because the sound
    /// server did not show them (PipeWire may not report a change): the
    /// same decision, kept as one entry; 0 from a daemon that does not
    /// say.
    public var resends: Int = 0

    /// Creates a change.
    public init(
      decidedAt: Date, trigger: String, output: String?, summary: String,
      defaultChanged: Bool, moves: Int
    ) {
      self.decidedAt = decidedAt
      self.trigger = trigger
      self.output = output
      self.summary = summary
      self.defaultChanged = defaultChanged
      self.moves = moves
    }

    private enum CodingKeys: String, CodingKey {
      case decidedAt, trigger, output, summary, defaultChanged, moves
      case resends
    }

    /// Reads a change; `decidedAt` is in seconds since 1970.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      decidedAt = Date(
        timeIntervalSince1970: try container.decode(
          Double.self, forKey: .decidedAt))
      trigger = try container.decode(String.self, forKey: .trigger)
      output = try container.decodeIfPresent(String.self, forKey: .output)
      summary = try container.decode(String.self, forKey: .summary)
      defaultChanged = try container.decode(Bool.self, forKey: .defaultChanged)
      moves = try container.decode(Int.self, forKey: .moves)
      resends = try container.decodeIfPresent(Int.self, forKey: .resends) ?? 0
    }

    /// Writes a change, with `null` for no output.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(decidedAt.timeIntervalSince1970, forKey: .decidedAt)
      try container.encode(trigger, forKey: .trigger)
      try container.encode(output, forKey: .output)
      try container.encode(summary, forKey: .summary)
      try container.encode(defaultChanged, forKey: .defaultChanged)
      try container.encode(moves, forKey: .moves)
      if resends > 0 { try container.encode(resends, forKey: .resends) }
    }
  }

  /// The decisions, newest first.
  public var decisions: [Change]

  /// Creates a history.
  public init(decisions: [Change]) {
    self.decisions = decisions
  }
}
