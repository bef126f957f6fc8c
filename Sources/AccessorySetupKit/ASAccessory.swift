import FoundationEssentials

/// An accessory that the person has discovered and authorized for this app.
///
/// Accessories come from AccessorySetupKit: the picker adds them, and a
/// session lists the ones already authorized. An accessory is a snapshot;
/// events deliver a new value when its name or state changes.
///
/// Every property is a constant; the class is not final only so that
/// ``ASDiscoveredAccessory`` can add what discovery saw.
public class ASAccessory: @unchecked Sendable, Hashable,
  CustomStringConvertible
{
  /// The authorization state of an accessory.
  public enum AccessoryState: Int, Sendable, Hashable, Codable {
    /// The accessory is not authorized.
    case unauthorized = 0
    /// The accessory is waiting for the person to authorize it.
    case awaitingAuthorization = 10
    /// The person has authorized the accessory.
    case authorized = 20
  }

  /// The name of the accessory, as the person sees it.
  public let displayName: String

  /// The descriptor that discovered the accessory.
  public let descriptor: ASDiscoveryDescriptor

  /// The authorization state of the accessory.
  public let state: AccessoryState

  /// The stable identifier of the accessory's Bluetooth peripheral, if any.
  public let bluetoothIdentifier: UUID?

  /// The identifier used to bridge a Bluetooth LE accessory to classic
  /// Bluetooth transport, if any.
  public let bluetoothTransportBridgingIdentifier: Data?

  /// The network name of a Wi-Fi accessory, if any.
  public let ssid: String?

  /// The Bluetooth address behind ``bluetoothIdentifier``; see
  /// `ASAccessory+Linux.swift`.
  let address: BluetoothAddress?

  /// The form factor the sound server reports; see `ASAccessory+Linux.swift`.
  let hardwareFormFactor: AudioFormFactor?

  /// Creates an empty, unauthorized accessory.
  ///
  /// Such an accessory cannot be registered for audio features: only an
  /// accessory that AccessorySetupKit authorized can.
  public convenience init() {
    self.init(
      displayName: "",
      bluetoothAddress: nil,
      formFactor: nil,
      descriptor: ASDiscoveryDescriptor(),
      state: .unauthorized
    )
  }

  /// Creates an accessory from its parts; see `ASAccessory+Linux.swift`.
  init(
    displayName: String,
    bluetoothAddress: BluetoothAddress?,
    formFactor: AudioFormFactor?,
    descriptor: ASDiscoveryDescriptor,
    state: AccessoryState,
    bluetoothTransportBridgingIdentifier: Data? = nil,
    ssid: String? = nil
  ) {
    self.displayName = displayName
    self.address = bluetoothAddress
    self.hardwareFormFactor = formFactor
    self.descriptor = descriptor
    self.state = state
    self.bluetoothIdentifier = bluetoothAddress?.identifier
    self.bluetoothTransportBridgingIdentifier =
      bluetoothTransportBridgingIdentifier
    self.ssid = ssid
  }

  /// Returns whether two values describe the same accessory in the same
  /// state with the same name.
  public static func == (lhs: ASAccessory, rhs: ASAccessory) -> Bool {
    lhs.address == rhs.address && lhs.ssid == rhs.ssid
      && lhs.displayName == rhs.displayName && lhs.state == rhs.state
      && lhs.hardwareFormFactor == rhs.hardwareFormFactor
      && lhs.descriptor == rhs.descriptor
  }

  /// Hashes the accessory's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(address)
    hasher.combine(ssid)
    hasher.combine(displayName)
  }

  /// A one-line description with the name, the identity and the state.
  public var description: String {
    let identity = address?.description ?? ssid ?? "no identity"
    return "'\(displayName)' (\(identity), \(state))"
  }
}
