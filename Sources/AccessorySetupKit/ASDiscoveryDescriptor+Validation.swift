// The rules of Apple's ASDiscoveryDescriptor documentation, checked. Where
// Apple's framework crashes on a broken rule, validate(against:) throws an
// error that names the rule and the offending value.

import CoreBluetooth
import FoundationEssentials

extension ASDiscoveryDescriptor {
  /// The longest manufacturer data blob, in bytes, that an advertisement
  /// can carry: 27.
  ///
  /// A legacy Bluetooth LE advertising packet carries 31 bytes of data. The
  /// manufacturer-specific data structure spends 1 byte on its length, 1 on
  /// its type and 2 on the company identifier (which
  /// ``bluetoothCompanyIdentifier`` matches), leaving 27 bytes for the blob.
  /// A scan response, which needs no flags structure, is the only packet
  /// that can hold all 27.
  public static let maximumManufacturerDataLength = 27

  /// The Wi-Fi network name limit, in bytes of UTF-8: 32, as IEEE 802.11
  /// sets it.
  public static let maximumSSIDLength = 32

  /// Returns the longest service data blob, in bytes, that an advertisement
  /// can carry for a service UUID.
  ///
  /// Of a legacy advertising packet's 31 bytes, the service data structure
  /// spends 1 on its length, 1 on its type and 2, 4 or 16 on the UUID,
  /// leaving 27 bytes for a 16-bit UUID, 25 for a 32-bit one and 13 for a
  /// 128-bit one.
  ///
  /// - Parameter serviceUUID: The service the data belongs to.
  /// - Returns: The number of bytes left for the data.
  public static func maximumServiceDataLength(for serviceUUID: CBUUID) -> Int {
    31 - 2 - serviceUUID.data.count
  }

  /// An error that names the descriptor rule a value breaks.
  ///
  /// The ``message`` quotes the offending value in single quotes and says
  /// what to change; ``rule`` identifies the rule for code that reacts to
  /// it:
  ///
  /// ```swift
  /// do {
  ///   try descriptor.validate(against: configuration)
  /// } catch where error.rule == .serviceNotDeclared {
  ///   // …
  /// }
  /// ```
  public struct ValidationError: Error, Hashable, CustomStringConvertible {
    /// A descriptor rule.
    ///
    /// New rules may be added; a `switch` over rules needs a `default`.
    public struct Rule: Hashable, Sendable, CustomStringConvertible {
      /// The rules, by stable name.
      private enum Code: String, Hashable, Sendable {
        case noDiscoveryCriteria
        case bluetoothIdentifierRequired
        case nameSubstringEmpty
        case nameSubstringRequiresIdentifier
        case manufacturerDataIncomplete
        case manufacturerDataRequiresCompanyIdentifier
        case manufacturerDataLengthMismatch
        case manufacturerDataTooLong
        case serviceDataIncomplete
        case serviceDataRequiresServiceUUID
        case serviceDataLengthMismatch
        case serviceDataTooLong
        case ssidAndPrefixBothSet
        case ssidEmpty
        case ssidPrefixEmpty
        case ssidTooLong
        case technologyNotDeclared
        case serviceNotDeclared
        case companyIdentifierNotDeclared
        case nameNotDeclared
      }

      /// The rule's code.
      private let code: Code

      /// Creates a rule from its code.
      private init(_ code: Code) {
        self.code = code
      }

      /// The rule's stable name, such as `ssidEmpty`.
      public var description: String { code.rawValue }

      /// A descriptor must set Bluetooth or Wi-Fi traits.
      public static let noDiscoveryCriteria = Rule(.noDiscoveryCriteria)

      /// A Bluetooth descriptor needs a service UUID or a non-zero company
      /// identifier.
      public static let bluetoothIdentifierRequired = Rule(
        .bluetoothIdentifierRequired)

      /// A name substring must not be empty.
      public static let nameSubstringEmpty = Rule(.nameSubstringEmpty)

      /// A name substring needs a service UUID or a non-zero company
      /// identifier.
      public static let nameSubstringRequiresIdentifier = Rule(
        .nameSubstringRequiresIdentifier)

      /// Manufacturer data blob and mask are set together.
      public static let manufacturerDataIncomplete = Rule(
        .manufacturerDataIncomplete)

