// Tasks waiting until a value someone else keeps meets a condition, or a
// deadline passes: the keeper tells the waiters of each new value.

/// Tasks waiting until a value meets a condition, or until a deadline.
///
/// The keeper of the value calls ``wake(with:)`` after each change, once
/// the new value is what `current` returns: a waiter registers before it
/// reads the value, so no change falls between the two.
public final class ConditionWaiters<Value: Sendable>: Sendable {
  private struct Waiter {
    var condition: @Sendable (Value) -> Bool
    var continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var waiters: [Int: Waiter] = [:]
    var next = 0
  }

  private let state = Mutex(State())

  /// Creates a set with no waiter.
  public init() {}

  /// Waits until the value meets a condition, until a deadline, or until
  /// the task is cancelled.
  ///
  /// - Parameters:
  ///   - sleepUntilTheDeadline: Returns at the deadline, or once
  ///     cancelled, on whichever clock the caller keeps time with.
  ///   - isPastTheDeadline: Whether the deadline has passed.
  ///   - current: The value now.
  ///   - condition: What the value must meet.
  /// - Returns: Whether the condition held.
  public func wait(
    sleepingUntilTheDeadline sleepUntilTheDeadline:
      @escaping @Sendable () async -> Void,
    isPastTheDeadline: @Sendable () -> Bool,
    current: @Sendable () -> Value,
    _ condition: @escaping @Sendable (Value) -> Bool
  ) async -> Bool {
    let id = state.withLock { state in
      defer { state.next += 1 }
      return state.next
    }
    let timeout = Task {
      await sleepUntilTheDeadline()
      self.end(id, met: false)
    }
    defer { timeout.cancel() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        state.withLock {
          $0.waiters[id] = Waiter(
            condition: condition, continuation: continuation)
        }
        // Whoever takes the waiter out resumes it: this check, a change
        // meanwhile, the deadline, or the task's cancellation (checked
        // here too, for one that came before the waiter was kept).
        if condition(current()) {
          end(id, met: true)
        } else if isPastTheDeadline() || Task.isCancelled {
          end(id, met: false)
        }
      }
    } onCancel: {
      self.end(id, met: false)
    }
  }

  /// Wakes the waiters whose condition the new value meets.
  public func wake(with value: Value) {
    let met = state.withLock { state -> [Waiter] in
      var met: [Waiter] = []
      for (id, waiter) in state.waiters where waiter.condition(value) {
        met.append(waiter)
        state.waiters[id] = nil
      }
      return met
    }
    for waiter in met { waiter.continuation.resume(returning: true) }
  }

  private func end(_ id: Int, met: Bool) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.continuation.resume(returning: met)
  }
}
