extension AccessoryControlDevice {
  /// Where an accessory is relative to the person.
  public enum Placement: String, Sendable, Hashable, CaseIterable {
    /// The accessory is in the ear, as earbuds are when worn.
    case inEar
    /// The accessory is on the head, as headband headphones are when worn.
    case onHead
    /// The accessory is over the ear, as over-ear headphones are when worn.
    case overTheEar
    /// The accessory is not being worn.
    case offHead
  }
}