      /// Manufacturer data needs a non-zero company identifier.
      public static let manufacturerDataRequiresCompanyIdentifier = Rule(
        .manufacturerDataRequiresCompanyIdentifier)

      /// Manufacturer data blob and mask have the same length.
      public static let manufacturerDataLengthMismatch = Rule(
        .manufacturerDataLengthMismatch)

      /// Manufacturer data fits in an advertisement; see
      /// ``ASDiscoveryDescriptor/maximumManufacturerDataLength``.
      public static let manufacturerDataTooLong = Rule(
        .manufacturerDataTooLong)

      /// Service data blob and mask are set together.
      public static let serviceDataIncomplete = Rule(.serviceDataIncomplete)

      /// Service data needs a service UUID.
      public static let serviceDataRequiresServiceUUID = Rule(
        .serviceDataRequiresServiceUUID)

      /// Service data blob and mask have the same length.
      public static let serviceDataLengthMismatch = Rule(
        .serviceDataLengthMismatch)

      /// Service data fits in an advertisement; see
      /// ``ASDiscoveryDescriptor/maximumServiceDataLength(for:)``.
      public static let serviceDataTooLong = Rule(.serviceDataTooLong)

      /// A Wi-Fi descriptor sets `ssid` or `ssidPrefix`, not both.
      public static let ssidAndPrefixBothSet = Rule(.ssidAndPrefixBothSet)

      /// An `ssid` must not be empty.
      public static let ssidEmpty = Rule(.ssidEmpty)

      /// An `ssidPrefix` must not be empty.
      public static let ssidPrefixEmpty = Rule(.ssidPrefixEmpty)

      /// An `ssid` or `ssidPrefix` fits in a Wi-Fi network name; see
      /// ``ASDiscoveryDescriptor/maximumSSIDLength``.
      public static let ssidTooLong = Rule(.ssidTooLong)

      /// The setup configuration declares the descriptor's technology in
      /// `NSAccessorySetupSupports`.
      public static let technologyNotDeclared = Rule(.technologyNotDeclared)

      /// The setup configuration declares the service UUID in
      /// `NSAccessorySetupBluetoothServices`.
      public static let serviceNotDeclared = Rule(.serviceNotDeclared)

      /// The setup configuration declares the company identifier in
      /// `NSAccessorySetupBluetoothCompanyIdentifiers`.
      public static let companyIdentifierNotDeclared = Rule(
        .companyIdentifierNotDeclared)

      /// The setup configuration declares the name substring in
      /// `NSAccessorySetupBluetoothNames`.
      public static let nameNotDeclared = Rule(.nameNotDeclared)

      /// Returns whether an error is a validation error for this rule, so
      /// that `catch ASDiscoveryDescriptor.ValidationError.Rule.ssidEmpty`
      /// works.
      ///
      /// - Parameters:
      ///   - rule: The rule to match.
      ///   - error: The error caught.
      /// - Returns: Whether `error` breaks `rule`.
      public static func ~= (rule: Rule, error: any Error) -> Bool {
        (error as? ValidationError)?.rule == rule
      }
    }

    /// The rule the descriptor breaks.
    public let rule: Rule

    /// What is wrong and what to change, for a person to act on.
    public let message: String

    /// Creates an error for a broken rule.
    ///
    /// - Parameters:
    ///   - rule: The rule the descriptor breaks.
    ///   - message: What is wrong and what to change.
    public init(rule: Rule, message: String) {
      self.rule = rule
      self.message = message
    }

    /// The ``message``.
    public var description: String { message }
  }

  /// Checks the descriptor against Apple's rules and, if given, against the
  /// app's setup configuration.
  ///
  /// Apple's framework crashes when a descriptor breaks a rule; this method
  /// throws instead. The rules, in the order they are checked:
  ///
  /// - The descriptor sets Bluetooth traits, Wi-Fi traits, or both.
  /// - `bluetoothNameSubstring` is not empty, and comes with
  ///   `bluetoothServiceUUID` or a non-zero `bluetoothCompanyIdentifier`.
  /// - Manufacturer data blob and mask are set together, need a non-zero
  ///   company identifier, have the same length and fit in an
  ///   advertisement.
  /// - Service data blob and mask are set together, need a service UUID,
  ///   have the same length and fit in an advertisement.
  /// - Any Bluetooth descriptor has `bluetoothServiceUUID` or a non-zero
  ///   `bluetoothCompanyIdentifier`.
  /// - A Wi-Fi descriptor sets `ssid` or `ssidPrefix`, not both, not empty,
  ///   and no longer than a network name.
  /// - With a configuration: the descriptor's technologies are declared in
  ///   `NSAccessorySetupSupports`, and its service UUID, company identifier
  ///   and name substring in the matching `NSAccessorySetupBluetooth…` key.
  ///
  /// - Parameter configuration: The app's setup configuration, the
  ///   analogue of its Info.plist keys; nil checks the descriptor alone.
  /// - Throws: The first ``ValidationError`` found.
  public func validate(
    against configuration: ASAccessorySetupConfiguration? = nil
  ) throws(ValidationError) {
    if let error = validationErrors(against: configuration).first {
      throw error
    }
  }

