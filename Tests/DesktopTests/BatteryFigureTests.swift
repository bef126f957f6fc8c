// The one figure BlueZ takes per device: the lower bud's, a single
// battery's, never the case's.

import AccessoryControl
import Testing

@testable import DaemonDesktop

@Suite("The battery figure BlueZ shows")
struct BatteryFigureTests {
  @Test("The lower bud; the case left out; a single battery as it is")
  func figures() {
    typealias Level = HeadphoneLink.Battery
    #expect(
      BatteryFigure.forBlueZ([
        Level(part: "left", percent: 90), Level(part: "right", percent: 35),
        Level(part: "case", percent: 10, charging: true),
      ]) == 35)
    #expect(BatteryFigure.forBlueZ([Level(part: "right", percent: 60)]) == 60)
    #expect(BatteryFigure.forBlueZ([Level(part: "single", percent: 70)]) == 70)
    #expect(BatteryFigure.forBlueZ([Level(part: "case", percent: 40)]) == nil)
    #expect(BatteryFigure.forBlueZ([]) == nil)
  }
}
