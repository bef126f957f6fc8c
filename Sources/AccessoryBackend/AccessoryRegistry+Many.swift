// Linux addition: registries of many accessories, for the benchmarks and
// tests that measure the state file and the daemon as registrations grow.

import AccessorySetupKit
import AudioAccessoryKit
import FoundationEssentials

extension AccessoryRegistry {
  /// The address of the `index`th accessory of ``registered(count:at:first:)``:
  /// `02:BE:00:` and the index in three bytes.
  package static func registeredAddress(_ index: Int) -> BluetoothAddress {
    BluetoothAddress(
      data: Data([
        0x02, 0xBE, 0, UInt8((index >> 16) & 0xFF), UInt8((index >> 8) & 0xFF),
        UInt8(index & 0xFF),
      ]))!
  }

  /// A registry of `count` headphones, each paired and registered with
  /// audio switching and placement, taken off.
  ///
  /// - Parameters:
  ///   - count: How many accessories.
  ///   - now: When they were paired and registered.
  ///   - first: The address of the first, if not ``registeredAddress(_:)``
  ///     of 0; the others are ``registeredAddress(_:)`` of 1 and on.
  /// - Returns: The registry.
  /// - Throws: ``AccessoryControlFailure`` only if the rules change.
  package static func registered(
    count: Int, at now: Date, first: BluetoothAddress? = nil
  ) throws(AccessoryControlFailure) -> AccessoryRegistry {
    var registry = AccessoryRegistry()
    for index in 0..<count {
      let address =
        index == 0 ? first ?? registeredAddress(0) : registeredAddress(index)
      let paired = try registry.pair(
        address, displayName: "Accessory \(index)", formFactor: .headphone,
        at: now)
      try registry.register(
        paired.accessory,
        .init(
          devicePlacement: .offHead,
          deviceCapabilities: [.audioSwitching, .placement]),
        at: now)
    }
    return registry
  }
}
