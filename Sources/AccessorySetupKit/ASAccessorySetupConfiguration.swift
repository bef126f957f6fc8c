// The Linux analogue of an app's AccessorySetupKit Info.plist keys: which
// technologies it discovers and which Bluetooth identifiers it declares.
// Descriptors are checked against it by ASDiscoveryDescriptor.validate.

import AccessoryControl
import CoreBluetooth
import FoundationEssentials
import Glibc

/// The accessory technologies and Bluetooth identifiers an app declares for
/// AccessorySetupKit.
///
/// On Apple's platforms these are Info.plist keys, and a descriptor that
/// uses an undeclared identifier crashes the app. On Linux, load them with
/// ``load(from:)`` from a JSON file whose keys are the Info.plist names:
///
/// ```json
/// {
///   "NSAccessorySetupSupports": ["Bluetooth"],
///   "NSAccessorySetupBluetoothServices": ["180D"],
///   "NSAccessorySetupBluetoothNames": ["MyDevice"],
///   "NSAccessorySetupBluetoothCompanyIdentifiers": ["0x004C"]
/// }
/// ```
///
/// and pass the configuration to
/// ``ASDiscoveryDescriptor/validate(against:)``, which reports the
/// identifiers to add.
public struct ASAccessorySetupConfiguration: Sendable, Hashable {
  /// A technology AccessorySetupKit can discover accessories with.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Bluetooth accessories; the Info.plist value is `Bluetooth`.
    case bluetooth = "Bluetooth"

    /// Wi-Fi accessories; the Info.plist value is `WiFi`.
    case wifi = "WiFi"
  }

  /// The Info.plist key names.
  public enum Key {
    /// The technologies the app discovers accessories with.
    public static let supports = "NSAccessorySetupSupports"

    /// The other spelling Apple documents for ``supports``; files may use
    /// either, or both.
    public static let kitSupports = "NSAccessorySetupKitSupports"

    /// The Bluetooth service UUIDs the app's descriptors use.
    public static let bluetoothServices = "NSAccessorySetupBluetoothServices"

    /// The Bluetooth names the app's descriptors use.
    public static let bluetoothNames = "NSAccessorySetupBluetoothNames"

    /// The Bluetooth company identifiers the app's descriptors use.
    public static let bluetoothCompanyIdentifiers =
      "NSAccessorySetupBluetoothCompanyIdentifiers"
  }

  /// The technologies the app discovers accessories with
  /// (`NSAccessorySetupSupports`).
  public var supports: Set<Kind>

  /// The Bluetooth service UUIDs the app's descriptors use
  /// (`NSAccessorySetupBluetoothServices`).
  public var bluetoothServices: [CBUUID]

  /// The Bluetooth names the app's descriptors use as name substrings
  /// (`NSAccessorySetupBluetoothNames`).
  public var bluetoothNames: [String]

  /// The Bluetooth company identifiers the app's descriptors use
  /// (`NSAccessorySetupBluetoothCompanyIdentifiers`).
  public var bluetoothCompanyIdentifiers: [ASBluetoothCompanyIdentifier]

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - supports: The technologies the app discovers accessories with.
  ///   - bluetoothServices: The service UUIDs its descriptors use.
  ///   - bluetoothNames: The names its descriptors use.
  ///   - bluetoothCompanyIdentifiers: The company identifiers its
  ///     descriptors use.
  public init(
    supports: Set<Kind>,
    bluetoothServices: [CBUUID] = [],
    bluetoothNames: [String] = [],
    bluetoothCompanyIdentifiers: [ASBluetoothCompanyIdentifier] = []
  ) {
    self.supports = supports
    self.bluetoothServices = bluetoothServices
    self.bluetoothNames = bluetoothNames
    self.bluetoothCompanyIdentifiers = bluetoothCompanyIdentifiers
  }

  /// An error that says which key of a configuration file is wrong and what
  /// it should hold.
  public struct LoadError: Error, Hashable, CustomStringConvertible {
    /// The path of the file, if the configuration came from one.
    public let path: String?

    /// The Info.plist key at fault, or nil for a problem with the whole
    /// file.
    public let key: String?

    /// What is wrong and what is expected, naming the key.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The path of the file, if any.
    ///   - key: The key at fault, if any.
    ///   - message: What is wrong and what is expected.
    public init(path: String?, key: String?, message: String) {
      self.path = path
      self.key = key
      self.message = message
    }

    /// The ``message``, after the file's path if there is one.
    public var description: String {
      path.map { "\($0): \(message)" } ?? message
    }
  }

  /// Reads a configuration from a JSON file whose keys are the Info.plist
  /// names.
  ///
  /// `NSAccessorySetupSupports` (or Apple's other spelling,
  /// `NSAccessorySetupKitSupports`) is required and lists `Bluetooth`,
  /// `WiFi` or both. The Bluetooth keys are optional arrays: service UUIDs
  /// as strings such as `"180D"`, names as strings, and company identifiers
  /// as numbers (`76`) or hexadecimal strings (`"0x004C"` or `"004C"`, as
  /// Apple's Info.plist documents them). Other keys are ignored, so a JSON
  /// export of a whole Info.plist works.
  ///
  /// - Parameter url: The file to read.
  /// - Returns: The configuration.
  /// - Throws: A ``LoadError`` naming the file and, for a bad value, the key
  ///   and what it should hold.
  public static func load(
    from url: URL
  ) throws(LoadError) -> ASAccessorySetupConfiguration {
    let path = url.path
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw LoadError(
        path: path, key: nil,
        message: "the file cannot be read (\(systemReason(error)))."
      )
    }
    let value: PlistValue
    do {
      value = try JSONDecoder().decode(PlistValue.self, from: data)
    } catch {
      throw LoadError(
        path: path, key: nil,
        message: "the file is not valid JSON; expected an object whose keys "
          + "are Info.plist keys such as \(Key.supports)."
      )
    }
    guard case .object(let object) = value else {
      throw LoadError(
        path: path, key: nil,
        message: "the file holds \(value.kind), not an object; expected an "
          + "object whose keys are Info.plist keys such as \(Key.supports)."
      )
    }
    do {
      return try parse(object)
    } catch {
      throw LoadError(path: path, key: error.key, message: error.message)
    }
  }
}

