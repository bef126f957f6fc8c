extension AccessoryControlDevice {
  /// The audio features an accessory supports.
  public struct Capabilities: OptionSet, Sendable, Hashable {
    /// The bit mask of the capabilities.
    public let rawValue: UInt

    /// Creates a set of capabilities from a bit mask.
    public init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// The accessory supports automatic audio switching between the hosts
    /// it is connected to.
    public static let audioSwitching = Capabilities(rawValue: 1 << 0)

    /// The accessory can report where it is relative to the person.
    public static let placement = Capabilities(rawValue: 1 << 1)
  }
}
