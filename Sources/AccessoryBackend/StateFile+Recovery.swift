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
  /// Time and memory grow with the size of the file, not its square: the
  /// places where the contents can be closed are found in one pass, and
  /// one candidate at a time is built and decoded. The longest comes
  /// first, as a file cut short decodes there. Damage further in makes
  /// every beginning that reaches it fail and every shorter one decode, so
  /// the longest that decodes is then found by halving: a few decodes,
  /// wherever the damage is.
  ///
  /// - Parameter data: The contents of the state file.
  /// - Returns: What decoded, or nil for nothing.
  public static func recover(_ data: Data) -> Recovery? {
    let decoder = makeDecoder()
    if let document = try? decoder.decode(LenientDocument.self, from: data) {
      return recovery(from: document)
    }
    let bytes = [UInt8](data)
    let closings = closings(of: bytes)
    let decode = { (closing: Closing) -> LenientDocument? in
      var candidate = Data(capacity: closing.end + closing.closers.count)
      candidate.append(contentsOf: bytes[..<closing.end])
      candidate.append(contentsOf: closing.closers)
      return try? decoder.decode(LenientDocument.self, from: candidate)
    }
    guard let longest = closings.last else { return nil }
    if let document = decode(longest) { return recovery(from: document) }
    var found: LenientDocument?
    var low = 0
    var high = closings.count - 2
    while low <= high {
      let middle = (low + high) / 2
      if let document = decode(closings[middle]) {
        found = document
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    return found.flatMap(recovery(from:))
  }

  /// What a decoded document recovers: nil for another version or nothing.
  private static func recovery(from document: LenientDocument) -> Recovery? {
    guard document.version == nil || document.version == currentVersion
    else { return nil }
    let registry = AccessoryRegistry(
      accessories: document.accessories.compactMap(\.value),
      registrations: document.registrations.compactMap(\.value))
    return registry == AccessoryRegistry()
      ? nil : Recovery(registry: registry)
  }

  /// A place where the beginning of the contents ends with a whole element
  /// of an array, and the brackets that close what is open there.
  struct Closing: Equatable {
    /// The length of the beginning.
    var end: Int
    /// The closing brackets, innermost first.
    var closers: [UInt8]
  }

  /// The places where the beginning of `bytes` ends with a whole element of
  /// an array, in order, found in one pass.
  static func closings(of bytes: [UInt8]) -> [Closing] {
    var open: [UInt8] = []
    var inString = false
    var escaped = false
    var closings: [Closing] = []
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
        guard !open.isEmpty else { return closings }
        open.removeLast()
        if open.last == UInt8(ascii: "[") {
          closings.append(
            Closing(
              end: index + 1,
              closers: open.reversed().map {
                $0 == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
              }))
        }
      default:
        break
      }
    }
    return closings
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
