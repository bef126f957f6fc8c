// What the media rules see of the world at one event: the sound server's
// outputs and streams, the players' statuses and the accessories'
// registrations.

/// The world as the media rules see it.
public struct MediaView: Sendable, Hashable {
  /// The sound server's outputs and streams.
  public struct Server: Sendable, Hashable {
    /// An output.
    public struct Output: Sendable, Hashable {
      /// The server's index.
      public var index: UInt32
      /// The accessory's address, for an accessory's output.
      public var accessory: String?
      /// Whether the output is headphones: a Bluetooth headphone, headset
      /// or hands-free device, registered or not.
      public var isHeadphones: Bool

      /// Creates an output.
      public init(index: UInt32, accessory: String?, isHeadphones: Bool = false)
      {
        self.index = index
        self.accessory = accessory
        self.isHeadphones = isHeadphones
      }
    }

    /// A playback stream.
    public struct Stream: Sendable, Hashable {
      /// The server's index.
      public var index: UInt32
      /// The index of the output it plays on.
      public var output: UInt32
      /// Whether it is muted.
      public var isMuted: Bool
      /// Whether it is corked (paused by its client).
      public var isCorked: Bool

      /// Creates a stream.
      public init(index: UInt32, output: UInt32, isMuted: Bool, isCorked: Bool)
      {
        self.index = index
        self.output = output
        self.isMuted = isMuted
        self.isCorked = isCorked
      }
    }

    /// The outputs.
    public var outputs: [Output]
    /// The playback streams.
    public var streams: [Stream]
    /// The default output's index.
    public var defaultOutput: UInt32?

    /// Creates a server's state.
    public init(outputs: [Output], streams: [Stream], defaultOutput: UInt32?) {
      self.outputs = outputs
      self.streams = streams
      self.defaultOutput = defaultOutput
    }

    /// The output each stream plays on, by stream.
    var outputOfStream: [UInt32: UInt32] {
      Dictionary(
        streams.map { ($0.index, $0.output) }, uniquingKeysWith: { a, _ in a })
    }

    /// The indexes of an accessory's outputs.
    func outputs(of address: String) -> Set<UInt32> {
      Set(outputs.filter { $0.accessory == address }.map(\.index))
    }

    /// The outputs of accessories (or headphones) in an earlier state that
    /// are no longer theirs in this one: gone, or, with `stays`, still
    /// there under no identity or another (a headphone jack pulled).
    public func outputsNoLongerTheirs(
      since previous: Server
    ) -> [(output: Output, stays: Bool)] {
      let identities = Dictionary(
        outputs.map { ($0.index, $0.accessory) },
        uniquingKeysWith: { first, _ in first })
      return previous.outputs.compactMap { output in
        // nil: gone; .some(nil): there, no one's.
        let identityNow = identities[output.index]
        guard let address = output.accessory,
          identityNow != .some(.some(address))
        else { return nil }
        return (output, identityNow != nil)
      }
    }

    /// A stream by index.
    func stream(_ index: UInt32) -> Stream? {
      streams.first { $0.index == index }
    }
  }

  /// A player's playback status, as MPRIS names it.
  public enum PlayerStatus: String, Sendable, Hashable {
    /// Playing.
    case playing = "Playing"
    /// Paused.
    case paused = "Paused"
    /// Stopped.
    case stopped = "Stopped"
  }

  /// The sound server's state; nil while it is away.
  public var server: Server?
  /// The players' statuses, by bus name.
  public var players: [String: PlayerStatus]
  /// The registered accessories (not invalidated), by address.
  public var registered: Set<String>
  /// The accessories registered with placement and reported off the head.
  public var reportedOffHead: Set<String>
  /// BlueZ's word on whether each device it knows is connected, by
  /// address; a device BlueZ does not know (or no BlueZ) is left out.
  public var bluetoothConnected: [String: Bool]

  /// Creates a view.
  public init(
    server: Server?, players: [String: PlayerStatus] = [:],
    registered: Set<String> = [], reportedOffHead: Set<String> = [],
    bluetoothConnected: [String: Bool] = [:]
  ) {
    self.server = server
    self.players = players
    self.registered = registered
    self.reportedOffHead = reportedOffHead
    self.bluetoothConnected = bluetoothConnected
  }
}
