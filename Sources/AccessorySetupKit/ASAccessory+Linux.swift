// Linux additions to ASAccessory: the Bluetooth address and form factor that
// stand behind Apple's opaque identifier on this platform.

import FoundationEssentials

extension ASAccessory {
  /// The accessory's Bluetooth device address, if it is a Bluetooth
  /// accessory.
  ///
  /// This is the identity BlueZ and the sound servers use; Apple's
  /// ``bluetoothIdentifier`` is derived from it.
  public var bluetoothAddress: BluetoothAddress? { address }

  /// The form factor of the accessory's audio output, if known.
  public var formFactor: AudioFormFactor? { hardwareFormFactor }

  /// Creates a Bluetooth accessory with its address and form factor.
  ///
  /// Companion code receives accessories from AccessorySetupKit; this
  /// initializer is for engines, tests and tools that restore them.
  ///
  /// - Parameters:
  ///   - displayName: The name the person sees.
  ///   - bluetoothAddress: The device address.
  ///   - formFactor: The form factor of its audio output, if known.
  ///   - descriptor: The descriptor that discovered it.
  ///   - state: Its authorization state.
  public convenience init(
    displayName: String,
    bluetoothAddress: BluetoothAddress,
    formFactor: AudioFormFactor? = nil,
    descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor(),
    state: AccessoryState = .authorized
  ) {
    self.init(
      displayName: displayName,
      bluetoothAddress: Optional(bluetoothAddress),
      formFactor: formFactor,
      descriptor: descriptor,
      state: state
    )
  }
}
