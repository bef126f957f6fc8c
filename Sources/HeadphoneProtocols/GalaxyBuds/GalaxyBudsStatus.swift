// Reading the Galaxy Buds' status messages: where each bud is and the
// batteries. STATUS_UPDATED (0x60) carries the positions in payload byte
// 5, EXTENDED_STATUS_UPDATED (0x61, the full status the buds send as the
// link opens) in byte 6: from the Buds+ on, the left bud in the high
// nibble and the right in the low one; the 2019 Buds send one wear state
// for both there (0 none, 1 the right, 16 the left, 17 both) and no case
// battery. From the Buds2 on, byte 7 of a status update and a byte of the
// full status that depends on the model and revision are the charging
// bits (0x10 the left bud, 0x04 the right, 0x01 the case).

/// The status of a pair of Galaxy Buds.
public struct GalaxyBudsStatus: Sendable, Hashable {
  /// Where the left bud is.
  public var left: BudPosition
  /// Where the right bud is.
  public var right: BudPosition
  /// The batteries reported.
  public var battery: [BatteryLevel]
  /// The revision of the full status (its payload byte 0), which says
  /// what later messages carry; nil for a status update.
  public var fullStatusRevision: Int?

  /// Reads a status frame.
  ///
  /// - Parameters:
  ///   - frame: The frame.
  ///   - model: The buds' model, which decides the layout.
  ///   - fullStatusRevision: The revision of the last full status the
  ///     buds sent, which decides whether a status update carries the
  ///     charging bits; nil before the first.
  /// - Returns: nil for a frame of another message.
  /// - Throws: ``GalaxyBudsStatusError`` when the payload is too short or
  ///   a position is not in the protocol.
  public init?(
    _ frame: GalaxyBudsFrame, model: GalaxyBudsModel,
    fullStatusRevision lastRevision: Int? = nil
  ) throws(GalaxyBudsStatusError) {
    let payload = frame.payload
    guard let message = GalaxyBuds.MessageID(rawValue: frame.id) else {
      return nil
    }
    let isFull = message == .extendedStatusUpdated
    // Where the wear, the buds' and the case's batteries are.
    let layout: (placement: Int, left: Int, right: Int, chargingCase: Int?)
    switch (message, model) {
    case (.statusUpdated, .buds): layout = (5, 1, 2, nil)
    case (.extendedStatusUpdated, .buds): layout = (6, 2, 3, nil)
    case (.statusUpdated, _): layout = (5, 1, 2, 6)
    case (.extendedStatusUpdated, _): layout = (6, 2, 3, 7)
    }
    let needed = max(layout.placement, layout.chargingCase ?? 0) + 1
    guard payload.count >= needed else {
      throw .tooShort(id: frame.id, count: payload.count, needed: needed)
    }
    let placement = payload[layout.placement]
    if model == .buds {
      (left, right) = try Self.wearState(placement)
    } else {
      left = try Self.position(placement >> 4)
      right = try Self.position(placement & 0x0F)
    }
    self.fullStatusRevision = isFull ? Int(payload[0]) : nil
    let charging = Self.chargingBits(
      payload, isFull: isFull, model: model,
      revision: isFull ? Int(payload[0]) : lastRevision)
    var parts = [
      (BatteryPart.left, payload[layout.left], UInt8(0x10)),
      (.right, payload[layout.right], 0x04),
    ]
    // A case at 0 % cannot report: 0 is no reading, as 101 is.
    if let index = layout.chargingCase, (1...100).contains(Int(payload[index]))
    {
      parts.append((.chargingCase, payload[index], 0x01))
    }
    battery = parts.compactMap { part, level, bit in
      guard level <= 100 else { return nil }
      return BatteryLevel(
        part: part, percent: Int(level),
        isCharging: charging.map { $0 & bit != 0 })
    }
  }

  /// The charging bits, if this message of this model and revision
  /// carries them.
  private static func chargingBits(
    _ payload: [UInt8], isFull: Bool, model: GalaxyBudsModel, revision: Int?
  ) -> UInt8? {
    guard let place = model.chargingInFullStatus, let revision,
      revision >= place.fromRevision
    else { return nil }
    let index = isFull ? place.index : 7
    return payload.count > index ? payload[index] : nil
  }

  /// The 2019 Buds' wear state: which buds are worn; the others are out
  /// of the ear (those buds do not say whether a bud is in the case).
  private static func wearState(
    _ state: UInt8
  ) throws(GalaxyBudsStatusError) -> (BudPosition, BudPosition) {
    switch state {
    case 0x00: (.outOfEar, .outOfEar)
    case 0x01: (.outOfEar, .inEar)
    case 0x10: (.inEar, .outOfEar)
    case 0x11: (.inEar, .inEar)
    default: throw .unknownWearState(state)
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
  /// A 2019 Buds' wear state other than 0, 1, 16 or 17.
  case unknownWearState(UInt8)

  /// What is wrong.
  public var description: String {
    switch self {
    case .tooShort(let id, let count, let needed):
      "a status message \([id].hexDescription) of \(count) bytes; expected "
        + "at least \(needed)"
    case .unknownPosition(let nibble):
      "a bud placement of \(nibble); expected 0 (disconnected), 1 "
        + "(wearing), 2 (idle), 3 (in the case) or 4 (case closed)"
    case .unknownWearState(let state):
      "a wear state of \(state); expected 0 (none), 1 (the right bud), 16 "
        + "(the left bud) or 17 (both)"
    }
  }
}
