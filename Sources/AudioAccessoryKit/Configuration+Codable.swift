// Linux addition: the JSON form of a configuration, with Apple's property
// names, capability and placement names as text, and audio source
// identifiers written as colon-separated hexadecimal bytes
// ("AA:BB:CC:DD:EE:FF" for a Bluetooth address).

import AccessoryControl
import FoundationEssentials

extension AccessoryControlDevice.Configuration: Codable {
  private enum CodingKeys: String, CodingKey {
    case deviceCapabilities
    case devicePlacement
    case primaryAudioSourceDeviceIdentifier
    case secondaryAudioSourceDeviceIdentifier
  }

  /// Creates a configuration by decoding its JSON form.
  public init(from decoder: any Decoder) throws {
    try self.init(
      json: JSONValue(from: decoder), codingPath: decoder.codingPath)
  }

  /// Reads the JSON form that ``json`` builds, without a decoder: the
  /// service reads one from every `register` and `update`.
  ///
  /// Members it does not know are ignored, as a decoder would.
  ///
  /// - Parameters:
  ///   - json: The JSON form, an object.
  ///   - codingPath: Where the object is, for the errors.
  /// - Throws: `DecodingError` naming the member and what it expects.
  public init(
    json: JSONValue, codingPath: [any CodingKey] = []
  ) throws(DecodingError) {
    guard case .object(let members) = json else {
      throw .typeMismatch(
        [String: JSONValue].self,
        .init(codingPath: codingPath, debugDescription: "expected an object"))
    }
    func context(_ key: CodingKeys, _ text: String) -> DecodingError.Context {
      .init(codingPath: codingPath + [key], debugDescription: text)
    }
    func string(_ key: CodingKeys) throws(DecodingError) -> String? {
      switch members[key.rawValue] {
      case nil, .null?: return nil
      case .string(let text)?: return text
      default:
        throw .typeMismatch(String.self, context(key, "expected a string"))
      }
    }
    let capabilityNames = "expected an array of capability names"
    guard let listed = members[CodingKeys.deviceCapabilities.rawValue] else {
      throw .keyNotFound(
        CodingKeys.deviceCapabilities,
        context(.deviceCapabilities, capabilityNames))
    }
    guard case .array(let elements) = listed else {
      throw .typeMismatch(
        [String].self, context(.deviceCapabilities, capabilityNames))
    }
    let names = elements.compactMap(\.stringValue)
    guard names.count == elements.count,
      let capabilities = AccessoryControlDevice.Capabilities(names: names)
    else {
      throw .dataCorrupted(
        context(
          .deviceCapabilities,
          AccessoryControlDevice.Capabilities.unknownNameMessage(elements)))
    }
    var placement: AccessoryControlDevice.Placement?
    if let text = try string(.devicePlacement) {
      guard let known = AccessoryControlDevice.Placement(rawValue: text) else {
        throw .dataCorrupted(
          context(
            .devicePlacement,
            "'\(text)' is not a placement; expected one of "
              + AccessoryControlDevice.Placement.quotedNames))
      }
      placement = known
    }
    var identifiers: [Data?] = []
    for key in [
      CodingKeys.primaryAudioSourceDeviceIdentifier,
      .secondaryAudioSourceDeviceIdentifier,
    ] {
      guard let text = try string(key) else {
        identifiers.append(nil)
        continue
      }
      guard let data = Data(hexBytes: text) else {
        throw .dataCorrupted(
          context(
            key,
            "'\(text)' is not a device identifier; expected hexadecimal bytes "
              + "such as 'AA:BB:CC:DD:EE:FF'"))
      }
      identifiers.append(data)
    }
    self.init(
      devicePlacement: placement, deviceCapabilities: capabilities,
      primaryAudioSourceDeviceIdentifier: identifiers[0],
      secondaryAudioSourceDeviceIdentifier: identifiers[1])
  }

  /// Encodes the JSON form of the configuration.
  public func encode(to encoder: any Encoder) throws {
    try json.encode(to: encoder)
  }

  /// The JSON form that ``encode(to:)`` writes, built directly: the
  /// control protocol sends it with every `register` and `update`.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      CodingKeys.deviceCapabilities.rawValue: .array(
        deviceCapabilities.memberNames.map(JSONValue.string))
    ]
    members[CodingKeys.devicePlacement.rawValue] = devicePlacement.map {
      .string($0.rawValue)
    }
    members[CodingKeys.primaryAudioSourceDeviceIdentifier.rawValue] =
      primaryAudioSourceDeviceIdentifier.map { .string(hexBytes($0)) }
    members[CodingKeys.secondaryAudioSourceDeviceIdentifier.rawValue] =
      secondaryAudioSourceDeviceIdentifier.map { .string(hexBytes($0)) }
    return .object(members)
  }
}

extension AccessoryControlDevice.Capabilities: Codable,
  CustomStringConvertible
{
  /// The name of each capability, as Apple spells it.
  public static let names: [(name: String, capability: Self)] = [
    ("audioSwitching", .audioSwitching), ("placement", .placement),
  ]

  /// The capability names in the set, in a fixed order.
  public var memberNames: [String] {
    Self.names.filter { contains($0.capability) }.map(\.name)
  }

  /// The capability names joined by commas, or `none`.
  public var description: String {
    memberNames.isEmpty ? "none" : memberNames.joined(separator: ",")
  }

  /// Creates a set from capability names, or returns nil for an unknown
  /// name.
  ///
  /// - Parameter names: Names such as `audioSwitching` and `placement`.
  public init?<Names: Sequence<String>>(names: Names) {
    var result: Self = []
    for name in names {
      guard let entry = Self.names.first(where: { $0.name == name }) else {
        return nil
      }
      result.insert(entry.capability)
    }
    self = result
  }

  /// Creates a set by decoding an array of capability names.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let names = try container.decode([String].self)
    guard let capabilities = Self(names: names) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: Self.unknownNameMessage(names.map(JSONValue.string)))
    }
    self = capabilities
  }

  /// The message for a list of capability names that are not all known.
  static func unknownNameMessage(_ names: [JSONValue]) -> String {
    let list = names.map { $0.stringValue.map { "\"\($0)\"" } ?? $0.jsonText }
    return "[\(list.joined(separator: ", "))] holds an unknown capability; "
      + "expected 'audioSwitching' or 'placement'"
  }

  /// Encodes the set as an array of capability names.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(memberNames)
  }
}

extension AccessoryControlDevice.Placement: Codable,
  CustomStringConvertible
{
  /// Whether the accessory is being worn: in the ear, on the head or over
  /// the ear.
  public var isWorn: Bool { self != .offHead }

  /// The placement's name, as Apple spells it.
  public var description: String { rawValue }

  /// Every placement's name in quotes, separated by commas, for messages:
  /// `'inEar', 'onHead', 'overTheEar', 'offHead'`.
  public static var quotedNames: String {
    allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
  }
}

/// Returns bytes as colon-separated upper-case hexadecimal pairs.
package func hexBytes(_ data: Data) -> String {
  data.map(hexByte).joined(separator: ":")
}

extension Data {
  /// Creates data from colon- or dash-separated hexadecimal pairs, or
  /// returns nil.
  package init?(hexBytes text: String) {
    if text.isEmpty {
      self.init()
      return
    }
    var bytes: [UInt8] = []
    for part in text.split(
      omittingEmptySubsequences: false,
      whereSeparator: { $0 == ":" || $0 == "-" })
    {
      guard part.count == 2, let byte = UInt8(part, radix: 16) else {
        return nil
      }
      bytes.append(byte)
    }
    self.init(bytes)
  }
}
