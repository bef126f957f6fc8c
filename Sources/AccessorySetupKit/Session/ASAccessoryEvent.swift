// Apple's ASAccessoryEvent and ASAccessoryEventType: what a session's
// event handler receives.

/// The kind of an ``ASAccessoryEvent``, with Apple's raw values.
public enum ASAccessoryEventType: Int, Sendable, Hashable, CaseIterable {
  /// An event of no known kind.
  case unknown = 0
  /// The session is active; ``ASAccessorySession/accessories`` is loaded.
  case activated = 10
  /// The session ended; it cannot be used again.
  case invalidated = 11
  /// The migration of earlier accessories finished.
  case migrationComplete = 20
  /// An accessory was authorized.
  case accessoryAdded = 30
  /// An accessory was removed; its registration is invalidated.
  case accessoryRemoved = 31
  /// An accessory's properties, such as its name, changed.
  case accessoryChanged = 32
  /// Discovery found an accessory, for a picker with
  /// ``ASPickerDisplaySettings/Options/filterDiscoveryResults``; the event's
  /// accessory is an ``ASDiscoveredAccessory``.
  case accessoryDiscovered = 33
  /// The picker appeared.
  case pickerDidPresent = 40
  /// The picker went away, with or without an accessory.
  case pickerDidDismiss = 50
  /// The picker is bridging the accessory's transports.
  case pickerSetupBridging = 60
  /// Setting the chosen accessory up failed.
  case pickerSetupFailed = 70
  /// The picker is pairing the chosen accessory.
  case pickerSetupPairing = 80
  /// The person renamed the chosen accessory.
  case pickerSetupRename = 90
}

/// One event of an ``ASAccessorySession``.
public final class ASAccessoryEvent: Sendable, CustomStringConvertible {
  /// What happened.
  public let eventType: ASAccessoryEventType
  /// The accessory it concerns, for accessory events; nil for life-cycle
  /// and picker events.
  public let accessory: ASAccessory?
  /// What went wrong, if anything.
  public let error: (any Error)?

  /// Creates an event.
  public init(
    eventType: ASAccessoryEventType, accessory: ASAccessory? = nil,
    error: (any Error)? = nil
  ) {
    self.eventType = eventType
    self.accessory = accessory
    self.error = error
  }

  /// The event type, the accessory and the error, for logs.
  public var description: String {
    var text = "\(eventType)"
    if let accessory { text += " \(accessory)" }
    if let error { text += " (\(error))" }
    return text
  }
}
