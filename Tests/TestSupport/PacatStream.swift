import ConcurrencyHelpers
import Glibc

/// A `pacat` process: a silent playback stream playing `/dev/zero`, or a
/// recording into `/dev/null`.
///
/// The server that started a stream also stops it when the server stops.
public final class PacatStream: Sendable {
  /// The client name (`application.name`), unique within its server.
  public let clientName: String

  /// The sink or source the stream was started on, or `nil` for the
  /// default.
  public let requestedDevice: String?

  /// The `pacat` process, replaced if it had to be started again.
  private let process: Mutex<ChildProcess>

  init(clientName: String, requestedDevice: String?, process: ChildProcess) {
    self.clientName = clientName
    self.requestedDevice = requestedDevice
    self.process = Mutex(process)
  }

  /// The process identifier of the `pacat` process.
  public var processIdentifier: pid_t {
    process.withLock { $0.processIdentifier }
  }

  /// Whether the `pacat` process is still running.
  public var isRunning: Bool {
    process.withLock { $0 }.isRunning
  }

  /// Stops the stream, returning without waiting.
  ///
  /// SIGTERM goes at once, then, on a thread of its own, SIGKILL after
  /// five seconds if it still runs. Does nothing if the process has exited
  /// already.
  public func stop() {
    ChildProcess.terminateInBackground([process.withLock { $0 }])
  }

  /// Replaces a process that died, such as one refused by a busy server.
  func replaceProcess(with newProcess: ChildProcess) {
    process.withLock { $0 = newProcess }
  }

  /// The current process.
  var childProcess: ChildProcess {
    process.withLock { $0 }
  }

  deinit {
    stop()
  }
}
