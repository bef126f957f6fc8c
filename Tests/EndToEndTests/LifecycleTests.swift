// The daemon's life: one daemon per state directory, a graceful stop
// logged once, a second signal that ends a stop at once, and stray signals
// that end nothing.

import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The daemon's lifecycle, end to end")
struct LifecycleTests {
  @Test("A second daemon on the same state directory is refused")
  func aSecondDaemonOnTheSameStateIsRefused() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      let first = try #require(rig.daemon.processIdentifier)
      let home = rig.daemon.directory + "/second"
      let second = try await Self.startSecond(
        beside: rig, home: home, stateDirectory: rig.daemon.stateDirectory,
        socket: home + "/control.sock")
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

  @Test("A second daemon on the same socket is refused, naming the first")
  func aSecondDaemonOnTheSameSocketIsRefused() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      let first = try #require(rig.daemon.processIdentifier)
      let home = rig.daemon.directory + "/second"
      let second = try await Self.startSecond(
        beside: rig, home: home, stateDirectory: home + "/state",
        socket: rig.daemon.socketPath)
      #expect(second.status == 75, "\(second)")
      #expect(
        second.stderr
          == "Error: another accessoryd (pid \(first)) already listens on "
          + "'\(rig.daemon.socketPath)'; stop it first, or give this one "
          + "another --socket\n")
      // The first one carries on, on its socket.
      try await rig.ok(["list"])
    }
  }

  /// Runs a second daemon beside the rig's, on the same sound server and
  /// policy, with its home in `home`; it must exit within 10 s.
  static func startSecond(
    beside rig: Rig, home: String, stateDirectory: String, socket: String
  ) async throws -> ProgramResult {
    try FileManager.default.createDirectory(
      atPath: home, withIntermediateDirectories: true)
    return try await runProgram(
      try builtProduct("accessoryd").path,
      [
        "--state-dir", stateDirectory, "--socket", socket, "--policy",
        rig.daemon.policyPath,
      ],
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": home,
        "PULSE_SERVER": rig.daemon.soundServerAddress,
      ], within: .seconds(30))
  }

  @Test("SIGTERM stops the daemon gracefully; the exit is logged once")
  func exitIsLoggedOnce() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(on: server)
    defer { daemon.shutDown() }
    let status = await daemon.stop()
    #expect(status == 0)
    let exits = daemon.log.components(separatedBy: "\n").filter {
      $0.contains("Exiting")
    }
    #expect(exits.count == 1, "\(daemon.log)")
    #expect(exits.first?.contains("exit.status=0") == true)
    #expect(exits.first?.contains("exit.reason=stopped") == true)
  }

  @Test("SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE leave the daemon running")
  func strayedSignalsAreIgnored() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      let pid = try #require(rig.daemon.processIdentifier)
      for signal in [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE] {
        rig.daemon.signal(signal)
        // Answered after the signal was delivered: a signal pending for a
        // process is acted on before it runs again.
        let status = try await rig.ok(["status"])
        #expect(status.status == 0)
        #expect(rig.daemon.isRunning, "after signal \(signal)")
      }
      #expect(rig.daemon.processIdentifier == pid)
      #expect(!rig.daemon.log.contains("Exiting"))
    }
  }

  @Test("A second SIGTERM while the daemon stops ends it at once")
  func secondSignalEndsTheStop() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    // The sound server's answer and the stop are waited for ten minutes:
    // only the second signal ends the stop within the test's wait, however
    // late a busy machine delivers it.
    let daemon = try await DaemonFixture.start(
      on: server,
      arguments: ["--server-timeout", "600", "--stop-timeout", "600"])
    defer { daemon.shutDown() }
    _ = try await daemon.acctl(["pair", budsAddress])
    _ = try await daemon.acctl([
      "register", budsAddress, "--capabilities", "audioSwitching,placement",
      "--placement", "offHead",
    ])
    // The sound server freezes: the next batch waits for its answer, and
    // the router's stop waits for the batch.
    for pid in server.pids { Glibc.kill(pid, SIGSTOP) }
    defer { for pid in server.pids { Glibc.kill(pid, SIGCONT) } }
    let update = try daemon.startAcctl([
      "update", budsAddress, "--placement", "inEar",
    ])
    try await waitUntil(
      "the daemon sends a batch to the frozen server", within: .seconds(30)
    ) {
      daemon.log.contains("Sending a batch route.operations")
        && daemon.log.contains("an accessory was updated")
    }
    daemon.signal(SIGTERM)
    try await waitUntil("the daemon starts to stop", within: .seconds(30)) {
      daemon.log.contains("Stopping signal=SIGTERM")
    }
    #expect(
      daemon.isRunning, "the stop did not wait for the batch\n\(daemon.log)")
    daemon.signal(SIGTERM)
    try await waitUntil("the daemon ends", within: .seconds(30)) {
      !daemon.isRunning
    }
    #expect(daemon.exitDescription == "exit status 143", "\(daemon.log)")
    let exits = daemon.log.components(separatedBy: "\n").filter {
      $0.contains("Exiting")
    }
    #expect(exits.count == 1, "\(daemon.log)")
    #expect(
      exits.first?.contains("exit.reason=a second SIGTERM while stopping")
        == true, "\(exits)")
    #expect(
      !daemon.log.contains("Cannot apply the route now"), "\(daemon.log)")
    _ = try? await update.result()
  }

  @Test(
    "systemd is told: ready once it listens, reloading around SIGHUP, stopping")
  func tellsTheServiceManager() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let listener = try NotifySocketListener()
    defer { listener.close() }
    let daemon = try await DaemonFixture.start(
      on: server, environment: ["NOTIFY_SOCKET": listener.path])
    defer { daemon.shutDown() }

    let ready = try await listener.waitForMessage("READY=1") {
      $0.contains("READY=1")
    }
    #expect(ready == 0, "\(listener.messages)")
    #expect(
      listener.messages[ready]
        == "READY=1\nSTATUS=Listening on \(daemon.socketPath)")

    // A good policy, then a bad one: each reload is bracketed.
    daemon.signal(SIGHUP)
    let reloaded = try await listener.waitForMessage(
      "READY=1 after the reload", after: ready
    ) { $0.hasPrefix("READY=1") }
    #expect(
      listener.messages[ready + 1].hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
    #expect(
      listener.messages[reloaded]
        == "READY=1\nSTATUS=Policy reloaded from \(daemon.policyPath)")
    try daemon.writePolicy("{ not a policy")
    daemon.signal(SIGHUP)
    let refused = try await listener.waitForMessage(
      "READY=1 after the refused reload", after: reloaded
    ) { $0.hasPrefix("READY=1") }
    #expect(listener.messages[reloaded + 1].hasPrefix("RELOADING=1\n"))
    #expect(
      listener.messages[refused]
        == "READY=1\nSTATUS=The new policy is refused; the old one stays")

    #expect(await daemon.stop() == 0)
    let stopping = try await listener.waitForMessage(
      "STOPPING=1", after: refused
    ) { $0 == "STOPPING=1" }
    #expect(stopping == listener.messages.count - 1, "\(listener.messages)")
  }
}
