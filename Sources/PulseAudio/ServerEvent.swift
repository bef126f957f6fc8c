// What a connection reports of the server: its changes, and its own state.

/// A change on the sound server, from its subscription.
public struct ServerEvent: Sendable, Hashable, CustomStringConvertible {
  /// The kind of object that changed.
  public enum Facility: String, Sendable, Hashable {
    /// A sink.
    case sink
    /// A source.
    case source
    /// A playback stream.
    case sinkInput
    /// A recording stream.
    case sourceOutput
    /// A module.
    case module
    /// A client.
    case client
    /// A sample in the cache.
    case sampleCache
    /// The server itself, for example its default sink.
    case server
    /// A card.
    case card
  }

  /// What happened to the object.
  public enum Kind: String, Sendable, Hashable {
    /// The object appeared.
    case new
    /// The object changed.
    case change
    /// The object disappeared.
    case remove
  }

  /// The kind of object that changed.
  public var facility: Facility
  /// What happened to it.
  public var kind: Kind
  /// The object's index.
  public var index: UInt32

  /// Creates an event.
  public init(facility: Facility, kind: Kind, index: UInt32) {
    self.facility = facility
    self.kind = kind
    self.index = index
  }

  /// For example `sink #3 new`.
  public var description: String { "\(facility) #\(index) \(kind)" }
}

/// The state of a connection to the sound server.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
  /// Connecting, authorizing or sending the client name.
  case connecting
  /// Connected and ready for operations.
  case ready
  /// The connection failed or broke; the error says why.
  case failed(PulseError)
  /// The connection was closed by this client.
  case terminated

  /// Whether the connection can no longer be used.
  public var isFinal: Bool {
    switch self {
    case .failed, .terminated: true
    case .connecting, .ready: false
    }
  }

  /// The state's name, with the error for a failure.
  public var description: String {
    switch self {
    case .connecting: "connecting"
    case .ready: "ready"
    case .failed(let error): "failed (\(error))"
    case .terminated: "terminated"
    }
  }
}
