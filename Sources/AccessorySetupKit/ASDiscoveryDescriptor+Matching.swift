// Linux addition: whether a discovered Bluetooth device fits a descriptor,
// and if not, which rule it fails, in words for `acctl discover --explain`.
// Apple's picker does this matching out of sight; here it is a pure function
// of a descriptor and a DiscoveredDevice.

import CoreBluetooth
import FoundationEssentials

/// The first rule of a discovery descriptor that a device fails, and why.
///
/// ``ASDiscoveryDescriptor/mismatch(with:)`` returns one. Its ``reason`` is
/// a lower-case phrase about the device, ready to follow the device's name:
///
/// ```swift
/// if let mismatch = descriptor.mismatch(with: device) {
///   print("\(device.displayName): \(mismatch)")
///   // Speaker X: its advertised name 'Speaker X' does not contain 'Buds'
/// }
/// ```
public struct DescriptorMismatch: Sendable, Hashable, CustomStringConvertible {
  /// A descriptor rule a device can fail.
  ///
  /// New rules may be added; a `switch` over rules needs a `default`.
  public struct Rule: Hashable, Sendable, CustomStringConvertible {
    /// The rules, by stable name.
    private enum Code: String, Hashable, Sendable {
      case invalidDescriptor
      case wiFiNetwork
      case companyIdentifier
      case serviceUUID
      case nameSubstring
      case manufacturerData
      case serviceData
      case range
    }

    /// The rule's code.
    private let code: Code

    /// Creates a rule from its code.
    private init(_ code: Code) {
      self.code = code
    }

    /// The rule's stable name, such as `nameSubstring`.
    public var description: String { code.rawValue }

    /// The descriptor breaks one of Apple's rules (see
    /// ``ASDiscoveryDescriptor/validate(against:)``), so it matches no
    /// device.
    public static let invalidDescriptor = Rule(.invalidDescriptor)

    /// The descriptor sets `ssid` or `ssidPrefix`, which no Bluetooth device
    /// can satisfy.
    public static let wiFiNetwork = Rule(.wiFiNetwork)

    /// The device has no manufacturer data under the descriptor's
    /// `bluetoothCompanyIdentifier`.
    public static let companyIdentifier = Rule(.companyIdentifier)

    /// The device neither advertises the descriptor's
    /// `bluetoothServiceUUID` nor has service data under it.
    public static let serviceUUID = Rule(.serviceUUID)

    /// The device's name does not contain the descriptor's
    /// `bluetoothNameSubstring`.
    public static let nameSubstring = Rule(.nameSubstring)

    /// The device's manufacturer data does not fit the descriptor's
    /// manufacturer data blob under its mask.
    public static let manufacturerData = Rule(.manufacturerData)

    /// The device's service data does not fit the descriptor's service data
    /// blob under its mask.
    public static let serviceData = Rule(.serviceData)

    /// The descriptor asks for `.immediate` range and the device's signal
    /// is weaker than
    /// ``ASDiscoveryDescriptor/immediateRangeRSSIThreshold``, or unknown.
    public static let range = Rule(.range)
  }

  /// The rule the device fails.
  public let rule: Rule

  /// Why the device fails the rule, as a lower-case phrase such as
  /// `its advertised name 'Speaker X' does not contain 'Buds'`.
  public let reason: String

  /// Creates a mismatch.
  ///
  /// - Parameters:
  ///   - rule: The rule the device fails.
  ///   - reason: Why, as a lower-case phrase about the device.
  public init(rule: Rule, reason: String) {
    self.rule = rule
    self.reason = reason
  }

  /// The ``reason``.
  public var description: String { reason }
}

extension ASDiscoveryDescriptor {
  /// The weakest signal, in dBm, at which a device counts as within
  /// immediate range: -60.
  ///
  /// A descriptor whose ``bluetoothRange`` is ``Range/immediate`` matches
  /// only devices whose last advertisement arrived at this strength or
  /// stronger, which for a typical Bluetooth LE transmitter means within
  /// about a metre. Apple does not publish its threshold; this one is the
  /// Linux choice. A device whose signal strength is unknown is never
  /// within immediate range.
  public static let immediateRangeRSSIThreshold = -60

  /// Returns whether a discovered device satisfies every rule the
  /// descriptor sets.
  ///
  /// This is ``mismatch(with:)`` returning nil; see there for the rules.
  ///
  /// - Parameter device: The device, as BlueZ or the sound server sees it.
  /// - Returns: Whether the device matches.
  public func matches(_ device: DiscoveredDevice) -> Bool {
    mismatch(with: device) == nil
  }

