// Tasks waiting until a value meets a condition: woken by a change, by
// the deadline, or by their own cancellation.

import ConcurrencyHelpers
import Testing

@Suite("Condition waiters")
struct ConditionWaitersTests {
  /// Waits for the value 1 with a deadline an hour away.
  private func waitForOne(
    _ waiters: ConditionWaiters<Int>, value: @escaping @Sendable () -> Int
  ) async -> Bool {
    await waiters.wait(
      sleepingUntilTheDeadline: { try? await Task.sleep(for: .seconds(3600)) },
      isPastTheDeadline: { false }, current: value
    ) { $0 == 1 }
  }

  @Test("A change that meets the condition wakes the waiter")
  func wokenByAChange() async {
    let waiters = ConditionWaiters<Int>()
    let value = Mutex(0)
    let waiting = Task {
      await waitForOne(waiters, value: { value.withLock { $0 } })
    }
    // Whether the waiter is kept before or after the change, it sees it.
    value.withLock { $0 = 1 }
    waiters.wake(with: 1)
    #expect(await waiting.value)
  }

  @Test("Cancelling the task ends the wait, unmet, however far the deadline")
  func endedByCancellation() async {
    let waiters = ConditionWaiters<Int>()
    let waiting = Task { await waitForOne(waiters, value: { 0 }) }
    waiting.cancel()
    #expect(await waiting.value == false)
  }
}
