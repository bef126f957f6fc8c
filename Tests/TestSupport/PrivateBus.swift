// A private D-Bus message bus for one test: dbus-daemon in a private
// directory and process group, and `gdbus` run against it. BlueZMock.swift
// serves BlueZ on such a bus.

import ConcurrencyHelpers
import Foundation
import Glibc

/// A private D-Bus message bus for one test, with nothing on it.
///
/// `dbus-daemon --session` runs in a fresh private directory, in a process
/// group led by a watchdog that cleans up even if the test process crashes.
///
/// - Important: Call ``stop()`` when done; `deinit` stops the bus too.
public final class PrivateBus: Sendable {
  /// The bus's address, such as `unix:path=/tmp/accessoryd-bus.Ab12Cd/bus`.
  public let address: String

  /// The bus's private directory, removed by ``stop()``.
  public let directory: String

  /// Absolute paths of the programs the bus and its clients run, by name.
  let programs: [String: String]

  private struct State {
    var processes: [ChildProcess] = []
    var watchdog: ProcessGroupWatchdog?
    var isStopped = false
    var nextCommandNumber = 1
  }

  private let state: Mutex<State>

  /// How long starting, or one command, may take: generous, because
  /// Python starts slowly on a small machine busy with other tests.
  static let timeout = Duration.seconds(30)

  private init(
    directory: String, programs: [String: String],
    watchdog: ProcessGroupWatchdog
  ) {
    self.directory = directory
    self.address = "unix:path=\(directory)/bus"
    self.programs = programs
    self.state = Mutex(State(watchdog: watchdog))
  }

  deinit {
    stop()
  }

  /// Starts a private bus and returns once it accepts connections.
  ///
  /// - Throws: ``BlueZMockError`` with the bus log if `dbus-daemon` is
  ///   missing or does not start within thirty seconds; nothing is left
  ///   running.
  ///
  /// - Parameter serviceDirectory: A directory of D-Bus activation files
  ///   (`*.service`) the bus starts services from; nil starts none.
  public static func start(
    serviceDirectory: String? = nil
  ) async throws -> PrivateBus {
    SharedThreadWatchdog.start()
    var programs: [String: String] = [:]
    do {
      for program in ["dbus-daemon", "gdbus", "sh"] {
        programs[program] = try ChildProcess.executablePath(
          of: program, searchPath: SoundServer.searchPath)
      }
    } catch {
      throw BlueZMockError("\(error)")
    }
    let path: String
    let watchdog: ProcessGroupWatchdog
    do {
      path = try SoundServer.makePrivateDirectory(prefix: "accessoryd-bus")
    } catch {
      throw BlueZMockError("\(error)")
    }
    do {
      try FileManager.default.createDirectory(
        atPath: "\(path)/commands", withIntermediateDirectories: true)
      watchdog = try ProcessGroupWatchdog.start(
        directory: path, shell: programs["sh"]!,
        environment: ["PATH": SoundServer.searchPath])
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw BlueZMockError("\(error)")
    }
    let bus = PrivateBus(
      directory: path, programs: programs, watchdog: watchdog)
    do {
      let addressFile = "\(path)/dbus-daemon.address"
      // The session bus's own rules, with only the test's services: none
      // of the host's is started on a name's first call.
      let services = serviceDirectory ?? "\(path)/services"
      try FileManager.default.createDirectory(
        atPath: services, withIntermediateDirectories: true)
      let file = "\(path)/bus.conf"
      try """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <keep_umask/>
        <listen>unix:path=\(path)/bus</listen>
        <servicedir>\(services)</servicedir>
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
      </busconfig>

      """.write(toFile: file, atomically: true, encoding: .utf8)
      let configuration = ["--config-file=\(file)"]
      let daemon = try await bus.spawn(
        programs["dbus-daemon"]!,
        arguments: configuration + [
          "--nofork", "--nosyslog", "--address=unix:path=\(path)/bus",
          "--print-address=1",
        ],
        environment: bus.environment, output: addressFile,
        errorOutput: "\(path)/dbus-daemon.log")
      try await bus.waitUntil("the bus to listen", watching: [daemon]) {
        !SoundServer.readFile(addressFile).isEmpty
      }
    } catch {
      let failure = BlueZMockError(
        "the private bus did not start in \(path): "
          + "\((error as? BlueZMockError)?.message ?? "\(error)")",
        logTail: bus.logTail())
      bus.stop()
      throw failure
    }
    return bus
  }

