import ConcurrencyHelpers
import Glibc
import SystemCalls

/// A process that this test process spawned, and alone waits for.
///
/// Because only this class reaps the process, its identifier cannot be reused
/// while the class still sees it running, so signalling it is always safe.
final class ChildProcess: Sendable {
  /// Where a child's standard input comes from.
  enum Input {
    /// `/dev/null`.
    case null
    /// A descriptor of this process, duplicated onto the child's input.
    case descriptor(Int32)
  }

  /// The process identifier.
  let processIdentifier: pid_t

  /// A short name for messages, such as "pipewire".
  let name: String

  /// The raw wait status, once the process has been reaped.
  private let waitStatus = Mutex<Int32?>(nil)

  private init(processIdentifier: pid_t, name: String) {
    self.processIdentifier = processIdentifier
    self.name = name
  }

  /// Starts a program with exactly the given environment.
  ///
  /// The child gets its own standard streams (input from `/dev/null` or a
  /// descriptor, output appended to files), no other inherited descriptors,
  /// an empty signal mask and default signal handlers.
  ///
  /// - Parameters:
  ///   - executable: An absolute path to the program.
  ///   - arguments: The arguments, without the program name.
  ///   - environment: The complete environment of the child.
  ///   - directory: The child's working directory; nil for this process's.
  ///   - input: Where standard input comes from.
  ///   - output: The file that receives standard output.
  ///   - errorOutput: The file that receives standard error; `nil` means the
  ///     same file as standard output.
  ///   - processGroup: The process group to join; 0 makes the child the
  ///     leader of a new group.
  static func spawn(
    executable: String,
    arguments: [String],
    environment: [String: String],
    directory: String? = nil,
    input: Input = .null,
    output: String,
    errorOutput: String? = nil,
    processGroup: pid_t
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let outputFlags = O_WRONLY | O_CREAT | O_APPEND
    switch input {
    case .null:
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .descriptor(let descriptor):
      posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 1, output, outputFlags, 0o600)
    if let errorOutput {
      posix_spawn_file_actions_addopen(
        &actions, 2, errorOutput, outputFlags, 0o600)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    if let closeFrom = lookUpCloseFrom() {
      _ = closeFrom(&actions, 3)
    }
    if let directory {
      guard let changeDirectory = lookUpChangeDirectory() else {
        throw FixtureError(
          "cannot start \(executable) in \(directory): this C library has no "
            + "posix_spawn_file_actions_addchdir_np")
      }
      _ = changeDirectory(&actions, directory)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    let signalFlags = SpawnSignals.reset(&attributes)
    posix_spawnattr_setpgroup(&attributes, processGroup)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | signalFlags))

    let argumentStrings = [executable] + arguments
    let environmentStrings = environment.sorted { $0.key < $1.key }
      .map { "\($0.key)=\($0.value)" }
    let argumentVector = argumentStrings.map { strdup($0) } + [nil]
    let environmentVector = environmentStrings.map { strdup($0) } + [nil]
    defer {
      argumentVector.forEach { free($0) }
      environmentVector.forEach { free($0) }
    }
    var processIdentifier: pid_t = 0
    var result: Int32 = 0
    // A program copied just now may still be open for writing in a child
    // that another thread of this process forked meanwhile, until that
    // child execs: the kernel then refuses with ETXTBSY for a moment.
    for attempt in 1...50 {
      result = posix_spawn(
        &processIdentifier, executable, &actions, &attributes, argumentVector,
        environmentVector)
      guard result == ETXTBSY, attempt < 50 else { break }
      usleep(20_000)
    }
    guard result == 0 else {
      throw FixtureError(
        "cannot start \(executable): \(Errno(rawValue: result))")
    }
    let name = executable.split(separator: "/").last.map(String.init) ?? ""
    return ChildProcess(processIdentifier: processIdentifier, name: name)
  }

