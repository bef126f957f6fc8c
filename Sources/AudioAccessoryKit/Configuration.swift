import FoundationEssentials

extension AccessoryControlDevice {
  /// The capabilities and current state of an accessory.
  ///
  /// The placement is `nil` unless the accessory has the
  /// ``Capabilities/placement`` capability, and the audio source identifiers
  /// are `nil` unless it has ``Capabilities/audioSwitching``.
  public struct Configuration: Sendable, Hashable {
    /// Where the accessory is relative to the person.
    ///
    /// Update it when the accessory detects a change.
    public var devicePlacement: Placement?

    /// The capabilities of the accessory.
    public var deviceCapabilities: Capabilities

    /// The Bluetooth address of the device that provides the primary source
    /// of audio.
    ///
    /// If the accessory is connected to only one device, set it as the
    /// primary.
    public var primaryAudioSourceDeviceIdentifier: Data?

    /// The Bluetooth address of the device that provides the secondary
    /// source of audio.
    public var secondaryAudioSourceDeviceIdentifier: Data?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - devicePlacement: The current placement, if known.
    ///   - deviceCapabilities: The capabilities of the accessory.
    ///   - primaryAudioSourceDeviceIdentifier: The 6-byte Bluetooth address
    ///     of the primary audio source.
    ///   - secondaryAudioSourceDeviceIdentifier: The 6-byte Bluetooth
    ///     address of the secondary audio source.
    public init(
      devicePlacement: Placement? = nil,
      deviceCapabilities: Capabilities,
      primaryAudioSourceDeviceIdentifier: Data? = nil,
      secondaryAudioSourceDeviceIdentifier: Data? = nil
    ) {
      self.devicePlacement = devicePlacement
      self.deviceCapabilities = deviceCapabilities
      self.primaryAudioSourceDeviceIdentifier =
        primaryAudioSourceDeviceIdentifier
      self.secondaryAudioSourceDeviceIdentifier =
        secondaryAudioSourceDeviceIdentifier
    }
  }
}
