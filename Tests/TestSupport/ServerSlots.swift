// A limit on how many private sound servers run at once in one test
// process, so that parallel tests do not starve each other's servers of
// CPU on a small machine.

import ConcurrencyHelpers
import Dispatch
import Foundation

/// A counting semaphore for running servers.
///
/// A test that waits longer than ``patience`` for a slot starts its server
/// anyway: a server that a test forgot to stop must slow the run down, not
/// hang it.
final class ServerSlots: Sendable {
  /// The process-wide slots: `ACCESSORYD_TEST_SERVERS`, or the number of
  /// cores, at least 2.
  static let shared = ServerSlots(
    capacity: ProcessInfo.processInfo.environment["ACCESSORYD_TEST_SERVERS"]
      .flatMap(Int.init)
      ?? max(2, ProcessInfo.processInfo.activeProcessorCount),
    patience: .seconds(20))

  private struct State {
    var free: Int
    var nextTicket = 0
    var waiters:
      [(ticket: Int, continuation: CheckedContinuation<Void, Never>)] =
        []
  }

  private let state: Mutex<State>
  private let patience: DispatchTimeInterval

  init(capacity: Int, patience: DispatchTimeInterval) {
    state = Mutex(State(free: max(1, capacity)))
    self.patience = patience
  }

  /// Waits for a free slot and takes it, or takes one beyond the capacity
  /// after waiting too long.
  func acquire() async {
    await withCheckedContinuation { continuation in
      let ticket = state.withLock { state -> Int? in
        guard state.free <= 0 else {
          state.free -= 1
          return nil
        }
        state.nextTicket += 1
        state.waiters.append((state.nextTicket, continuation))
        return state.nextTicket
      }
      guard let ticket else {
        continuation.resume()
        return
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + patience) {
        let late = self.state.withLock { state in
          guard
            let index = state.waiters.firstIndex(where: {
              $0.ticket == ticket
            })
          else { return nil as CheckedContinuation<Void, Never>? }
          state.free -= 1
          return state.waiters.remove(at: index).continuation
        }
        late?.resume()
      }
    }
  }

  /// Gives a slot back, to the longest waiter if any.
  func release() {
    let next = state.withLock { state in
      if state.waiters.isEmpty {
        state.free += 1
        return nil as CheckedContinuation<Void, Never>?
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume()
  }
}
