// Linux addition: the paired accessories and their registrations, with the
// rules that make a request valid. A value type with no I/O, shared by the
// registry store and the routing service.

import AccessorySetupKit
import AudioAccessoryKit
import FoundationEssentials

/// The paired accessories and their audio registrations.
///
/// Every mutation checks the request against AudioAccessoryKit's rules and
/// throws ``AccessoryControlFailure`` with a reason that names the
/// refused value. The registry does no I/O; ``StateFile`` persists it.
public struct AccessoryRegistry: Sendable, Hashable {
  /// An accessory the person has authorized.
  public struct PairedAccessory: Sendable, Hashable, Codable {
    /// The device address, the accessory's identity.
    public var address: BluetoothAddress
    /// The name the person sees.
    public var displayName: String
    /// The form factor of its audio output, if known.
    public var formFactor: AudioFormFactor?
    /// The descriptor that discovered it.
    public var descriptor: ASDiscoveryDescriptor
    /// When it was paired.
    public var pairedAt: Date

    /// Creates a record of a paired accessory.
    public init(
      address: BluetoothAddress,
      displayName: String,
      formFactor: AudioFormFactor? = nil,
      descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor(),
      pairedAt: Date
    ) {
      self.address = address
      self.displayName = displayName
      self.formFactor = formFactor
      self.descriptor = descriptor
      self.pairedAt = pairedAt
    }

    /// The accessory as AccessorySetupKit presents it.
    public var accessory: ASAccessory {
      ASAccessory(
        displayName: displayName,
        bluetoothAddress: address,
        formFactor: formFactor,
        descriptor: descriptor,
        state: .authorized
      )
    }
  }

  /// An accessory's registration for audio features.
  public struct Registration: Sendable, Hashable, Codable {
    /// The address of the registered accessory.
    public var address: BluetoothAddress
    /// The configuration the accessory last reported.
    public var configuration: AccessoryControlDevice.Configuration
    /// Whether unpairing invalidated the registration.
    public var isInvalidated: Bool
    /// When the accessory was last registered.
    public var registeredAt: Date
    /// When the placement last changed, or the registration time.
    public var placementChangedAt: Date
    /// When the audio sources last changed, or the registration time.
    public var sourcesChangedAt: Date
    /// When the accessory was last put on (reported `inEar`, `onHead` or
    /// `overTheEar` after another placement), or nil if it was not since it
    /// was registered.
    public var lastWornAt: Date?
    /// The accessory's name when it was registered, so that an
    /// invalidated registration still has one after unpairing.
    public var displayName: String?
    /// Who reported the placement last, or nil before any report.
    public var placementSource: PlacementSource?
    /// Whether accessoryd reads the placement from the headphones itself
    /// when they speak a protocol it knows; nil means yes (`auto`).
    public var readsHeadphones: Bool?

    /// Creates a registration.
    public init(
      address: BluetoothAddress,
      configuration: AccessoryControlDevice.Configuration,
      isInvalidated: Bool = false,
      registeredAt: Date,
      placementChangedAt: Date? = nil,
      sourcesChangedAt: Date? = nil,
      lastWornAt: Date? = nil,
      displayName: String? = nil,
      placementSource: PlacementSource? = nil,
      readsHeadphones: Bool? = nil
    ) {
      self.displayName = displayName
      self.placementSource = placementSource
      self.readsHeadphones = readsHeadphones
      self.address = address
      self.configuration = configuration
      self.isInvalidated = isInvalidated
      self.registeredAt = registeredAt
      self.placementChangedAt = placementChangedAt ?? registeredAt
      self.sourcesChangedAt = sourcesChangedAt ?? registeredAt
      self.lastWornAt = lastWornAt
    }
  }

  /// The paired accessories, by address.
  public private(set) var accessories: [BluetoothAddress: PairedAccessory]

  /// The registrations, by address, including invalidated ones.
  public private(set) var registrations: [BluetoothAddress: Registration]

  /// Creates a registry holding the given records.
  public init(
    accessories: [PairedAccessory] = [],
    registrations: [Registration] = []
  ) {
    self.accessories = Dictionary(
      accessories.map { ($0.address, $0) }, uniquingKeysWith: { $1 })
    self.registrations = Dictionary(
      registrations.map { ($0.address, $0) }, uniquingKeysWith: { $1 })
  }

  /// The records of one address.
  public struct Records: Sendable, Hashable {
    /// The paired accessory, if it is paired.
    public var accessory: PairedAccessory?
    /// The registration, if there is one.
    public var registration: Registration?

    /// Creates the records of an address.
    public init(accessory: PairedAccessory?, registration: Registration?) {
      self.accessory = accessory
      self.registration = registration
    }

