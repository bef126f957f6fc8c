// The release accessoryd under test: a private state directory, socket and
// policy per run, its log in a file, started and stopped by the benchmark.

import AccessoryControl
import BenchmarkSupport
import Foundation
import Glibc
import TestSupport

/// The files that every daemon of one benchmark run shares: the policy,
/// the control socket and the logs, in one private directory.
final class Workspace: Sendable {
  /// The private directory, removed by ``remove()``.
  let directory: String
  /// The policy every daemon runs with.
  let policyPath: String
  /// The control socket every daemon listens on, one daemon at a time.
  let socketPath: String

  /// Creates the directory and writes the policy: the text of
  /// `policies/default.json5` with `placement.offHeadGraceSeconds: 0`.
  ///
  /// - Throws: ``BenchmarkError`` if the default policy is not found from
  ///   the current directory, or has no `offHeadGraceSeconds`.
  init() throws {
    var template = Array("/tmp/accessoryd-bench.XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!) != nil
    }
    guard created else {
      throw BenchmarkError(
        "cannot create a directory in /tmp: \(String(cString: strerror(errno)))"
      )
    }
    directory = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self
    )
    policyPath = directory + "/policy.json5"
    socketPath = directory + "/control.sock"
    do {
      let text = try Self.benchmarkPolicy(from: try Self.defaultPolicyText())
      try text.write(toFile: policyPath, atomically: true, encoding: .utf8)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  /// Removes the directory, logs included.
  func remove() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A fresh state directory for one daemon setup.
  func stateDirectory(_ name: String) -> String {
    "\(directory)/state-\(name)"
  }

  /// The default policy's text, from `policies/default.json5` in the
  /// current directory or the nearest parent that has it.
  static func defaultPolicyText() throws -> String {
    var directory = URL(
      fileURLWithPath: FileManager.default.currentDirectoryPath)
    while true {
      let candidate = directory.appendingPathComponent("policies/default.json5")
      if let text = try? String(contentsOf: candidate, encoding: .utf8) {
        return text
      }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { break }
      directory = parent
    }
    throw BenchmarkError(
      "policies/default.json5 not found from "
        + "\(FileManager.default.currentDirectoryPath); run the benchmark "
        + "from the package directory")
  }

  /// The default policy with no grace time after taking an accessory off.
  static func benchmarkPolicy(from text: String) throws -> String {
    let key = "offHeadGraceSeconds:"
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    guard let index = lines.firstIndex(where: { $0.contains(key) }) else {
      throw BenchmarkError("the default policy has no \(key)")
    }
    let line = lines[index]
    let start = line.range(of: key)!.upperBound
    let indentation = line[..<line.range(of: key)!.lowerBound]
    let rest = line[start...].drop { $0 == " " || $0.isNumber || $0 == "." }
    lines[index] = "\(indentation)\(key) 0\(rest)"
    return lines.joined(separator: "\n")
  }
}

/// The memory of a process, in KiB.
struct MemoryReading: Sendable {
  /// VmRSS: every resident page, shared library pages included.
  var residentKiB: Int
  /// VmHWM: the highest VmRSS so far.
  var peakKiB: Int
  /// RssAnon: resident private memory (heap, stacks).
  var anonymousKiB: Int?
  /// RssFile: resident pages of mapped files, mostly shared libraries.
  var fileKiB: Int?
  /// Pss: resident pages, shared ones divided by their sharers.
  var proportionalKiB: Int?
}

/// One running release accessoryd.
final class Daemon: Sendable {
  let child: Child
  /// The daemon's log: its standard error, each line stamped with the time
  /// it arrived, and the benchmark's own timeline entries.
  let log: TimestampedLog
  let socketPath: String

  private init(child: Child, log: TimestampedLog, socketPath: String) {
    self.child = child
    self.log = log
    self.socketPath = socketPath
  }

  var logPath: String { log.path }

  var pid: pid_t { child.pid }

  /// Starts accessoryd for a server and waits until it reports the sound
  /// server connected.
  ///
  /// The daemon joins the server's process group, so the server's watchdog
  /// also ends it if the benchmark dies without stopping it.
  ///
  /// - Parameters:
  ///   - server: The sound server, passed as `PULSE_SERVER`.
  ///   - workspace: The policy, the socket and the log directory.
  ///   - stateName: Names the state directory; the same name keeps the
  ///     registrations of an earlier daemon.
  ///   - options: The program to run and its `--log-level`.
  ///   - sessionBusAddress: The session bus of the media players, if any.
  static func start(
    for server: SoundServer, in workspace: Workspace, stateName: String,
    options: Options, sessionBusAddress: String? = nil
  ) async throws -> Daemon {
    let executable = try options.accessorydExecutable()
    let logLevel = options.daemonLogLevel
    let logPath = "\(workspace.directory)/accessoryd-\(stateName).log"
    let home = "\(workspace.directory)/home"
    try FileManager.default.createDirectory(
      atPath: home + "/.config", withIntermediateDirectories: true)
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": home,
      "XDG_CONFIG_HOME": home + "/.config",
      "XDG_RUNTIME_DIR": workspace.directory,
      "LANG": "C.UTF-8",
    ]
    environment.merge(server.environment) { $1 }
    environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBusAddress
    let group = server.pids.first.map { getpgid($0) }.flatMap {
      $0 > 0 ? $0 : nil
    }
    let log = try TimestampedLog(path: logPath)
    let writeEnd = try log.startPipe()
    defer { close(writeEnd) }
    log.write("=== benchmark: starting accessoryd")
    let child = try Child.spawn(
      executable,
      arguments: [
        "--state-dir", workspace.stateDirectory(stateName),
        "--socket", workspace.socketPath,
        "--policy", workspace.policyPath,
        "--log-level", logLevel,
      ],
      environment: environment, outputDescriptor: writeEnd,
      processGroup: group)
    let daemon = Daemon(
      child: child, log: log, socketPath: workspace.socketPath)
    do {
      try await daemon.waitUntilConnected()
    } catch {
      daemon.stop()
      throw error
    }
    return daemon
  }

