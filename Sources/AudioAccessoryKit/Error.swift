extension AccessoryControlDevice {
  /// An error from registering or updating an accessory.
  ///
  /// The four cases of Apple's declaration, with no payload, so they can be
  /// compared, collected and thrown as values. On Linux, the reason behind
  /// the last failure of a call is kept apart: see
  /// ``AccessoryControlDevice/lastFailure(for:)`` and
  /// ``AccessoryControlFailure``.
  public enum Error: Swift.Error, Sendable, Hashable {
    /// The accessory does not support the requested capability.
    case accessoryNotCapable
    /// The request is malformed or refers to something that does not exist.
    case invalidRequest
    /// The system has invalidated the accessory's registration; register it
    /// again.
    case invalidated
    /// The request failed for a reason outside the request itself, such as
    /// the routing service being unreachable.
    case unknown
  }
}
