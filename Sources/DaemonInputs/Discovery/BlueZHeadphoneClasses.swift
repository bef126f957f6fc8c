// Which Bluetooth devices BlueZ calls headphones: its `Icon`, which it
// derives from the device's class of device (or, for Bluetooth LE audio,
// its appearance). A sound server's own word (`device.form_factor`) comes
// first; BlueZ's counts where the server says nothing.

import AccessorySetupKit
import Synchronization

/// The Bluetooth devices BlueZ's class calls headphones or a headset, by
/// address (`AA:BB:CC:DD:EE:FF`).
///
/// Shared by the router's loop and the sound-server link's thread, which
/// asks for every sink of every state whether it is headphones.
public final class BlueZHeadphoneClasses: Sendable {
  private let state = Mutex<Set<String>>([])

  /// Creates an empty set.
  public init() {}

  /// The addresses now.
  public var addresses: Set<String> { state.withLock { $0 } }

  /// Replaces the addresses with those of the devices BlueZ reports whose
  /// form factor is a headphone or a headset.
  ///
  /// - Parameter devices: What BlueZ reports.
  /// - Returns: Whether the addresses changed.
  @discardableResult
  public func replace(from devices: [DiscoveredDevice]) -> Bool {
    let worn = Set(
      devices.lazy.filter {
        $0.formFactor == .headphone || $0.formFactor == .headset
      }.map(\.address.description))
    return state.withLock { current in
      guard current != worn else { return false }
      current = worn
      return true
    }
  }
}
