// Apple's ASDiscoveryDescriptor: the traits that pick an accessory out of
// Bluetooth advertisements or Wi-Fi networks. Fields, names and types follow
// Apple's documentation; the rules that connect them are in
// ASDiscoveryDescriptor+Validation.swift.

import ConcurrencyHelpers
import CoreBluetooth
import FoundationEssentials

/// A 16-bit Bluetooth company identifier, as assigned by the Bluetooth SIG.
///
/// Zero means "no company identifier", as in Apple's AccessorySetupKit.
public typealias ASBluetoothCompanyIdentifier = UInt16

/// The traits that identify the accessories an app can discover and set up.
///
/// Set the traits of a Bluetooth accessory (a service UUID or company
/// identifier, optionally narrowed by a name substring or advertisement data
/// patterns) or of a Wi-Fi accessory (its network name or a prefix of it):
///
/// ```swift
/// let descriptor = ASDiscoveryDescriptor()
/// descriptor.bluetoothServiceUUID = CBUUID(string: "180D")
/// descriptor.bluetoothNameSubstring = "MyDevice"
/// descriptor.bluetoothRange = .immediate
/// ```
///
/// Like Apple's class, a descriptor is a mutable reference; its properties
/// are guarded by a lock, so it can be shared between tasks. Two
/// descriptors are equal when all their properties are equal.
///
/// - Important: Apple's framework crashes when a descriptor breaks one of
///   its rules. Here, ``validate(against:)`` reports the broken rule as an
///   error; call it before a descriptor reaches a picker.
public final class ASDiscoveryDescriptor: Sendable, Hashable,
  CustomStringConvertible
{
  /// How close an accessory must be for discovery to report it.
  public enum Range: Int, Sendable, Hashable, CaseIterable {
    /// The default range in which to discover accessories.
    case `default` = 0

    /// Only accessories right next to the discovering device.
    case immediate = 10
  }

  /// The plain values behind a descriptor.
  struct Fields: Sendable, Hashable {
    var bluetoothCompanyIdentifier: ASBluetoothCompanyIdentifier = 0
    var bluetoothServiceUUID: CBUUID?
    var bluetoothNameSubstring: String?
    var bluetoothManufacturerDataBlob: Data?
    var bluetoothManufacturerDataMask: Data?
    var bluetoothServiceDataBlob: Data?
    var bluetoothServiceDataMask: Data?
    var bluetoothRange: Range = .default
    var supportedOptions: ASAccessory.SupportOptions = []
    var ssid: String?
    var ssidPrefix: String?
  }

  /// The descriptor's values, behind a lock.
  private let storage: Mutex<Fields>

  /// A copy of all the descriptor's values, read under one lock.
  var fields: Fields { storage.withLock { $0 } }

  /// Creates a descriptor with no traits set.
  ///
  /// Set at least one Bluetooth identifier or a Wi-Fi network name before
  /// using it.
  public init() {
    storage = Mutex(Fields())
  }

  /// Creates a descriptor from its plain values.
  init(fields: Fields) {
    storage = Mutex(fields)
  }

  /// Creates a descriptor with the given traits.
  ///
  /// This Linux convenience sets in one call what Apple's code sets one
  /// property at a time; every parameter defaults to "not set".
  ///
  /// - Parameters:
  ///   - bluetoothCompanyIdentifier: The company identifier, or 0.
  ///   - bluetoothServiceUUID: The advertised service UUID.
  ///   - bluetoothNameSubstring: A part of the advertised name.
  ///   - bluetoothManufacturerDataBlob: The manufacturer data to match.
  ///   - bluetoothManufacturerDataMask: The bits of the blob that count.
  ///   - bluetoothServiceDataBlob: The service data to match.
  ///   - bluetoothServiceDataMask: The bits of the blob that count.
  ///   - bluetoothRange: How close the accessory must be.
  ///   - supportedOptions: The accessory's Bluetooth capabilities.
  ///   - ssid: The accessory's Wi-Fi network name.
  ///   - ssidPrefix: The start of the accessory's Wi-Fi network name.
  public convenience init(
    bluetoothCompanyIdentifier: ASBluetoothCompanyIdentifier = 0,
    bluetoothServiceUUID: CBUUID? = nil,
    bluetoothNameSubstring: String? = nil,
    bluetoothManufacturerDataBlob: Data? = nil,
    bluetoothManufacturerDataMask: Data? = nil,
    bluetoothServiceDataBlob: Data? = nil,
    bluetoothServiceDataMask: Data? = nil,
    bluetoothRange: Range = .default,
    supportedOptions: ASAccessory.SupportOptions = [],
    ssid: String? = nil,
    ssidPrefix: String? = nil
  ) {
    self.init(
      fields: Fields(
        bluetoothCompanyIdentifier: bluetoothCompanyIdentifier,
        bluetoothServiceUUID: bluetoothServiceUUID,
        bluetoothNameSubstring: bluetoothNameSubstring,
        bluetoothManufacturerDataBlob: bluetoothManufacturerDataBlob,
        bluetoothManufacturerDataMask: bluetoothManufacturerDataMask,
        bluetoothServiceDataBlob: bluetoothServiceDataBlob,
        bluetoothServiceDataMask: bluetoothServiceDataMask,
        bluetoothRange: bluetoothRange,
        supportedOptions: supportedOptions,
        ssid: ssid,
        ssidPrefix: ssidPrefix
      )
    )
  }

  /// The accessory's 16-bit Bluetooth company identifier, or 0 for none.
  ///
  /// It matches the company identifier that opens the accessory's
  /// manufacturer-specific advertisement data.
  public var bluetoothCompanyIdentifier: ASBluetoothCompanyIdentifier {
    get { storage.withLock { $0.bluetoothCompanyIdentifier } }
    set { storage.withLock { $0.bluetoothCompanyIdentifier = newValue } }
  }

  /// The Bluetooth service UUID the accessory advertises.
  public var bluetoothServiceUUID: CBUUID? {
    get { storage.withLock { $0.bluetoothServiceUUID } }
    set { storage.withLock { $0.bluetoothServiceUUID = newValue } }
  }

  /// A substring of the accessory's advertised Bluetooth name.
  ///
  /// It needs a ``bluetoothServiceUUID`` or a ``bluetoothCompanyIdentifier``
  /// to scope it.
  public var bluetoothNameSubstring: String? {
    get { storage.withLock { $0.bluetoothNameSubstring } }
    set { storage.withLock { $0.bluetoothNameSubstring = newValue } }
  }

  /// The bytes the accessory's Bluetooth manufacturer data must match.
  ///
  /// Only the bits set in ``bluetoothManufacturerDataMask`` count. The blob
  /// covers the bytes after the 2-byte company identifier, which
  /// ``bluetoothCompanyIdentifier`` matches.
  public var bluetoothManufacturerDataBlob: Data? {
    get { storage.withLock { $0.bluetoothManufacturerDataBlob } }
    set { storage.withLock { $0.bluetoothManufacturerDataBlob = newValue } }
  }

  /// The mask that selects the bits of ``bluetoothManufacturerDataBlob``
  /// that must match.
  public var bluetoothManufacturerDataMask: Data? {
    get { storage.withLock { $0.bluetoothManufacturerDataMask } }
    set { storage.withLock { $0.bluetoothManufacturerDataMask = newValue } }
  }

  /// The bytes the accessory's Bluetooth service data must match.
  ///
  /// Only the bits set in ``bluetoothServiceDataMask`` count. The blob
  /// covers the data advertised for ``bluetoothServiceUUID``, after the
  /// UUID itself.
  public var bluetoothServiceDataBlob: Data? {
    get { storage.withLock { $0.bluetoothServiceDataBlob } }
    set { storage.withLock { $0.bluetoothServiceDataBlob = newValue } }
  }

  /// The mask that selects the bits of ``bluetoothServiceDataBlob`` that
  /// must match.
  public var bluetoothServiceDataMask: Data? {
    get { storage.withLock { $0.bluetoothServiceDataMask } }
    set { storage.withLock { $0.bluetoothServiceDataMask = newValue } }
  }

  /// How close a Bluetooth accessory must be to be discovered.
  public var bluetoothRange: Range {
    get { storage.withLock { $0.bluetoothRange } }
    set { storage.withLock { $0.bluetoothRange = newValue } }
  }

  /// The Bluetooth capabilities of the accessory.
  public var supportedOptions: ASAccessory.SupportOptions {
    get { storage.withLock { $0.supportedOptions } }
    set { storage.withLock { $0.supportedOptions = newValue } }
  }

  /// The exact network name of a Wi-Fi accessory.
  ///
  /// Set this or ``ssidPrefix``, never both.
  public var ssid: String? {
    get { storage.withLock { $0.ssid } }
    set { storage.withLock { $0.ssid = newValue } }
  }

  /// The start of the network name of a Wi-Fi accessory.
  ///
  /// Set this or ``ssid``, never both.
  public var ssidPrefix: String? {
    get { storage.withLock { $0.ssidPrefix } }
    set { storage.withLock { $0.ssidPrefix = newValue } }
  }

  /// Returns whether two descriptors have equal properties.
  ///
  /// - Important: Equality and hashing follow the current property values.
  ///   Do not mutate a descriptor while it is a key in a dictionary or an
  ///   element of a set.
  public static func == (
    lhs: ASDiscoveryDescriptor, rhs: ASDiscoveryDescriptor
  ) -> Bool {
    lhs === rhs || lhs.fields == rhs.fields
  }

  /// Hashes the descriptor's current property values.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(fields)
  }

  /// A one-line description listing the properties that are set, such as
  /// `ASDiscoveryDescriptor(bluetoothServiceUUID: 180D)`.
  public var description: String {
    let fields = self.fields
    var parts: [String] = []
    if fields.bluetoothCompanyIdentifier != 0 {
      parts.append(
        "bluetoothCompanyIdentifier: "
          + Self.text(companyIdentifier: fields.bluetoothCompanyIdentifier)
      )
    }
    if let uuid = fields.bluetoothServiceUUID {
      parts.append("bluetoothServiceUUID: \(uuid)")
    }
    if let name = fields.bluetoothNameSubstring {
      parts.append("bluetoothNameSubstring: '\(name)'")
    }
    let data: [(String, Data?)] = [
      ("bluetoothManufacturerDataBlob", fields.bluetoothManufacturerDataBlob),
      ("bluetoothManufacturerDataMask", fields.bluetoothManufacturerDataMask),
      ("bluetoothServiceDataBlob", fields.bluetoothServiceDataBlob),
      ("bluetoothServiceDataMask", fields.bluetoothServiceDataMask),
    ]
    for case (let name, let value?) in data {
      parts.append("\(name): \(Self.hex(value))")
    }
    if fields.bluetoothRange != .default {
      parts.append("bluetoothRange: \(fields.bluetoothRange)")
    }
    if !fields.supportedOptions.isEmpty {
      parts.append("supportedOptions: \(fields.supportedOptions)")
    }
    if let ssid = fields.ssid {
      parts.append("ssid: '\(ssid)'")
    }
    if let prefix = fields.ssidPrefix {
      parts.append("ssidPrefix: '\(prefix)'")
    }
    return "ASDiscoveryDescriptor(" + parts.joined(separator: ", ") + ")"
  }

  /// Returns bytes as upper-case hexadecimal digits, such as `4C00FF`, or
  /// `empty` for no bytes.
  static func hex(_ data: Data) -> String {
    guard !data.isEmpty else { return "empty" }
    return data.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return byte < 0x10 ? "0" + digits : digits
    }.joined()
  }

  /// Returns a company identifier as four hexadecimal digits, such as
  /// `0x004C`.
  static func text(companyIdentifier: ASBluetoothCompanyIdentifier) -> String {
    let digits = String(companyIdentifier, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
  }
}