  /// Returns the first descriptor rule a discovered device fails, or nil if
  /// it satisfies them all.
  ///
  /// Every rule the descriptor sets must hold; a rule that is not set
  /// accepts any device. The rules are judged on what the device's record
  /// holds, so a record from the sound server alone, which carries no
  /// advertisement, fails any service UUID, company identifier or
  /// advertisement data rule. The rules, in the order they are checked:
  ///
  /// 1. The descriptor is valid (``validate(against:)`` without a
  ///    configuration); an invalid one, even an empty one, matches nothing.
  /// 2. It sets no `ssid` or `ssidPrefix`: a Wi-Fi descriptor is kept, but
  ///    matches no Bluetooth device.
  /// 3. A non-zero `bluetoothCompanyIdentifier` is a key of the device's
  ///    `manufacturerData`.
  /// 4. `bluetoothServiceUUID` is in the device's `serviceUUIDs` or a key of
  ///    its `serviceData`. UUIDs compare by value, so `180D` equals
  ///    `0000180D-0000-1000-8000-00805F9B34FB`.
  /// 5. `bluetoothNameSubstring` occurs in the device's advertised `name`,
  ///    or in its `alias` when it advertises no name. The comparison is
  ///    case-sensitive: `Buds` does not match `MyBUDS`. Characters compare
  ///    as Swift strings do, so canonically equivalent spellings (a
  ///    precomposed `é` and `e` with a combining accent) are equal. This
  ///    is Apple's comparison with no compare options; Apple's
  ///    `bluetoothNameSubstringCompareOptions` (iOS 18.2) is not modelled.
  /// 6. The manufacturer data under the company identifier (the bytes after
  ///    the identifier) is at least as long as the blob, and each of the
  ///    blob's bytes equals the data's byte in every bit the mask sets.
  ///    Bytes past the blob's end are ignored.
  /// 7. The service data under the service UUID passes the same test
  ///    against the service data blob and mask.
  /// 8. With `bluetoothRange` `.immediate`, the device's RSSI is known and
  ///    at least ``immediateRangeRSSIThreshold``. The `.default` range
  ///    accepts any RSSI, an unknown one included.
  ///
  /// - Parameter device: The device, as BlueZ or the sound server sees it.
  /// - Returns: The first rule the device fails and why, or nil for a
  ///   match.
  public func mismatch(with device: DiscoveredDevice) -> DescriptorMismatch? {
    // One snapshot of the values, so a concurrent change cannot slip in
    // between validating and matching.
    let fields = self.fields
    if let error = ASDiscoveryDescriptor(fields: fields).validationErrors()
      .first
    {
      return DescriptorMismatch(
        rule: .invalidDescriptor,
        reason: "the descriptor breaks rule '\(error.rule)' and matches no "
          + "device: \(error.message)"
      )
    }
    return Self.wiFiMismatch(fields)
      ?? Self.companyMismatch(fields, device)
      ?? Self.serviceMismatch(fields, device)
      ?? Self.nameMismatch(fields, device)
      ?? Self.manufacturerDataMismatch(fields, device)
      ?? Self.serviceDataMismatch(fields, device)
      ?? Self.rangeMismatch(fields, device)
  }

  // MARK: - The rules

  /// Fails any device when the descriptor names a Wi-Fi network.
  private static func wiFiMismatch(_ fields: Fields) -> DescriptorMismatch? {
    let network: String
    if let ssid = fields.ssid {
      network = "Wi-Fi networks named '\(ssid)' (ssid)"
    } else if let prefix = fields.ssidPrefix {
      network =
        "Wi-Fi networks whose names start with '\(prefix)' "
        + "(ssidPrefix)"
    } else {
      return nil
    }
    return DescriptorMismatch(
      rule: .wiFiNetwork,
      reason: "the descriptor matches \(network), never a Bluetooth device"
    )
  }

