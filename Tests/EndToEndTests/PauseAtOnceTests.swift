// Headphones that go pause at once, end to end: real mpv players on a
// Bluetooth-like headset nobody registered (and on registered buds), a
// private sound server, and BlueZ's D-Bus API (python3-dbusmock) saying
// whether the headset is connected. A flip BlueZ calls connected keeps
// playing; BlueZ's word that it disconnected pauses at once; without that
// word, the profile switch's short window decides.

import Foundation
import MPRIS
import TestSupport
import Testing

@Suite(
  "Headphones that go pause at once, end to end", .serialized,
  .timeLimit(.minutes(5)))
struct PauseAtOnceTests {
  /// The default policy with a reappear grace time so long (600 s) that
  /// within a test's waits only BlueZ's word or the profile switch's window
  /// can pause anything.
  static func policy(profileSwitchSeconds: String) throws -> String {
    let text = try DaemonFixture.policyText()
    for setting in ["reappearGraceSeconds: 5,", "profileSwitchSeconds: 0.3,"] {
      guard text.contains(setting) else {
        throw FixtureError("the default policy has no '\(setting)'")
      }
    }
    return
      text
      .replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 600,"
      )
      .replacingOccurrences(
        of: "profileSwitchSeconds: 0.3,",
        with: "profileSwitchSeconds: \(profileSwitchSeconds),")
  }

  @Test(
    "BlueZ says connected: a flip keeps playing; BlueZ says disconnected: paused at once, never heard",
    arguments: SoundServerKind.allCases)
  func blueZSaysDisconnected(_ kind: SoundServerKind) async throws {
    let mock = try await BlueZMock.start()
    defer { mock.stop() }
    try await mock.addAdapter("hci0", systemName: "laptop")
    try await mock.addDevice(address: budsAddress, name: "Studio Buds")
    try await mock.setDeviceProperty(budsAddress, "Connected", .bool(true))
    // No window of its own: only BlueZ's word keeps a flip from pausing.
    try await withMediaRig(
      kind, policy: try Self.policy(profileSwitchSeconds: "0"),
      registered: false, bluez: mock
    ) { rig in
      // The router's own word that it knows the headset is connected:
      // discovery, which `acctl list` reads, may know it sooner.
      try await waitUntil(
        "accessoryd knows from BlueZ that the headset is connected",
        within: .seconds(30)
      ) {
        rig.daemon.log.split(separator: "\n").contains {
          $0.contains("BlueZ says the device is connected")
            && $0.contains(budsAddress)
        }
      }
      let processes = Set(rig.playing.map(\.processID))
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker", processes: processes)
      defer { _ = watch.stop() }

      // A profile switch while BlueZ says the headset is connected.
      let headset = try await rig.flip(from: "buds", to: "buds-headset") {
        let streams = try await watch.placements(of: processes)
        return streams.count == processes.count
          && streams.allSatisfy { $0.sink == "speaker" && $0.muted }
      }
      try await waitUntil(
        "every stream unmuted on the headset's output", within: .seconds(30)
      ) {
        let streams = try await watch.placements(of: processes)
        return streams.count == processes.count
          && streams.allSatisfy { $0.sink == headset && !$0.muted }
      }
      #expect(rig.status(of: rig.playing[0]) == .playing)
      #expect(rig.status(of: rig.playing[1]) == .playing)
      #expect(!rig.daemon.log.contains("Paused media players"))

      // The headset's output goes while BlueZ still says connected: held
      // muted, as a profile switch, for up to 600 s.
      try await rig.server.unloadModule(try await rig.module(of: headset))
      try await waitUntil(
        "the streams muted on the speaker", within: .seconds(30)
      ) {
        let streams = try await watch.placements(of: processes)
        return streams.count == processes.count
          && streams.allSatisfy { $0.sink == "speaker" && $0.muted }
      }
      #expect(rig.status(of: rig.playing[0]) == .playing)
      #expect(rig.status(of: rig.playing[1]) == .playing)
      // BlueZ says it disconnected: paused now, long before the 600 s.
      try await mock.setDeviceProperty(budsAddress, "Connected", .bool(false))
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both players paused on BlueZ's word")
      #expect(rig.status(of: rig.paused) == .paused)
      #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
      #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
      let explained = try await rig.acctl(["route", "--explain"]).stdout
      #expect(
        explained.contains("output went away and did not come back"),
        "\(explained)")
    }
  }

  @Test(
    "Without BlueZ's word the profile switch's window decides: paused, never heard",
    arguments: SoundServerKind.allCases, [false, true])
  func withoutBlueZ(_ kind: SoundServerKind, registered: Bool) async throws {
    try await withMediaRig(
      kind, policy: try Self.policy(profileSwitchSeconds: "0.3"),
      registered: registered
    ) { rig in
      // The grace time is 600 s: only the window pauses within the wait.
      try await Self.budsGoAndThePlayersPause(rig)
    }
  }

  @Test(
    "Headphones already there when accessoryd starts are guarded: gone, paused, never heard",
    arguments: SoundServerKind.allCases)
  func alreadyThereAtTheStart(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind, registered: false) { rig in
      // accessoryd restarts (a package upgrade, a login) while the headset
      // nobody registered plays.
      try await rig.daemon.restart()
      try await rig.waitForThePlayers(on: "buds")
      try await waitUntil("the headset listed as guarded", within: .seconds(30))
      {
        try await rig.acctl(["list"]).stdout.split(separator: "\n").contains {
          $0.contains(budsAddress) && $0.contains("guarded")
        }
      }
      try await Self.budsGoAndThePlayersPause(rig)
    }
  }

  @Test(
    "A headset that drops three times in a row: paused once, resumed once",
    arguments: SoundServerKind.allCases)
  func flappingHeadset(_ kind: SoundServerKind) async throws {
    // Resumed when back, once back for 20 s: more than each drop here
    // takes, on a loaded machine too.
    let policy = try DaemonFixture.policyText().replacingOccurrences(
      of: "resumeOnReconnect: false,", with: "resumeOnReconnect: true,"
    ).replacingOccurrences(
      of: "reconnectSettleSeconds: 2,", with: "reconnectSettleSeconds: 20,")
    try await withMediaRig(kind, policy: policy, registered: false) { rig in
      var sink = "buds"
      for drop in 1...3 {
        try await rig.server.unloadModule(try await rig.module(of: sink))
        try await rig.waitForStatuses(
          [(rig.playing[0], .paused), (rig.playing[1], .paused)],
          "both players paused after drop \(drop)")
        sink = try await rig.connectBuds(as: "buds-\(drop)")
        try await rig.waitForDefault(sink)
      }
      try await rig.waitForStatuses(
        [(rig.playing[0], .playing), (rig.playing[1], .playing)],
        "both players resumed once the headset stayed", within: .seconds(60))
      let log = rig.daemon.log
      #expect(
        log.components(separatedBy: "Paused media players").count - 1 == 1,
        "\(rig.daemon.logTail())")
      #expect(
        log.components(separatedBy: "Resumed media players").count - 1 == 1,
        "\(rig.daemon.logTail())")
    }
  }

  /// The buds' output goes: the two playing players pause, the one the
  /// person paused stays so, and none is heard on the speaker meanwhile.
  static func budsGoAndThePlayersPause(_ rig: MediaRig) async throws {
    let processes = Set(rig.playing.map(\.processID))
    let watch = try await AudibilityWatch.start(
      rig.server, sink: "speaker", processes: processes)
    defer { _ = watch.stop() }
    try await rig.server.unloadModule(try await rig.module(of: "buds"))
    try await rig.waitForStatuses(
      [(rig.playing[0], .paused), (rig.playing[1], .paused)],
      "both players paused")
    #expect(rig.status(of: rig.paused) == .paused)
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
  }
}