  /// Returns every rule the descriptor breaks, in the order
  /// ``validate(against:)`` checks them.
  ///
  /// A rule that follows from one already reported is left out: a name
  /// substring without an identifier is not also reported as a Bluetooth
  /// descriptor without an identifier.
  ///
  /// - Parameter configuration: The app's setup configuration; nil checks
  ///   the descriptor alone.
  /// - Returns: The errors, empty for a valid descriptor.
  public func validationErrors(
    against configuration: ASAccessorySetupConfiguration? = nil
  ) -> [ValidationError] {
    let fields = self.fields
    guard fields.discoversBluetooth || fields.discoversWiFi else {
      return [
        ValidationError(
          rule: .noDiscoveryCriteria,
          message: "The descriptor sets no discovery traits; set "
            + "bluetoothServiceUUID or bluetoothCompanyIdentifier for a "
            + "Bluetooth accessory, or ssid or ssidPrefix for a Wi-Fi "
            + "accessory."
        )
      ]
    }
    var errors: [ValidationError] = []
    if fields.discoversBluetooth {
      errors += Self.bluetoothErrors(fields)
    }
    if fields.discoversWiFi {
      errors += Self.wiFiErrors(fields)
    }
    if let configuration {
      errors += Self.configurationErrors(fields, configuration)
    }
    return errors
  }

  /// Returns the broken Bluetooth rules.
  private static func bluetoothErrors(_ fields: Fields) -> [ValidationError] {
    var errors: [ValidationError] = []
    let hasIdentifier =
      fields.bluetoothServiceUUID != nil
      || fields.bluetoothCompanyIdentifier != 0

    if let name = fields.bluetoothNameSubstring {
      if name.isEmpty {
        errors.append(
          ValidationError(
            rule: .nameSubstringEmpty,
            message: "bluetoothNameSubstring is '' (empty); set a part of "
              + "the accessory's advertised name, or nil to match any name."
          )
        )
      }
      if !hasIdentifier {
        errors.append(
          ValidationError(
            rule: .nameSubstringRequiresIdentifier,
            message: "bluetoothNameSubstring '\(name)' needs "
              + "bluetoothServiceUUID or a non-zero "
              + "bluetoothCompanyIdentifier to identify the accessory; set "
              + "one of them."
          )
        )
      }
    }

    errors += manufacturerDataErrors(fields)
    errors += serviceDataErrors(fields)

    let identifierReported = errors.contains {
      $0.rule == .nameSubstringRequiresIdentifier
        || $0.rule == .manufacturerDataRequiresCompanyIdentifier
        || $0.rule == .serviceDataRequiresServiceUUID
    }
    if !hasIdentifier, !identifierReported {
      var traits: [String] = []
      if fields.bluetoothRange != .default {
        traits.append("bluetoothRange '\(fields.bluetoothRange)'")
      }
      if !fields.supportedOptions.isEmpty {
        traits.append("supportedOptions '\(fields.supportedOptions)'")
      }
      errors.append(
        ValidationError(
          rule: .bluetoothIdentifierRequired,
          message: "A Bluetooth descriptor needs bluetoothServiceUUID or a "
            + "non-zero bluetoothCompanyIdentifier, but this one sets only "
            + traits.joined(separator: " and ") + "; set one of them."
        )
      )
    }
    return errors
  }

