// Linux addition: the picker's values as the control protocol carries
// them: the items an app shows, the devices it offers, and the open
// picker as `picker.pending` shows it.

import AccessoryControl

/// One item of a picker: what the app looks for (`ASPickerDisplayItem`,
/// or `ASMigrationDisplayItem` when ``isMigration``).
public struct PickerItem: Codable, Sendable, Hashable {
  /// The name the app gives the accessory kind.
  public var name: String
  /// The devices it takes.
  public var descriptor: ASDiscoveryDescriptor
  /// How the picker sets the chosen accessory up.
  public var setupOptions: ASPickerDisplayItem.SetupOptions
  /// The product image's name, if the app gave one.
  public var productImage: String?
  /// Whether this is a migration item (`ASMigrationDisplayItem`).
  public var isMigration: Bool

  /// Creates an item.
  public init(
    name: String, descriptor: ASDiscoveryDescriptor,
    setupOptions: ASPickerDisplayItem.SetupOptions = [],
    productImage: String? = nil, isMigration: Bool = false
  ) {
    self.name = name
    self.descriptor = descriptor
    self.setupOptions = setupOptions
    self.productImage = productImage
    self.isMigration = isMigration
  }

  /// Reads an item of a request's params, checking its descriptor with
  /// Apple's rules; errors name the member by its path.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(
      ["name", "descriptor", "setupOptions", "productImage", "migration"])
    name = try params.nonEmptyString("name")
    guard let descriptor = try params.descriptor("descriptor") else {
      throw .invalidParams("\(params.name("descriptor")) is missing")
    }
    self.descriptor = descriptor
    setupOptions = []
    switch params["setupOptions"] {
    case nil, .null?:
      break
    case .array(let values)?:
      for value in values {
        guard case .string(let text) = value,
          let option = ASPickerDisplayItem.SetupOptions(name: text)
        else {
          throw .invalidParams(
            "\(params.name("setupOptions")) holds \(value); expected "
              + "'rename', 'confirmAuthorization' or 'finishInApp'")
        }
        setupOptions.insert(option)
      }
    default:
      throw .invalidParams(
        "\(params.name("setupOptions")) must be an array of 'rename', "
          + "'confirmAuthorization' or 'finishInApp'")
    }
    productImage = try params.string("productImage")
    isMigration = try params.bool("migration") ?? false
  }

  private enum CodingKeys: String, CodingKey {
    case name, descriptor, setupOptions, productImage
    case isMigration = "migration"
  }

  /// Reads an item; the members after `descriptor` may be missing, and an
  /// option this version does not know is left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    descriptor = try container.decode(
      ASDiscoveryDescriptor.self, forKey: .descriptor)
    let names =
      try container.decodeIfPresent([String].self, forKey: .setupOptions)
      ?? []
    setupOptions = ASPickerDisplayItem.SetupOptions(
      names.compactMap(ASPickerDisplayItem.SetupOptions.init(name:)))
    productImage = try container.decodeIfPresent(
      String.self, forKey: .productImage)
    isMigration =
      try container.decodeIfPresent(Bool.self, forKey: .isMigration) ?? false
  }

  /// Writes the item, with `null` for a missing product image.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(descriptor, forKey: .descriptor)
    try container.encode(setupOptions.names, forKey: .setupOptions)
    try container.encode(productImage, forKey: .productImage)
    try container.encode(isMigration, forKey: .isMigration)
  }
}

extension ASPickerDisplayItem.SetupOptions {
  /// The option the control socket names so; nil for another name.
  init?(name: String) {
    switch name {
    case "rename": self = .rename
    case "confirmAuthorization": self = .confirmAuthorization
    case "finishInApp": self = .finishInApp
    default: return nil
    }
  }
}

/// A device an app offers in a picker that filters discovery results
/// (`ASDiscoveredDisplayItem`), by the name the app gives it.
public struct OfferedDevice: Codable, Sendable, Hashable {
  /// The device's Bluetooth address, as given.
  public var address: String
  /// The name the picker shows for it.
  public var name: String
  /// The product image's name, if the app gave one; `picker.pending` does
  /// not show it.
  public var productImage: String?

  /// Creates an offer.
  public init(address: String, name: String, productImage: String? = nil) {
    self.address = address
    self.name = name
    self.productImage = productImage
  }

  /// Reads an offer of a request's params; errors name the member by its
  /// path.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["address", "name", "productImage"])
    address = try params.requiredString("address")
    name = try params.nonEmptyString("name")
    productImage = try params.string("productImage")
  }
}

/// The answer to `picker.show`.
public struct PickerShowReply: Codable, Sendable, Hashable {
  /// The picker's identifier, as `picker.choose` and `picker.cancel` take
  /// it.
  public var pickerID: String
  /// Whether it is still open: false when it held migration items only and
  /// migrated at once.
  public var open: Bool

  /// Creates an answer.
  public init(pickerID: String, open: Bool) {
    self.pickerID = pickerID
    self.open = open
  }
}

/// The answer to `picker.pending`: the open picker, if any.
public struct PickerPendingReply: Codable, Sendable, Hashable {
  /// The open picker; nil (`null`) when none is open.
  public var picker: PendingPicker?

  /// Creates an answer.
  public init(picker: PendingPicker?) { self.picker = picker }

  private enum CodingKeys: String, CodingKey { case picker }

  /// Writes the answer, with `null` when no picker is open.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(picker, forKey: .picker)
  }
}

/// An open picker, waiting for a person to answer it.
public struct PendingPicker: Codable, Sendable, Hashable {
  /// Its identifier, as `picker.choose` and `picker.cancel` take it.
  public var pickerID: String
  /// The items that discover accessories.
  public var items: [PickerItem]
  /// The migration items.
  public var migrationItems: [PickerItem]
  /// Whether the app chooses what the picker offers
  /// (`filterDiscoveryResults`).
  public var filtersDiscoveryResults: Bool
  /// The devices the app offers in that mode, in its order.
  public var offered: [OfferedDevice]

  /// Creates a picker.
  public init(
    pickerID: String, items: [PickerItem], migrationItems: [PickerItem] = [],
    filtersDiscoveryResults: Bool = false, offered: [OfferedDevice] = []
  ) {
    self.pickerID = pickerID
    self.items = items
    self.migrationItems = migrationItems
    self.filtersDiscoveryResults = filtersDiscoveryResults
    self.offered = offered
  }

  private enum CodingKeys: String, CodingKey {
    case pickerID, items, migrationItems, offered
    case filtersDiscoveryResults = "filterDiscoveryResults"
  }

  /// Reads a picker; the members after `items` may be missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    pickerID = try container.decode(String.self, forKey: .pickerID)
    items = try container.decode([PickerItem].self, forKey: .items)
    migrationItems =
      try container.decodeIfPresent([PickerItem].self, forKey: .migrationItems)
      ?? []
    filtersDiscoveryResults =
      try container.decodeIfPresent(
        Bool.self, forKey: .filtersDiscoveryResults) ?? false
    offered =
      try container.decodeIfPresent([OfferedDevice].self, forKey: .offered)
      ?? []
  }
}
