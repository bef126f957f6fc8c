// Apple's ASAccessory.SupportOptions, with Apple's raw values (the
// ASAccessorySupportOptions constants of the SDK header).

extension ASAccessory {
  /// The Bluetooth capabilities an accessory supports.
  ///
  /// A discovery descriptor's `supportedOptions` declares them, for example
  /// `[.bluetoothPairingLE, .bluetoothTransportBridging]`.
  public struct SupportOptions: OptionSet, Sendable, Hashable, Codable {
    /// The bit mask of the options.
    public let rawValue: UInt

    /// Creates a set of options from its bit mask.
    ///
    /// - Parameter rawValue: The bit mask; unknown bits are kept.
    public init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// The accessory supports Bluetooth Low Energy pairing.
    ///
    /// The raw value is 2, as in Apple's
    /// `ASAccessorySupportBluetoothPairingLE`.
    public static let bluetoothPairingLE = SupportOptions(rawValue: 1 << 1)

    /// The accessory can bring up Bluetooth Classic profiles over its Low
    /// Energy connection.
    ///
    /// The raw value is 4, as in Apple's
    /// `ASAccessorySupportBluetoothTransportBridging`.
    public static let bluetoothTransportBridging = SupportOptions(
      rawValue: 1 << 2
    )

    /// The accessory supports the Bluetooth Low Energy HID service.
    ///
    /// The raw value is 8, as in Apple's `ASAccessorySupportBluetoothHID`.
    public static let bluetoothHID = SupportOptions(rawValue: 1 << 3)
  }
}

extension ASAccessory.SupportOptions: CustomStringConvertible {
  /// The options by name in brackets, such as `[bluetoothPairingLE]`, with
  /// any unknown bits in hexadecimal.
  public var description: String {
    let named: [(ASAccessory.SupportOptions, String)] = [
      (.bluetoothPairingLE, "bluetoothPairingLE"),
      (.bluetoothTransportBridging, "bluetoothTransportBridging"),
      (.bluetoothHID, "bluetoothHID"),
    ]
    var names = named.filter { contains($0.0) }.map(\.1)
    let unknown = subtracting(
      named.reduce(into: []) { $0.formUnion($1.0) }
    )
    if !unknown.isEmpty {
      names.append("0x" + String(unknown.rawValue, radix: 16, uppercase: true))
    }
    return "[" + names.joined(separator: ", ") + "]"
  }
}
