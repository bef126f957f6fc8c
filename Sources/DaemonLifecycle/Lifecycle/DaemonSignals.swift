// What the daemon does with its signals: SIGHUP reloads, the first SIGTERM
// or SIGINT stops it gracefully, and another one while it stops ends it at
// once. The exit is logged once, whichever way it comes.

import AccessoryControl
import ConcurrencyHelpers
import Glibc
import Logging

/// The daemon's handling of SIGHUP, SIGTERM and SIGINT.
public enum DaemonSignals {
  /// Follows signals until the stream ends.
  ///
  /// - Parameters:
  ///   - signals: The signals, as ``UnixSignal/stream(_:)`` delivers them.
  ///   - reload: Called for each SIGHUP, one at a time.
  ///   - stop: Called for the first SIGTERM or SIGINT.
  ///   - abort: Called for each SIGTERM or SIGINT after the first.
  public static func follow(
    _ signals: AsyncStream<UnixSignal>,
    reload: @Sendable () async -> Void,
    stop: @Sendable (UnixSignal) -> Void,
    abort: @Sendable (UnixSignal) -> Void
  ) async {
    var stopping = false
    for await signal in signals {
      if signal == .sighup {
        await reload()
      } else if stopping {
        abort(signal)
      } else {
        stopping = true
        stop(signal)
      }
    }
  }
}

/// Ends the process once, with one log line that says how.
///
/// The graceful stop, a second signal and a stop deadline may race to end
/// the daemon; the first to call ``exit(status:reason:)`` logs and exits,
/// and any later caller waits for the process to end.
public final class DaemonExit: Sendable {
  private let logger: Logger
  private let exiting = Atomic<Bool>(false)

  /// Creates the exit for a daemon that logs to `logger`.
  public init(logger: Logger) { self.logger = logger }

  /// Logs how the daemon ends and exits with `status`.
  ///
  /// - Parameters:
  ///   - status: The exit status.
  ///   - reason: Why, such as `stopped` or `a second SIGTERM while
  ///     stopping`.
  public func exit(status: ProcessExitCode, reason: String) -> Never {
    guard
      exiting.compareExchange(
        expected: false, desired: true, ordering: .acquiringAndReleasing
      ).exchanged
    else {
      while true { pause() }
    }
    logger.notice(
      "Exiting", metadata: ["exit.status": "\(status)", "exit.reason": reason])
    Glibc.exit(status.rawValue)
  }
}
