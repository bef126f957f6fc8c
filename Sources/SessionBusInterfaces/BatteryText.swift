// A headphones' battery as people read it, the same in a notification and
// in the tray: `Left 80% · Right 75% · Case 40% (charging)`.

import DBus

/// One part's charge, as `Accessory1.Battery` carries it.
package struct BatteryPart: Sendable, Hashable {
  /// `left`, `right`, `case` or `single`.
  package var part: String
  /// The charge, 0 to 100.
  package var percent: Int
  /// Whether it charges.
  package var isCharging: Bool

  /// Creates a part's charge.
  package init(part: String, percent: Int, isCharging: Bool) {
    self.part = part
    self.percent = percent
    self.isCharging = isCharging
  }

  /// Reads one element of an `a(sib)`.
  package init?(busValue: DBusValue) {
    guard case .structure(let fields) = busValue.unwrapped, fields.count == 3,
      let part = fields[0].string, let percent = fields[1].integer,
      let isCharging = fields[2].bool
    else { return nil }
    self.init(part: part, percent: percent, isCharging: isCharging)
  }
}

/// The battery in one line.
package enum BatteryText {
  /// Each part's charge, left, right, single, then the case: `Left 80% ·
  /// Right 75% · Case 40% (charging)`.
  package static func line(_ parts: [BatteryPart]) -> String {
    let order = ["left", "right", "single", "case"]
    return parts.sorted {
      (order.firstIndex(of: $0.part) ?? order.count)
        < (order.firstIndex(of: $1.part) ?? order.count)
    }.map { level in
      let part =
        level.part == "single"
        ? "Battery" : level.part.prefix(1).uppercased() + level.part.dropFirst()
      return "\(part) \(level.percent)%"
        + (level.isCharging ? " (charging)" : "")
    }.joined(separator: " · ")
  }
}
