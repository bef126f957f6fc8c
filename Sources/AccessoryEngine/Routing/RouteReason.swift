// Why the engine routes: one typed value per cause, in the words the log,
// `route --explain` and `route.history` show.

/// Why the engine routes.
public enum RouteReason: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The sound server's state changed.
  case serverChanged
  /// The sound server connected.
  case serverConnected
  /// Moves the engine sent did not show up, or the server refused them.
  case sentMovesNotShown
  /// An accessory's update was staged.
  case accessoryUpdated
  /// A grace time ended.
  case graceEnded
  /// An accessory was paired.
  case accessoryPaired
  /// An accessory was unpaired.
  case accessoryUnpaired
  /// An accessory was renamed.
  case accessoryRenamed
  /// An accessory was registered.
  case accessoryRegistered
  /// Accessories were migrated.
  case accessoriesMigrated
  /// An accessory's update could not be saved, and was undone.
  case updateNotSaved
  /// accessoryd registered headphones it reads itself.
  case headphonesRegistered
  /// The policy was reloaded.
  case policyReloaded
  /// The host's Bluetooth adapters changed.
  case adaptersChanged
  /// The devices BlueZ's class calls headphones changed.
  case headphoneClassesChanged
  /// The person chose an output or an input with `acctl output choose`.
  case deviceChosen
  /// The person's choices were forgotten with `acctl output forget`.
  case choicesForgotten
  /// Another cause, in words: a caller's own.
  case other(String)

  /// Every reason but ``other(_:)``.
  package static let named: [RouteReason] = [
    .serverChanged, .serverConnected, .sentMovesNotShown, .accessoryUpdated,
    .graceEnded, .accessoryPaired, .accessoryUnpaired, .accessoryRenamed,
    .accessoryRegistered,
    .accessoriesMigrated, .updateNotSaved, .headphonesRegistered,
    .policyReloaded, .adaptersChanged, .headphoneClassesChanged,
    .deviceChosen, .choicesForgotten,
  ]

  /// Creates a reason from its words: the named reason these words
  /// describe, else ``other(_:)``.
  public init(stringLiteral value: String) {
    self = Self.named.first { $0.description == value } ?? .other(value)
  }

  /// The reason in words.
  public var description: String {
    switch self {
    case .serverChanged: "the sound server changed"
    case .serverConnected: "the sound server connected"
    case .sentMovesNotShown: "the server did not carry out what was sent"
    case .accessoryUpdated: "an accessory was updated"
    case .graceEnded: "a grace time ended"
    case .accessoryPaired: "an accessory was paired"
    case .accessoryUnpaired: "an accessory was unpaired"
    case .accessoryRenamed: "an accessory was renamed"
    case .accessoryRegistered: "an accessory was registered"
    case .accessoriesMigrated: "accessories were migrated"
    case .updateNotSaved: "an update could not be saved"
    case .headphonesRegistered: "accessoryd registered headphones it reads"
    case .policyReloaded: "the policy was reloaded"
    case .adaptersChanged: "the host's Bluetooth adapters changed"
    case .headphoneClassesChanged:
      "the devices BlueZ calls headphones changed"
    case .deviceChosen: "the person chose a device with acctl"
    case .choicesForgotten: "the person's choices were forgotten"
    case .other(let words): words
    }
  }

  /// Whether it follows the sound server: its decision mostly re-decides
  /// what the engine has just done (a fresh connection included: the
  /// engine asks for one when PipeWire does not report its change).
  public var isEcho: Bool {
    switch self {
    case .serverChanged, .serverConnected, .sentMovesNotShown: true
    default: false
    }
  }
}
