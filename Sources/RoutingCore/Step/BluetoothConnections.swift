// BlueZ's word on whether each device it knows is connected: the media
// rules tell a disconnect from a profile switch by it.

/// Whether each Bluetooth device BlueZ knows is connected, as BlueZ last
/// listed them.
public struct BluetoothConnections: Sendable, Hashable {
  /// Whether each device is connected, by address.
  public private(set) var connected: [String: Bool] = [:]

  /// Creates an empty memory: nothing is known connected.
  public init() {}

  /// Takes BlueZ's list of its devices.
  ///
  /// An empty list is BlueZ gone (its source ended), which says nothing
  /// of the devices: only a device BlueZ lists as not connected, or one
  /// it no longer lists while it lists others, dropped.
  ///
  /// - Parameter devices: Whether each device is connected, by address.
  /// - Returns: What changed; nil when nothing joined or dropped.
  mutating func take(_ devices: [String: Bool]) -> BluetoothChange? {
    let dropped =
      devices.isEmpty
      ? []
      : connected.filter { $0.value && devices[$0.key] != true }.keys.sorted()
    let joined = devices.filter { $0.value && connected[$0.key] != true }
      .keys.sorted()
    connected = devices
    guard !joined.isEmpty || !dropped.isEmpty else { return nil }
    return BluetoothChange(joined: joined, dropped: dropped)
  }
}

/// The devices BlueZ says connected and disconnected, by address, sorted.
public struct BluetoothChange: Sendable, Hashable {
  /// The devices that connected.
  public var joined: [String]
  /// The devices that disconnected: the media rules take each at once.
  public var dropped: [String]

  /// Creates a change.
  public init(joined: [String], dropped: [String]) {
    self.joined = joined
    self.dropped = dropped
  }
}
