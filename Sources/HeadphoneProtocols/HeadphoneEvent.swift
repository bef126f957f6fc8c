// What headphones say of themselves, in words that do not depend on the
// protocol: where each bud is, and how charged each part is.

/// Where one bud (or the headphones, for an over-ear model) is.
public enum BudPosition: String, Sendable, Hashable, CaseIterable {
  /// In the ear, or on the head.
  case inEar
  /// Out of the ear, not in the case.
  case outOfEar
  /// In the case, open or closed.
  case inCase
  /// Not connected to the other bud or to the host.
  case disconnected
}

/// Which part of the headphones a battery level belongs to.
public enum BatteryPart: String, Sendable, Hashable, CaseIterable {
  /// The headphones as one (an over-ear model).
  case single
  /// The left bud.
  case left
  /// The right bud.
  case right
  /// The charging case.
  case chargingCase = "case"
}

/// One part's battery.
public struct BatteryLevel: Sendable, Hashable {
  /// The part.
  public var part: BatteryPart
  /// The charge, from 0 to 100 percent.
  public var percent: Int
  /// Whether it is charging, when the headphones say.
  public var isCharging: Bool?

  /// Creates a level.
  public init(part: BatteryPart, percent: Int, isCharging: Bool? = nil) {
    self.part = part
    self.percent = percent
    self.isCharging = isCharging
  }
}

/// Something the headphones reported.
public enum HeadphoneEvent: Sendable, Hashable {
  /// Where the buds are, in the protocol's order (AirPods: the primary
  /// bud, then the secondary; Galaxy Buds: left, then right).
  case wear([BudPosition])
  /// The battery of each part they reported.
  case battery([BatteryLevel])
}

/// When buds count as worn.
public enum WearRule: String, Sendable, Hashable, CaseIterable {
  /// Either bud in the ear.
  case either
  /// Both buds in the ear (a single bud counts as both).
  case both

  /// Whether buds in these positions are worn under the rule.
  ///
  /// - Parameter buds: The buds' positions; none reported is not worn.
  public func isWorn(_ buds: [BudPosition]) -> Bool {
    let connected = buds.filter { $0 != .disconnected }
    guard !connected.isEmpty else { return false }
    switch self {
    case .either: return connected.contains(.inEar)
    case .both: return connected.allSatisfy { $0 == .inEar }
    }
  }
}