  /// Stops every process of the bus and removes ``directory``: SIGTERM at
  /// once, the rest on a thread of its own, so it returns without waiting.
  ///
  /// Safe to call more than once; later calls do nothing.
  public func stop() {
    let taken = state.withLock { state -> State? in
      guard !state.isStopped else { return nil }
      state.isStopped = true
      defer {
        state.processes = []
        state.watchdog = nil
      }
      return state
    }
    guard let taken else { return }
    let directory = directory
    ChildProcess.terminateInBackground(Array(taken.processes.reversed())) {
      taken.watchdog?.release()
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// The last lines of each log of the bus and its clients.
  ///
  /// - Parameter lines: How many lines to show per log file.
  public func logTail(lines: Int = 20) -> String {
    SoundServer.tailsOfLogs(in: directory, lines: lines)
  }

  /// Runs `gdbus` against the bus and returns what it printed.
  ///
  /// - Parameter arguments: The arguments after `gdbus COMMAND`, such as
  ///   `["call", "--dest", …]`; `--address` is added after the command.
  /// - Throws: ``BlueZMockError`` with the exit status and standard error if
  ///   it fails or runs longer than thirty seconds.
  public func gdbus(_ arguments: [String]) async throws -> String {
    precondition(!arguments.isEmpty, "gdbus needs a command")
    return try await run(
      programs["gdbus"]!,
      [arguments[0], "--address", address] + arguments.dropFirst())
  }

  /// Runs `busctl --user` against the bus (its session bus) and returns
  /// what it printed.
  ///
  /// - Parameter arguments: The arguments after `--user`, such as
  ///   `["tree", "io.github.accessoryd"]`.
  /// - Throws: ``BlueZMockError`` if busctl is missing, fails or runs
  ///   longer than thirty seconds.
  public func busctl(_ arguments: [String]) async throws -> String {
    try await run(Self.program("busctl"), ["--user", "--no-pager"] + arguments)
  }

  /// The path of a program on the search path, or the path given.
  static func program(_ name: String) throws(BlueZMockError) -> String {
    if name.hasPrefix("/") { return name }
    do {
      return try ChildProcess.executablePath(
        of: name, searchPath: SoundServer.searchPath)
    } catch {
      throw BlueZMockError("\(error)")
    }
  }

  /// Runs a program of the bus's session (such as `dunstctl`), found on
  /// the search path, and returns what it printed.
  ///
  /// - Throws: ``BlueZMockError`` if it is missing, fails or runs longer
  ///   than thirty seconds.
  public func runClient(
    _ name: String, _ arguments: [String],
    environment extra: [String: String] = [:]
  ) async throws -> String {
    let program = try Self.program(name)
    return try await run(program, arguments, environment: extra)
  }

  /// Starts a long-running program of the bus's session, in its process
  /// group, stopped with the bus; its output goes to `NAME.log` in the
  /// bus's directory.
  ///
  /// - Returns: The file its standard output goes to.
  public func startClient(
    _ name: String, _ arguments: [String],
    environment extra: [String: String] = [:]
  ) async throws -> String {
    let program = try Self.program(name)
    let base = name.split(separator: "/").last.map(String.init) ?? name
    let output = "\(directory)/\(base).out"
    _ = try await spawn(
      program, arguments: arguments,
      environment: environment.merging(extra) { $1 }, output: output,
      errorOutput: "\(directory)/\(base).log")
    return output
  }

  /// Runs a client of the bus and returns what it printed.
  private func run(
    _ program: String, _ arguments: [String],
    environment extra: [String: String] = [:]
  ) async throws -> String {
    let number = state.withLock { state in
      defer { state.nextCommandNumber += 1 }
      return state.nextCommandNumber
    }
    let name = program.split(separator: "/").last.map(String.init) ?? program
    let output = "\(directory)/commands/\(name)-\(number).out"
    let errorOutput = "\(directory)/commands/\(name)-\(number).err"
    defer {
      unlink(output)
      unlink(errorOutput)
    }
    let process = try await spawn(
      program, arguments: arguments,
      environment: environment.merging(extra) { $1 }, output: output,
      errorOutput: errorOutput, remember: false)
    return try await process.checkedOutput(
      of: ([name] + arguments).joined(separator: " "),
      exited: await process.waitForExit(until: .now + Self.timeout),
      output: output, errorOutput: errorOutput)
  }

  /// Starts `gdbus monitor` on the messages a name sends; what it prints
  /// collects in ``BusMonitor/text`` until the bus stops.
  ///
  /// - Parameter name: A bus name, such as `io.github.accessoryd`.
  public func monitor(_ name: String) async throws -> BusMonitor {
    let number = state.withLock { state in
      defer { state.nextCommandNumber += 1 }
      return state.nextCommandNumber
    }
    let output = "\(directory)/commands/monitor-\(number).out"
    _ = try await spawn(
      programs["gdbus"]!,
      arguments: ["monitor", "--address", address, "--dest", name],
      environment: environment.merging(["G_MESSAGES_DEBUG": ""]) { $1 },
      output: output, errorOutput: "\(directory)/monitor-\(number).log")
    let monitor = BusMonitor(file: output)
    // gdbus says it monitors once it has subscribed.
    try await waitUntil("gdbus monitor to start", watching: []) {
      monitor.text.contains("Monitoring")
    }
    return monitor
  }

  /// Returns whether a connection owns a name on the bus.
  ///
  /// - Parameter name: A well-known name, such as `org.bluez`.
  public func nameHasOwner(_ name: String) async throws -> Bool {
    let output = try await gdbus(
      [
        "call", "--dest", "org.freedesktop.DBus", "--object-path",
        "/org/freedesktop/DBus", "--method",
        "org.freedesktop.DBus.NameHasOwner", quoted(name),
      ])
    return output.contains("true")
  }

  // MARK: - Processes

  /// The environment of every process of the bus.
  var environment: [String: String] {
    [
      "PATH": SoundServer.searchPath,
      "HOME": directory,
      "XDG_RUNTIME_DIR": directory,
      "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8",
      "DBUS_SESSION_BUS_ADDRESS": address,
      "DBUS_SYSTEM_BUS_ADDRESS": address,
    ]
  }

  /// Starts a process in the bus's process group.
  ///
  /// - Parameter remember: Whether ``stop()`` must stop it.
  func spawn(
    _ executable: String, arguments: [String],
    environment: [String: String], input: ChildProcess.Input = .null,
    output: String, errorOutput: String, remember: Bool = true
  ) async throws -> ChildProcess {
    let group = try state.withLock { state in
      guard !state.isStopped, let watchdog = state.watchdog else {
        throw BlueZMockError("the private bus was stopped")
      }
      return watchdog.processGroup
    }
    let process: ChildProcess
    do {
      process = try ChildProcess.spawn(
        executable: executable, arguments: arguments,
        environment: environment, input: input, output: output,
        errorOutput: errorOutput, processGroup: group)
    } catch {
      throw BlueZMockError("\(error)")
    }
    guard remember else { return process }
    let isStopped = state.withLock { state in
      if !state.isStopped { state.processes.append(process) }
      return state.isStopped
    }
    if isStopped {
      await ChildProcess.killAndWait([process])
      throw BlueZMockError("the private bus was stopped")
    }
    return process
  }

  /// Waits, polling without blocking a thread, until a condition holds.
  ///
  /// - Throws: ``BlueZMockError`` if one of the watched processes exits
  ///   first, or after thirty seconds.
  func waitUntil(
    _ what: String, watching processes: [ChildProcess],
    _ condition: () async throws -> Bool
  ) async throws {
    try await ChildProcess.waitUntil(
      what, deadline: .now + Self.timeout, watching: { processes }, condition)
  }
}

/// What `gdbus monitor` printed so far (``PrivateBus/monitor(_:)``).
public struct BusMonitor: Sendable {
  /// The file it prints to.
  public let file: String

  /// Everything it printed until now.
  public var text: String { SoundServer.readFile(file) }
}
