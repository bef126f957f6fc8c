// The Galaxy Buds' own bytes: the full status (0x61) real buds sent as a
// host opened the link, recorded by other public projects, with what their
// sources say the bytes mean (../shared/real-captures/galaxybuds.json,
// which CI has beside the project; the file is read where it lies, never
// copied here). Each pair is identified from what BlueZ lists of it, as
// the daemon identifies it, and its frame is read by the session the
// daemon runs. A control entry, deliberately wrong, must not match: it
// shows the comparison can fail.

import Foundation
import HeadphoneProtocols
import Testing

@Suite struct GalaxyBudsCaptureTests {
  /// The capture file, or nil outside CI when it is not there.
  static var captures: [String: Any]? { RealCaptures.file("galaxybuds.json") }

  /// The recorded pairs.
  static var devices: [[String: Any]] {
    captures?["devices"] as? [[String: Any]] ?? []
  }

  @Test func theCaptureFileIsThere() throws {
    RealCaptures.requireInCI(Self.captures, "galaxybuds.json")
    // Every model of the file, so a file cut short does not pass.
    #expect(Self.devices.count >= 8)
  }

  @Test func eachRecordedPairIsIdentifiedAndReadAsItsSourceSays() throws {
    for device in Self.devices {
      let id = device["id"] as? String ?? "?"
      let read = try Self.read(device)
      #expect(
        read.model == Self.model(ofLayout: device["layout"] as? String),
        "\(id): identified as \(read.model.map(\.rawValue) ?? "none")")
      #expect(read.skipped.isEmpty, "\(id): \(read.skipped)")
      let expect = try #require(device["expect"] as? [String: Any])
      let wrong = read.reading.mismatches(expect)
      #expect(wrong.isEmpty, "\(id): \(wrong.joined(separator: "; "))")
    }
  }

  @Test func aDeliberatelyWrongExpectationFails() throws {
    let controls = Self.captures?["controls"] as? [[String: Any]] ?? []
    RealCaptures.requireInCI(Self.captures, "galaxybuds.json")
    for control in controls {
      let of = control["of"] as? String
      let device = try #require(
        Self.devices.first { $0["id"] as? String == of })
      let expect = try #require(control["expect"] as? [String: Any])
      let wrong = try Self.read(device).reading.mismatches(expect)
      #expect(!wrong.isEmpty, "the control of \(of ?? "?") matched")
    }
  }

  // MARK: - Reading

  /// What the daemon makes of one recorded pair.
  struct Read {
    var model: GalaxyBudsModel?
    var reading = CaptureReading()
    var skipped: [String] = []
  }

  /// Identifies the pair from its name and services, and reads its frames
  /// with a session of that model.
  static func read(_ device: [String: Any]) throws -> Read {
    let identity = DeviceIdentity(
      serviceUUIDs: device["uuids"] as? [String] ?? [],
      name: device["bluez_name"] as? String)
    var read = Read(model: GalaxyBudsModel(identity))
    guard let model = read.model else { return read }
    var session = GalaxyBudsSession(model: model)
    for hex in device["frames"] as? [String] ?? [] {
      let step = session.receive(try #require(bytes(fromHex: hex)))
      read.skipped += step.skipped
      read.reading.take(step.events)
    }
    return read
  }

  /// The model a capture's layout names.
  static func model(ofLayout layout: String?) -> GalaxyBudsModel? {
    [
      "Buds": .buds, "BudsPlus": .budsPlus, "BudsLive": .budsLive,
      "BudsPro": .budsPro, "Buds2": .buds2, "Buds2Pro": .buds2Pro,
      "BudsFe": .budsFE,
    ][layout ?? ""]
  }
}
