// The AirPods' own bytes: AAP packets real AirPods sent, recorded by other
// public projects with what their sources say they mean
// (../shared/real-captures/airpods.json, read where it lies). Each pair's
// handshake and preamble go through the session the daemon runs, then each
// step's packet: the decoder must read it as its source says (batteries,
// charging, where each bud is, primary first). The file's deliberately
// wrong controls must not match.

import HeadphoneProtocols
import Testing

@Suite struct AirPodsCaptureTests {
  static var captures: [String: Any]? { RealCaptures.file("airpods.json") }

  static var devices: [[String: Any]] {
    captures?["devices"] as? [[String: Any]] ?? []
  }

  @Test func theCaptureFileIsThere() {
    RealCaptures.requireInCI(Self.captures, "airpods.json")
    #expect(Self.captures == nil || Self.devices.count >= 7)
  }

  @Test func eachRecordedStepIsReadAsItsSourceSays() throws {
    for device in Self.devices {
      let id = device["id"] as? String ?? "?"
      let steps = try Self.read(device)
      let expected = device["steps"] as? [[String: Any]] ?? []
      #expect(steps.count == expected.count, "\(id)")
      for (index, (step, reading)) in zip(expected, steps).enumerated() {
        switch reading {
        case .failure(let error):
          Issue.record(Comment(rawValue: "\(id), step \(index): \(error)"))
        case .success(let reading):
          let wrong = reading.mismatches(
            step["expect"] as? [String: Any] ?? [:])
          let state = step["state"] as? String ?? ""
          let said = "\(id), step \(index) (\(state)): "
          #expect(wrong.isEmpty, "\(said)\(wrong.joined(separator: "; "))")
        }
      }
    }
  }

  @Test func aDeliberatelyWrongExpectationFails() throws {
    RealCaptures.requireInCI(Self.captures, "airpods.json")
    for control in Self.captures?["controls"] as? [[String: Any]] ?? [] {
      let of = control["of"] as? String
      let device = try #require(
        Self.devices.first { $0["id"] as? String == of })
      let index = try #require(control["step"] as? Int)
      let steps = try Self.read(device)
      let reading = try steps[index].get()
      let wrong = reading.mismatches(control["expect"] as? [String: Any] ?? [:])
      #expect(
        !wrong.isEmpty, "the control of \(of ?? "?"), step \(index) matched")
    }
  }

  /// The handshake and preamble through a session (each must read), then
  /// what each step's packet says on its own: the decoder's reading of
  /// that packet, as the session would report it were it a change.
  static func read(
    _ device: [String: Any]
  ) throws -> [Result<CaptureReading, AAPDecodingError>] {
    var session = AAPSession()
    let opening =
      [device["handshake"] as? String].compactMap(\.self)
      + (device["preamble"] as? [String] ?? [])
    for hex in opening {
      _ = try session.receive(try #require(bytes(fromHex: hex))).get()
    }
    let steps = device["steps"] as? [[String: Any]] ?? []
    return try steps.map { step in
      let packet = try #require(bytes(fromHex: step["packet"] as? String ?? ""))
      // The session must take the packet; the message says what it holds.
      _ = session.receive(packet)
      return Result { () throws(AAPDecodingError) -> CaptureReading in
        var reading = CaptureReading()
        switch try AAPMessage(packet) {
        case .earDetection(let primary, let secondary):
          reading.wear = [primary, secondary]
        case .battery(let levels): reading.battery = levels
        case .other, .connectionAnswer: break
        }
        return reading
      }
    }
  }
}
