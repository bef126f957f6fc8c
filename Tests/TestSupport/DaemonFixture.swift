import ConcurrencyHelpers
import Foundation
import Glibc

/// A private `accessoryd` for one end-to-end test, and the `acctl` that
/// talks to it.
///
/// The daemon is the built product, run in a fresh private directory with
/// its own state directory, socket, policy file and log, against one test
/// ``SoundServer``. Its processes, and every `acctl` it runs, belong to one
/// process group led by a watchdog, so nothing outlives the test process
/// even if it crashes.
///
/// ```swift
/// let server = try await SoundServer.start(.pulseAudio, sinks: sinks)
/// let daemon = try await DaemonFixture.start(on: server)
/// defer { daemon.shutDown() }
/// let result = try await daemon.acctl(["pair", "AA:BB:CC:DD:EE:01"])
/// ```
///
/// - Important: Call ``shutDown()`` when done; `deinit` does it too.
public final class DaemonFixture: Sendable {
  /// The private directory of this daemon, removed by ``shutDown()``.
  public let directory: String

  /// The control socket.
  public let socketPath: String

  /// The state directory, passed as `--state-dir`; it survives restarts.
  public let stateDirectory: String

  /// The policy file, passed as `--policy`; rewrite it with
  /// ``writePolicy(_:)``.
  public let policyPath: String

  /// The daemon's log: its standard output and standard error.
  public let logPath: String

  /// The sound server's address, the daemon's `PULSE_SERVER`.
  public let soundServerAddress: String

  /// This host's Bluetooth addresses, passed as `--host-address`.
  public let hostAddresses: [String]

  /// The variables an in-process client needs to reach this daemon:
  /// `ACCESSORYD_SOCKET`.
  public var environment: [String: String] {
    ["ACCESSORYD_SOCKET": socketPath]
  }

  /// The address tests give this host unless they choose others.
  public static let defaultHostAddress = "11:22:33:44:55:66"

  /// How long the daemon may take to answer after a start.
  public static let startTimeout = Duration.seconds(15)

  /// How long one `acctl` may run.
  static let acctlTimeout = Duration.seconds(30)

  /// The D-Bus bus the daemon takes for the system bus, where it looks for
  /// BlueZ: a test's ``BlueZMock``, or a path where no bus listens, so that
  /// the machine's own BlueZ is never seen.
  public let systemBusAddress: String

  /// The session bus of the media players, a ``PrivateBus``; nil for none,
  /// as on a machine without a session.
  public let sessionBusAddress: String?
  private let extraEnvironment: [String: String]
  /// Whether the daemon is given `--policy`; else it looks for
  /// ``policyPath`` in its configuration directory, as a daemon started
  /// without options does.
  private let passesPolicy: Bool
  /// More flags for the daemon, after the fixture's own.
  private let extraArguments: [String]
  private let accessorydPath: String
  let acctlPath: String
  let state: Mutex<State>

  struct State {
    var daemon: ChildProcess?
    var watchdog: ProcessGroupWatchdog?
    var isShutDown = false
    var nextRun = 1
    var starts = 0
  }

  private init(
    directory: String, soundServerAddress: String, hostAddresses: [String],
    systemBusAddress: String?, sessionBusAddress: String?,
    extraEnvironment: [String: String], passesPolicy: Bool,
    extraArguments: [String], accessorydPath: String, acctlPath: String,
    watchdog: ProcessGroupWatchdog
  ) {
    self.directory = directory
    self.socketPath = "\(directory)/control.sock"
    self.stateDirectory = "\(directory)/state"
    self.passesPolicy = passesPolicy
    self.policyPath =
      passesPolicy
      ? "\(directory)/policy.json5"
      : "\(directory)/home/.config/accessoryd/policy.json5"
    self.logPath = "\(directory)/accessoryd.log"
    self.soundServerAddress = soundServerAddress
    self.hostAddresses = hostAddresses
    self.systemBusAddress =
      systemBusAddress ?? "unix:path=\(directory)/no-system-bus"
    self.sessionBusAddress = sessionBusAddress
    self.extraEnvironment = extraEnvironment
    self.extraArguments = extraArguments
    self.accessorydPath = accessorydPath
    self.acctlPath = acctlPath
    self.state = Mutex(State(watchdog: watchdog))
  }