  /// Polls `route.get` until the daemon has the sound server.
  private func waitUntilConnected() async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    var lastProblem = "no answer"
    while ContinuousClock.now < deadline {
      guard child.isRunning else {
        throw BenchmarkError(
          "accessoryd exited (\(child.exitDescription)) at start:\n"
            + logTail())
      }
      do {
        let client = try ControlClient(path: socketPath, timeout: 5)
        defer { client.close() }
        // route.get reports the link; daemon.status does not (yet) carry
        // the soundServer field that docs/control-protocol.md lists.
        let route = try client.call("route.get")
        let state = route["soundServer"]?.stringValue
        if state == "connected" { return }
        lastProblem = "sound server \(state ?? "unknown")"
      } catch {
        lastProblem = "\(error)"
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw BenchmarkError(
      "accessoryd did not connect to the sound server within 10 s "
        + "(\(lastProblem)):\n\(logTail())")
  }

  /// Stops the daemon: SIGTERM, SIGKILL after five seconds.
  func stop() {
    child.terminate()
  }

  /// Calls a control method on a fresh connection.
  func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
    let client = try ControlClient(path: socketPath, timeout: 30)
    defer { client.close() }
    return try client.call(method, params: params)
  }

  /// How many routes the log says were applied so far: `Output switched`
  /// lines, and `Route applied` for those that only moved streams.
  func routesApplied() -> Int {
    logLines(containing: "Route applied")
      + logLines(containing: "Output switched")
  }

  /// How many lines of the log so far contain `text`.
  func logLines(containing text: String) -> Int {
    let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return log.split(separator: "\n").count { $0.contains(text) }
  }

  /// The end of the log, for error messages.
  func logTail(lines: Int = 15) -> String {
    let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
  }

  // MARK: - /proc

  /// The daemon's memory now, from `/proc/<pid>/status` and
  /// `/proc/<pid>/smaps_rollup`.
  func memory() throws -> MemoryReading {
    try Self.memory(ofProcess: pid)
  }

  /// A process's memory now, from `/proc/<pid>/status` and
  /// `/proc/<pid>/smaps_rollup`.
  static func memory(ofProcess pid: pid_t) throws -> MemoryReading {
    func field(_ name: String, in text: String) -> Int? {
      guard
        let line = text.split(separator: "\n").first(where: {
          $0.hasPrefix(name + ":")
        })
      else { return nil }
      return line.split(separator: " ", omittingEmptySubsequences: true)
        .dropFirst().first.flatMap { Int($0) }
    }
    let status = try String(
      contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let rss = field("VmRSS", in: status),
      let peak = field("VmHWM", in: status)
    else {
      throw BenchmarkError("no VmRSS in /proc/\(pid)/status")
    }
    let rollup =
      (try? String(
        contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    return MemoryReading(
      residentKiB: rss, peakKiB: peak,
      anonymousKiB: field("RssAnon", in: status),
      fileKiB: field("RssFile", in: status),
      proportionalKiB: field("Pss", in: rollup))
  }

  /// The CPU time the daemon used so far: utime + stime from
  /// `/proc/<pid>/stat`, in clock ticks.
  func cpuTicks() throws -> Int {
    let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // The command name may hold spaces: the fields follow its ')'.
    guard let close = text.lastIndex(of: ")") else {
      throw BenchmarkError("cannot read /proc/\(pid)/stat")
    }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    guard fields.count > 12, let user = Int(fields[11]),
      let system = Int(fields[12])
    else {
      throw BenchmarkError("cannot read /proc/\(pid)/stat")
    }
    return user + system
  }

  /// The context switches (voluntary and not) of each of the daemon's
  /// threads so far, by thread id, from `/proc/<pid>/task/*/status`: each
  /// is a wake-up, so they show activity finer than the CPU-time ticks.
  func contextSwitches() -> [Int: Int] {
    let tasks = "/proc/\(pid)/task"
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    var switches: [Int: Int] = [:]
    for name in names {
      guard let thread = Int(name),
        let text = try? String(
          contentsOfFile: "\(tasks)/\(name)/status", encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n")
      where line.contains("ctxt_switches:") {
        let count = line.split(separator: ":").last.flatMap {
          Int($0.trimmingCharacters(in: .whitespaces))
        }
        switches[thread, default: 0] += count ?? 0
      }
    }
    return switches
  }

  /// The run time of each of the daemon's threads so far in milliseconds,
  /// by thread id, from the scheduler's `se.sum_exec_runtime` in
  /// `/proc/<pid>/task/*/sched`, which counts in nanoseconds; empty if the
  /// kernel has no such file.
  func threadRunTimes() -> [Int: Double] {
    let tasks = "/proc/\(pid)/task"
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    var times: [Int: Double] = [:]
    for name in names {
      guard let thread = Int(name),
        let text = try? String(
          contentsOfFile: "\(tasks)/\(name)/sched", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: {
          $0.hasPrefix("se.sum_exec_runtime")
        }),
        let value = line.split(separator: ":").last.flatMap({
          Double($0.trimmingCharacters(in: .whitespaces))
        })
      else { continue }
      times[thread] = value
    }
    return times
  }

  /// The kernel's clock ticks per second.
  static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
}
