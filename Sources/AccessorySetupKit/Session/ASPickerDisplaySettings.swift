// Apple's ASPickerDisplaySettings, ASDiscoveredAccessory and
// ASDiscoveredDisplayItem: the picker mode in which the app filters what
// discovery found before the person sees it.

import CoreBluetooth
import FoundationEssentials

/// Settings of the picker a session shows.
public final class ASPickerDisplaySettings: @unchecked Sendable {
  /// Picker options, with Apple's raw values.
  public struct Options: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The app receives ``ASAccessoryEventType/accessoryDiscovered`` for
    /// each accessory found and offers the ones it wants with
    /// ``ASAccessorySession/updatePicker(showing:completionHandler:)``.
    public static let filterDiscoveryResults = Options(rawValue: 1)
  }

  /// How long the picker discovers, in seconds.
  public struct DiscoveryTimeout: RawRepresentable, Sendable, Hashable {
    /// The seconds; infinity for ``unbounded``.
    public let rawValue: Double
    /// Creates a timeout of some seconds.
    public init(rawValue: Double) { self.rawValue = rawValue }
    /// About a minute.
    public static let short = DiscoveryTimeout(rawValue: 60)
    /// About two minutes.
    public static let medium = DiscoveryTimeout(rawValue: 120)
    /// About five minutes.
    public static let long = DiscoveryTimeout(rawValue: 300)
    /// Until the app calls
    /// ``ASAccessorySession/finishPickerDiscovery(completionHandler:)``.
    public static let unbounded = DiscoveryTimeout(rawValue: .infinity)
  }

  /// New settings with the defaults: no options, a 30-second discovery.
  public static var `default`: ASPickerDisplaySettings {
    ASPickerDisplaySettings()
  }

  /// How long the picker discovers.
  ///
  /// On Linux the picker (`acctl pair`) waits for the person without a
  /// limit; an app that filters ends discovery with
  /// ``ASAccessorySession/finishPickerDiscovery(completionHandler:)``.
  public var discoveryTimeout = DiscoveryTimeout(rawValue: 30)
  /// The picker's options.
  public var options: Options = []

  /// Creates settings with the defaults.
  public init() {}
}

/// An accessory discovery found, for an app that filters the picker's
/// results: the advertisement and the signal besides the accessory.
public final class ASDiscoveredAccessory: ASAccessory, @unchecked Sendable {
  /// The advertisement, under CoreBluetooth's keys
  /// (`CBAdvertisementDataLocalNameKey`, `…ServiceUUIDsKey`,
  /// `…ManufacturerDataKey`, `…ServiceDataKey`); nil if none was seen.
  public let bluetoothAdvertisementData: [AnyHashable: Any]?
  /// The signal strength, in dBm, when it was discovered (Apple's type is
  /// `NSNumber`, which Linux's Foundation core does not have).
  public let bluetoothRSSI: Int?

  /// Creates the record of a discovered device.
  public init(
    device: DiscoveredDevice, descriptor: ASDiscoveryDescriptor
  ) {
    var advertisement: [AnyHashable: Any] = [:]
    if let name = device.name {
      advertisement[CBAdvertisementDataLocalNameKey] = name
    }
    if !device.serviceUUIDs.isEmpty {
      advertisement[CBAdvertisementDataServiceUUIDsKey] = device.serviceUUIDs
    }
    if let (company, payload) = device.manufacturerData.min(by: {
      $0.key < $1.key
    }) {
      advertisement[CBAdvertisementDataManufacturerDataKey] =
        Data([UInt8(company & 0xFF), UInt8(company >> 8)]) + payload
    }
    if !device.serviceData.isEmpty {
      advertisement[CBAdvertisementDataServiceDataKey] = device.serviceData
    }
    bluetoothAdvertisementData = advertisement.isEmpty ? nil : advertisement
    bluetoothRSSI = device.rssi
    super.init(
      displayName: device.displayName,
      bluetoothAddress: Optional(device.address),
      formFactor: device.formFactor, descriptor: descriptor,
      state: .unauthorized, bluetoothTransportBridgingIdentifier: nil,
      ssid: nil)
  }
}

/// A picker item for one discovered accessory, with the name and image the
/// app chose for it.
open class ASDiscoveredDisplayItem: ASPickerDisplayItem {
  /// The accessory it offers.
  public let accessory: ASDiscoveredAccessory

  /// Creates an item that offers a discovered accessory.
  public init(
    name: String, productImage: UIImage, accessory: ASDiscoveredAccessory
  ) {
    self.accessory = accessory
    super.init(
      name: name, productImage: productImage,
      descriptor: accessory.descriptor)
  }
}