// MARK: - Parsing

extension ASAccessorySetupConfiguration {
  /// A JSON value, decoded without losing its kind, for precise errors.
  private enum PlistValue: Decodable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([PlistValue])
    case object([String: PlistValue])

    /// Decodes whichever kind of JSON value the container holds.
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .boolean(value)
      } else if let value = try? container.decode(Double.self) {
        self = .number(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else if let value = try? container.decode([PlistValue].self) {
        self = .array(value)
      } else {
        self = .object(try container.decode([String: PlistValue].self))
      }
    }

    /// The kind of value with its article, such as `a string`.
    var kind: String {
      switch self {
      case .null: "null"
      case .boolean: "a boolean"
      case .number: "a number"
      case .string: "a string"
      case .array: "an array"
      case .object: "an object"
      }
    }

    /// The value as an error message quotes it: text in single quotes, a
    /// number as written, anything else by its kind.
    var quoted: String {
      switch self {
      case .string(let text): "'\(text)'"
      case .number(let number):
        number == number.rounded() && abs(number) < 1e15
          ? String(Int64(number)) : String(number)
      default: kind
      }
    }
  }

  /// What each key holds, as error messages word it.
  private static let expectations: [String: String] = [
    Key.supports: "an array of strings, each 'Bluetooth' or 'WiFi'",
    Key.kitSupports: "an array of strings, each 'Bluetooth' or 'WiFi'",
    Key.bluetoothServices: "an array of Bluetooth UUID strings, such as "
      + "'180D' or '12345678-1234-1234-1234-123456789ABC'",
    Key.bluetoothNames: "an array of strings",
    Key.bluetoothCompanyIdentifiers: "an array of 16-bit company "
      + "identifiers, as numbers such as 76 or hexadecimal strings such as "
      + "'0x004C'",
  ]

  /// Builds a configuration from a JSON object of Info.plist keys.
  private static func parse(
    _ object: [String: PlistValue]
  ) throws(LoadError) -> ASAccessorySetupConfiguration {
    let supportKeys = [Key.supports, Key.kitSupports].filter {
      object[$0] != nil
    }
    guard !supportKeys.isEmpty else {
      throw LoadError(
        path: nil, key: Key.supports,
        message: "\(Key.supports) is missing; expected "
          + "\(expectations[Key.supports]!)."
      )
    }
    var supports: Set<Kind> = []
    for key in supportKeys {
      let kinds = try elements(
        of: object, key, expected: "'Bluetooth' or 'WiFi'"
      ) { value -> Kind? in
        guard case .string(let text) = value else { return nil }
        return Kind(rawValue: text)
      }
      guard !kinds.isEmpty else {
        throw LoadError(
          path: nil, key: key,
          message: "\(key) is empty; expected \(expectations[key]!)."
        )
      }
      supports.formUnion(kinds)
    }
    let services = try elements(
      of: object, Key.bluetoothServices,
      expected: "a Bluetooth UUID string, such as '180D' or "
        + "'12345678-1234-1234-1234-123456789ABC'"
    ) { value -> CBUUID? in
      guard case .string(let text) = value else { return nil }
      return CBUUID(validating: text)
    }
    let names = try elements(
      of: object, Key.bluetoothNames, expected: "a string"
    ) { value -> String? in
      guard case .string(let text) = value else { return nil }
      return text
    }
    let companies = try elements(
      of: object, Key.bluetoothCompanyIdentifiers,
      expected: "a 16-bit company identifier, as a number such as 76 or a "
        + "hexadecimal string such as '0x004C' or '004C'"
    ) { value -> ASBluetoothCompanyIdentifier? in
      companyIdentifier(value)
    }
    return ASAccessorySetupConfiguration(
      supports: supports,
      bluetoothServices: services,
      bluetoothNames: names,
      bluetoothCompanyIdentifiers: companies
    )
  }

  /// Converts each element of an optional array-valued key, or throws an
  /// error that names the key, the element and what was expected.
  private static func elements<Element>(
    of object: [String: PlistValue],
    _ key: String,
    expected: String,
    _ convert: (PlistValue) -> Element?
  ) throws(LoadError) -> [Element] {
    guard let value = object[key] else { return [] }
    guard case .array(let values) = value else {
      throw LoadError(
        path: nil, key: key,
        message: "\(key) is \(value.kind); expected \(expectations[key]!)."
      )
    }
    var result: [Element] = []
    for (index, element) in values.enumerated() {
      guard let converted = convert(element) else {
        throw LoadError(
          path: nil, key: key,
          message: "\(key)[\(index)] is \(element.quoted); expected "
            + "\(expected)."
        )
      }
      result.append(converted)
    }
    return result
  }

  /// Reads a company identifier from a whole number in 0...0xFFFF, or from
  /// `0x` and one to four hexadecimal digits, or exactly four hexadecimal
  /// digits.
  private static func companyIdentifier(
    _ value: PlistValue
  ) -> ASBluetoothCompanyIdentifier? {
    switch value {
    case .number(let number):
      guard number == number.rounded(), number >= 0, number <= 0xFFFF else {
        return nil
      }
      return ASBluetoothCompanyIdentifier(number)
    case .string(let text):
      let digits: Substring
      if text.hasPrefix("0x") || text.hasPrefix("0X") {
        digits = text.dropFirst(2)
        guard (1...4).contains(digits.count) else { return nil }
      } else {
        digits = Substring(text)
        guard digits.count == 4 else { return nil }
      }
      guard digits.allSatisfy(\.isHexDigit) else { return nil }
      return ASBluetoothCompanyIdentifier(digits, radix: 16)
    default:
      return nil
    }
  }
}

