// A clock the router's unit tests move by hand: sleepers wake when the
// test advances past their deadline, never on their own.

import AccessoryEngine
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import Foundation

/// A ``EngineClock`` that stands still until a test advances it.
final class ManualEngineClock: EngineClock {
  private struct Sleeper {
    let deadline: Date
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Date
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
  }

  private let state: Mutex<State>

  /// Creates a clock at `start`.
  init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    state = Mutex(State(now: start))
  }

  func now() -> Date { state.withLock { $0.now } }

  func sleep(until deadline: Date) async throws {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let wakeNow = state.withLock { state in
          guard state.now < deadline, !Task.isCancelled else { return true }
          state.sleepers[id] = Sleeper(
            deadline: deadline, continuation: continuation)
          return false
        }
        if wakeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.sleepers.removeValue(forKey: id) }?
        .continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the time on and wakes every sleeper whose deadline has come.
  func advance(by seconds: Double) {
    let woken = state.withLock { state in
      state.now = state.now.addingTimeInterval(seconds)
      let now = state.now
      let due = state.sleepers.filter { $0.value.deadline <= now }
      for id in due.keys { state.sleepers[id] = nil }
      return due.values.map(\.continuation)
    }
    for continuation in woken { continuation.resume() }
  }
}
