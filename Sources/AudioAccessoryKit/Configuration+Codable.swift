// Linux addition: the JSON form of a configuration, with Apple's property
// names, capability and placement names as text, and audio source
// identifiers written as colon-separated hexadecimal bytes
// ("AA:BB:CC:DD:EE:FF" for a Bluetooth address).

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
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      devicePlacement: try container.decodeIfPresent(
        AccessoryControlDevice.Placement.self, forKey: .devicePlacement),
      deviceCapabilities: try container.decode(
        AccessoryControlDevice.Capabilities.self, forKey: .deviceCapabilities),
      primaryAudioSourceDeviceIdentifier: try Self.decodeIdentifier(
        container, .primaryAudioSourceDeviceIdentifier),
      secondaryAudioSourceDeviceIdentifier: try Self.decodeIdentifier(
        container, .secondaryAudioSourceDeviceIdentifier)
    )
  }

  /// Encodes the JSON form of the configuration.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(deviceCapabilities, forKey: .deviceCapabilities)
    try container.encodeIfPresent(devicePlacement, forKey: .devicePlacement)
    try container.encodeIfPresent(
      primaryAudioSourceDeviceIdentifier.map(hexBytes),
      forKey: .primaryAudioSourceDeviceIdentifier)
    try container.encodeIfPresent(
      secondaryAudioSourceDeviceIdentifier.map(hexBytes),
      forKey: .secondaryAudioSourceDeviceIdentifier)
  }

  private static func decodeIdentifier(
    _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
  ) throws -> Data? {
    guard let text = try container.decodeIfPresent(String.self, forKey: key)
    else { return nil }
    guard let data = Data(hexBytes: text) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container,
        debugDescription:
          "'\(text)' is not a device identifier; expected hexadecimal bytes "
          + "such as 'AA:BB:CC:DD:EE:FF'")
    }
    return data
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
        debugDescription:
          "\(names) holds an unknown capability; expected "
          + "'audioSwitching' or 'placement'")
    }
    self = capabilities
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
}

/// Returns bytes as colon-separated upper-case hexadecimal pairs.
func hexBytes(_ data: Data) -> String {
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
