// One routing decision as one pipelined round of commands: card profiles,
// then the default sink, then stream moves, then stream mutes.

/// Commands for the sound server that are sent together, pipelined on one
/// connection: card-profile changes, then a default sink, then stream moves.
///
/// The order is fixed because each step prepares the next: a card profile
/// can create the sink that the default and the moves name, and making the
/// sink the default first lets the moves unpin the streams they put on it
/// (a stream moved to the default sink follows later default changes; one
/// moved to any other sink stays there).
///
/// ```swift
/// let batch = PulseBatch(
///   defaultSink: "bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink",
///   moves: [.init(sinkInput: 42, sink: "bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink")])
/// let result = await connection.apply(batch)
/// try result.get()
/// ```
public struct PulseBatch: Sendable, Hashable {
  /// A change of a card's active profile.
  public struct CardProfileChange: Sendable, Hashable {
    /// The card's name.
    public var cardName: String
    /// The name of the profile to activate, such as `a2dp-sink`.
    public var profileName: String

    /// Creates a profile change.
    public init(cardName: String, profileName: String) {
      self.cardName = cardName
      self.profileName = profileName
    }
  }

  /// A move of one playback stream to a sink.
  public struct StreamMove: Sendable, Hashable {
    /// The server's index of the stream.
    public var sinkInput: UInt32
    /// The name of the sink to move the stream to.
    public var sink: String

    /// Creates a stream move.
    public init(sinkInput: UInt32, sink: String) {
      self.sinkInput = sinkInput
      self.sink = sink
    }
  }

  /// A change of one playback stream's mute.
  public struct StreamMute: Sendable, Hashable {
    /// The server's index of the stream.
    public var sinkInput: UInt32
    /// Whether to mute it (or unmute it).
    public var muted: Bool

    /// Creates a mute change.
    public init(sinkInput: UInt32, muted: Bool) {
      self.sinkInput = sinkInput
      self.muted = muted
    }
  }

  /// The card-profile changes, sent first, in order.
  public var cardProfiles: [CardProfileChange]
  /// The sink to make the default, sent after the profile changes.
  public var defaultSink: String?
  /// The source to make the default input, sent after the default sink.
  public var defaultSource: String?
  /// The stream moves, sent after the default, in order.
  public var moves: [StreamMove]
  /// The stream mutes, sent last, in order.
  public var mutes: [StreamMute]

  /// Creates a batch.
  ///
  /// - Parameters:
  ///   - cardProfiles: Cards and the profiles to activate on them.
  ///   - defaultSink: The name of the sink to make the default, if any.
  ///   - defaultSource: The name of the source to make the default input,
  ///     if any.
  ///   - moves: Streams, by index, and the names of the sinks to move them
  ///     to.
  ///   - mutes: Streams, by index, to mute or unmute.
  public init(
    cardProfiles: [CardProfileChange] = [],
    defaultSink: String? = nil,
    defaultSource: String? = nil,
    moves: [StreamMove] = [],
    mutes: [StreamMute] = []
  ) {
    self.cardProfiles = cardProfiles
    self.defaultSink = defaultSink
    self.defaultSource = defaultSource
    self.moves = moves
    self.mutes = mutes
  }

  /// How many operations the batch sends.
  public var operationCount: Int {
    cardProfiles.count + (defaultSink == nil ? 0 : 1)
      + (defaultSource == nil ? 0 : 1) + moves.count + mutes.count
  }

  /// Whether the batch sends nothing.
  public var isEmpty: Bool { operationCount == 0 }
}

/// The server's answer to each operation of a ``PulseBatch``.
///
/// A success is the server's acknowledgement, not proof that the change is
/// in effect: PipeWire acknowledges a default sink before WirePlumber applies
/// it, so confirm changes through ``PulseConnection/events`` and fresh
/// listings.
public struct PulseBatchResult: Sendable {
  /// One result per card-profile change, in the batch's order.
  public var cardProfiles: [Result<Void, PulseError>]
  /// The result of setting the default sink, or `nil` if the batch did not.
  public var defaultSink: Result<Void, PulseError>?
  /// The result of setting the default source, or `nil` if the batch did
  /// not.
  public var defaultSource: Result<Void, PulseError>?
  /// One result per stream move, in the batch's order.
  public var moves: [Result<Void, PulseError>]
  /// One result per stream mute, in the batch's order.
  public var mutes: [Result<Void, PulseError>]