  /// Finds a program in a `PATH`-style list of directories.
  ///
  /// - Throws: ``FixtureError`` naming the program if it is missing.
  static func executablePath(
    of program: String, searchPath: String
  ) throws -> String {
    for directory in searchPath.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if access(candidate, X_OK) == 0 {
        return candidate
      }
    }
    throw FixtureError(
      "\(program) is not installed (not found in \(searchPath))")
  }

  /// Whether the process has not exited yet; reaps it if it has.
  var isRunning: Bool {
    waitStatus.withLock { status in
      guard status == nil else { return false }
      var rawStatus: Int32 = 0
      let result = waitpid(processIdentifier, &rawStatus, WNOHANG)
      if result == processIdentifier {
        status = rawStatus
        return false
      }
      if result == -1 {
        // Someone else reaped it (ECHILD): it is gone all the same.
        status = -1
        return false
      }
      return true
    }
  }

  /// How the process ended, such as "exit status 1", or `nil` if running.
  var exitDescription: String? {
    guard !isRunning, let status = waitStatus.withLock({ $0 }) else {
      return nil
    }
    if status == -1 { return "unknown exit status" }
    let signal = status & 0x7f
    return signal == 0
      ? "exit status \((status >> 8) & 0xff)" : "signal \(signal)"
  }

  /// The signal that ended the process, or `nil` if it runs or exited.
  var exitSignal: Int32? {
    guard !isRunning, let status = waitStatus.withLock({ $0 }),
      status != -1, status & 0x7f != 0
    else { return nil }
    return status & 0x7f
  }

  /// The exit status if the process exited normally, else `nil`.
  var exitStatus: Int32? {
    guard !isRunning, let status = waitStatus.withLock({ $0 }),
      status != -1, status & 0x7f == 0
    else { return nil }
    return (status >> 8) & 0xff
  }

  /// Sends a signal if the process has not been reaped yet.
  func send(_ signal: Int32) {
    waitStatus.withLock { status in
      if status == nil {
        _ = kill(processIdentifier, signal)
      }
    }
  }

  /// Waits for the process to exit, polling until the deadline and
  /// blocking the thread.
  ///
  /// Only for threads of their own: a task must await the async form.
  ///
  /// - Returns: Whether the process exited.
  @discardableResult
  func waitForExit(until deadline: ContinuousClock.Instant) -> Bool {
    requireOwnThread("ChildProcess.waitForExit(until:)")
    var interval = Duration.milliseconds(1)
    while isRunning {
      if ContinuousClock.now >= deadline { return false }
      blockingSleep(interval)
      interval = min(interval * 2, .milliseconds(20))
    }
    return true
  }

  /// Waits for the process to exit without blocking the thread, polling
  /// until the deadline.
  ///
  /// - Returns: Whether the process exited.
  @discardableResult
  func waitForExit(until deadline: ContinuousClock.Instant) async -> Bool {
    var interval = Duration.milliseconds(1)
    while isRunning {
      if ContinuousClock.now >= deadline { return false }
      do {
        try await Task.sleep(for: interval)
      } catch {
        // Cancelled: a sleep no longer waits, so wait on a thread of its
        // own rather than spin on a shared one.
        return await onOwnThread { self.waitForExit(until: deadline) }
      }
      interval = min(interval * 2, .milliseconds(20))
    }
    return true
  }

  /// Waits, polling without blocking a thread, until a condition holds.
  ///
  /// - Parameters:
  ///   - what: What is awaited, for the error message.
  ///   - deadline: When to give up.
  ///   - processes: The processes that must keep running meanwhile, asked
  ///     for again at each poll.
  ///   - condition: Checked at once, then after 2, 4, … up to every 50 ms.
  /// - Throws: ``FixtureError`` if a watched process exits first, or at
  ///   the deadline; whatever the condition throws.
  static func waitUntil(
    _ what: String, deadline: ContinuousClock.Instant,
    watching processes: () -> [ChildProcess],
    _ condition: () async throws -> Bool
  ) async throws {
    var interval = Duration.milliseconds(2)
    let start = ContinuousClock.now
    var checks = 0
    while true {
      checks += 1
      if try await condition() { return }
      for process in processes() where !process.isRunning {
        throw FixtureError(
          "\(process.name) exited (\(process.exitDescription ?? "exited")) "
            + "while waiting for \(what)")
      }
      if ContinuousClock.now >= deadline {
        let running = processes().map(\.name).joined(separator: ", ")
        throw FixtureError(
          "timed out after \(ContinuousClock.now - start) waiting for "
            + "\(what) (\(checks) checks, the condition never held; still "
            + "running: \(running.isEmpty ? "nothing watched" : running))")
      }
      try await Task.sleep(for: interval)
      interval = min(interval * 2, .milliseconds(50))
    }
  }

  /// Returns what a client command wrote to standard output, once it has
  /// ended, or throws if it did not end in time or did not succeed.
  ///
  /// - Parameters:
  ///   - command: The command line, for the error message.
  ///   - exited: Whether the process exited before its deadline; if not,
  ///     it is killed.
  ///   - output: The file that has its standard output.
  ///   - errorOutput: The file that has its standard error.
  /// - Throws: ``FixtureError`` naming the command, with its exit status
  ///   and standard error.
  func checkedOutput(
    of command: String, exited: Bool, output: String, errorOutput: String
  ) async throws(FixtureError) -> String {
    guard exited else {
      await ChildProcess.killAndWait([self])
      throw FixtureError("\(command) did not finish in time")
    }
    guard exitStatus == 0 else {
      let how = exitDescription ?? "failed"
      let message = SoundServer.readFile(errorOutput)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      throw FixtureError("\(command) failed (\(how)): \(message)")
    }
    return SoundServer.readFile(output)
  }

  /// Stops processes: SIGTERM to all, SIGKILL to those still running after
  /// the grace period, then waits for them, on a thread of its own.
  static func terminate(
    _ processes: [ChildProcess], gracePeriod: Duration = .seconds(5)
  ) async {
    await onOwnThread { terminate(processes, gracePeriod: gracePeriod) }
  }

  /// Sends SIGKILL to processes and waits (at most five seconds) for them,
  /// on a thread of its own.
  static func killAndWait(_ processes: [ChildProcess]) async {
    await onOwnThread { killAndWait(processes) }
  }

  /// Sends SIGTERM to processes at once and reaps them on a thread of its
  /// own (SIGKILL after the grace period), then runs `cleanUp` there; for
  /// callers that must not wait, such as a `defer` or a `deinit`.
  static func terminateInBackground(
    _ processes: [ChildProcess], gracePeriod: Duration = .seconds(5),
    then cleanUp: @escaping @Sendable () -> Void = {}
  ) {
    processes.forEach { $0.send(SIGTERM) }
    inBackground {
      terminate(processes, gracePeriod: gracePeriod)
      cleanUp()
    }
  }

  /// Stops processes: SIGTERM to all, SIGKILL to those still running after
  /// the grace period, then waits for them, blocking the thread.
  static func terminate(
    _ processes: [ChildProcess], gracePeriod: Duration = .seconds(5)
  ) {
    processes.forEach { $0.send(SIGTERM) }
    let deadline = ContinuousClock.now + gracePeriod
    for process in processes where !process.waitForExit(until: deadline) {
      process.send(SIGKILL)
    }
    killAndWait(processes)
  }

  /// Sends SIGKILL to processes and waits (at most five seconds) for them.
  static func killAndWait(_ processes: [ChildProcess]) {
    processes.forEach { $0.send(SIGKILL) }
    let deadline = ContinuousClock.now + .seconds(5)
    for process in processes {
      process.waitForExit(until: deadline)
    }
  }
}

