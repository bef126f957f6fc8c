// Where the headphone readers send what the headphones say: the daemon's
// own update path, the one companions and acctl use.

import AccessoryBackend
import AccessorySetupKit
import AudioAccessoryKit
import DaemonLifecycle
import PolicyFiles

/// The daemon's update path, as the headphone readers use it.
public protocol HeadphoneReports: Sendable {
  /// The accessories and their registrations.
  var engine: RegistryStore { get }
  /// The policy in force (`placement.earbudsWorn`).
  var policies: PolicyStore { get }

  /// Reports where registered headphones are, as a companion's update
  /// does: one path for every report, the newest wins.
  ///
  /// - Throws: Why the change was refused or could not be saved.
  func report(
    _ placement: AccessoryControlDevice.Placement,
    of address: BluetoothAddress, by source: PlacementSource
  ) async throws

  /// Registers paired headphones that nobody registered, with
  /// `[.audioSwitching, .placement]` and the placement they report.
  ///
  /// - Returns: Whether it registered them.
  func registerFromHeadphones(
    _ address: BluetoothAddress,
    placement: AccessoryControlDevice.Placement, by source: PlacementSource
  ) async throws -> Bool
}
