// Apple's ASPickerDisplayItem and ASMigrationDisplayItem: what an app asks
// the picker to offer, and the accessories it set up before.

import FoundationEssentials

/// An image for the picker, by reference.
///
/// There is no UIKit on Linux; this stands in for it so that Apple's picker
/// code compiles unchanged. The picker (`acctl pair`) shows the item's
/// name; the image's name or path is passed on for pickers that can show
/// it.
public final class UIImage: Sendable, CustomStringConvertible {
  /// The image's asset name, system symbol name or file path.
  public let reference: String

  /// An image from the app's assets, by name.
  public init?(named name: String) {
    guard !name.isEmpty else { return nil }
    reference = name
  }

  /// A system symbol, by name.
  public init?(systemName name: String) {
    guard !name.isEmpty else { return nil }
    reference = "system:" + name
  }

  /// An image file; nil if no file is there.
  public init?(contentsOfFile path: String) {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    reference = path
  }

  /// The reference.
  public var description: String { reference }
}

/// An accessory kind the picker offers: a name, a product image and the
/// descriptor that discovers it.
open class ASPickerDisplayItem {
  /// How the picker sets the chosen accessory up, with Apple's raw values.
  public struct SetupOptions: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The person may rename the accessory.
    public static let rename = SetupOptions(rawValue: 1)
    /// The app finishes the authorization; `acctl pair` asks the person to
    /// confirm.
    public static let confirmAuthorization = SetupOptions(rawValue: 2)
    /// Setup continues in the app after authorization.
    public static let finishInApp = SetupOptions(rawValue: 4)

    /// The option names, as the control socket takes them.
    var names: [String] {
      [
        (Self.rename, "rename"),
        (.confirmAuthorization, "confirmAuthorization"),
        (.finishInApp, "finishInApp"),
      ].filter { contains($0.0) }.map(\.1)
    }
  }

  /// The name the picker shows.
  public let name: String
  /// The product image.
  public let productImage: UIImage
  /// What discovers the accessory.
  public let descriptor: ASDiscoveryDescriptor
  /// How the picker sets it up.
  public var setupOptions: SetupOptions = []

  /// Creates an item.
  public init(
    name: String, productImage: UIImage, descriptor: ASDiscoveryDescriptor
  ) {
    self.name = name
    self.productImage = productImage
    self.descriptor = descriptor
  }

  /// Whether this is a migration item.
  var isMigration: Bool { false }
}

/// An accessory the app set up before AccessorySetupKit, to migrate: on
/// Linux, the Bluetooth audio devices the host paired before accessoryd
/// that match the descriptor.
open class ASMigrationDisplayItem: ASPickerDisplayItem {
  /// The accessory's CoreBluetooth identifier, if the app knows it.
  public var peripheralIdentifier: UUID?
  /// The accessory's Wi-Fi network, for Wi-Fi accessories.
  public var hotspotSSID: String?

  override var isMigration: Bool { true }
}