// MARK: - Codable

extension ASAccessorySetupConfiguration: Codable {
  /// The coding keys: the Info.plist names.
  private struct CodingKeys: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
      self.stringValue = stringValue
    }

    init?(intValue: Int) {
      return nil
    }
  }

  /// Creates a configuration from a keyed container whose keys are the
  /// Info.plist names, with the rules of ``load(from:)``.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` whose underlying error is the
  ///   ``LoadError`` that names the key at fault.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let object = try container.decode([String: PlistValue].self)
    do {
      self = try Self.parse(object)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: error.message,
          underlyingError: error
        )
      )
    }
  }

  /// Writes the configuration under the Info.plist names, company
  /// identifiers as hexadecimal strings such as `0x004C`.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(
      supports.map(\.rawValue).sorted(),
      forKey: CodingKeys(stringValue: Key.supports)
    )
    try container.encode(
      bluetoothServices,
      forKey: CodingKeys(stringValue: Key.bluetoothServices)
    )
    try container.encode(
      bluetoothNames, forKey: CodingKeys(stringValue: Key.bluetoothNames)
    )
    try container.encode(
      bluetoothCompanyIdentifiers.map {
        ASDiscoveryDescriptor.text(companyIdentifier: $0)
      },
      forKey: CodingKeys(stringValue: Key.bluetoothCompanyIdentifiers)
    )
  }
}
