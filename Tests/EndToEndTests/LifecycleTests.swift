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
    // The frozen server's batch gives up after the link's 5 s operation
    // timeout; on a machine so busy that the two signals come later than
    // that, the stop ends by itself and the case is not made: tried again.
    for attempt in 1...3 {
      if try await secondSignalEndsTheStop(lastAttempt: attempt == 3) {
        return
      }
    }
  }

  /// One try of ``secondSignalEndsTheStop()``.
  ///
  /// - Returns: Whether the case was made; false when the frozen batch
  ///   gave up before the second signal.
  private func secondSignalEndsTheStop(lastAttempt: Bool) async throws -> Bool {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(on: server)
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
    func gaveUp() -> Bool {
      daemon.log.contains("Cannot apply the route now")
        || daemon.log.contains("A routing operation failed")
    }
    /// Whether the batch gave up before the stop began.
    func gaveUpBeforeTheStop() -> Bool {
      let log = daemon.log
      guard let stop = log.range(of: "Stopping signal=SIGTERM") else {
        return false
      }
      return ["Cannot apply the route now", "A routing operation failed"]
        .contains {
          log.range(of: $0).map { $0.lowerBound < stop.lowerBound } ?? false
        }
    }
    if !daemon.isRunning, gaveUpBeforeTheStop() || gaveUp(), !lastAttempt {
      // The batch gave up (the link's 5 s operation timeout) before the
      // stop began, or as it began, on a machine so busy that the signal
      // came that late: the stop then had nothing to wait for.
      _ = try? await update.result()
      return false
    }
    #expect(
      daemon.isRunning, "the stop did not wait for the batch\n\(daemon.log)")
    daemon.signal(SIGTERM)
    try await waitUntil("the daemon ends", within: .seconds(30)) {
      !daemon.isRunning
    }
    if gaveUp(), daemon.exitDescription == "exit status 0", !lastAttempt {
      _ = try? await update.result()
      return false
    }
    #expect(daemon.exitDescription == "exit status 143", "\(daemon.log)")
    let exits = daemon.log.components(separatedBy: "\n").filter {
      $0.contains("Exiting")
    }
    #expect(exits.count == 1, "\(daemon.log)")
    #expect(
      exits.first?.contains("exit.reason=a second SIGTERM while stopping")
        == true, "\(exits)")
    _ = try? await update.result()
    return true
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
