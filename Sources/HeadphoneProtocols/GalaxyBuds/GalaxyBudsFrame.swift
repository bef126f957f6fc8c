// Samsung's Galaxy Buds protocol on RFCOMM: the frames, and how a byte
// stream is cut into them.
//
// Sources (read, not copied): GalaxyBudsClient's SppMessage.cs, Crc16.cs
// and "GalaxyBudsPlusRFCommProtocol.md" (timschneeb/GalaxyBudsClient on
// GitHub).
//
// A frame: FD, a 2-byte little-endian header (the size in the low 10 bits,
// 0x1000 the request/response bit, 0x2000 a fragment), the message id, the
// payload, the CRC-16/XMODEM of the id and payload (little-endian), DD. The
// size counts the id, the payload and the checksum. The 2019 Buds frame
// their messages otherwise: FE, a type byte (0 request, 1 response), a
// 1-byte size, the id, the payload, the same checksum, EE.

/// The constants of the Galaxy Buds protocol.
public enum GalaxyBuds {
  /// The `Device1.UUIDs` entry of the Buds+, Live and Pro (the serial port
  /// profile).
  public static let serialPortUUID = "00001101-0000-1000-8000-00805f9b34fb"
  /// The `Device1.UUIDs` entry of the Buds2 and later.
  public static let buds2UUID = "2e73a4ad-332d-41fc-90e2-16bef06523f2"
  /// The `Device1.UUIDs` entry of the 2019 Buds: a serial port of their
  /// own (not the Bluetooth base UUID's LAN access service, which ends in
  /// `fb`).
  public static let legacySerialPortUUID =
    "00001102-0000-1000-8000-00805f9b34fd"

  /// The message ids this module reads.
  public enum MessageID: UInt8, Sendable {
    /// A status update: batteries and where the buds are.
    case statusUpdated = 0x60
    /// The full status, sent when the host connects.
    case extendedStatusUpdated = 0x61
  }
}

/// How a model of Galaxy Buds frames its messages.
public enum GalaxyBudsFraming: Sendable, Hashable {
  /// FD, a 2-byte header with the size and flags, …, DD: the Buds+ and
  /// later.
  case standard
  /// FE, a type byte, a 1-byte size, …, EE: the 2019 Buds.
  case legacy

  /// The first byte of a frame.
  public var startOfFrame: UInt8 { self == .standard ? 0xFD : 0xFE }
  /// The last byte of a frame.
  public var endOfFrame: UInt8 { self == .standard ? 0xDD : 0xEE }
  /// The largest size the header holds: the id, payload and checksum.
  public var maximumSize: Int { self == .standard ? 0x3FF : 0xFF }
}

/// One Galaxy Buds frame.
public struct GalaxyBudsFrame: Sendable, Hashable {
  /// The message id.
  public var id: UInt8
  /// The payload.
  public var payload: [UInt8]
  /// The header's request/response bit (0x1000); the type byte's 1 in
  /// the 2019 Buds' frames.
  public var typeBit: Bool
  /// Whether it is a fragment of a larger message (0x2000); only firmware
  /// updates and dumps use them.
  public var isFragment: Bool

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

  /// The frame's bytes, framed as the Buds+ and later frame them.
  public var encoded: [UInt8] { encoded(as: .standard) }

  /// The frame's bytes, framed as a model frames them.
  ///
  /// - Parameter framing: The framing.
  /// - Returns: The bytes, from the start byte to the end byte.
  public func encoded(as framing: GalaxyBudsFraming) -> [UInt8] {
    let size = 1 + payload.count + 2
    precondition(
      size <= framing.maximumSize, "a payload of \(payload.count) bytes")
    let header: [UInt8]
    switch framing {
    case .standard:
      var bits = UInt16(size)
      if typeBit { bits |= 0x1000 }
      if isFragment { bits |= 0x2000 }
      header = [UInt8(bits & 0xFF), UInt8(bits >> 8)]
    case .legacy:
      header = [typeBit ? 1 : 0, UInt8(size)]
    }
    let crc = CRC16.xmodem([id] + payload)
    return [framing.startOfFrame] + header + [id] + payload
      + [UInt8(crc & 0xFF), UInt8(crc >> 8), framing.endOfFrame]
  }
}

