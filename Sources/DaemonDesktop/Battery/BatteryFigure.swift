// The one battery figure BlueZ takes per device, from what headphones
// say of each part: what the person hears ends with the emptier bud, so
// the lower of the two; a single battery as it is; the case never, since
// nothing plays from it.

import AccessoryControl

/// The figure BlueZ shows for headphones.
enum BatteryFigure {
  /// The lower bud's charge, a single battery's, or nil when the
  /// headphones said neither (only the case, or nothing).
  static func forBlueZ(_ battery: [HeadphoneLink.Battery]) -> Int? {
    if let single = battery.first(where: { $0.part == "single" }) {
      return single.percent
    }
    return battery.filter { $0.part == "left" || $0.part == "right" }
      .map(\.percent).min()
  }
}
