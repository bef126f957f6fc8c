// A watchdog that says when the shared task threads stop making progress.
//
// Every private server, bus and daemon the tests start starts it too. It
// runs on a thread of its own and, ten times a second, asks the shared
// threads for a trivial task. When one has waited for a second, something
// holds every shared thread (a blocking wait on them), and every test's
// tasks wait with it: the watchdog writes that to standard error once per
// stall, with how long it lasted, so a suite that times out says why.

import ConcurrencyHelpers
import Foundation

/// Reports, on standard error, stalls of Swift's shared task threads.
public enum SharedThreadWatchdog {
  /// How long a ping may wait before the stall is reported.
  public static let threshold = Duration.seconds(1)

  /// The stalls seen so far in this process: how long each lasted.
  public static var stalls: [Duration] { state.withLock { $0.stalls } }

  private struct State {
    var isStarted = false
    /// When the ping in flight was sent, or nil when none is.
    var pingSent: ContinuousClock.Instant?
    var reported = false
    var stalls: [Duration] = []
  }

  private static let state = Mutex(State())

  /// Starts the watchdog, once per process; later calls do nothing.
  public static func start() {
    let isNew = state.withLock { state in
      defer { state.isStarted = true }
      return !state.isStarted
    }
    guard isNew else { return }
    Thread.detachNewThread { watch() }
  }

  private static func watch() {
    while true {
      Thread.sleep(forTimeInterval: 0.1)
      let now = ContinuousClock.now
      let send = state.withLock { state -> Bool in
        guard let sent = state.pingSent else {
          state.pingSent = now
          return true
        }
        if !state.reported, now - sent >= threshold {
          state.reported = true
          FileHandle.standardError.write(
            Data(
              ("TestSupport: the shared task threads have run nothing for "
                + "\(now - sent): a blocking call holds them\n").utf8))
        }
        return false
      }
      guard send else { continue }
      Task.detached(priority: .high) { pong() }
    }
  }

  private static func pong() {
    let now = ContinuousClock.now
    state.withLock { state in
      guard let sent = state.pingSent else { return }
      if state.reported {
        let stall = now - sent
        state.stalls.append(stall)
        FileHandle.standardError.write(
          Data(
            ("TestSupport: the shared task threads ran again after "
              + "\(stall)\n").utf8))
      }
      state.pingSent = nil
      state.reported = false
    }
  }
}
