// Unix signals as an async sequence, built on Dispatch signal sources.

import ConcurrencyHelpers
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A Unix signal the daemon handles.
public struct UnixSignal: Sendable, Hashable, CustomStringConvertible {
  /// The signal number.
  public let rawValue: Int32

  /// Terminate: stop gracefully.
  public static let sigterm = UnixSignal(rawValue: SIGTERM)
  /// Interrupt (Ctrl-C): stop gracefully.
  public static let sigint = UnixSignal(rawValue: SIGINT)
  /// Hang up: reload the policy.
  public static let sighup = UnixSignal(rawValue: SIGHUP)

  /// The signal's name, such as `SIGTERM`.
  public var description: String {
    switch rawValue {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGHUP: "SIGHUP"
    default: "signal \(rawValue)"
    }
  }

  /// Returns the signals as they arrive, until the stream is dropped.
  ///
  /// The signals' default actions are replaced while the sources exist.
  ///
  /// - Parameter signals: The signals to catch.
  public static func stream(_ signals: [UnixSignal]) -> AsyncStream<UnixSignal>
  {
    let (stream, continuation) = AsyncStream.makeStream(of: UnixSignal.self)
    let queue = DispatchQueue(label: "accessoryd.signals")
    let sources = signals.map { signal in
      // Dispatch takes over the signal; the default action must not run.
      Glibc.signal(signal.rawValue, SIG_IGN)
      let source = DispatchSource.makeSignalSource(
        signal: signal.rawValue, queue: queue)
      source.setEventHandler { continuation.yield(signal) }
      source.resume()
      return source
    }
    let held = Mutex(sources)
    continuation.onTermination = { _ in
      held.withLock { sources in
        for source in sources { source.cancel() }
        sources = []
      }
    }
    return stream
  }
}
