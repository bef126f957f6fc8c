import ConcurrencyHelpers
import Glibc
import SystemCalls

/// A helper process that leads a server's process group and cleans up after
/// this process if it dies without stopping the server.
///
/// The watchdog is a small shell that reads its standard input from a pipe
/// whose only writer is this process. When this process exits for any reason
/// (a crash included), the pipe closes, and the watchdog terminates the whole
/// group (every daemon, stream and `pactl` of the server), removes the
/// server's directory and exits. A normal ``release()`` kills the group
/// instead, so the cleanup path never runs twice.
final class ProcessGroupWatchdog: Sendable {
  /// The shell that leads the group.
  private let leader: ChildProcess

  /// The write end of the pipe, or -1 once closed.
  private let pipeWriteEnd: Mutex<Int32>

  /// The process group every process of the server joins.
  var processGroup: pid_t { leader.processIdentifier }

  private init(leader: ChildProcess, pipeWriteEnd: Int32) {
    self.leader = leader
    self.pipeWriteEnd = Mutex(pipeWriteEnd)
  }

  /// Starts a watchdog for a server directory.
  ///
  /// - Parameters:
  ///   - directory: The server directory, removed if this process dies.
  ///   - shell: The path of a POSIX shell.
  ///   - environment: The environment of the shell.
  static func start(
    directory: String, shell: String, environment: [String: String]
  ) throws -> ProcessGroupWatchdog {
    var descriptors: [Int32] = [-1, -1]
    guard makeCloseOnExecPipe(&descriptors) == 0 else {
      throw FixtureError(
        "cannot create a pipe: \(Errno.current)")
    }
    let script = """
      trap '' TERM INT HUP
      read -r _
      kill -TERM 0
      sleep 1
      rm -rf -- "$1"
      kill -KILL 0
      """
    let leader: ChildProcess
    do {
      leader = try ChildProcess.spawn(
        executable: shell,
        arguments: ["-c", script, "accessoryd-watchdog", directory],
        environment: environment,
        input: .descriptor(descriptors[0]),
        output: "/dev/null",
        processGroup: 0)
    } catch {
      close(descriptors[0])
      close(descriptors[1])
      throw error
    }
    close(descriptors[0])
    return ProcessGroupWatchdog(leader: leader, pipeWriteEnd: descriptors[1])
  }

  /// Kills every process left in the group, the watchdog included, and
  /// reaps the watchdog on a thread of its own; returns at once.
  func release() {
    if leader.isRunning {
      // The unreaped leader keeps the group identifier from being reused.
      _ = kill(-processGroup, SIGKILL)
    }
    let leader = leader
    inBackground { ChildProcess.killAndWait([leader]) }
    pipeWriteEnd.withLock { descriptor in
      if descriptor >= 0 {
        close(descriptor)
        descriptor = -1
      }
    }
  }

  deinit {
    release()
  }
}

/// The signature of `pipe2`.
private typealias Pipe2Function =
  @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

/// Creates a pipe whose both ends close on `exec`.
///
/// Uses `pipe2(O_CLOEXEC)`, which Swift's glibc import hides (it needs
/// `_GNU_SOURCE`), so no other thread's child can inherit the write end;
/// falls back to `pipe` and `fcntl`.
private func makeCloseOnExecPipe(_ descriptors: inout [Int32]) -> Int32 {
  if let symbol = dlsym(nil, "pipe2") {
    let pipe2 = unsafeBitCast(symbol, to: Pipe2Function.self)
    return pipe2(&descriptors, O_CLOEXEC)
  }
  guard pipe(&descriptors) == 0 else { return -1 }
  _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
  return 0
}
