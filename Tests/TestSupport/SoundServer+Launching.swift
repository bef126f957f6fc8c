// Launching a SoundServer: PulseAudio with a generated default.pa, or the
// PipeWire stack (a session bus, pipewire, WirePlumber kept away from real
// devices, pipewire-pulse), each step waited for until the server is ready.

import ConcurrencyHelpers
import Foundation
import Glibc

extension SoundServer {
  /// Starts the daemons and waits until the server is ready.
  func launch() async throws {
    let started = ContinuousClock.now
    for socket in [layout.pulseSocket, layout.pipeWireSocket, layout.busSocket]
    {
      unlink(socket)
    }
    switch kind {
    case .pulseAudio: try await launchPulseAudio()
    case .pipeWire: try await launchPipeWire()
    }
    state.withLock { $0.startupDuration = ContinuousClock.now - started }
  }

  private func launchPulseAudio() async throws {
    try pulseAudioStartupScript().write(
      toFile: layout.startupScript, atomically: true, encoding: .utf8)
    try await spawnDaemon(
      "pulseaudio",
      arguments: [
        "-n", "-F", layout.startupScript, "--daemonize=no",
        "--exit-idle-time=-1", "--disallow-exit=yes",
        "--disallow-module-loading=no", "--use-pid-file=no", "--system=no",
        "--realtime=no", "--high-priority=no", "--log-target=stderr",
        "--log-level=notice",
      ])
    try await waitUntil("the PulseAudio socket") {
      FileManager.default.fileExists(atPath: layout.pulseSocket)
    }
    try await waitUntil("PulseAudio to answer") {
      (try? await pactl(["info"])) != nil
    }
    // PulseAudio answers only after running default.pa, but a failing line
    // does not stop it, so check the outcome once.
    let names = Set(try await sinks().map(\.name))
    let missing = initialSinks.map(\.name).filter { !names.contains($0) }
    guard missing.isEmpty else {
      throw FixtureError("PulseAudio refused the sinks \(missing)")
    }
    let defaultSink = try await defaultSinkName()
    guard defaultSink == initialDefaultSink else {
      throw FixtureError(
        "the default sink is \(defaultSink ?? "none"), not "
          + "\(initialDefaultSink ?? "none")")
    }
  }

