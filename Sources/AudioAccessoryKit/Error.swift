extension AccessoryControlDevice {
  /// An error from registering or updating an accessory.
  ///
  /// Each case carries a reason a person can act on: it names the value
  /// that was refused and what is expected instead. Match the cases as in
  /// Apple's documentation, `case .invalidated:`, without binding it.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// The accessory does not support the requested capability.
    case accessoryNotCapable(reason: String)
    /// The request is malformed or refers to something that does not exist.
    case invalidRequest(reason: String)
    /// The system has invalidated the accessory's registration; register it
    /// again.
    case invalidated(reason: String)
    /// The request failed for a reason outside the request itself, such as
    /// the routing service being unreachable.
    case unknown(reason: String)

    /// The reason the request failed.
    public var reason: String {
      switch self {
      case .accessoryNotCapable(let reason), .invalidRequest(let reason),
        .invalidated(let reason), .unknown(let reason):
        reason
      }
    }

    /// The name of the case, as Apple spells it.
    public var name: String {
      switch self {
      case .accessoryNotCapable: "accessoryNotCapable"
      case .invalidRequest: "invalidRequest"
      case .invalidated: "invalidated"
      case .unknown: "unknown"
      }
    }

    /// The case name and the reason, for example
    /// `invalidRequest: accessory 'Buds' (AA:…) is not paired`.
    public var description: String { "\(name): \(reason)" }
  }
}