/// Why bytes from Galaxy Buds were skipped.
public enum GalaxyBudsFrameError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// Bytes before the start of a frame.
  case garbage([UInt8])
  /// A header whose size cannot hold an id and a checksum, and the
  /// largest size of the framing.
  case badSize(Int, maximum: Int)
  /// A frame that does not end with its framing's end byte (DD, or EE for
  /// the 2019 Buds), and that byte.
  case badEnd(UInt8, expected: UInt8)
  /// A checksum that does not match.
  case badChecksum(expected: UInt16, found: UInt16)
  /// A fragment, which this reader does not put together.
  case fragment(id: UInt8)

  /// What was wrong.
  public var description: String {
    switch self {
    case .garbage(let bytes):
      "\(bytes.count) bytes before the start of a frame: \(bytes.prefix(16).hexDescription)"
    case .badSize(let size, let maximum):
      "a frame size of \(size); expected 3 to \(maximum)"
    case .badEnd(let byte, let expected):
      "a frame that ends with \([byte].hexDescription); expected "
        + [expected].hexDescription
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
/// Whatever is not a frame is skipped up to the next start byte and
/// reported.
public struct GalaxyBudsFrameReader: Sendable {
  private var buffer: [UInt8] = []
  /// How the buds frame their messages.
  public let framing: GalaxyBudsFraming

  /// The most bytes held while waiting for the rest of a frame.
  public static let bufferLimit = 4096

  /// Creates an empty reader.
  ///
  /// - Parameter framing: How the buds frame their messages.
  public init(framing: GalaxyBudsFraming = .standard) {
    self.framing = framing
  }

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
    guard let start = buffer.firstIndex(of: framing.startOfFrame) else {
      guard !buffer.isEmpty else { return nil }
      defer { buffer = [] }
      return .failure(.garbage(buffer))
    }
    if start > 0 {
      defer { buffer.removeFirst(start) }
      return .failure(.garbage(Array(buffer[..<start])))
    }
    guard buffer.count >= 3 else { return nil }
    // The standard header's size, request and fragment bits; the legacy
    // header's type byte and size.
    let header = UInt16(buffer[1]) | UInt16(buffer[2]) << 8
    let size: Int
    let typeBit: Bool
    let isFragment: Bool
    switch framing {
    case .standard:
      size = Int(header & 0x3FF)
      typeBit = header & 0x1000 != 0
      isFragment = header & 0x2000 != 0
    case .legacy:
      size = Int(buffer[2])
      typeBit = buffer[1] == 1
      isFragment = false
    }
    guard size >= 3 else {
      buffer.removeFirst()
      return .failure(.badSize(size, maximum: framing.maximumSize))
    }
    let total = 3 + size + 1
    guard buffer.count >= total else { return nil }
    let frame = Array(buffer[..<total])
    guard frame[total - 1] == framing.endOfFrame else {
      // Not a frame after all: look for the next start.
      buffer.removeFirst()
      return .failure(.badEnd(frame[total - 1], expected: framing.endOfFrame))
    }
    buffer.removeFirst(total)
    let id = frame[3]
    let payload = Array(frame[4..<(total - 3)])
    let found = UInt16(frame[total - 3]) | UInt16(frame[total - 2]) << 8
    let expected = CRC16.xmodem([id] + payload)
    guard found == expected else {
      return .failure(.badChecksum(expected: expected, found: found))
    }
    guard !isFragment else { return .failure(.fragment(id: id)) }
    return .success(
      GalaxyBudsFrame(id: id, payload: payload, typeBit: typeBit))
  }
}