  /// Fails a device without manufacturer data for the company.
  private static func companyMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    let company = fields.bluetoothCompanyIdentifier
    guard company != 0, device.manufacturerData[company] == nil else {
      return nil
    }
    let others = device.manufacturerData.keys.sorted()
      .map { text(companyIdentifier: $0) }
    let advertised =
      switch others.count {
      case 0: "it advertises no manufacturer data"
      case 1: "it advertises data for company \(others[0])"
      default:
        "it advertises data for companies "
          + others.joined(separator: ", ")
      }
    return DescriptorMismatch(
      rule: .companyIdentifier,
      reason: "it advertises no manufacturer data for company "
        + "\(text(companyIdentifier: company)) (\(advertised))"
    )
  }

  /// Fails a device that neither lists the service nor has data for it.
  private static func serviceMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    guard let uuid = fields.bluetoothServiceUUID,
      !device.serviceUUIDs.contains(uuid), device.serviceData[uuid] == nil
    else {
      return nil
    }
    var others = device.serviceUUIDs
    let withData = device.serviceData.keys
      .filter { !others.contains($0) }
      .sorted { $0.uuidString < $1.uuidString }
    others += withData
    let names = others.map(\.uuidString)
    let advertised =
      switch names.count {
      case 0: "it advertises no services"
      case 1: "it advertises service \(names[0])"
      default: "it advertises services " + names.joined(separator: ", ")
      }
    return DescriptorMismatch(
      rule: .serviceUUID,
      reason: "it advertises neither service \(uuid) nor service data for "
        + "it (\(advertised))"
    )
  }

  /// Fails a device whose name (or alias, without a name) lacks the
  /// substring.
  private static func nameMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    guard let substring = fields.bluetoothNameSubstring else { return nil }
    let reason: String
    if let name = device.name {
      guard !name.contains(substring) else { return nil }
      reason =
        "its advertised name '\(name)' does not contain "
        + "'\(substring)'" + caseHint(name, substring)
    } else if let alias = device.alias {
      guard !alias.contains(substring) else { return nil }
      reason =
        "it advertises no name, and its alias '\(alias)' does not "
        + "contain '\(substring)'" + caseHint(alias, substring)
    } else {
      reason =
        "it has neither an advertised name nor an alias to contain "
        + "'\(substring)'"
    }
    return DescriptorMismatch(rule: .nameSubstring, reason: reason)
  }

  /// A note for a name that would contain the substring in another letter
  /// case, or nothing.
  private static func caseHint(_ name: String, _ substring: String) -> String {
    name.lowercased().contains(substring.lowercased())
      ? " (names are compared case-sensitively)" : ""
  }

  /// Fails a device whose manufacturer data does not fit the blob.
  private static func manufacturerDataMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    guard let blob = fields.bluetoothManufacturerDataBlob,
      let mask = fields.bluetoothManufacturerDataMask
    else {
      return nil
    }
    let company = text(companyIdentifier: fields.bluetoothCompanyIdentifier)
    // The company rule, checked first, ensures the key is present.
    let payload =
      device.manufacturerData[fields.bluetoothCompanyIdentifier] ?? Data()
    return patternMismatch(
      .manufacturerData, "manufacturer data for company \(company)",
      payload, blob, mask)
  }

  /// Fails a device whose service data does not fit the blob.
  private static func serviceDataMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    guard let uuid = fields.bluetoothServiceUUID,
      let blob = fields.bluetoothServiceDataBlob,
      let mask = fields.bluetoothServiceDataMask
    else {
      return nil
    }
    guard let payload = device.serviceData[uuid] else {
      return DescriptorMismatch(
        rule: .serviceData,
        reason: "it advertises no service data for service \(uuid)"
      )
    }
    return patternMismatch(
      .serviceData, "service data for service \(uuid)", payload, blob, mask)
  }

  /// Compares advertised bytes with a blob in the bits a mask sets.
  ///
  /// - Parameters:
  ///   - rule: The rule to report.
  ///   - subject: What the bytes are, such as `service data for service
  ///     180D`.
  ///   - payload: The advertised bytes.
  ///   - blob: The bytes to match; as long as `mask`.
  ///   - mask: The bits that count.
  /// - Returns: The mismatch, or nil when every masked bit agrees.
  private static func patternMismatch(
    _ rule: DescriptorMismatch.Rule,
    _ subject: String,
    _ payload: Data,
    _ blob: Data,
    _ mask: Data
  ) -> DescriptorMismatch? {
    let payloadBytes = Array(payload)
    let blobBytes = Array(blob)
    let maskBytes = Array(mask)
    let advertised =
      payloadBytes.isEmpty
      ? "it advertises no bytes"
      : "it advertises \(spacedHex(payloadBytes))"
    guard payloadBytes.count >= blobBytes.count else {
      return DescriptorMismatch(
        rule: rule,
        reason: "\(subject) is shorter than blob \(spacedHex(blobBytes)) "
          + "(\(advertised))"
      )
    }
    let agrees = blobBytes.indices.allSatisfy { index in
      payloadBytes[index] & maskBytes[index]
        == blobBytes[index] & maskBytes[index]
    }
    guard !agrees else { return nil }
    return DescriptorMismatch(
      rule: rule,
      reason: "\(subject) does not match blob \(spacedHex(blobBytes)) under "
        + "mask \(spacedHex(maskBytes)) (\(advertised))"
    )
  }

  /// Fails a device outside immediate range when the descriptor asks for
  /// it.
  private static func rangeMismatch(
    _ fields: Fields, _ device: DiscoveredDevice
  ) -> DescriptorMismatch? {
    guard fields.bluetoothRange == .immediate else { return nil }
    let threshold = immediateRangeRSSIThreshold
    guard let rssi = device.rssi else {
      return DescriptorMismatch(
        rule: .range,
        reason: "RSSI is unknown, so it cannot meet the immediate-range "
          + "threshold of \(threshold) dBm"
      )
    }
    guard rssi < threshold else { return nil }
    return DescriptorMismatch(
      rule: .range,
      reason: "RSSI \(rssi) dBm is below the immediate-range threshold of "
        + "\(threshold) dBm"
    )
  }

  /// Returns bytes as upper-case hexadecimal pairs separated by spaces,
  /// such as `01 02 FF`.
  private static func spacedHex(_ bytes: [UInt8]) -> String {
    bytes.map { hex(Data([$0])) }.joined(separator: " ")
  }
}