  /// Returns the broken manufacturer data rules.
  private static func manufacturerDataErrors(
    _ fields: Fields
  ) -> [ValidationError] {
    let blobName = "bluetoothManufacturerDataBlob"
    let maskName = "bluetoothManufacturerDataMask"
    switch (
      fields.bluetoothManufacturerDataBlob,
      fields.bluetoothManufacturerDataMask
    ) {
    case (nil, nil):
      return []
    case (let blob?, nil):
      return [
        incomplete(.manufacturerDataIncomplete, blobName, blob, maskName)
      ]
    case (nil, let mask?):
      return [
        incomplete(.manufacturerDataIncomplete, maskName, mask, blobName)
      ]
    case (let blob?, let mask?):
      var errors: [ValidationError] = []
      if fields.bluetoothCompanyIdentifier == 0 {
        errors.append(
          ValidationError(
            rule: .manufacturerDataRequiresCompanyIdentifier,
            message: "\(blobName) '\(hex(blob))' needs a non-zero "
              + "bluetoothCompanyIdentifier, the manufacturer whose data it "
              + "matches; set bluetoothCompanyIdentifier."
          )
        )
      }
      if blob.count != mask.count {
        errors.append(
          lengthMismatch(
            .manufacturerDataLengthMismatch, blobName, blob, maskName, mask)
        )
      }
      let limit = maximumManufacturerDataLength
      if let longest = [blob, mask].first(where: { $0.count > limit }) {
        let name = longest == blob ? blobName : maskName
        errors.append(
          ValidationError(
            rule: .manufacturerDataTooLong,
            message: "\(name) '\(hex(longest))' has \(longest.count) bytes, "
              + "more than the \(limit) bytes of manufacturer data an "
              + "advertisement can carry; shorten the blob and mask."
          )
        )
      }
      return errors
    }
  }

  /// Returns the broken service data rules.
  private static func serviceDataErrors(
    _ fields: Fields
  ) -> [ValidationError] {
    let blobName = "bluetoothServiceDataBlob"
    let maskName = "bluetoothServiceDataMask"
    switch (fields.bluetoothServiceDataBlob, fields.bluetoothServiceDataMask) {
    case (nil, nil):
      return []
    case (let blob?, nil):
      return [incomplete(.serviceDataIncomplete, blobName, blob, maskName)]
    case (nil, let mask?):
      return [incomplete(.serviceDataIncomplete, maskName, mask, blobName)]
    case (let blob?, let mask?):
      var errors: [ValidationError] = []
      if fields.bluetoothServiceUUID == nil {
        errors.append(
          ValidationError(
            rule: .serviceDataRequiresServiceUUID,
            message: "\(blobName) '\(hex(blob))' needs "
              + "bluetoothServiceUUID, the service whose data it matches; "
              + "set bluetoothServiceUUID."
          )
        )
      }
      if blob.count != mask.count {
        errors.append(
          lengthMismatch(
            .serviceDataLengthMismatch, blobName, blob, maskName, mask)
        )
      }
      if let uuid = fields.bluetoothServiceUUID {
        let limit = maximumServiceDataLength(for: uuid)
        if let longest = [blob, mask].first(where: { $0.count > limit }) {
          let name = longest == blob ? blobName : maskName
          let width = uuid.data.count * 8
          errors.append(
            ValidationError(
              rule: .serviceDataTooLong,
              message: "\(name) '\(hex(longest))' has \(longest.count) "
                + "bytes, more than the \(limit) bytes of service data an "
                + "advertisement can carry for a \(width)-bit service UUID; "
                + "shorten the blob and mask."
            )
          )
        }
      }
      return errors
    }
  }

  /// Returns the error for a blob without its mask, or the reverse.
  private static func incomplete(
    _ rule: ValidationError.Rule,
    _ setName: String,
    _ value: Data,
    _ missingName: String
  ) -> ValidationError {
    ValidationError(
      rule: rule,
      message: "\(setName) '\(hex(value))' is set without \(missingName); "
        + "set both, with the same length."
    )
  }

  /// Returns the error for a blob and mask of different lengths.
  private static func lengthMismatch(
    _ rule: ValidationError.Rule,
    _ blobName: String,
    _ blob: Data,
    _ maskName: String,
    _ mask: Data
  ) -> ValidationError {
    ValidationError(
      rule: rule,
      message: "\(blobName) '\(hex(blob))' has \(blob.count) bytes but "
        + "\(maskName) '\(hex(mask))' has \(mask.count); give them the same "
        + "length."
    )
  }

