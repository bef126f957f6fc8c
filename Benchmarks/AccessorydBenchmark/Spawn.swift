// Starting and reaping child processes with posix_spawn and waitpid:
// Foundation's Process polls for the exit every 50 ms on Linux, far too
// coarse to time acctl, so the benchmark spawns its children itself.

import BenchmarkSupport
import Foundation
import Glibc
import SystemCalls

/// A child process of the benchmark.
final class Child: @unchecked Sendable {
  /// The process identifier.
  let pid: pid_t
  /// A short name for messages.
  let name: String
  /// The raw wait status, once reaped; guarded by `lock`.
  private var status: Int32?
  private let lock = NSLock()

  private init(pid: pid_t, name: String) {
    self.pid = pid
    self.name = name
  }

  /// Starts a program.
  ///
  /// - Parameters:
  ///   - executable: The absolute path of the program.
  ///   - arguments: The arguments, without the program name.
  ///   - environment: The complete environment of the child.
  ///   - output: The file that receives standard output and error.
  ///   - outputDescriptor: A descriptor that receives them instead, such as
  ///     the write end of a pipe.
  ///   - processGroup: The process group to join, or `nil` for this
  ///     process's own.
  static func spawn(
    _ executable: String, arguments: [String], environment: [String: String],
    output: String = "/dev/null", outputDescriptor: Int32? = nil,
    processGroup: pid_t? = nil
  ) throws -> Child {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let outputDescriptor {
      posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
    } else {
      posix_spawn_file_actions_addopen(
        &actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }
    posix_spawn_file_actions_adddup2(&actions, 1, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var flags = SpawnSignals.reset(&attributes)
    if let processGroup {
      posix_spawnattr_setpgroup(&attributes, processGroup)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp =
      environment.sorted { $0.key < $1.key }.map {
        strdup("\($0.key)=\($0.value)")
      }
      + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(
      &pid, executable, &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw BenchmarkError(
        "cannot start \(executable): \(String(cString: strerror(result)))")
    }
    let name = executable.split(separator: "/").last.map(String.init) ?? ""
    return Child(pid: pid, name: name)
  }

  /// Whether the process has not exited yet; reaps it if it has.
  var isRunning: Bool {
    lock.withLock {
      guard status == nil else { return false }
      var raw: Int32 = 0
      let result = waitpid(pid, &raw, WNOHANG)
      if result == pid {
        status = raw
        return false
      }
      if result == -1 {
        status = -1
        return false
      }
      return true
    }
  }

  /// Blocks until the process exits and returns its exit status, or
  /// `nil` if a signal ended it.
  @discardableResult
  func waitForExit() -> Int32? {
    let raw: Int32 = lock.withLock {
      if let status { return status }
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) == -1 {
        if errno != EINTR {
          raw = -1
          break
        }
      }
      status = raw
      return raw
    }
    guard raw != -1, raw & 0x7f == 0 else { return nil }
    return (raw >> 8) & 0xff
  }

  /// Sends SIGTERM, then SIGKILL if the process still runs after the
  /// grace period, and reaps it.
  func terminate(gracePeriod: Duration = .seconds(5)) {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + gracePeriod
    while isRunning && ContinuousClock.now < deadline {
      usleep(2000)
    }
    if isRunning {
      kill(pid, SIGKILL)
      waitForExit()
    }
  }

  /// How the process ended, for messages.
  var exitDescription: String {
    guard !isRunning, let raw = lock.withLock({ status }) else {
      return "running"
    }
    if raw == -1 { return "unknown exit status" }
    return raw & 0x7f == 0
      ? "exit status \((raw >> 8) & 0xff)" : "signal \(raw & 0x7f)"
  }
}

/// Where the release programs are: the directory of this executable.
enum ReleaseDirectory {
  /// The directory that holds this executable, from `/proc/self/exe`.
  static let path: String = {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let own =
      count > 0
      ? String(
        decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self
      )
      : CommandLine.arguments[0]
    return URL(fileURLWithPath: own).deletingLastPathComponent().path
  }()

  /// The path of a program built beside this one.
  ///
  /// - Throws: ``BenchmarkError`` if it is missing.
  static func program(_ name: String) throws -> String {
    let path = "\(Self.path)/\(name)"
    guard access(path, X_OK) == 0 else {
      throw BenchmarkError(
        "\(path) is missing; build it with "
          + "'swift build -c release --product \(name)'")
    }
    return path
  }
}

/// The instant the benchmark started: timeline entries count from it.
let benchmarkEpoch = ContinuousClock.now

/// A log file whose lines carry the time they arrived, in milliseconds
/// since ``benchmarkEpoch``: the daemon's log has no timestamps, so the
/// benchmark reads it through a pipe and stamps each line.
final class TimestampedLog: @unchecked Sendable {
  let path: String
  private let file: Int32
  private let lock = NSLock()

  init(path: String) throws {
    self.path = path
    file = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard file >= 0 else {
      throw BenchmarkError(
        "cannot open \(path): \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    close(file)
  }

  /// The milliseconds from ``benchmarkEpoch`` to an instant.
  static func stamp(_ instant: ContinuousClock.Instant) -> String {
    format((instant - benchmarkEpoch).milliseconds, digits: 3)
  }

  /// Appends one line stamped with an instant (by default, now).
  func write(
    _ line: some StringProtocol, at instant: ContinuousClock.Instant = .now
  ) {
    let text = "[\(Self.stamp(instant))] \(line)\n"
    lock.withLock {
      var bytes = Array(text.utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes {
          Glibc.write(file, $0.baseAddress! + offset, $0.count - offset)
        }
        if written <= 0 { break }
        offset += written
      }
    }
  }

  /// Creates a pipe and a thread that stamps and appends every line
  /// written to it, until its last writer closes it.
  ///
  /// - Returns: The write end, for a child's output; close this process's
  ///   copy once the child is started.
  func startPipe() throws -> Int32 {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw BenchmarkError(
        "cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    let readEnd = ends[0]
    let thread = Thread { [self] in
      var pending: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(readEnd, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        let now = ContinuousClock.now
        pending += chunk[0..<count]
        while let newline = pending.firstIndex(of: 0x0A) {
          write(String(decoding: pending[..<newline], as: UTF8.self), at: now)
          pending.removeSubrange(...newline)
        }
      }
      if !pending.isEmpty {
        write(String(decoding: pending, as: UTF8.self))
      }
      close(readEnd)
    }
    thread.start()
    return ends[1]
  }
}
