import Foundation
import Glibc

/// One run of a program that a test started: its output goes to files, and
/// its end is awaited without holding a shared task thread.
///
/// ```swift
/// let result = try await ProgramRun.start(
///   try builtProduct("acctl").path, ["--help"],
///   environment: ProcessInfo.processInfo.environment
/// ).result()
/// #expect(result.status == 0)
/// ```
public final class ProgramRun: Sendable {
  /// The program and its arguments, for messages.
  public let commandLine: [String]

  private let process: ChildProcess
  private let outputPath: String
  private let errorOutputPath: String
  /// A scratch directory of this run that ``result(within:)`` removes, if
  /// the run made one.
  private let scratchDirectory: String?

  init(
    commandLine: [String], process: ChildProcess, outputPath: String,
    errorOutputPath: String, scratchDirectory: String?
  ) {
    self.commandLine = commandLine
    self.process = process
    self.outputPath = outputPath
    self.errorOutputPath = errorOutputPath
    self.scratchDirectory = scratchDirectory
  }

  deinit {
    process.send(SIGKILL)
    let process = process
    let scratchDirectory = scratchDirectory
    inBackground {
      ChildProcess.killAndWait([process])
      if let scratchDirectory {
        try? FileManager.default.removeItem(atPath: scratchDirectory)
      }
    }
  }

  /// Starts a program with standard input from `/dev/null`, in a process
  /// group of its own.
  ///
  /// - Parameters:
  ///   - executable: The program's absolute path.
  ///   - arguments: Its arguments.
  ///   - environment: Its whole environment.
  ///   - directory: Its working directory; nil for the test's.
  /// - Throws: ``FixtureError`` if it cannot be started.
  public static func start(
    _ executable: String, _ arguments: [String],
    environment: [String: String], directory: String? = nil
  ) throws -> ProgramRun {
    let scratch = try SoundServer.makePrivateDirectory(prefix: "program-run")
    do {
      let process = try ChildProcess.spawn(
        executable: executable, arguments: arguments,
        environment: environment, directory: directory,
        output: "\(scratch)/stdout", errorOutput: "\(scratch)/stderr",
        processGroup: 0)
      return ProgramRun(
        commandLine: [executable] + arguments, process: process,
        outputPath: "\(scratch)/stdout", errorOutputPath: "\(scratch)/stderr",
        scratchDirectory: scratch)
    } catch {
      try? FileManager.default.removeItem(atPath: scratch)
      throw error
    }
  }

  /// Wraps a process the support started, with its output files.
  static func wrapping(
    _ process: ChildProcess, commandLine: [String], outputPath: String,
    errorOutputPath: String
  ) -> ProgramRun {
    ProgramRun(
      commandLine: commandLine, process: process, outputPath: outputPath,
      errorOutputPath: errorOutputPath, scratchDirectory: nil)
  }

  /// The process identifier.
  public var processIdentifier: pid_t { process.processIdentifier }

  /// Whether the program still runs.
  public var isRunning: Bool { process.isRunning }

  /// What the program has written to standard output so far.
  public var outputSoFar: String { SoundServer.readFile(outputPath) }

  /// What the program has written to standard error so far.
  public var errorOutputSoFar: String { SoundServer.readFile(errorOutputPath) }

  /// Sends a signal to the program if it has not been reaped yet.
  public func send(_ signal: Int32) {
    process.send(signal)
  }

  /// Ends the program at once (SIGTERM, SIGKILL after five seconds) and
  /// reaps it on a thread of its own; for a `defer`.
  public func stopInBackground() {
    let scratch = scratchDirectory
    ChildProcess.terminateInBackground([process]) {
      if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }
  }

  /// Waits for the program to end, without holding a thread, and returns
  /// what it printed and how it ended.
  ///
  /// - Parameter limit: How long it may still run; it is killed after.
  /// - Throws: ``FixtureError`` if it runs longer than `limit`.
  public func result(
    within limit: Duration = .seconds(30)
  ) async throws -> ProgramResult {
    guard await process.waitForExit(until: .now + limit) else {
      await ChildProcess.killAndWait([process])
      throw FixtureError(
        "\(commandLine.joined(separator: " ")) did not finish within \(limit)")
    }
    let result = ProgramResult(
      termination: process.exitStatus.map { .exited($0) }
        ?? .signalled(process.exitSignal ?? 0),
      stdout: SoundServer.readFile(outputPath),
      stderr: SoundServer.readFile(errorOutputPath))
    unlink(outputPath)
    unlink(errorOutputPath)
    if let scratchDirectory {
      try? FileManager.default.removeItem(atPath: scratchDirectory)
    }
    return result
  }
}

/// How a program ended, and what it printed.
public struct ProgramResult: Sendable, Hashable {
  /// How a process ended.
  public enum Termination: Sendable, Hashable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
  }

  /// How it ended.
  public var termination: Termination
  /// The standard output.
  public var stdout: String
  /// The standard error.
  public var stderr: String

  /// The exit status, or nil if a signal ended it.
  public var status: Int32? {
    if case .exited(let status) = termination { status } else { nil }
  }
}

/// Runs a program to its end, without holding a shared task thread, and
/// returns what it printed.
///
/// - Parameters:
///   - executable: The program's absolute path.
///   - arguments: Its arguments.
///   - environment: Its whole environment.
///   - directory: Its working directory; nil for the test's.
///   - limit: How long it may run; it is killed after.
/// - Throws: ``FixtureError`` if it runs longer than `limit`.
public func runProgram(
  _ executable: String, _ arguments: [String],
  environment: [String: String], directory: String? = nil,
  within limit: Duration = .seconds(30)
) async throws -> ProgramResult {
  try await ProgramRun.start(
    executable, arguments, environment: environment, directory: directory
  ).result(within: limit)
}
