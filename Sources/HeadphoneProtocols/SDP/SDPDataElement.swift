// The Service Discovery Protocol's data elements (Bluetooth Core
// Specification, Vol 3, Part B, 3): a header byte (the type in the high 5
// bits, a size index in the low 3), the length for variable sizes, then the
// data, big-endian.

/// One SDP data element.
public indirect enum SDPDataElement: Sendable, Hashable {
  /// The nil element.
  case null
  /// An unsigned integer of 1, 2, 4, 8 or 16 bytes; the larger are kept
  /// as bytes.
  case unsigned(UInt64, size: Int)
  /// A signed integer, as its bytes.
  case signed([UInt8])
  /// A UUID: 16 or 32 bits (aliases of the Bluetooth base UUID) or 128.
  case uuid(SDPUUID)
  /// A text string, as its bytes (usually UTF-8).
  case text([UInt8])
  /// A boolean.
  case boolean(Bool)
  /// A sequence of elements.
  case sequence([SDPDataElement])
  /// A choice of elements.
  case alternative([SDPDataElement])
  /// A URL, as its bytes.
  case url([UInt8])

  /// The deepest nesting of sequences read: real records nest three or
  /// four deep.
  public static let maximumDepth = 32

  /// Reads one element at the start of `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - depth: How deep in sequences the element is.
  /// - Returns: The element and how many bytes it took.
  /// - Throws: ``SDPError`` when the bytes end inside it, its header is not
  ///   in the specification, or sequences nest deeper than
  ///   ``maximumDepth``.
  public static func read(
    _ bytes: ArraySlice<UInt8>, depth: Int = 0
  ) throws(SDPError) -> (element: SDPDataElement, length: Int) {
    guard depth <= maximumDepth else { throw .tooDeep }
    guard let header = bytes.first else { throw .cutShort("a data element") }
    let type = header >> 3
    let sizeIndex = header & 0x07
    var index = bytes.startIndex + 1
    let size: Int
    switch sizeIndex {
    case 0...4: size = type == 0 ? 0 : 1 << Int(sizeIndex)
    default:
      let lengthBytes = 1 << Int(sizeIndex - 5)
      guard bytes.endIndex - index >= lengthBytes else {
        throw .cutShort("the length of a data element")
      }
      let length = bytes[index..<index + lengthBytes].reduce(UInt64(0)) {
        $0 << 8 | UInt64($1)
      }
      guard length <= UInt64(bytes.count) else {
        throw .cutShort("a data element of \(length) bytes")
      }
      size = Int(length)
      index += lengthBytes
    }
    guard bytes.endIndex - index >= size else {
      throw .cutShort("a data element of \(size) bytes")
    }
    let data = bytes[index..<index + size]
    let length = index + size - bytes.startIndex
    let fixed = sizeIndex <= 4
    switch (type, fixed) {
    case (0, true): return (.null, length)
    case (1, true):
      let value = data.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return (.unsigned(value, size: size), length)
    case (2, true): return (.signed(Array(data)), length)
    case (3, true):
      guard let uuid = SDPUUID(bytes: Array(data)) else {
        throw .badElement(header)
      }
      return (.uuid(uuid), length)
    case (4, false): return (.text(Array(data)), length)
    case (5, true): return (.boolean(data.first != 0), length)
    case (6, false):
      return (.sequence(try elements(in: data, depth: depth + 1)), length)
    case (7, false):
      return (.alternative(try elements(in: data, depth: depth + 1)), length)
    case (8, false): return (.url(Array(data)), length)
    default: throw .badElement(header)
    }
  }

  /// Every element in a run of bytes, in order.
  static func elements(
    in bytes: ArraySlice<UInt8>, depth: Int
  ) throws(SDPError) -> [SDPDataElement] {
    var elements: [SDPDataElement] = []
    var rest = bytes
    while !rest.isEmpty {
      let (element, length) = try read(rest, depth: depth)
      elements.append(element)
      rest = rest.dropFirst(length)
    }
    return elements
  }

  /// The element's bytes, with a variable size written in the fewest
  /// length bytes.
  public var encoded: [UInt8] {
    switch self {
    case .null: return [0x00]
    case .unsigned(let value, let size):
      let bytes = (0..<size).reversed().map { shift in
        shift < 8 ? UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))) : 0
      }
      return [0x08 | Self.fixedSizeIndex(size)] + bytes
    case .signed(let bytes):
      return [0x10 | Self.fixedSizeIndex(bytes.count)] + bytes
    case .uuid(let uuid):
      return [0x18 | Self.fixedSizeIndex(uuid.bytes.count)] + uuid.bytes
    case .text(let bytes): return Self.variable(type: 4, bytes)
    case .boolean(let value): return [0x28, value ? 1 : 0]
    case .sequence(let elements):
      return Self.variable(type: 6, elements.flatMap(\.encoded))
    case .alternative(let elements):
      return Self.variable(type: 7, elements.flatMap(\.encoded))
    case .url(let bytes): return Self.variable(type: 8, bytes)
    }
  }

  private static func fixedSizeIndex(_ size: Int) -> UInt8 {
    switch size {
    case 1: 0
    case 2: 1
    case 4: 2
    case 8: 3
    default: 4
    }
  }

  private static func variable(type: UInt8, _ bytes: [UInt8]) -> [UInt8] {
    let count = bytes.count
    switch count {
    case ..<0x100: return [type << 3 | 5, UInt8(count)] + bytes
    case ..<0x1_0000:
      return [type << 3 | 6, UInt8(count >> 8), UInt8(count & 0xFF)] + bytes
    default:
      return [type << 3 | 7]
        + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) } + bytes
    }
  }

  /// The elements of a sequence or alternative; nil for any other element.
  public var elements: [SDPDataElement]? {
    switch self {
    case .sequence(let elements), .alternative(let elements): elements
    default: nil
    }
  }

  /// The value of an unsigned integer; nil for any other element.
  public var unsignedValue: UInt64? {
    if case .unsigned(let value, _) = self { value } else { nil }
  }
}

