// Talking to a DaemonFixture's daemon: `acctl` runs, other programs run
// beside it in its process group, and raw bytes on its socket; and what an
// `acctl` run gives back.

import ConcurrencyHelpers
import Foundation
import Glibc

extension DaemonFixture {
  // MARK: - acctl

  /// Starts `acctl` without waiting for it, for concurrent runs.
  ///
  /// `--socket` is added after the arguments unless they give one, and
  /// `ACCESSORYD_SOCKET` is set too.
  ///
  /// - Parameters:
  ///   - arguments: The command line after `acctl`.
  ///   - addSocket: Whether to add `--socket`.
  ///   - extra: More variables for acctl, over the daemon's own.
  /// - Returns: The running `acctl`.
  public func startAcctl(
    _ arguments: [String], addSocket: Bool = true,
    environment extra: [String: String] = [:]
  ) throws -> AcctlRun {
    let group = try processGroup()
    let number = state.withLock { state in
      defer { state.nextRun += 1 }
      return state.nextRun
    }
    // acctl sees the daemon's buses, as in a desktop session.
    var environment = baseEnvironment
    environment["ACCESSORYD_SOCKET"] = socketPath
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
    environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBusAddress
    environment.merge(extra) { $1 }
    let all =
      addSocket && !arguments.contains("--socket")
      ? arguments + ["--socket", socketPath] : arguments
    let output = "\(directory)/acctl/\(number).out"
    let errorOutput = "\(directory)/acctl/\(number).err"
    let process = try ChildProcess.spawn(
      executable: acctlPath, arguments: all, environment: environment,
      output: output, errorOutput: errorOutput, processGroup: group)
    return AcctlRun(
      arguments: arguments,
      run: .wrapping(
        process, commandLine: [acctlPath] + all, outputPath: output,
        errorOutputPath: errorOutput))
  }

  /// Pairs an accessory with `acctl pair` and registers it with
  /// `audioSwitching` and `placement` and a first placement.
  ///
  /// - Parameters:
  ///   - address: The accessory's Bluetooth address.
  ///   - placement: Its first placement, such as `inEar`.
  /// - Throws: ``FixtureError`` with acctl's result and the daemon's log
  ///   if either fails.
  public func pairAndRegister(
    _ address: String, placement: String
  ) async throws {
    for arguments in [
      ["pair", address],
      [
        "register", address, "--capabilities", "audioSwitching,placement",
        "--placement", placement,
      ],
    ] {
      let result = try await acctl(arguments)
      guard result.status == 0 else {
        throw FixtureError("\(result)", logTail: logTail())
      }
    }
  }

  /// Runs `acctl` to completion against this daemon.
  ///
  /// - Parameters:
  ///   - arguments: The command line after `acctl`.
  ///   - addSocket: Whether to add `--socket` after the arguments.
  ///   - environment: More variables for acctl, over the daemon's own.
  /// - Returns: What it printed and its exit status.
  /// - Throws: ``DaemonFixtureError`` if it runs longer than 30 seconds.
  public func acctl(
    _ arguments: [String], addSocket: Bool = true,
    environment: [String: String] = [:]
  ) async throws -> AcctlResult {
    try await startAcctl(
      arguments, addSocket: addSocket, environment: environment
    ).result()
  }

  /// Runs another program to completion beside the daemon, such as tmux
  /// for a test that drives acctl in a terminal: in the fixture's process
  /// group, so the watchdog stops whatever it leaves behind if the test
  /// process dies, with standard input from `/dev/null` and no other
  /// descriptor of this process.
  ///
  /// - Parameters:
  ///   - executable: The program's absolute path.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment.
  /// - Returns: What it printed (output and errors together).
  /// - Throws: ``FixtureError`` with its exit status and output if it fails
  ///   or runs longer than 30 seconds.
  @discardableResult
  public func run(
    _ executable: String, _ arguments: [String],
    environment: [String: String]
  ) async throws -> String {
    let group = try processGroup()
    let number = state.withLock { state in
      defer { state.nextRun += 1 }
      return state.nextRun
    }
    let output = "\(directory)/acctl/program-\(number).out"
    defer { unlink(output) }
    let process = try ChildProcess.spawn(
      executable: executable, arguments: arguments, environment: environment,
      output: output, processGroup: group)
    return try await process.checkedOutput(
      of: ([executable] + arguments).joined(separator: " "),
      exited: await process.waitForExit(until: .now + .seconds(30)),
      output: output, errorOutput: output)
  }

