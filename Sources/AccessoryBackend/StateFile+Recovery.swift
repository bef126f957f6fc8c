// Linux addition: recovering what can be read of a damaged state file, so
// that a file cut short or with one bad entry costs that entry, not every
// accessory.

import FoundationEssentials

extension StateFile {
  /// What could be read of a state file that does not decode.
  public struct Recovery: Sendable, Equatable {
    /// The accessories and registrations that decoded.
    public var registry: AccessoryRegistry

    /// "2 accessories and 1 registration", for the log.
    public var summary: String {
      let accessories = registry.accessories.count
      let registrations = registry.registrations.count
      return "\(accessories) accessor\(accessories == 1 ? "y" : "ies") and "
        + "\(registrations) registration\(registrations == 1 ? "" : "s")"
    }
  }

  /// Recovers the entries that decode from contents that do not.
  ///
  /// Each accessory and registration is decoded on its own, and those that
  /// do not decode are left out. Contents cut short are closed after the
  /// last whole entry first. A file of another version, or one with no
  /// entry that decodes, recovers nothing.
  ///
  /// - Parameter data: The contents of the state file.
  /// - Returns: What decoded, or nil for nothing.
  public static func recover(_ data: Data) -> Recovery? {
    let decoder = makeDecoder()
    let bytes = [UInt8](data)
    for candidate in [bytes] + closedPrefixes(of: bytes) {
      guard
        let document = try? decoder.decode(
          LenientDocument.self, from: Data(candidate))
      else { continue }
      guard document.version == nil || document.version == currentVersion
      else { return nil }
      let registry = AccessoryRegistry(
        accessories: document.accessories.compactMap(\.value),
        registrations: document.registrations.compactMap(\.value))
      return registry == AccessoryRegistry()
        ? nil : Recovery(registry: registry)
    }
    return nil
  }

  /// The beginnings of `bytes` that end with a whole element of an array,
  /// each closed with the brackets still open there, longest first.
  static func closedPrefixes(of bytes: [UInt8]) -> [[UInt8]] {
    var open: [UInt8] = []
    var inString = false
    var escaped = false
    var prefixes: [[UInt8]] = []
    for (index, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        open.append(byte)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard !open.isEmpty else { return prefixes.reversed() }
        open.removeLast()
        if open.last == UInt8(ascii: "[") {
          let closers = open.reversed().map {
            $0 == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
          }
          prefixes.append(Array(bytes[...index]) + closers)
        }
      default:
        break
      }
    }
    return prefixes.reversed()
  }

  /// The file's shape with every part optional and every entry on its own.
  private struct LenientDocument: Decodable {
    var version: Int?
    var accessories: [Entry<AccessoryRegistry.PairedAccessory>] = []
    var registrations: [Entry<AccessoryRegistry.Registration>] = []

    private enum CodingKeys: String, CodingKey {
      case version, accessories, registrations
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      version = try? container.decodeIfPresent(Int.self, forKey: .version)
      accessories =
        (try? container.decodeIfPresent(
          [Entry<AccessoryRegistry.PairedAccessory>].self,
          forKey: .accessories)) ?? []
      registrations =
        (try? container.decodeIfPresent(
          [Entry<AccessoryRegistry.Registration>].self,
          forKey: .registrations)) ?? []
    }
  }

  /// One entry, or nil where it does not decode.
  private struct Entry<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) throws {
      value = try? Value(from: decoder)
    }
  }
}
