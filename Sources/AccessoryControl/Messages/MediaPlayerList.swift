// The answer to `media.players`, and the media part of `daemon.status`.

/// Whether accessoryd follows the session's media players, and if not, why.
public struct MediaStatus: Sendable, Hashable, Codable {
  /// Whether it follows them (and so can pause them).
  public var following: Bool
  /// Why not, when it does not.
  public var reason: String?

  /// Creates a status.
  public init(following: Bool, reason: String? = nil) {
    self.following = following
    self.reason = reason
  }

  private enum CodingKeys: String, CodingKey { case following, reason }

  /// Writes the status, with `null` for no reason.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(following, forKey: .following)
    try container.encode(reason, forKey: .reason)
  }
}

/// The MPRIS players of the person's session, with the streams each plays
/// and where (`media.players`).
public struct MediaPlayerList: Sendable, Hashable, Codable {
  /// One playback stream of a player.
  public struct Stream: Sendable, Hashable, Codable {
    /// The sink input's index.
    public var index: UInt32
    /// The sink it plays on, if known.
    public var output: String?
    /// Whether the stream is muted.
    public var muted: Bool

    /// Creates a stream.
    public init(index: UInt32, output: String?, muted: Bool) {
      self.index = index
      self.output = output
      self.muted = muted
    }

    private enum CodingKeys: String, CodingKey { case index, output, muted }

    /// Writes the stream, with `null` for no output.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(index, forKey: .index)
      try container.encode(output, forKey: .output)
      try container.encode(muted, forKey: .muted)
    }
  }

  /// One player.
  public struct Player: Sendable, Hashable, Codable {
    /// Its bus name, such as `org.mpris.MediaPlayer2.mpv`.
    public var busName: String
    /// Its name for people.
    public var name: String
    /// MPRIS's `PlaybackStatus`: `Playing`, `Paused` or `Stopped`.
    public var playbackStatus: String
    /// Whether it can be paused.
    public var canPause: Bool
    /// Whether it can be played.
    public var canPlay: Bool
    /// Its process, if the bus says.
    public var processID: Int32?
    /// The process's command name, if known.
    public var processName: String?
    /// Its playback streams, found by process.
    public var streams: [Stream]
    /// Whether accessoryd paused it and holds it paused (the list's
    /// ``MediaPlayerList/paused`` says for which accessory and why).
    public var pausedByAccessoryd: Bool

    /// Creates a player.
    public init(
      busName: String, name: String, playbackStatus: String, canPause: Bool,
      canPlay: Bool, processID: Int32?, processName: String?,
      streams: [Stream], pausedByAccessoryd: Bool = false
    ) {
      self.busName = busName
      self.name = name
      self.playbackStatus = playbackStatus
      self.canPause = canPause
      self.canPlay = canPlay
      self.processID = processID
      self.processName = processName
      self.streams = streams
      self.pausedByAccessoryd = pausedByAccessoryd
    }

    private enum CodingKeys: String, CodingKey {
      case busName, name, playbackStatus, canPause, canPlay, processID
      case processName, streams, pausedByAccessoryd
    }

    /// Reads a player; one from a daemon that did not say was not paused
    /// by it.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      busName = try container.decode(String.self, forKey: .busName)
      name = try container.decode(String.self, forKey: .name)
      playbackStatus = try container.decode(
        String.self, forKey: .playbackStatus)
      canPause = try container.decode(Bool.self, forKey: .canPause)
      canPlay = try container.decode(Bool.self, forKey: .canPlay)
      processID = try container.decodeIfPresent(Int32.self, forKey: .processID)
      processName = try container.decodeIfPresent(
        String.self, forKey: .processName)
      streams = try container.decode([Stream].self, forKey: .streams)
      pausedByAccessoryd =
        try container.decodeIfPresent(Bool.self, forKey: .pausedByAccessoryd)
        ?? false
    }

    /// Writes the player, with `null` for what is not known.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(busName, forKey: .busName)
      try container.encode(name, forKey: .name)
      try container.encode(playbackStatus, forKey: .playbackStatus)
      try container.encode(canPause, forKey: .canPause)
      try container.encode(canPlay, forKey: .canPlay)
      try container.encode(processID, forKey: .processID)
      try container.encode(processName, forKey: .processName)
      try container.encode(streams, forKey: .streams)
      try container.encode(pausedByAccessoryd, forKey: .pausedByAccessoryd)
    }
  }

  /// Whether the players are followed.
  public var media: MediaStatus
  /// The players, by bus name.
  public var players: [Player]
  /// What accessoryd holds paused or muted now, per accessory, and why.
  public var paused: [PausedMedia]

  /// Creates a list.
  public init(
    media: MediaStatus, players: [Player], paused: [PausedMedia] = []
  ) {
    self.media = media
    self.players = players
    self.paused = paused
  }

  private enum CodingKeys: String, CodingKey { case media, players, paused }

  /// Reads a list; one from a daemon that did not say holds nothing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    media = try container.decode(MediaStatus.self, forKey: .media)
    players = try container.decode([Player].self, forKey: .players)
    paused =
      try container.decodeIfPresent([PausedMedia].self, forKey: .paused) ?? []
  }
}