extension ASDiscoveryDescriptor.Range: CustomStringConvertible {
  /// The case name, `default` or `immediate`.
  public var description: String {
    switch self {
    case .default: "default"
    case .immediate: "immediate"
    }
  }
}

extension ASDiscoveryDescriptor.Range: Codable {
  /// Creates a range from its case name (`"immediate"`) or Apple's raw
  /// value (`10`).
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` for any other value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let rawValue = try? container.decode(Int.self),
      let range = Self(rawValue: rawValue)
    {
      self = range
      return
    }
    if let name = try? container.decode(String.self),
      let range = Self.allCases.first(where: { $0.description == name })
    {
      self = range
      return
    }
    throw DecodingError.dataCorruptedError(
      in: container,
      debugDescription: "expected 'default' or 'immediate' (or Apple's raw "
        + "values 0 or 10)"
    )
  }

  /// Writes the range's case name.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension ASDiscoveryDescriptor: Codable {
  /// The coding keys: Apple's property names.
  private enum CodingKeys: String, CodingKey {
    case bluetoothCompanyIdentifier
    case bluetoothServiceUUID
    case bluetoothNameSubstring
    case bluetoothManufacturerDataBlob
    case bluetoothManufacturerDataMask
    case bluetoothServiceDataBlob
    case bluetoothServiceDataMask
    case bluetoothRange
    case supportedOptions
    case ssid
    case ssidPrefix
  }

  /// Creates a descriptor from a keyed container whose keys are Apple's
  /// property names; a missing key leaves its property unset.
  ///
  /// Decoding does not validate the descriptor; call
  /// ``validate(against:)`` for that.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` if a value has the wrong type.
  public convenience init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var fields = Fields()
    fields.bluetoothCompanyIdentifier =
      try container.decodeIfPresent(
        ASBluetoothCompanyIdentifier.self,
        forKey: .bluetoothCompanyIdentifier
      ) ?? 0
    fields.bluetoothServiceUUID = try container.decodeIfPresent(
      CBUUID.self, forKey: .bluetoothServiceUUID)
    fields.bluetoothNameSubstring = try container.decodeIfPresent(
      String.self, forKey: .bluetoothNameSubstring)
    fields.bluetoothManufacturerDataBlob = try container.decodeIfPresent(
      Data.self, forKey: .bluetoothManufacturerDataBlob)
    fields.bluetoothManufacturerDataMask = try container.decodeIfPresent(
      Data.self, forKey: .bluetoothManufacturerDataMask)
    fields.bluetoothServiceDataBlob = try container.decodeIfPresent(
      Data.self, forKey: .bluetoothServiceDataBlob)
    fields.bluetoothServiceDataMask = try container.decodeIfPresent(
      Data.self, forKey: .bluetoothServiceDataMask)
    fields.bluetoothRange =
      try container.decodeIfPresent(Range.self, forKey: .bluetoothRange)
      ?? .default
    fields.supportedOptions =
      try container.decodeIfPresent(
        ASAccessory.SupportOptions.self, forKey: .supportedOptions
      ) ?? []
    fields.ssid = try container.decodeIfPresent(String.self, forKey: .ssid)
    fields.ssidPrefix = try container.decodeIfPresent(
      String.self, forKey: .ssidPrefix)
    self.init(fields: fields)
  }

  /// Writes the properties that are set, under Apple's property names.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    let fields = self.fields
    var container = encoder.container(keyedBy: CodingKeys.self)
    if fields.bluetoothCompanyIdentifier != 0 {
      try container.encode(
        fields.bluetoothCompanyIdentifier, forKey: .bluetoothCompanyIdentifier)
    }
    try container.encodeIfPresent(
      fields.bluetoothServiceUUID, forKey: .bluetoothServiceUUID)
    try container.encodeIfPresent(
      fields.bluetoothNameSubstring, forKey: .bluetoothNameSubstring)
    try container.encodeIfPresent(
      fields.bluetoothManufacturerDataBlob,
      forKey: .bluetoothManufacturerDataBlob)
    try container.encodeIfPresent(
      fields.bluetoothManufacturerDataMask,
      forKey: .bluetoothManufacturerDataMask)
    try container.encodeIfPresent(
      fields.bluetoothServiceDataBlob, forKey: .bluetoothServiceDataBlob)
    try container.encodeIfPresent(
      fields.bluetoothServiceDataMask, forKey: .bluetoothServiceDataMask)
    if fields.bluetoothRange != .default {
      try container.encode(fields.bluetoothRange, forKey: .bluetoothRange)
    }
    if !fields.supportedOptions.isEmpty {
      try container.encode(fields.supportedOptions, forKey: .supportedOptions)
    }
    try container.encodeIfPresent(fields.ssid, forKey: .ssid)
    try container.encodeIfPresent(fields.ssidPrefix, forKey: .ssidPrefix)
  }
}