  /// Returns the broken Wi-Fi rules.
  private static func wiFiErrors(_ fields: Fields) -> [ValidationError] {
    var errors: [ValidationError] = []
    if let ssid = fields.ssid, let prefix = fields.ssidPrefix {
      errors.append(
        ValidationError(
          rule: .ssidAndPrefixBothSet,
          message: "ssid '\(ssid)' and ssidPrefix '\(prefix)' are both set; "
            + "set only one of them."
        )
      )
    }
    if fields.ssid == "" {
      errors.append(
        ValidationError(
          rule: .ssidEmpty,
          message: "ssid is '' (empty); set the accessory's network name."
        )
      )
    }
    if fields.ssidPrefix == "" {
      errors.append(
        ValidationError(
          rule: .ssidPrefixEmpty,
          message: "ssidPrefix is '' (empty); set the start of the "
            + "accessory's network name."
        )
      )
    }
    let named = [("ssid", fields.ssid), ("ssidPrefix", fields.ssidPrefix)]
    for case (let name, let value?) in named
    where value.utf8.count > maximumSSIDLength {
      errors.append(
        ValidationError(
          rule: .ssidTooLong,
          message: "\(name) '\(value)' has \(value.utf8.count) bytes, more "
            + "than the \(maximumSSIDLength) bytes of a Wi-Fi network name; "
            + "shorten it."
        )
      )
    }
    return errors
  }

  /// Returns the identifiers the configuration does not declare.
  private static func configurationErrors(
    _ fields: Fields,
    _ configuration: ASAccessorySetupConfiguration
  ) -> [ValidationError] {
    typealias Kind = ASAccessorySetupConfiguration.Kind
    typealias Key = ASAccessorySetupConfiguration.Key
    var errors: [ValidationError] = []
    let technologies: [(Bool, Kind, String)] = [
      (fields.discoversBluetooth, .bluetooth, "Bluetooth"),
      (fields.discoversWiFi, .wifi, "Wi-Fi"),
    ]
    for (discovers, kind, name) in technologies
    where discovers && !configuration.supports.contains(kind) {
      errors.append(
        ValidationError(
          rule: .technologyNotDeclared,
          message: "The descriptor discovers a \(name) accessory, but "
            + "\(Key.supports) does not declare '\(kind.rawValue)'; add "
            + "'\(kind.rawValue)' to \(Key.supports)."
        )
      )
    }
    if let uuid = fields.bluetoothServiceUUID,
      !configuration.bluetoothServices.contains(uuid)
    {
      errors.append(
        notDeclared(
          .serviceNotDeclared, "bluetoothServiceUUID", uuid.uuidString,
          Key.bluetoothServices)
      )
    }
    let company = fields.bluetoothCompanyIdentifier
    if company != 0,
      !configuration.bluetoothCompanyIdentifiers.contains(company)
    {
      errors.append(
        notDeclared(
          .companyIdentifierNotDeclared, "bluetoothCompanyIdentifier",
          text(companyIdentifier: company), Key.bluetoothCompanyIdentifiers)
      )
    }
    if let name = fields.bluetoothNameSubstring,
      !configuration.bluetoothNames.contains(name)
    {
      errors.append(
        notDeclared(
          .nameNotDeclared, "bluetoothNameSubstring", name,
          Key.bluetoothNames)
      )
    }
    return errors
  }

  /// Returns the error for an identifier missing from a configuration key.
  private static func notDeclared(
    _ rule: ValidationError.Rule,
    _ property: String,
    _ value: String,
    _ key: String
  ) -> ValidationError {
    ValidationError(
      rule: rule,
      message: "\(property) '\(value)' is not declared; add '\(value)' to "
        + "\(key)."
    )
  }
}

extension ASDiscoveryDescriptor.Fields {
  /// Whether any Bluetooth trait is set, the range and support options
  /// included.
  var discoversBluetooth: Bool {
    bluetoothCompanyIdentifier != 0 || bluetoothServiceUUID != nil
      || bluetoothNameSubstring != nil
      || bluetoothManufacturerDataBlob != nil
      || bluetoothManufacturerDataMask != nil
      || bluetoothServiceDataBlob != nil || bluetoothServiceDataMask != nil
      || bluetoothRange != .default || !supportedOptions.isEmpty
  }

  /// Whether a Wi-Fi network name or prefix is set, even an empty one.
  var discoversWiFi: Bool {
    ssid != nil || ssidPrefix != nil
  }
}
