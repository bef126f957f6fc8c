// Reading the Galaxy Buds' status messages (Buds+ and later): where each
// bud is and the batteries. STATUS_UPDATED (0x60) carries the positions in
// payload byte 5, EXTENDED_STATUS_UPDATED (0x61) in byte 6: the left bud
// in the high nibble, the right in the low one.

/// The status of a pair of Galaxy Buds.
public struct GalaxyBudsStatus: Sendable, Hashable {
  /// Where the left bud is.
  public var left: BudPosition
  /// Where the right bud is.
  public var right: BudPosition
  /// The batteries reported.
  public var battery: [BatteryLevel]

  /// Reads a status frame.
  ///
  /// - Returns: nil for a frame of another message.
  /// - Throws: ``GalaxyBudsStatusError`` when the payload is too short or
  ///   a position is not in the protocol.
  public init?(_ frame: GalaxyBudsFrame) throws(GalaxyBudsStatusError) {
    let payload = frame.payload
    let layout: (placement: Int, left: Int, right: Int, chargingCase: Int)
    switch GalaxyBuds.MessageID(rawValue: frame.id) {
    case .statusUpdated?: layout = (5, 1, 2, 6)
    case .extendedStatusUpdated?: layout = (6, 2, 3, 7)
    case nil: return nil
    }
    guard payload.count > layout.chargingCase else {
      throw .tooShort(
        id: frame.id, count: payload.count, needed: layout.chargingCase + 1)
    }
    let placement = payload[layout.placement]
    left = try Self.position(placement >> 4)
    right = try Self.position(placement & 0x0F)
    // Charging bits come in STATUS_UPDATED of the Buds2 and later.
    let charging: UInt8? =
      frame.id == GalaxyBuds.MessageID.statusUpdated.rawValue
        && payload.count > 7 ? payload[7] : nil
    battery = [
      (BatteryPart.left, payload[layout.left], UInt8(0x10)),
      (.right, payload[layout.right], 0x04),
      (.chargingCase, payload[layout.chargingCase], 0x01),
    ].compactMap { part, level, bit in
      guard level <= 100 else { return nil }
      return BatteryLevel(
        part: part, percent: Int(level),
        isCharging: charging.map { $0 & bit != 0 })
    }
  }

  /// A placement nibble: 0 disconnected, 1 wearing, 2 idle, 3 in the
  /// case, 4 in the closed case.
  private static func position(
    _ nibble: UInt8
  ) throws(GalaxyBudsStatusError) -> BudPosition {
    switch nibble {
    case 0: .disconnected
    case 1: .inEar
    case 2: .outOfEar
    case 3, 4: .inCase
    default: throw .unknownPosition(nibble)
    }
  }
}

/// Why a Galaxy Buds status could not be read.
public enum GalaxyBudsStatusError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// The payload is shorter than its layout.
  case tooShort(id: UInt8, count: Int, needed: Int)
  /// A placement other than 0 to 4.
  case unknownPosition(UInt8)

  /// What is wrong.
  public var description: String {
    switch self {
    case .tooShort(let id, let count, let needed):
      "a status message \([id].hexDescription) of \(count) bytes; expected "
        + "at least \(needed)"
    case .unknownPosition(let nibble):
      "a bud placement of \(nibble); expected 0 (disconnected), 1 "
        + "(wearing), 2 (idle), 3 (in the case) or 4 (case closed)"
    }
  }
}
