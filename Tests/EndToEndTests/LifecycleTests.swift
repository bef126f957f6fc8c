// The daemon's life: one daemon per state directory.

import Foundation
import TestSupport
import Testing

@Suite("The daemon's lifecycle, end to end")
struct LifecycleTests {
  @Test("A second daemon on the same state directory is refused")
  func aSecondDaemonOnTheSameStateIsRefused() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      let first = try #require(rig.daemon.processIdentifier)
      let home = rig.daemon.directory + "/second"
      try FileManager.default.createDirectory(
        atPath: home, withIntermediateDirectories: true)
      let second = try await runProgram(
        try builtProduct("accessoryd").path,
        [
          "--state-dir", rig.daemon.stateDirectory, "--socket",
          home + "/control.sock", "--policy", rig.daemon.policyPath,
        ],
        environment: [
          "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": home,
          "PULSE_SERVER": rig.daemon.soundServerAddress,
        ])
      #expect(second.status == 75, "\(second)")
      #expect(
        second.stderr
          == "Error: another accessoryd (pid \(first), socket "
          + "\(rig.daemon.socketPath)) already uses the state directory "
          + "'\(rig.daemon.stateDirectory)'; stop it first, or give this one "
          + "another --state-dir\n")
      #expect(!FileManager.default.fileExists(atPath: home + "/control.sock"))
      // The first one carries on.
      let list = try await rig.ok(["list"])
      #expect(list.status == 0)
    }
  }
}
