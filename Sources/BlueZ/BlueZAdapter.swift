// A Bluetooth adapter of the host, as BlueZ's org.bluez.Adapter1 describes it.

/// A Bluetooth adapter of the host, such as `hci0`, as BlueZ reports it.
///
/// BlueZ publishes each adapter as a D-Bus object, such as
/// `/org/bluez/hci0`, with the `org.bluez.Adapter1` interface; this is a
/// snapshot of its properties.
public struct BlueZAdapter: Sendable, Hashable {
  /// The adapter's D-Bus object path, such as `/org/bluez/hci0`.
  public var objectPath: String
  /// The adapter's own Bluetooth address (`Address`), upper case with
  /// colons.
  public var address: String
  /// The host name the adapter was given by the system (`Name`), if any.
  public var name: String?
  /// The name the adapter shows to other devices (`Alias`), if any.
  public var alias: String?
  /// Whether the adapter's radio is on (`Powered`).
  public var isPowered: Bool
  /// Whether the adapter is searching for devices now (`Discovering`).
  public var isDiscovering: Bool

  /// Creates an adapter record.
  ///
  /// - Parameters:
  ///   - objectPath: The D-Bus object path, such as `/org/bluez/hci0`.
  ///   - address: The adapter's Bluetooth address.
  ///   - name: The system's name for it.
  ///   - alias: The name it shows to other devices.
  ///   - isPowered: Whether its radio is on.
  ///   - isDiscovering: Whether it is searching for devices.
  public init(
    objectPath: String,
    address: String,
    name: String? = nil,
    alias: String? = nil,
    isPowered: Bool = false,
    isDiscovering: Bool = false
  ) {
    self.objectPath = objectPath
    self.address = address
    self.name = name
    self.alias = alias
    self.isPowered = isPowered
    self.isDiscovering = isDiscovering
  }

  /// The kernel's name for the adapter, the last element of its object
  /// path, such as `hci0`.
  public var interfaceName: String {
    objectPath.split(separator: "/").last.map(String.init) ?? objectPath
  }
}
