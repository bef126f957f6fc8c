// What the daemon writes to one control connection, and the thread that
// writes it, so that a client that stops reading never holds a shared task
// thread: answers and events wait in a bounded queue instead.

import AccessoryControl
import Dispatch
import FoundationEssentials
import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The outgoing lines of one control connection, written in order by a
/// thread of the connection's own.
///
/// ``enqueue(_:)`` never blocks. A client that falls more than
/// ``maximumPendingBytes`` behind (a terminal paused with Ctrl-S, a hung
/// applet) is disconnected, and the reason is logged; the daemon and its
/// other clients carry on. The outbox owns the descriptor from then on:
/// the writing thread closes it once ``finish()`` has been called and what
/// was queued is written, or the client has gone.
final class ControlOutbox: Sendable {
  /// How many bytes may wait for a client before it is disconnected:
  /// 256 KiB (about 800 events), on top of what the kernel's socket buffer
  /// holds (about 200 KiB more).
  static let maximumPendingBytes = 256 << 10

  /// How long a last write may block once the connection is finishing.
  static let finishingWriteTimeout = 5

  private struct State {
    var lines: [Data] = []
    var pendingBytes = 0
    /// Set by ``finish()``: no more lines will come.
    var isFinished = false
    /// Set when the client is cut off: nothing more is queued.
    var isCutOff = false
  }

  private let descriptor: Int32
  private let state = Mutex(State())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let logger: Logger

  /// Starts the writing thread of a connected socket.
  ///
  /// - Parameters:
  ///   - descriptor: The connection, which the outbox closes in the end.
  ///   - logger: Where a cut-off client is reported.
  init(descriptor: Int32, logger: Logger) {
    self.descriptor = descriptor
    self.logger = logger
    startThread(named: "accessoryd.send") { [self] in writeUntilFinished() }
  }

  /// Queues one line to be written; returns false if the client has been
  /// cut off, or is cut off now because it fell too far behind.
  @discardableResult
  func enqueue(_ line: Data) -> Bool {
    let outcome = state.withLock { state -> Bool? in
      guard !state.isCutOff, !state.isFinished else { return false }
      guard state.pendingBytes + line.count <= Self.maximumPendingBytes
      else {
        state.isCutOff = true
        state.lines = []
        state.pendingBytes = 0
        return nil
      }
      state.lines.append(line)
      state.pendingBytes += line.count
      return true
    }
    switch outcome {
    case true?:
      wakeUp.signal()
      return true
    case false?:
      return false
    case nil:
      logger.warning(
        "Disconnected a client that stopped reading",
        metadata: [
          "control.pending.limit": "\(Self.maximumPendingBytes) bytes"
        ])
      // The reader sees the end, and the writer's blocked send fails.
      shutdown(descriptor, Int32(SHUT_RDWR))
      wakeUp.signal()
      return false
    }
  }

  /// Says that no more lines will come: the thread writes what is queued,
  /// then closes the descriptor.
  func finish() {
    state.withLock { $0.isFinished = true }
    // A client that never reads again must not keep the thread forever.
    var timeout = timeval(tv_sec: Self.finishingWriteTimeout, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout,
      socklen_t(MemoryLayout<timeval>.size))
    wakeUp.signal()
  }

  /// The writing thread: writes lines as they come until the connection
  /// is finished, then closes it.
  private func writeUntilFinished() {
    var failed = false
    while true {
      wakeUp.wait()
      let (lines, isFinished) = state.withLock { state in
        defer {
          state.lines = []
          state.pendingBytes = 0
        }
        return (state.lines, state.isFinished)
      }
      if !failed {
        for line in lines where sendAll(line, on: descriptor) != nil {
          failed = true
          state.withLock { $0.isCutOff = true }
          shutdown(descriptor, Int32(SHUT_RDWR))
          break
        }
      }
      if isFinished, state.withLock({ $0.lines.isEmpty }) { break }
    }
    close(descriptor)
  }
}
