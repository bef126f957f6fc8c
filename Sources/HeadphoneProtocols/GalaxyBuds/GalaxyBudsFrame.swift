// Samsung's Galaxy Buds protocol on RFCOMM (Buds+, Live, Pro, Buds2 and
// later): the frames, and how a byte stream is cut into them.
//
// Sources (read, not copied): GalaxyBudsClient's SppMessage.cs, Crc16.cs
// and "GalaxyBudsPlusRFCommProtocol.md" (timschneeb/GalaxyBudsClient on
// GitHub).
//
// A frame: FD, a 2-byte little-endian header (the size in the low 10 bits,
// 0x1000 the request/response bit, 0x2000 a fragment), the message id, the
// payload, the CRC-16/XMODEM of the id and payload (little-endian), DD. The
// size counts the id, the payload and the checksum.

/// The constants of the Galaxy Buds protocol.
public enum GalaxyBuds {
  /// The `Device1.UUIDs` entry of the Buds+, Live and Pro (the serial port
  /// profile).
  public static let serialPortUUID = "00001101-0000-1000-8000-00805f9b34fb"
  /// The `Device1.UUIDs` entry of the Buds2 and later.
  public static let buds2UUID = "2e73a4ad-332d-41fc-90e2-16bef06523f2"

  /// The first byte of a frame.
  public static let startOfFrame: UInt8 = 0xFD
  /// The last byte of a frame.
  public static let endOfFrame: UInt8 = 0xDD

  /// The message ids this module reads.
  public enum MessageID: UInt8, Sendable {
    /// A status update: batteries and where the buds are.
    case statusUpdated = 0x60
    /// The full status, sent when the host connects.
    case extendedStatusUpdated = 0x61
  }
}

/// One Galaxy Buds frame.
public struct GalaxyBudsFrame: Sendable, Hashable {
  /// The message id.
  public var id: UInt8
  /// The payload.
  public var payload: [UInt8]
  /// The header's request/response bit (0x1000).
  public var typeBit: Bool
  /// Whether it is a fragment of a larger message (0x2000); only firmware
  /// updates and dumps use them.
  public var isFragment: Bool

  /// The largest size the header holds: the id, payload and checksum.
  public static let maximumSize = 0x3FF

  /// Creates a frame.
  public init(
    id: UInt8, payload: [UInt8], typeBit: Bool = false,
    isFragment: Bool = false
  ) {
    self.id = id
    self.payload = payload
    self.typeBit = typeBit
    self.isFragment = isFragment
  }

  /// The frame's bytes.
  public var encoded: [UInt8] {
    let size = UInt16(1 + payload.count + 2)
    precondition(
      size <= Self.maximumSize, "a payload of \(payload.count) bytes")
    var header = size
    if typeBit { header |= 0x1000 }
    if isFragment { header |= 0x2000 }
    let crc = CRC16.xmodem([id] + payload)
    return [
      GalaxyBuds.startOfFrame, UInt8(header & 0xFF), UInt8(header >> 8), id,
    ]
      + payload + [UInt8(crc & 0xFF), UInt8(crc >> 8), GalaxyBuds.endOfFrame]
  }
}

/// Why bytes from Galaxy Buds were skipped.
public enum GalaxyBudsFrameError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// Bytes before the start of a frame.
  case garbage([UInt8])
  /// A header whose size cannot hold an id and a checksum.
  case badSize(Int)
  /// A frame that does not end with DD.
  case badEnd(UInt8)
  /// A checksum that does not match.
  case badChecksum(expected: UInt16, found: UInt16)
  /// A fragment, which this reader does not put together.
  case fragment(id: UInt8)

  /// What was wrong.
  public var description: String {
    switch self {
    case .garbage(let bytes):
      "\(bytes.count) bytes before the start of a frame: \(bytes.prefix(16).hexDescription)"
    case .badSize(let size):
      "a frame size of \(size); expected 3 to \(GalaxyBudsFrame.maximumSize)"
    case .badEnd(let byte):
      "a frame that ends with \([byte].hexDescription); expected DD"
    case .badChecksum(let expected, let found):
      "a frame checksum of \(found); its bytes give \(expected)"
    case .fragment(let id):
      "a fragment of message \(id); fragments are not read"
    }
  }
}

/// Cuts the byte stream of an RFCOMM socket into frames.
///
/// RFCOMM is a stream: a read may end inside a frame, or hold several.
/// Whatever is not a frame is skipped up to the next FD and reported.
public struct GalaxyBudsFrameReader: Sendable {
  private var buffer: [UInt8] = []

  /// The most bytes held while waiting for the rest of a frame.
  public static let bufferLimit = 4096

  /// Creates an empty reader.
  public init() {}

  /// Takes in bytes read from the socket.
  ///
  /// - Returns: Each whole frame, or why bytes were skipped, in order.
  public mutating func append(
    _ bytes: some Sequence<UInt8>
  ) -> [Result<GalaxyBudsFrame, GalaxyBudsFrameError>] {
    buffer.append(contentsOf: bytes)
    var results: [Result<GalaxyBudsFrame, GalaxyBudsFrameError>] = []
    while let result = next() { results.append(result) }
    if buffer.count > Self.bufferLimit {
      results.append(.failure(.garbage(buffer)))
      buffer = []
    }
    return results
  }

  /// The next frame or skip, or nil when more bytes are needed.
  private mutating func next() -> Result<GalaxyBudsFrame, GalaxyBudsFrameError>?
  {
    guard let start = buffer.firstIndex(of: GalaxyBuds.startOfFrame) else {
      guard !buffer.isEmpty else { return nil }
      defer { buffer = [] }
      return .failure(.garbage(buffer))
    }
    if start > 0 {
      defer { buffer.removeFirst(start) }
      return .failure(.garbage(Array(buffer[..<start])))
    }
    guard buffer.count >= 3 else { return nil }
    let header = UInt16(buffer[1]) | UInt16(buffer[2]) << 8
    let size = Int(header & 0x3FF)
    guard size >= 3 else {
      buffer.removeFirst()
      return .failure(.badSize(size))
    }
    let total = 3 + size + 1
    guard buffer.count >= total else { return nil }
    let frame = Array(buffer[..<total])
    guard frame[total - 1] == GalaxyBuds.endOfFrame else {
      // Not a frame after all: look for the next start.
      buffer.removeFirst()
      return .failure(.badEnd(frame[total - 1]))
    }
    buffer.removeFirst(total)
    let id = frame[3]
    let payload = Array(frame[4..<(total - 3)])
    let found = UInt16(frame[total - 3]) | UInt16(frame[total - 2]) << 8
    let expected = CRC16.xmodem([id] + payload)
    guard found == expected else {
      return .failure(.badChecksum(expected: expected, found: found))
    }
    guard header & 0x2000 == 0 else { return .failure(.fragment(id: id)) }
    return .success(
      GalaxyBudsFrame(
        id: id, payload: payload, typeBit: header & 0x1000 != 0))
  }
}