  deinit {
    shutDown()
  }

  // MARK: - Starting and stopping

  /// Starts a daemon for a sound server and waits until it answers on its
  /// socket and has connected to the server.
  ///
  /// - Parameters:
  ///   - server: The sound server the daemon routes.
  ///   - policy: The text of the policy file; by default the shipped
  ///     default policy with a 0.3 s off-head grace time.
  ///   - hostAddresses: This host's Bluetooth addresses; empty to let the
  ///     daemon take its adapters' addresses.
  ///   - systemBusAddress: The bus of a ``BlueZMock``; nil for none.
  ///   - sessionBusAddress: The session bus of the media players; nil for
  ///     none.
  ///   - environment: More variables for the daemon, such as
  ///     `NOTIFY_SOCKET`.
  ///   - policyInConfigHome: Starts the daemon without `--policy` and
  ///     without a policy file: it looks for one in its configuration
  ///     directory (``policyPath``), which ``writePolicy(_:)`` writes.
  ///   - arguments: More flags for the daemon, such as `--stop-timeout`.
  ///   - binaries: The daemon and acctl to run, such as the shipped
  ///     binary and a link named acctl to it; the built products by
  ///     default.
  /// - Returns: The running daemon.
  /// - Throws: ``DaemonFixtureError`` with the end of the log if the
  ///   products are missing or the daemon does not come up; nothing is left
  ///   running.
  public static func start(
    on server: SoundServer, policy: String? = nil,
    hostAddresses: [String] = [defaultHostAddress],
    systemBusAddress: String? = nil, sessionBusAddress: String? = nil,
    environment: [String: String] = [:], policyInConfigHome: Bool = false,
    binaries: (accessoryd: String, acctl: String)? = nil,
    arguments: [String] = []
  ) async throws -> DaemonFixture {
    SharedThreadWatchdog.start()
    let accessoryd = try binaries?.accessoryd ?? builtProduct("accessoryd").path
    let acctl = try binaries?.acctl ?? builtProduct("acctl").path
    let policyText = try policy ?? policyText()
    let directory = try SoundServer.makePrivateDirectory(
      prefix: "accessoryd-e2e")
    let watchdog: ProcessGroupWatchdog
    do {
      for subdirectory in ["home", "home/.config", "runtime", "acctl"] {
        try FileManager.default.createDirectory(
          atPath: "\(directory)/\(subdirectory)",
          withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      }
      watchdog = try ProcessGroupWatchdog.start(
        directory: directory,
        shell: try ChildProcess.executablePath(
          of: "sh", searchPath: SoundServer.searchPath),
        environment: ["PATH": SoundServer.searchPath])
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    let fixture = DaemonFixture(
      directory: directory, soundServerAddress: server.serverAddress,
      hostAddresses: hostAddresses, systemBusAddress: systemBusAddress,
      sessionBusAddress: sessionBusAddress, extraEnvironment: environment,
      passesPolicy: !policyInConfigHome, extraArguments: arguments,
      accessorydPath: accessoryd, acctlPath: acctl, watchdog: watchdog)
    do {
      if !policyInConfigHome { try fixture.writePolicy(policyText) }
      try await fixture.launch()
    } catch {
      fixture.shutDown()
      throw error
    }
    return fixture
  }

  /// Stops the daemon: SIGTERM, then SIGKILL after five seconds.
  ///
  /// The directory stays, so ``restart()`` and ``logTail(lines:)`` still
  /// work.
  ///
  /// - Returns: The daemon's exit status if it exited by itself, nil if it
  ///   was killed by a signal or was not running.
  @discardableResult
  public func stop() async -> Int32? {
    let daemon = state.withLock { state in
      defer { state.daemon = nil }
      return state.daemon
    }
    guard let daemon else { return nil }
    daemon.send(SIGCONT)
    // Longer than the daemon's own 5 s stop deadline, so that a service
    // that does not stop is named in the log rather than killed unnamed.
    await ChildProcess.terminate([daemon], gracePeriod: .seconds(8))
    return daemon.exitStatus
  }

  /// Kills the daemon at once with SIGKILL, as in a crash, and waits for
  /// it.
  public func kill() async {
    let daemon = state.withLock { state in
      defer { state.daemon = nil }
      return state.daemon
    }
    if let daemon { await ChildProcess.killAndWait([daemon]) }
  }

  /// Starts the daemon again with the same directory, state, socket and
  /// policy; stops it first if it runs.
  ///
  /// - Throws: ``DaemonFixtureError`` with the end of the log if the
  ///   daemon does not come up.
  public func restart() async throws {
    await stop()
    try await launch()
  }

  /// Starts the daemon again, as ``restart()`` does, through a program
  /// that runs it, such as `prlimit --as=1073741824 --`; that program must
  /// end by running the daemon in its own process (exec).
  ///
  /// - Parameter launcher: The program and its arguments, before the
  ///   daemon's path.
  /// - Throws: ``DaemonFixtureError`` with the end of the log if the
  ///   daemon does not come up.
  public func restart(
    through launcher: [String], readyWithin limit: Duration = startTimeout
  ) async throws {
    await stop()
    try await launch(through: launcher, readyWithin: limit)
  }

  /// Stops the daemon and every process of its group, then removes the
  /// directory: SIGTERM at once, the rest on a thread of its own, so it
  /// returns without waiting (it runs in `defer` and `deinit`).
  ///
  /// Safe to call more than once.
  public func shutDown() {
    let taken = state.withLock { state in
      if state.isShutDown { return nil as State? }
      state.isShutDown = true
      defer {
        state.daemon = nil
        state.watchdog = nil
      }
      return state
    }
    guard let taken else { return }
    let directory = directory
    taken.daemon?.send(SIGCONT)
    ChildProcess.terminateInBackground(taken.daemon.map { [$0] } ?? []) {
      taken.watchdog?.release()
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// Freezes the daemon with SIGSTOP, so that it misses what happens
  /// until ``resume()``.
  public func pause() {
    signal(SIGSTOP)
  }

  /// Lets a daemon frozen by ``pause()`` run again.
  public func resume() {
    signal(SIGCONT)
  }

  /// Sends a signal to the daemon, such as SIGHUP to reload the policy.
  public func signal(_ signal: Int32) {
    state.withLock { $0.daemon }?.send(signal)
  }

  /// The daemon's process identifier, or nil when it does not run.
  public var processIdentifier: pid_t? {
    state.withLock { $0.daemon }?.processIdentifier
  }

  /// Whether the daemon runs.
  public var isRunning: Bool {
    state.withLock { $0.daemon }?.isRunning ?? false
  }

  /// How the daemon ended, such as "signal 6", or nil while it runs.
  public var exitDescription: String? {
    state.withLock { $0.daemon }?.exitDescription
  }

  /// Replaces the policy file; send SIGHUP for the daemon to read it.
  public func writePolicy(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: (policyPath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try text.write(toFile: policyPath, atomically: true, encoding: .utf8)
  }

  /// The last lines of the daemon's log, for failure messages.
  ///
  /// - Parameter lines: How many lines to show.
  public func logTail(lines: Int = 40) -> String {
    SoundServer.tail(ofLog: logPath, lines: lines)
  }

  /// The daemon's whole log.
  public var log: String { SoundServer.readFile(logPath) }

  // MARK: - Launching

  /// The environment of the daemon and of `acctl`: private XDG
  /// directories, so no file of the machine's user is read.
  var baseEnvironment: [String: String] {
    [
      "PATH": SoundServer.searchPath,
      "HOME": "\(directory)/home",
      "XDG_RUNTIME_DIR": "\(directory)/runtime",
      "XDG_CONFIG_HOME": "\(directory)/home/.config",
      "XDG_STATE_HOME": "\(directory)/home/.local/state",
      "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8",
    ]
  }

  /// The daemon's command line after the program.
  var daemonArguments: [String] {
    ["--state-dir", stateDirectory, "--socket", socketPath]
      + (passesPolicy ? ["--policy", policyPath] : [])
      + ["--log-level", "debug"]
      + hostAddresses.flatMap { ["--host-address", $0] } + extraArguments
  }

  private func launch(
    through launcher: [String] = [], readyWithin limit: Duration = startTimeout
  ) async throws {
    let group = try processGroup()
    var environment = baseEnvironment
    environment["PULSE_SERVER"] = soundServerAddress
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
    environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBusAddress
    environment.merge(extraEnvironment) { $1 }
    let start = state.withLock { state in
      state.starts += 1
      return state.starts
    }
    let marker = "==== accessoryd-e2e: start \(start) ====\n"
    appendToLog(marker)
    let process = try ChildProcess.spawn(
      executable: launcher.first ?? accessorydPath,
      arguments: launcher.dropFirst()
        + (launcher.isEmpty ? [] : [accessorydPath])
        + daemonArguments,
      environment: environment, output: logPath, processGroup: group)
    let isShutDown = state.withLock { state in
      if !state.isShutDown { state.daemon = process }
      return state.isShutDown
    }
    if isShutDown {
      await ChildProcess.killAndWait([process])
      throw DaemonFixtureError("the daemon fixture was shut down")
    }
    try await waitUntilReady(within: limit)
  }

  /// Waits until the daemon answers `route.get` with the sound server
  /// connected.
  private func waitUntilReady(within limit: Duration) async throws {
    let deadline = ContinuousClock.now + limit
    var lastAnswer = "no answer"
    while true {
      guard let daemon = state.withLock({ $0.daemon }), daemon.isRunning
      else {
        let how = state.withLock { $0.daemon }?.exitDescription ?? "stopped"
        throw DaemonFixtureError(
          "accessoryd exited (\(how)) before it answered", logTail: logTail())
      }
      do {
        let socketPath = socketPath
        let reply = try await onOwnThread {
          try DaemonSocket.request(socketPath, method: "route.get", timeout: 2)
        }
        lastAnswer = reply
        if reply.contains(#""soundServer":"connected""#) { return }
      } catch {
        lastAnswer = "\(error)"
      }
      if ContinuousClock.now >= deadline {
        throw DaemonFixtureError(
          "accessoryd did not answer with the sound server connected within "
            + "\(limit); last answer: \(lastAnswer)",
          logTail: logTail())
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  private func appendToLog(_ text: String) {
    let descriptor = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = text.utf8CString.withUnsafeBufferPointer { buffer in
      write(descriptor, buffer.baseAddress!, buffer.count - 1)
    }
  }

  func processGroup() throws -> pid_t {
    try state.withLock { state in
      guard !state.isShutDown, let watchdog = state.watchdog else {
        throw DaemonFixtureError("the daemon fixture was shut down")
      }
      return watchdog.processGroup
    }
  }

  // MARK: - Policies

  /// The shipped default policy, `policies/default.json5`, with some
  /// settings changed.
  ///
  /// - Parameters:
  ///   - offHeadGraceSeconds: `placement.offHeadGraceSeconds`.
  ///   - takeWhenSecondary: `multipoint.takeWhenSecondary`.
  ///   - firstReportWaitSeconds: `connection.firstReportWaitSeconds`.
  /// - Throws: ``DaemonFixtureError`` if the file cannot be read or no
  ///   longer has the settings in their shipped form.
  public static func policyText(
    offHeadGraceSeconds: Double = 0.3, takeWhenSecondary: Bool = false,
    firstReportWaitSeconds: Double = 1
  ) throws -> String {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../policies/default.json5").standardized.path
    var text = SoundServer.readFile(path)
    let edits = [
      (
        "offHeadGraceSeconds: 3,",
        "offHeadGraceSeconds: \(offHeadGraceSeconds),"
      ),
      ("takeWhenSecondary: false,", "takeWhenSecondary: \(takeWhenSecondary),"),
      (
        "firstReportWaitSeconds: 1,",
        "firstReportWaitSeconds: \(firstReportWaitSeconds),"
      ),
    ]
    for (old, new) in edits {
      guard text.contains(old) else {
        throw DaemonFixtureError("\(path) has no '\(old)' to change")
      }
      text = text.replacingOccurrences(of: old, with: new)
    }
    return text
  }
}
