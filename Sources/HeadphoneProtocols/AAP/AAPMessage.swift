// Reading AAP notifications: ear detection (opcode 0x06) and battery
// (opcode 0x04). The answer to the host's connection packet is known by its
// header; everything else is named by its opcode and left alone.

/// One packet from AirPods, read.
public enum AAPMessage: Sendable, Hashable {
  /// Ear detection: the primary bud (the one with the microphone), then
  /// the secondary. Taking out the primary swaps the roles, and the
  /// headphones send the packet again.
  case earDetection(primary: BudPosition, secondary: BudPosition)
  /// The battery of each part they report, without the absent ones.
  case battery([BatteryLevel])
  /// A packet with another opcode.
  case other(opcode: UInt16)
  /// The headphones' answer to the host's connection packet (the first of
  /// ``AAP/opening``): `01 00 04 00`, then what they support.
  case connectionAnswer

  /// Reads a packet.
  ///
  /// - Throws: ``AAPDecodingError`` naming what is wrong: too short, not
  ///   an AAP notification, cut short, or a value not in the protocol.
  public init(_ packet: some Collection<UInt8>) throws(AAPDecodingError) {
    let bytes = Array(packet)
    guard bytes.count >= 6 else { throw .tooShort(bytes) }
    if Array(bytes[0..<4]) == AAP.connectionAnswerHeader {
      self = .connectionAnswer
      return
    }
    guard Array(bytes[0..<4]) == AAP.header else {
      throw .notANotification(bytes)
    }
    let opcode = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
    switch AAP.Opcode(rawValue: opcode) {
    case .earDetection:
      guard bytes.count >= 8 else {
        throw .cutShort(opcode: opcode, needed: 8, packet: bytes)
      }
      self = .earDetection(
        primary: try Self.position(bytes[6]),
        secondary: try Self.position(bytes[7]))
    case .battery:
      guard bytes.count >= 7 else {
        throw .cutShort(opcode: opcode, needed: 7, packet: bytes)
      }
      let count = Int(bytes[6])
      let needed = 7 + 5 * count
      guard bytes.count >= needed else {
        throw .cutShort(opcode: opcode, needed: needed, packet: bytes)
      }
      var levels: [BatteryLevel] = []
      for index in 0..<count {
        let start = 7 + 5 * index
        if let level = Self.battery(bytes[start..<start + 5]) {
          levels.append(level)
        }
      }
      self = .battery(levels)
    case nil:
      self = .other(opcode: opcode)
    }
  }

  /// A pod status: 00 in the ear, 01 out of the ear, 02 in the case.
  private static func position(
    _ byte: UInt8
  ) throws(AAPDecodingError) -> BudPosition {
    switch byte {
    case 0x00: .inEar
    case 0x01: .outOfEar
    case 0x02: .inCase
    // The other bud is not connected to the one that reports.
    case 0x03: .disconnected
    default: throw .unknownPosition(byte)
    }
  }

  /// One battery component, `type 01 level status 01`; nil for a part
  /// that is absent (level 0xFF, or status disconnected) or unknown.
  private static func battery(_ component: ArraySlice<UInt8>) -> BatteryLevel? {
    let bytes = Array(component)
    let part: BatteryPart
    switch bytes[0] {
    case 0x01: part = .single
    case 0x02: part = .right
    case 0x04: part = .left
    case 0x08: part = .chargingCase
    default: return nil
    }
    guard bytes[2] <= 100 else { return nil }
    let charging: Bool?
    switch bytes[3] {
    case 0x01, 0x05: charging = true
    case 0x02: charging = false
    case 0x04: return nil
    default: charging = nil
    }
    return BatteryLevel(
      part: part, percent: Int(bytes[2]), isCharging: charging)
  }
}

/// Why an AAP packet could not be read.
public enum AAPDecodingError: Error, Sendable, Hashable, CustomStringConvertible
{
  /// Fewer than the six bytes of a header and an opcode.
  case tooShort([UInt8])
  /// It does not begin with `04 00 04 00`.
  case notANotification([UInt8])
  /// Shorter than its opcode's layout needs.
  case cutShort(opcode: UInt16, needed: Int, packet: [UInt8])
  /// A pod status other than 00, 01 and 02.
  case unknownPosition(UInt8)

  /// What is wrong, with the bytes.
  public var description: String {
    switch self {
    case .tooShort(let bytes):
      "an AAP packet of \(bytes.count) bytes (\(bytes.hexDescription)); "
        + "expected at least 6"
    case .notANotification(let bytes):
      "an AAP packet that does not begin with 04 00 04 00: "
        + bytes.hexDescription
    case .cutShort(let opcode, let needed, let packet):
      "an AAP packet of opcode \(opcode) with \(packet.count) bytes "
        + "(\(packet.hexDescription)); expected at least \(needed)"
    case .unknownPosition(let byte):
      "an ear detection status \([byte].hexDescription); expected 00 (in "
        + "ear), 01 (out of ear), 02 (in case) or 03 (not connected)"
    }
  }
}
