// Recovery end to end: the sound server crashes and comes back, the daemon
// is killed and restarted, the policy is reloaded with SIGHUP.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Recovery, end to end")
struct RecoveryTests {
  @Test(
    "After the sound server restarts, the route is applied again",
    arguments: SoundServerKind.allCases)
  func serverRestartReappliesTheRoute(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")

      await rig.server.kill()
      try await waitForSoundServer(rig, "disconnected")
      // While it is away, acctl says so: the output is unknown, and an
      // accessory nobody can see is not there because of it.
      let away = try await rig.ok(["route"]).stdout
      #expect(
        away.hasPrefix(
          "output:       unknown: the sound server is away (last seen: buds"),
        "\(away)")
      let pairing = try await rig.daemon.acctl(["pair", "AA:BB:CC:DD:EE:09"])
      #expect(pairing.status == 3)
      #expect(
        pairing.stderr.hasPrefix("Error: accessoryd has no sound server now"),
        "\(pairing)")
      // SoundServer.restart() confirms the PipeWire default by setting it
      // with pactl, as a person would; the daemon must not see that, so it
      // is frozen until the server is up. For the daemon, nothing changed
      // but the server going away and coming back.
      rig.daemon.pause()
      do {
        try await rig.server.restart()
      } catch {
        rig.daemon.resume()
        throw error
      }
      rig.daemon.resume()
      // The server starts over with the speaker as its default; its old
      // streams are gone, so new ones play there.
      _ = try await rig.server.startStreams(2)
      // No acctl command: the daemon reconnects and applies its decision.
      try await rig.eventuallyRouted(to: "buds", streams: 2)
      let route = try await rig.json(["route"])
      #expect(route["output"] == "buds")
      #expect(route["pending"] == false)
      #expect(route["soundServer"] == "connected")
    }
  }

  @Test(
    "After SIGKILL and a restart, every pairing and registration is kept",
    arguments: SoundServerKind.allCases)
  func daemonKillKeepsTheRegistry(_ kind: SoundServerKind) async throws {
    try await withRig(kind, phones: true) { rig in
      try await rig.pairAndRegister(
        budsAddress, placement: "inEar",
        extra: ["--primary-source", thisHost, "--secondary-source", otherHost])
      try await rig.ok(["pair", phonesAddress, "--name", "Desk Phones"])
      try await rig.ok([
        "register", "Desk Phones", "--capabilities", "audioSwitching,placement",
        "--placement", "offHead",
      ])
      try await rig.eventuallyRouted(to: "buds")
      let before = try await rig.json(["list"])
      #expect(
        before["accessories"].flatMap {
          if case .array(let items) = $0 { items.count } else { nil }
        } == 2, "\(before)")

      let pid = try #require(rig.daemon.processIdentifier)
      await rig.daemon.kill()
      #expect(Glibc.kill(pid, 0) == -1, "accessoryd survived SIGKILL")
      try await rig.daemon.restart()

      let after = try await rig.json(["list"])
      #expect(after == before)
      let buds = try await rig.json(["current", budsAddress])
      let configuration = buds["registration"]?["configuration"]
      #expect(configuration?["devicePlacement"] == "inEar")
      #expect(
        configuration?["primaryAudioSourceDeviceIdentifier"]
          == .string(thisHost))
      #expect(
        configuration?["secondaryAudioSourceDeviceIdentifier"]
          == .string(otherHost))
      let phones = try await rig.json(["current", "Desk Phones"])
      #expect(phones["displayName"] == "Desk Phones")
      // The state file says the same.
      let registry = try StateFile.decode(
        Data(
          contentsOf: URL(
            fileURLWithPath: rig.daemon.stateDirectory + "/state.json")))
      #expect(registry.accessories.count == 2)
      #expect(registry.registrations.count == 2)
      // And the route still follows the worn buds.
      try await rig.staysRouted(to: "buds", for: .milliseconds(300))
      try await rig.place(budsAddress, "offHead")
      try await rig.eventuallyRouted(to: "speaker")
    }
  }

  @Test(
    "SIGHUP: a bad policy keeps the old one, a good one is taken",
    arguments: SoundServerKind.allCases)
  func reloadRefusesABadPolicy(_ kind: SoundServerKind) async throws {
    let original = try DaemonFixture.policyText(takeWhenSecondary: false)
    try await withRig(kind, policy: original) { rig in
      try await rig.pairAndRegister(
        budsAddress, placement: "inEar",
        extra: ["--primary-source", otherHost, "--secondary-source", thisHost])
      try await rig.staysRouted(to: "speaker", for: .milliseconds(500))

      // A bad file: refused, the old policy stays.
      let bad = original.replacingOccurrences(
        of: "takeWhenSecondary: false,", with: "takeWhenSecondary: \"yes\",")
      try rig.daemon.writePolicy(bad)
      rig.daemon.signal(SIGHUP)
      try await waitForLog(rig, "The new policy is refused")
      #expect(
        rig.daemon.log.contains("multipoint.takeWhenSecondary"),
        "the refusal does not name the key\n\(rig.daemon.logTail())")
      let shown = try await rig.json(["policy", "show"])
      #expect(shown["text"]?.stringValue == original)
      #expect(shown["path"]?.stringValue == rig.daemon.policyPath)
      // Route behaviour is the old policy's: a placement change still
      // leaves the secondary-source buds alone.
      try await rig.place(budsAddress, "offHead")
      try await rig.place(budsAddress, "inEar")
      try await rig.staysRouted(to: "speaker", for: .milliseconds(500))
      #expect(rig.daemon.isRunning)

      // A good file: taken, and the route follows it at once.
      let good = try DaemonFixture.policyText(takeWhenSecondary: true)
      try rig.daemon.writePolicy(good)
      rig.daemon.signal(SIGHUP)
      try await rig.eventuallyRouted(to: "buds")
      let reloaded = try await rig.json(["policy", "show"])
      #expect(reloaded["text"]?.stringValue == good)
      #expect(rig.daemon.log.contains("Policy reloaded"))
    }
  }
}

/// Waits until the daemon reports the sound server in a state.
private func waitForSoundServer(
  _ rig: Rig, _ state: String, within limit: Duration = .seconds(30)
) async throws {
  let deadline = ContinuousClock.now + limit
  while true {
    let route = try await rig.json(["route"])
    if route["soundServer"]?.stringValue == state { return }
    guard ContinuousClock.now < deadline else {
      throw RigFailure(
        "the daemon never reported the sound server \(state); last: "
          + "\(route)", details: rig.daemon.logTail())
    }
    try await Task.sleep(for: .milliseconds(20))
  }
}

/// Waits until the daemon's log has a text.
private func waitForLog(
  _ rig: Rig, _ text: String, within limit: Duration = .seconds(30)
) async throws {
  let deadline = ContinuousClock.now + limit
  while !rig.daemon.log.contains(text) {
    guard ContinuousClock.now < deadline else {
      throw RigFailure(
        "the log never said '\(text)'", details: rig.daemon.logTail())
    }
    try await Task.sleep(for: .milliseconds(20))
  }
}