    /// Whether the address has a registration not invalidated.
    public var isRegistered: Bool {
      registration.map { !$0.isInvalidated } ?? false
    }
  }

  /// Returns the records of one address.
  public func records(at address: BluetoothAddress) -> Records {
    Records(
      accessory: accessories[address], registration: registrations[address])
  }

  /// Puts back the records of one address as they were, unchecked: for
  /// undoing a change.
  mutating func restore(_ records: Records, at address: BluetoothAddress) {
    accessories[address] = records.accessory
    registrations[address] = records.registration
  }

  // MARK: - Pairing

  /// Authorizes an accessory, or renames one already paired.
  ///
  /// Pairing does not restore an invalidated registration: register the
  /// accessory again for that.
  ///
  /// - Returns: The paired accessory.
  @discardableResult
  public mutating func pair(
    _ address: BluetoothAddress,
    displayName: String,
    formFactor: AudioFormFactor? = nil,
    descriptor: ASDiscoveryDescriptor = ASDiscoveryDescriptor(),
    at now: Date
  ) throws(AccessoryControlFailure) -> PairedAccessory {
    guard !address.isZero else {
      throw .invalidRequest(
        reason: "'\(address)' is not a device address; "
          + "a Bluetooth address is never all zeros")
    }
    let name = Self.trimmedName(displayName)
    guard !name.isEmpty else {
      throw .invalidRequest(
        reason: "the display name of \(address) is empty; give it a name")
    }
    let record = PairedAccessory(
      address: address,
      displayName: name,
      formFactor: formFactor,
      descriptor: descriptor,
      pairedAt: accessories[address]?.pairedAt ?? now
    )
    accessories[address] = record
    return record
  }

  /// Removes an accessory's authorization and invalidates its registration.
  ///
  /// - Throws: ``AccessoryControlFailure/invalidRequest(reason:)`` if
  ///   the accessory is not paired.
  public mutating func unpair(
    _ address: BluetoothAddress
  ) throws(AccessoryControlFailure) {
    guard accessories.removeValue(forKey: address) != nil else {
      throw .invalidRequest(reason: "\(address) is not paired")
    }
    registrations[address]?.isInvalidated = true
  }

  // MARK: - Registration

  /// Registers an accessory, replacing any earlier registration.
  ///
  /// - Parameters:
  ///   - accessory: A paired accessory.
  ///   - configuration: What it can do and its state.
  ///   - now: The time of the registration.
  ///   - source: Who registers it: a companion (``PlacementSource/update``)
  ///     or accessoryd for headphones it reads itself.
  ///   - readsHeadphones: Whether accessoryd reads the placement from the
  ///     headphones; nil keeps the earlier registration's choice.
  /// - Throws: ``AccessoryControlFailure`` naming the refused value.
  public mutating func register(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration,
    at now: Date, by source: PlacementSource = .update,
    readsHeadphones: Bool? = nil
  ) throws(AccessoryControlFailure) {
    let paired = try pairedAccessory(for: accessory, doing: "registering")
    guard !configuration.deviceCapabilities.isEmpty else {
      throw .invalidRequest(
        reason: "no capabilities for \(describe(paired)); register with "
          + "audioSwitching, placement or both")
    }
    if configuration.deviceCapabilities.contains(.placement),
      let formFactor = paired.formFactor, !formFactor.canBeWorn
    {
      throw .accessoryNotCapable(
        reason: "\(describe(paired)) is a '\(formFactor)', which cannot be "
          + "worn, so it cannot have the placement capability")
    }
    try checkState(configuration, of: paired)
    registrations[paired.address] = Registration(
      address: paired.address, configuration: configuration,
      registeredAt: now,
      lastWornAt: configuration.devicePlacement.isWorn ? now : nil,
      displayName: paired.displayName,
      placementSource: configuration.devicePlacement == nil ? nil : source,
      readsHeadphones: readsHeadphones
        ?? registrations[paired.address]?.readsHeadphones)
  }

