// What the daemon writes to one control connection, and the thread that
// writes it, so that a client that stops reading never holds a shared task
// thread: answers and events wait in a bounded queue instead.

import AccessoryControl
import AccessoryEngine
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import Dispatch
import FoundationEssentials
import HeadphoneReaders
import Logging
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The outgoing lines of one control connection, and the connection's
/// descriptor: a line is written at once when the socket takes it without
/// waiting, else, in order, by a thread of the connection's own.
///
/// ``enqueue(_:)`` never blocks. A client that falls more than
/// ``maximumPendingBytes`` behind (a terminal paused with Ctrl-S, a hung
/// applet) is disconnected, and the reason is logged; the daemon and its
/// other clients carry on. The outbox owns the descriptor: it is closed
/// once both its reader has said it is done (``readerFinished()``) and its
/// writer has written what was queued before ``finish()``, so neither thread
/// ever uses a number the kernel has given to another file.
final class ControlOutbox: Sendable {
  /// How many bytes may wait for a client before it is disconnected.
  ///
  /// 256 KiB (about 800 events), the line being written included, on top
  /// of what the kernel's socket buffer holds (about 200 KiB more). A
  /// single longer line is still sent when nothing else waits.
  static let maximumPendingBytes = 256 << 10

  /// How long the last writes may take once the connection is finishing;
  /// then the connection is shut down.
  static let finishingTimeout = 5

  private struct State {
    var lines: [Data] = []
    /// The bytes queued or being written.
    var pendingBytes = 0
    /// Set by ``finish()``: no more lines will come.
    var isFinished = false
    /// Set when the client is cut off, or gone: nothing more is queued.
    var isCutOff = false
    var writerIsDone = false
    var readerIsDone = false
    var isClosed = false
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
  ///
  /// When nothing waits, the line is written at once without blocking, as
  /// far as the socket takes it; only what is left goes to the writing
  /// thread, so an answer to a client that reads costs no thread wake-up.
  @discardableResult
  func enqueue(_ line: Data) -> Bool {
    enum Outcome { case written, queued, refused, cutOff }
    let outcome = state.withLock { state -> Outcome in
      guard !state.isCutOff, !state.isFinished else { return .refused }
      var rest = line
      if state.pendingBytes == 0 {
        switch Self.sendWithoutWaiting(line, on: descriptor) {
        case nil:
          state.isCutOff = true
          return .refused
        case let written? where written == line.count:
          return .written
        case let written?:
          rest = line.dropFirst(written)
        }
      }
      guard
        state.pendingBytes == 0
          || state.pendingBytes + rest.count <= Self.maximumPendingBytes
      else {
        state.isCutOff = true
        state.lines = []
        // The reader sees the end, and the writer's blocked send fails.
        shutdown(descriptor, Int32(SHUT_RDWR))
        return .cutOff
      }
      state.lines.append(rest)
      state.pendingBytes += rest.count
      return .queued
    }
    switch outcome {
    case .written:
      return true
    case .queued:
      wakeUp.signal()
      return true
    case .refused:
      return false
    case .cutOff:
      logger.warning(
        "Disconnected a client that stopped reading",
        metadata: [
          "control.pending.limit": "\(Self.maximumPendingBytes) bytes"
        ])
      wakeUp.signal()
      return false
    }
  }

  /// Writes as much of `line` as the socket takes without waiting.
  ///
  /// - Returns: How many bytes were written, or nil once the client is
  ///   gone.
  private static func sendWithoutWaiting(
    _ line: Data, on descriptor: Int32
  ) -> Int? {
    line.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Errno.retryingInterrupts {
          send(
            descriptor, buffer.baseAddress! + offset, buffer.count - offset,
            Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if written >= 0 {
          offset += written
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
          break
        } else {
          return nil
        }
      }
      return offset
    }
  }

  /// Says that no more lines will come: the thread writes what is queued,
  /// for at most ``finishingTimeout`` seconds, and the reader is woken.
  func finish() {
    // A client that never reads again must not keep the writer forever:
    // a send that starts from now on gives up after the timeout, and one
    // already blocked is ended by the shutdown below.
    var timeout = timeval(tv_sec: Self.finishingTimeout, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout,
      socklen_t(MemoryLayout<timeval>.size))
    state.withLock { state in
      state.isFinished = true
      if !state.isClosed { shutdown(descriptor, Int32(SHUT_RD)) }
    }
    wakeUp.signal()
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .seconds(Self.finishingTimeout)
    ) { [self] in
      state.withLock { state in
        if !state.isClosed { shutdown(descriptor, Int32(SHUT_RDWR)) }
      }
    }
  }

  /// Says that the reading thread will not use the descriptor again.
  func readerFinished() {
    closeIfUnused { $0.readerIsDone = true }
  }

  /// The writing thread: writes lines as they come until the connection
  /// is finished and what was queued is written.
  private func writeUntilFinished() {
    while true {
      wakeUp.wait()
      let (lines, isCutOff) = state.withLock { state in
        defer { state.lines = [] }
        return (state.lines, state.isCutOff)
      }
      if !isCutOff {
        for line in lines {
          guard sendAll(line, on: descriptor) == nil else {
            state.withLock { state in
              state.isCutOff = true
              state.lines = []
              shutdown(descriptor, Int32(SHUT_RDWR))
            }
            break
          }
          state.withLock { $0.pendingBytes -= line.count }
        }
      }
      let done = state.withLock { state in
        state.isFinished && (state.lines.isEmpty || state.isCutOff)
      }
      if done { break }
    }
    closeIfUnused { $0.writerIsDone = true }
  }

  /// Records that one thread is done, and closes the descriptor once both
  /// are.
  private func closeIfUnused(_ record: (inout State) -> Void) {
    state.withLock { state in
      record(&state)
      guard state.readerIsDone, state.writerIsDone, !state.isClosed else {
        return
      }
      state.isClosed = true
      close(descriptor)
    }
  }
}