  /// Starts another program beside the daemon and returns at once.
  ///
  /// It runs as ``run(_:_:environment:)`` runs it, and is reaped on a
  /// thread of its own: for clean-up in a `defer`, such as ending a
  /// terminal.
  ///
  /// - Parameters:
  ///   - executable: The program's absolute path.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment.
  public func runInBackground(
    _ executable: String, _ arguments: [String],
    environment: [String: String]
  ) {
    guard let group = try? processGroup() else { return }
    guard
      let process = try? ChildProcess.spawn(
        executable: executable, arguments: arguments,
        environment: environment, output: "/dev/null", processGroup: group)
    else { return }
    inBackground { process.waitForExit(until: .now + .seconds(30)) }
  }

  // MARK: - The raw socket

  /// Sends bytes as they are on a new connection and returns the first
  /// lines of the answer, or those that came before the daemon closed it.
  ///
  /// - Parameters:
  ///   - bytes: What to send, such as a malformed line.
  ///   - lines: How many answer lines to wait for.
  ///   - timeout: How long to wait for the answer, in seconds.
  public func sendRaw(
    _ bytes: Data, lines: Int = 1, timeout: Double = 10
  ) async throws -> [String] {
    let socketPath = socketPath
    return try await onOwnThread {
      try DaemonSocket.exchange(
        socketPath, bytes, lines: lines, timeout: timeout)
    }
  }
}

/// One run of `acctl` started by ``DaemonFixture/startAcctl(_:addSocket:)``.
public final class AcctlRun: Sendable {
  /// The command line after `acctl`, as given.
  public let arguments: [String]

  private let run: ProgramRun

  init(arguments: [String], run: ProgramRun) {
    self.arguments = arguments
    self.run = run
  }

  /// Whether `acctl` still runs.
  public var isRunning: Bool { run.isRunning }

  /// What `acctl` has printed to standard output so far.
  public var outputSoFar: String { run.outputSoFar }

  /// What `acctl` has printed to standard error so far.
  public var errorOutputSoFar: String { run.errorOutputSoFar }

  /// Sends a signal to `acctl`, such as SIGSTOP to pause it.
  public func signal(_ signal: Int32) { run.send(signal) }

  /// Ends `acctl` at once if it still runs, reaping it on a thread of its
  /// own; for a `defer`.
  public func stop() {
    run.send(SIGCONT)
    run.stopInBackground()
  }

  /// Waits for `acctl` to end, without blocking a thread, and returns what
  /// it printed.
  ///
  /// - Throws: ``DaemonFixtureError`` if it runs longer than 30 seconds (it
  ///   is then killed) or is ended by a signal.
  public func result() async throws -> AcctlResult {
    let command = "acctl \(arguments.joined(separator: " "))"
    let result: ProgramResult
    do {
      result = try await run.result(within: DaemonFixture.acctlTimeout)
    } catch {
      throw DaemonFixtureError(
        "\(command) did not finish within \(DaemonFixture.acctlTimeout)")
    }
    guard let status = result.status else {
      throw DaemonFixtureError(
        "\(command) ended with \(result.termination); stderr: \(result.stderr)")
    }
    return AcctlResult(
      arguments: arguments, status: status, stdout: result.stdout,
      stderr: result.stderr)
  }
}

/// What one run of `acctl` printed, and its exit status.
public struct AcctlResult: Sendable, Hashable, CustomStringConvertible {
  /// The command line after `acctl`, without the added `--socket`.
  public var arguments: [String]
  /// The exit status.
  public var status: Int32
  /// The standard output.
  public var stdout: String
  /// The standard error.
  public var stderr: String

  /// Creates a result.
  public init(
    arguments: [String], status: Int32, stdout: String, stderr: String
  ) {
    self.arguments = arguments
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }

  /// The command, its status and its output, for failure messages.
  public var description: String {
    "acctl \(arguments.joined(separator: " ")) → status \(status)\n"
      + "--- stdout\n\(stdout)--- stderr\n\(stderr)---"
  }
}
