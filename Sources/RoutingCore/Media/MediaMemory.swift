// What the media rules remember between events: the players paused and
// the streams muted for each accessory, the outputs expected back, and
// the pauses that wait for the players' answer.

/// Why the media rules paused players or muted streams for an accessory.
public enum MediaPauseCause: String, Sendable, Hashable, Codable {
  /// The accessory that had the output was taken off.
  case takenOff
  /// The accessory's output went away for good: BlueZ said it
  /// disconnected, a jack was pulled, or it did not come back in time.
  case disconnected
}

/// The media rules' memory: what ``MediaRules/step(_:_:_:_:now:)`` reads
/// and returns, and nothing else keeps.
public struct MediaMemory: Sendable, Hashable {
  /// What was paused and muted for one accessory.
  public struct Pause: Sendable, Hashable {
    /// The players paused, by bus name, with their names.
    public var players: [String: String]
    /// Those of them seen Paused since: only a later change to another
    /// status is the person's.
    public var seenPaused: Set<String> = []
    /// When they were paused, in seconds since 1970 on the engine's clock.
    public var at: Double
    /// The streams muted, which no player could pause.
    public var muted: Set<UInt32> = []
    /// Why.
    public var cause: MediaPauseCause = .takenOff
    /// Whether the accessory's output went away for good since: its
    /// players resume when it is back only if the policy says so.
    public var disconnected = false
    /// When the players a disconnect paused resume, the accessory having
    /// been back since `media.reconnectSettleSeconds` before; nil while
    /// it is not back.
    public var resumesAt: Double?
    /// When the accessory was last away, if it came back since the pause
    /// and went again (a flapping link): the put-back window counts from
    /// then, not from the pause.
    public var awaySince: Double?

    /// When the time away that the put-back window measures began: the
    /// last drop, or the pause.
    public var awayFrom: Double { awaySince ?? at }

    /// Creates a record.
    public init(
      players: [String: String], at: Double, muted: Set<UInt32> = [],
      cause: MediaPauseCause = .takenOff, disconnected: Bool = false
    ) {
      self.players = players
      self.at = at
      self.muted = muted
      self.cause = cause
      self.disconnected = disconnected
    }
  }

  /// An accessory's output that went away and is waited for (a profile
  /// switch), for as long as BlueZ's word or the policy says: the streams
  /// the server moved elsewhere are muted meanwhile.
  public struct Absence: Sendable, Hashable {
    /// Tells this absence from a later one of the same accessory, for a
    /// wake-up that comes late.
    public var id: Int
    /// When the output went away, in seconds since 1970.
    public var since: Double
    /// When the rules decide: at the end of the profile switch's window,
    /// or at once on BlueZ's word that the device disconnected.
    public var endsAt: Double
    /// When the reappear grace time ends: an output of the accessory that
    /// is back by ``endsAt``, whose streams are not yet, is waited for
    /// until then.
    public var graceEndsAt: Double
    /// The streams muted.
    public var streams: Set<UInt32> = []
    /// The outputs that went away, by index.
    public var gone: Set<UInt32> = []
    /// The streams that played on them, muted or not: their players are
    /// paused if the output does not come back.
    public var played: Set<UInt32> = []
    /// The muted streams seen on another output since: only those can be
    /// back (a state from before the output went still shows them on it,
    /// and PipeWire may give the new output the old one's index).
    public var seenAway: Set<UInt32> = []

    /// Creates an absence.
    public init(
      id: Int, since: Double, endsAt: Double, graceEndsAt: Double? = nil
    ) {
      self.id = id
      self.since = since
      self.endsAt = endsAt
      self.graceEndsAt = graceEndsAt ?? endsAt
    }
  }

  /// Players asked to pause for an accessory, whose answer is awaited: a
  /// phase that ``MediaInput/playersPaused(accessory:players:streams:)``
  /// ends.
  public struct Pausing: Sendable, Hashable {
    /// Why.
    public var cause: MediaPauseCause
    /// The streams the pause is about: on the output taken off, or muted
    /// while the output was away.
    public var streams: Set<UInt32>
    /// Why, in words, for the events.
    public var reason: String

    /// Creates a phase.
    public init(cause: MediaPauseCause, streams: Set<UInt32>, reason: String) {
      self.cause = cause
      self.streams = streams
      self.reason = reason
    }
  }

  /// What was paused and muted, by accessory address.
  public var pauses: [String: Pause] = [:]
  /// Outputs expected back, by accessory address.
  public var absences: [String: Absence] = [:]
  /// Pauses waiting for the players' answer, by accessory address.
  public var pausing: [String: Pausing] = [:]
  /// The last absence's number.
  public var lastAbsence = 0

  /// Creates an empty memory.
  public init() {}

  /// When the rules next need the engine: the first wait for an output
  /// that ends (the engine takes ``MediaInput/graceEnded(accessory:absence:)``
  /// then), or the first reconnect that has settled
  /// (``MediaInput/backSettled(accessory:)``).
  public var nextWake: Double? {
    (absences.values.map(\.endsAt) + pauses.values.compactMap(\.resumesAt))
      .min()
  }

  /// Whether something is paused or an output is away: only then can a
  /// new state of the server, with every accessory's output still there,
  /// change what the rules hold.
  public var hasPausesOrAbsences: Bool {
    !pauses.isEmpty || !absences.isEmpty
  }

  /// Every stream held muted, with its accessory.
  public var heldMuted: [UInt32: String] {
    var held: [UInt32: String] = [:]
    for (address, pause) in pauses {
      for stream in pause.muted { held[stream] = address }
    }
    for (address, absence) in absences {
      for stream in absence.streams { held[stream] = address }
    }
    // While the players of an output gone for good pause, its streams
    // are still muted.
    for (address, pausing) in pausing where pausing.cause == .disconnected {
      for stream in pausing.streams { held[stream] = address }
    }
    return held
  }
}
