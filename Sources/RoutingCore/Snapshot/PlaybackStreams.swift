// Playback streams and the person's own choices, as the decision core sees
// them.

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