/// The signature of glibc's `posix_spawn_file_actions_addclosefrom_np`.
private typealias CloseFromFunction =
  @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) ->
  Int32

/// Finds `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 or later).
///
/// Swift imports glibc without `_GNU_SOURCE`, which hides the declaration,
/// so the function is looked up at run time.
private func lookUpCloseFrom() -> CloseFromFunction? {
  dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: CloseFromFunction.self)
  }
}

/// The signature of glibc's `posix_spawn_file_actions_addchdir_np`.
private typealias ChangeDirectoryFunction =
  @convention(c) (
    UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
  ) -> Int32

/// Finds `posix_spawn_file_actions_addchdir_np` (glibc 2.29 or later),
/// hidden like `addclosefrom_np`.
private func lookUpChangeDirectory() -> ChangeDirectoryFunction? {
  dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
    unsafeBitCast($0, to: ChangeDirectoryFunction.self)
  }
}

/// Blocks the calling thread, which must be a thread of its own, for a
/// short time.
func blockingSleep(_ duration: Duration) {
  requireOwnThread("blockingSleep")
  let (seconds, attoseconds) = duration.components
  var request = timespec(
    tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
  var remaining = timespec()
  while nanosleep(&request, &remaining) == -1 && errno == EINTR {
    request = remaining
  }
}