  /// Creates a result.
  public init(
    cardProfiles: [Result<Void, PulseError>] = [],
    defaultSink: Result<Void, PulseError>? = nil,
    defaultSource: Result<Void, PulseError>? = nil,
    moves: [Result<Void, PulseError>] = [],
    mutes: [Result<Void, PulseError>] = []
  ) {
    self.cardProfiles = cardProfiles
    self.defaultSink = defaultSink
    self.defaultSource = defaultSource
    self.moves = moves
    self.mutes = mutes
  }

  /// Every result in the order the operations were sent.
  public var all: [Result<Void, PulseError>] {
    cardProfiles + (defaultSink.map { [$0] } ?? [])
      + (defaultSource.map { [$0] } ?? []) + moves + mutes
  }

  /// The errors of the operations that failed, in the order sent.
  public var errors: [PulseError] {
    all.compactMap { result in
      if case .failure(let error) = result { error } else { nil }
    }
  }

  /// Whether every operation succeeded.
  public var succeeded: Bool { errors.isEmpty }

  /// Throws the first error, if any operation failed.
  ///
  /// - Throws: The ``PulseError`` of the first failed operation.
  public func get() throws(PulseError) {
    if let error = errors.first { throw error }
  }
}

extension PulseConnection {
  /// Sends card-profile changes, a default sink, a default source, stream
  /// moves and stream mutes as one pipelined round and returns each one's result.
  ///
  /// Every operation is issued under one lock, in the batch's order, before
  /// any reply is awaited, so the batch costs about one round trip. The
  /// server handles the operations in that order; one failing does not stop
  /// the others. Each has the connection's operation timeout.
  ///
  /// What the replies mean differs between the servers:
  /// - PulseAudio replies to a default sink after the streams that follow
  ///   the default have moved. PipeWire replies at once and WirePlumber
  ///   applies the change later.
  /// - PulseAudio ignores a move of a stream to the sink it already plays
  ///   on: a stream pinned there stays pinned, even if that sink is the
  ///   default. PipeWire unpins it.
  /// - PipeWire may show this connection a moved stream on its target
  ///   before the move is made. Confirm changes with the server's events
  ///   and listings, ideally from another connection.
  ///
  /// The corresponding C functions are `pa_context_set_card_profile_by_name`,
  /// `pa_context_set_default_sink`, `pa_context_set_default_source`,
  /// `pa_context_move_sink_input_by_name`
  /// and `pa_context_set_sink_input_mute`.
  ///
  /// - Parameter batch: The operations to send; an empty batch sends
  ///   nothing.
  /// - Returns: One result per operation. When the connection is closed or
  ///   lost, every operation fails with the reason.
  public func apply(_ batch: PulseBatch) async -> PulseBatchResult {
    await driver.apply(batch, timeout: options.operationTimeout)
  }

  /// Sends a batch at once, without waiting.
  ///
  /// The calls are queued on the connection before this returns, and its
  /// thread writes them as soon as it runs. Call it from any thread but
  /// this connection's own (its event
  /// handler or a completion): another connection's event handler is
  /// fine. `completion` gets the results: on the connection's thread, on
  /// the caller's when the connection is not ready, on a timer's at the
  /// timeout.
  ///
  /// Use it where a task hop would cost time the server does not wait
  /// for, such as muting streams the moment their sink goes away.
  ///
  /// - Parameters:
  ///   - batch: The operations, in the order of ``apply(_:)``.
  ///   - completion: Called once with one result per operation; it must not
  ///     block.
  public func send(
    _ batch: PulseBatch,
    completion: @escaping @Sendable (PulseBatchResult) -> Void
  ) {
    driver.start(
      batch, timeout: options.operationTimeout, completion: completion)
  }
}
