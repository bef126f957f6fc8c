// The recordings of real headphones in ../shared/real-captures, which CI
// has beside the project: bytes other public projects recorded from real
// AirPods and Galaxy Buds, with what their sources say the bytes mean.
// They are read where they lie, never copied here; what a decoder made of
// them is compared with the sources' words.

import Foundation
import HeadphoneProtocols
import Testing

/// The capture files.
enum RealCaptures {
  /// The folder: `ACCESSORYD_REAL_CAPTURES`, else `shared/real-captures`
  /// beside the project.
  static var folder: String {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["ACCESSORYD_REAL_CAPTURES"] { return path }
    // Tests/HeadphoneProtocolsTests/this file → the project → its parent.
    let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return project.deletingLastPathComponent()
      .appendingPathComponent("shared/real-captures").path
  }

  /// A capture file as JSON, or nil when it is not there.
  static func file(_ name: String) -> [String: Any]? {
    guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)")
    else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  /// Fails under CI when a capture file could not be read; outside CI,
  /// its tests have nothing to read and pass empty.
  static func requireInCI(_ captures: [String: Any]?, _ name: String) {
    guard captures == nil,
      ProcessInfo.processInfo.environment["CI"] != nil
    else { return }
    let message =
      "\(folder)/\(name) could not be read: CI has the real captures beside "
      + "the project; set ACCESSORYD_REAL_CAPTURES to their folder"
    Issue.record(Comment(rawValue: message))
  }
}

/// What a decoder made of recorded bytes.
struct CaptureReading {
  /// Where the buds are, as the decoder orders them.
  var wear: [BudPosition]?
  /// The batteries.
  var battery: [BatteryLevel] = []

  /// Takes in a session's events: the newest of each kind counts.
  mutating func take(_ events: [HeadphoneEvent]) {
    for event in events {
      switch event {
      case .wear(let buds): wear = buds
      case .battery(let levels): battery = levels
      }
    }
  }

  /// Where this reading differs from what a source says (a capture's
  /// `expect`): batteries (a percentage, or "none" for no reading), the
  /// buds' places, and charging (true, false, or "unstated" when the
  /// message does not say) where there is a reading to carry it.
  func mismatches(_ expect: [String: Any]) -> [String] {
    var wrong: [String] = []
    let levels = expect["battery"] as? [String: Any] ?? [:]
    let charging = expect["charging"] as? [String: Any] ?? [:]
    for part in BatteryPart.allCases {
      let key = part.rawValue
      let level = battery.first { $0.part == part }
      if let expected = levels[key] {
        let found = level.map { "\($0.percent)" } ?? "none"
        if found != "\(expected)" {
          wrong.append("battery \(key) \(found), expected \(expected)")
        }
      }
      if let expected = charging[key], let level {
        let found = level.isCharging.map { "\($0)" } ?? "unstated"
        let stated = (expected as? Bool).map { "\($0)" } ?? "\(expected)"
        if found != stated {
          wrong.append("charging \(key) \(found), expected \(stated)")
        }
      }
    }
    if let buds = expect["buds"] as? [String] {
      let found = wear?.map(\.rawValue) ?? []
      if found != buds { wrong.append("buds \(found), expected \(buds)") }
    }
    return wrong
  }
}
