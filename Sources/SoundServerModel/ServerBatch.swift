// One routing decision as one pipelined round of commands for the sound
// server: card profiles, then the default sink and source, then stream
// moves, then stream mutes; and the server's answer to each.

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
/// let batch = ServerBatch(
///   defaultSink: "bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink",
///   moves: [.init(sinkInput: 42, sink: "bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink")])
/// let result = await connection.apply(batch)
/// try result.get()
/// ```
public struct ServerBatch: Sendable, Hashable {
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

/// The server's answer to each operation of a ``ServerBatch``.
///
/// A success is the server's acknowledgement, not proof that the change is
/// in effect: PipeWire acknowledges a default sink before WirePlumber applies
/// it, so confirm changes through the server's events and fresh listings.
public struct ServerBatchResult: Sendable {
  /// One result per card-profile change, in the batch's order.
  public var cardProfiles: [Result<Void, SoundServerError>]
  /// The result of setting the default sink, or `nil` if the batch did not.
  public var defaultSink: Result<Void, SoundServerError>?
  /// The result of setting the default source, or `nil` if the batch did
  /// not.
  public var defaultSource: Result<Void, SoundServerError>?
  /// One result per stream move, in the batch's order.
  public var moves: [Result<Void, SoundServerError>]
  /// One result per stream mute, in the batch's order.
  public var mutes: [Result<Void, SoundServerError>]

  /// Creates a result.
  public init(
    cardProfiles: [Result<Void, SoundServerError>] = [],
    defaultSink: Result<Void, SoundServerError>? = nil,
    defaultSource: Result<Void, SoundServerError>? = nil,
    moves: [Result<Void, SoundServerError>] = [],
    mutes: [Result<Void, SoundServerError>] = []
  ) {
    self.cardProfiles = cardProfiles
    self.defaultSink = defaultSink
    self.defaultSource = defaultSource
    self.moves = moves
    self.mutes = mutes
  }

  /// Every result in the order the operations were sent.
  public var all: [Result<Void, SoundServerError>] {
    cardProfiles + (defaultSink.map { [$0] } ?? [])
      + (defaultSource.map { [$0] } ?? []) + moves + mutes
  }

  /// The errors of the operations that failed, in the order sent.
  public var errors: [SoundServerError] {
    all.compactMap { result in
      if case .failure(let error) = result { error } else { nil }
    }
  }

  /// Whether every operation succeeded.
  public var succeeded: Bool { errors.isEmpty }

  /// Throws the first error, if any operation failed.
  ///
  /// - Throws: The ``SoundServerError`` of the first failed operation.
  public func get() throws(SoundServerError) {
    if let error = errors.first { throw error }
  }
}