  /// The generated `default.pa`.
  func pulseAudioStartupScript() throws -> String {
    var lines = [
      ".fail",
      "load-module module-native-protocol-unix socket=\(layout.pulseSocket)"
        + " auth-anonymous=1 auth-cookie-enabled=0",
    ]
    for spec in initialSinks {
      lines.append("load-module module-null-sink \(try spec.moduleArguments())")
    }
    if loadsSwitchOnConnect {
      // Null sinks count as virtual; the default would skip them.
      lines.append("load-module module-switch-on-connect ignore_virtual=no")
    }
    lines.append("load-module module-stream-restore restore_device=false")
    lines.append("load-module module-always-sink")
    if let initialDefaultSink {
      lines.append("set-default-sink \(initialDefaultSink)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func launchPipeWire() async throws {
    // WirePlumber 0.4 needs a session bus: without one it links nothing and
    // never sets a default sink.
    try? FileManager.default.removeItem(atPath: layout.busAddressFile)
    try await spawnDaemon(
      "dbus-daemon",
      arguments: [
        "--session", "--nofork", "--nosyslog",
        "--address=unix:path=\(layout.busSocket)", "--print-address=1",
      ],
      output: layout.busAddressFile)
    try await waitUntil("the D-Bus session bus") {
      !Self.readFile(layout.busAddressFile).isEmpty
    }
    try await spawnDaemon("pipewire")
    try await waitUntil("the PipeWire socket") {
      FileManager.default.fileExists(atPath: layout.pipeWireSocket)
    }
    try writeWirePlumberIsolation()
    try await spawnDaemon("wireplumber")
    try await spawnDaemon("pipewire-pulse")
    try await waitUntil("pipewire-pulse to answer") {
      (try? await pactl(["info"])) != nil
    }
    for spec in initialSinks {
      _ = try await pactl(
        ["load-module", "module-null-sink", try spec.moduleArguments()])
    }
    if loadsSwitchOnConnect {
      _ = try await pactl(
        ["load-module", "module-switch-on-connect", "ignore_virtual=no"])
    }
    // WirePlumber only makes a sink the default once it has seen it. It sees
    // objects in creation order, so accepting the last sink proves it has
    // seen them all.
    let sinksToConfirm = [initialSinks.last?.name, initialDefaultSink]
    for name in sinksToConfirm.compactMap(\.self) {
      let lastSeen = Mutex<String?>(nil)
      do {
        try await waitUntil("WirePlumber to accept \(name)") {
          _ = try? await pactl(["set-default-sink", name])
          let current = try await defaultSinkName()
          lastSeen.withLock { $0 = current }
          return current == name
        }
      } catch let error as FixtureError {
        // What the server showed instead, for the log of a failed start.
        let sinks = (try? await pactl(["list", "sinks", "short"])) ?? "?"
        throw FixtureError(
          "\(error.message); the default was "
            + "\(lastSeen.withLock { $0 } ?? "none"), the sinks:\n\(sinks)")
      }
    }
  }

  /// Keeps the private WirePlumber away from real devices, but for the
  /// sound cards a test asked for.
  ///
  /// Without these drop-ins, a test run on a desktop would open the sound
  /// cards and cameras of the machine and register with its BlueZ daemon
  /// (whose monitor also needs logind, without which WirePlumber exits).
  private func writeWirePlumberIsolation() throws {
    let configuration = "\(layout.home)/.config/wireplumber"
    let alsa =
      alsaCards.map { cards in
        cards.map(\.wirePlumberRules).joined(separator: "\n")
      } ?? "alsa_monitor.enabled = false"
    let dropIns = [
      "main.lua.d": """
      \(alsa)
      v4l2_monitor.enabled = false
      libcamera_monitor.enabled = false
      """,
      "bluetooth.lua.d": "bluez_monitor.enabled = false",
    ]
    for (directory, text) in dropIns {
      let path = "\(configuration)/\(directory)"
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true)
      try "\(text)\n".write(
        toFile: "\(path)/60-accessoryd-test-isolation.lua", atomically: true,
        encoding: .utf8)
    }
    // WirePlumber 0.5 reads SPA-JSON fragments instead, and turns the
    // monitors off in its profile; 0.4 passes over this directory.
    let monitors =
      (alsaCards == nil ? ["monitor.alsa"] : [])
      + [
        "monitor.alsa-midi", "monitor.bluez", "monitor.bluez-midi",
        "monitor.v4l2", "monitor.libcamera",
      ]
    let fragments = "\(configuration)/wireplumber.conf.d"
    try FileManager.default.createDirectory(
      atPath: fragments, withIntermediateDirectories: true)
    let profile =
      "wireplumber.profiles = {\n  main = {\n"
      + monitors.map { "    \($0) = disabled\n" }.joined() + "  }\n}\n"
    try profile.write(
      toFile: "\(fragments)/60-accessoryd-test-isolation.conf",
      atomically: true, encoding: .utf8)
  }

  /// Starts one daemon with the server environment in the server group.
  private func spawnDaemon(
    _ program: String, arguments: [String] = [], output: String? = nil
  ) async throws {
    let log = "\(layout.directory)/\(program).log"
    let group = try processGroup()
    let (executable, fullArguments) = SoundServerStack.current.launch(
      try path(of: program), arguments: arguments)
    let process = try ChildProcess.spawn(
      executable: executable, arguments: fullArguments,
      environment: daemonEnvironment, output: output ?? log,
      errorOutput: output == nil ? nil : log, processGroup: group)
    let isStopped = state.withLock { state in
      if !state.isStopped { state.daemons.append(process) }
      return state.isStopped
    }
    if isStopped {
      await ChildProcess.killAndWait([process])
      throw FixtureError("\(kind) server was stopped")
    }
  }

  /// Waits, polling, until a condition holds or a daemon exits, for at
  /// most ``startStepTimeout`` from now.
  private func waitUntil(
    _ what: String, _ condition: () async throws -> Bool
  ) async throws {
    try await ChildProcess.waitUntil(
      what, deadline: ContinuousClock.now + Self.startStepTimeout,
      watching: { state.withLock { $0.daemons } },
      condition)
  }

  /// The error for a failed start, with the log tail.
  func startFailure(_ error: any Error) -> FixtureError {
    let reason = (error as? FixtureError)?.message ?? "\(error)"
    return FixtureError(
      "\(kind) did not start in \(layout.directory): \(reason)",
      logTail: logTail())
  }
}
