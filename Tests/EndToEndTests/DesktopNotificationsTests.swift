// Desktop notifications end to end, received by a real notification
// server (dunst, on Xvfb, on a private session bus): media paused because
// the buds came off, headphones that connect, and the output moved when
// the buds went away; and a kind the policy turns off is not sent.

import Foundation
import TestSupport
import Testing

/// The default test policy, headphones that go given one second to come
/// back, and these notifications turned off.
private func policy(turningOff kinds: [String] = []) throws -> String {
  var text = try DaemonFixture.policyText()
  guard text.contains("reappearGraceSeconds: 5,") else {
    throw FixtureError("the default policy has no 'reappearGraceSeconds: 5,'")
  }
  text = text.replacingOccurrences(
    of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,")
  for kind in kinds {
    guard text.contains("\(kind): true,") else {
      throw FixtureError("the default policy has no '\(kind): true,'")
    }
    text = text.replacingOccurrences(
      of: "\(kind): true,", with: "\(kind): false,")
  }
  return text
}

@Suite("Desktop notifications, received by dunst", .serialized)
struct DesktopNotificationsTests {
  @Test(
    "Paused when they came off, connected, and the output moved",
    arguments: SoundServerKind.allCases)
  func notifications(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind, policy: try policy()) { rig in
      let desktop = try await DesktopSession.start(on: rig.bus)
      let server = try await desktop.serverInformation()
      #expect(server.contains("'dunst'"), "\(server)")

      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      var received: [ReceivedNotification] = []
      try await waitUntil("the paused notification", within: .seconds(30)) {
        received = try await desktop.received()
        return received.contains {
          $0.summary == "Paused: Studio Buds came off"
        }
      }
      let paused = try #require(
        received.first { $0.summary == "Paused: Studio Buds came off" })
      #expect(paused.application == "accessoryd")
      #expect(
        paused.body.hasSuffix("Put them back on within 60 s and they play on."),
        "\(paused)")
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      try await rig.waitForThePlayers(on: "buds")

      // The buds go away and stay away: the audio is elsewhere now.
      try await rig.server.unloadModule(try await rig.module(of: "buds"))
      try await waitUntil("the output-moved notification", within: .seconds(30))
      {
        received = try await desktop.received()
        return received.contains {
          $0.summary == "Audio moved to Built-in Speaker"
            && $0.body == "Studio Buds went away."
        }
      }

      // Other headphones connect.
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress, description: "Travel Phones",
          deviceAPI: rig.server.kind.bluetoothDeviceAPI))
      try await waitUntil("the connected notification", within: .seconds(30)) {
        try await desktop.received().contains {
          $0.summary == "Travel Phones connected"
        }
      }
    }
  }

  @Test("A kind the policy turns off is not sent")
  func turnedOff() async throws {
    try await withMediaRig(
      .pulseAudio,
      policy: try policy(turningOff: ["pausedWhenTakenOff"])
    ) { rig in
      let desktop = try await DesktopSession.start(on: rig.bus)
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      // The answer comes once the players are paused.
      #expect(rig.status(of: rig.playing[0]) == .paused)
      // A kind still on, sent after: the pause would have come first.
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress, description: "Travel Phones",
          deviceAPI: rig.server.kind.bluetoothDeviceAPI))
      var received: [ReceivedNotification] = []
      try await waitUntil("the connected notification", within: .seconds(30)) {
        received = try await desktop.received()
        return received.contains { $0.summary == "Travel Phones connected" }
      }
      #expect(
        !received.contains { $0.summary.hasPrefix("Paused") }, "\(received)")
    }
  }
}