  /// Returns the configuration of a registered accessory.
  ///
  /// - Throws: ``AccessoryControlFailure`` if it is not registered or
  ///   its registration was invalidated.
  public func configuration(
    for accessory: ASAccessory
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration {
    try validRegistration(for: accessory).configuration
  }

  /// Applies a new configuration to a registered accessory.
  ///
  /// A change of placement, and any report from the headphones
  /// themselves, records who reported it: the newest report wins, whoever
  /// sent it.
  ///
  /// - Parameters:
  ///   - accessory: A registered accessory.
  ///   - configuration: Its new configuration.
  ///   - now: The time of the update.
  ///   - source: Who reports it.
  /// - Returns: The configuration now held.
  /// - Throws: ``AccessoryControlFailure`` naming the refused value.
  @discardableResult
  public mutating func update(
    _ accessory: ASAccessory,
    _ configuration: AccessoryControlDevice.Configuration,
    at now: Date, by source: PlacementSource = .update
  ) throws(AccessoryControlFailure) -> AccessoryControlDevice.Configuration {
    var registration = try validRegistration(for: accessory)
    let paired = try pairedAccessory(for: accessory, doing: "updating")
    let registered = registration.configuration.deviceCapabilities
    let added = configuration.deviceCapabilities.subtracting(registered)
    guard added.isEmpty else {
      throw .accessoryNotCapable(
        reason: "'\(added)' was not registered for \(describe(paired)); "
          + "register a capability before updating it")
    }
    try checkState(configuration, of: paired)
    let old = registration.configuration
    if old.devicePlacement != configuration.devicePlacement {
      registration.placementChangedAt = now
    }
    if configuration.devicePlacement != nil,
      old.devicePlacement != configuration.devicePlacement
        || source != .update
    {
      registration.placementSource = source
    }
    if old.primaryAudioSourceDeviceIdentifier
      != configuration.primaryAudioSourceDeviceIdentifier
      || old.secondaryAudioSourceDeviceIdentifier
        != configuration.secondaryAudioSourceDeviceIdentifier
    {
      registration.sourcesChangedAt = now
    }
    if old.devicePlacement != configuration.devicePlacement,
      configuration.devicePlacement.isWorn
    {
      registration.lastWornAt = now
    }
    registration.configuration = configuration
    registrations[registration.address] = registration
    return configuration
  }

  // MARK: - Finding accessories

  /// A display name as it is kept: without white space at either end.
  public static func trimmedName(_ name: String) -> String {
    String(
      name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
        .reversed())
  }

  /// Each accessory's display name as a selector matches it: the paired
  /// record's, else the name its registration outlived its pairing with.
  private var selectableNames: [BluetoothAddress: String] {
    var named: [BluetoothAddress: String] = [:]
    for registration in registrations.values {
      if let name = registration.displayName {
        named[registration.address] = name
      }
    }
    for paired in accessories.values {
      named[paired.address] = paired.displayName
    }
    return named
  }

  /// The accessories a display name selects, as ``resolve(_:)`` matches
  /// names: case aside, and without white space at either end.
  ///
  /// - Parameter name: The display name.
  /// - Returns: Their addresses, in order.
  public func addresses(named name: String) -> [BluetoothAddress] {
    let folded = Self.trimmedName(name).lowercased()
    return selectableNames.filter { $0.value.lowercased() == folded }
      .map(\.key).sorted()
  }

  /// Returns the address an accessory selector names.
  ///
  /// A selector is a Bluetooth address (any case, `:` or `-` separated),
  /// which names that address whether or not it is paired, or a display
  /// name, compared ignoring case, which must name exactly one accessory:
  /// a paired one, or one whose registration outlived its pairing.
  ///
  /// - Throws: ``AccessoryControlFailure/invalidRequest(reason:)``
  ///   naming the selector, and the matches when there are several.
  public func resolve(
    _ selector: String
  ) throws(AccessoryControlFailure) -> BluetoothAddress {
    if let address = BluetoothAddress(selector) { return address }
    let named = selectableNames
    let folded = selector.lowercased()
    let matches = named.filter {
      $0.value.lowercased() == folded
    }.map { (address: $0.key, displayName: $0.value) }
      .sorted { $0.address < $1.address }
    guard let first = matches.first else {
      let known = accessories.values.map { "'\($0.displayName)'" }.sorted()
      throw .invalidRequest(
        reason: "no accessory is named '\(selector)'; "
          + (known.isEmpty
            ? "none is paired"
            : "paired: \(known.joined(separator: ", "))"))
    }
    guard matches.count == 1 else {
      throw .invalidRequest(
        reason: "'\(selector)' names \(matches.count) accessories: "
          + matches.map { "\($0.address)" }.joined(separator: ", ")
          + "; use an address")
    }
    return first.address
  }

  /// Returns the accessory at an address as AccessorySetupKit presents it:
  /// the paired one, or, for an address that is no longer paired, an
  /// unauthorized accessory that still names its registration.
  public func accessory(at address: BluetoothAddress) -> ASAccessory {
    if let paired = accessories[address] { return paired.accessory }
    return ASAccessory(
      displayName: registrations[address]?.displayName ?? address.description,
      bluetoothAddress: address, state: .unauthorized)
  }

  // MARK: - Rules

  private func pairedAccessory(
    for accessory: ASAccessory, doing action: String
  ) throws(AccessoryControlFailure) -> PairedAccessory {
    guard let address = accessory.bluetoothAddress else {
      throw .invalidRequest(
        reason: "accessory '\(accessory.displayName)' has no Bluetooth "
          + "identity; pair it with AccessorySetupKit before \(action) it")
    }
    guard let paired = accessories[address] else {
      throw .invalidRequest(
        reason: "accessory \(Self.describe(accessory, address)) is not "
          + "paired; pair it first (AccessorySetupKit's picker, or "
          + "'acctl pair') before \(action) it")
    }
    return paired
  }

  private func validRegistration(
    for accessory: ASAccessory
  ) throws(AccessoryControlFailure) -> Registration {
    guard let address = accessory.bluetoothAddress else {
      throw .invalidRequest(
        reason: "accessory '\(accessory.displayName)' has no Bluetooth "
          + "identity, so it is not registered; pair and register it first")
    }
    let described = Self.describe(accessory, address)
    guard let registration = registrations[address] else {
      throw .invalidRequest(
        reason: accessories[address] == nil
          ? "accessory \(described) is neither paired nor registered; pair "
            + "it first (AccessorySetupKit's picker, or 'acctl pair'), then "
            + "register it"
          : "accessory \(described) is not registered; register it first")
    }
    guard !registration.isInvalidated else {
      // Paired again since: only the registration is missing.
      throw .invalidated(
        reason: "the registration of \(described) was invalidated "
          + "because the accessory was unpaired; "
          + (accessories[address] == nil
            ? "pair and register it again"
            : "it is paired again: register it again"))
    }
    return registration
  }

  /// Names an accessory as `'Name' (AA:BB:…)`, or by its address alone
  /// when it has no name of its own.
  private static func describe(
    _ accessory: ASAccessory, _ address: BluetoothAddress
  ) -> String {
    let name = accessory.displayName
    return name.isEmpty || name == address.description
      ? address.description : "'\(name)' (\(address))"
  }

  /// Checks that the reported state has its capabilities and that the
  /// audio source identifiers are well formed.
  private func checkState(
    _ configuration: AccessoryControlDevice.Configuration,
    of paired: PairedAccessory
  ) throws(AccessoryControlFailure) {
    let capabilities = configuration.deviceCapabilities
    if let placement = configuration.devicePlacement,
      !capabilities.contains(.placement)
    {
      throw .accessoryNotCapable(
        reason: "placement '\(placement)' reported for \(describe(paired)) "
          + "without the placement capability")
    }
    let primary = configuration.primaryAudioSourceDeviceIdentifier
    let secondary = configuration.secondaryAudioSourceDeviceIdentifier
    if primary != nil || secondary != nil,
      !capabilities.contains(.audioSwitching)
    {
      throw .accessoryNotCapable(
        reason: "audio source identifiers reported for \(describe(paired)) "
          + "without the audioSwitching capability")
    }
    for (role, identifier) in [("primary", primary), ("secondary", secondary)] {
      guard let identifier else { continue }
      guard identifier.count == 6 else {
        throw .invalidRequest(
          reason:
            "the \(role) audio source identifier '\(hexBytes(identifier))' "
            + "has \(identifier.count) bytes; expected a 6-byte Bluetooth "
            + "address")
      }
      guard identifier.contains(where: { $0 != 0 }) else {
        throw .invalidRequest(
          reason:
            "the \(role) audio source identifier '\(hexBytes(identifier))' "
            + "is all zeros; expected a device's Bluetooth address")
      }
    }
    if let primary, primary == secondary {
      throw .invalidRequest(
        reason: "the primary and secondary audio sources are both "
          + "'\(hexBytes(primary))'; expected two different hosts")
    }
    // A secondary without a primary is valid, as Apple's documentation
    // sets no rule between them: a multipoint headset whose primary host
    // dropped off reports exactly that. The engine takes the remaining
    // host as the one connected.
  }

  private func describe(_ paired: PairedAccessory) -> String {
    "'\(paired.displayName)' (\(paired.address))"
  }
}

extension AccessoryControlDevice.Placement? {
  /// Whether this is a placement in which the accessory is worn.
  fileprivate var isWorn: Bool {
    switch self {
    case .inEar?, .onHead?, .overTheEar?: true
    case .offHead?, nil: false
    }
  }
}

/// Who reported an accessory's placement.
///
/// A name this version does not know (a newer daemon's state file) is
/// kept as it came.
public struct PlacementSource: RawRepresentable, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  /// `AccessoryControlDevice.update`: a companion, or `acctl update`.
  public static let update = PlacementSource(rawValue: "update")
  /// accessoryd, reading AirPods or Beats over AAP.
  public static let aap = PlacementSource(rawValue: "aap")
  /// accessoryd, reading Galaxy Buds.
  public static let galaxyBuds = PlacementSource(rawValue: "galaxyBuds")

  /// The source's name.
  public let rawValue: String

  /// Creates a source from its name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The name.
  public var description: String { rawValue }
}