/// A UUID in an SDP element: 16 or 32 bits, aliases of the Bluetooth base
/// UUID, or the full 128.
public struct SDPUUID: Sendable, Hashable, CustomStringConvertible {
  /// Its bytes, big-endian: 2, 4 or 16.
  public var bytes: [UInt8]

  /// A UUID from its bytes; nil for a length other than 2, 4 or 16.
  public init?(bytes: [UInt8]) {
    guard [2, 4, 16].contains(bytes.count) else { return nil }
    self.bytes = bytes
  }

  /// A 16-bit alias, such as 0x1101 for the serial port.
  public init(_ alias: UInt16) {
    bytes = [UInt8(alias >> 8), UInt8(alias & 0xFF)]
  }

  /// A UUID from its text (`00001101-0000-1000-8000-00805f9b34fb`, or
  /// four or eight hexadecimal digits); nil for anything else.
  public init?(_ text: String) {
    let digits = text.filter { $0 != "-" }
    guard [4, 8, 32].contains(digits.count) else { return nil }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else {
        return nil
      }
      bytes.append(byte)
      index = next
    }
    self.bytes = bytes
  }

  /// The UUID in its 128-bit form.
  public var full: [UInt8] {
    guard bytes.count < 16 else { return bytes }
    let base: [UInt8] = [
      0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
    ]
    return [UInt8](repeating: 0, count: 4 - bytes.count) + bytes + base
  }

  /// The shortest form of the same UUID: the 16-bit alias for one of the
  /// Bluetooth base UUID's, as SDP servers match most surely.
  public var shortest: SDPUUID {
    let full = self.full
    guard full[0] == 0, full[1] == 0,
      Array(full[4...]) == Array(SDPUUID(0x0000).full[4...])
    else { return self }
    return SDPUUID(UInt16(full[2]) << 8 | UInt16(full[3]))
  }

  /// The 128-bit form, as BlueZ writes it, lower case.
  public var description: String {
    let hex = full.hexDescription.filter { $0 != " " }.lowercased()
    let cuts = [8, 12, 16, 20]
    var text = ""
    for (offset, character) in hex.enumerated() {
      if cuts.contains(offset) { text.append("-") }
      text.append(character)
    }
    return text
  }

  /// Whether two UUIDs are the same, whatever their lengths.
  public func isSame(as other: SDPUUID) -> Bool { full == other.full }
}
