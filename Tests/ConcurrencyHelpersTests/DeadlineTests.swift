// withDeadline: the first of the operation's answer and the deadline wins,
// an operation that ignores cancellation cannot hold the caller, and a
// cancelled caller is answered at once.

import ConcurrencyHelpers
import Testing

@Suite("withDeadline")
struct DeadlineTests {
  @Test("The operation's answer, when it comes first")
  func answerFirst() async {
    let value = await withDeadline(.seconds(600)) {
      42
    } onTimeout: {
      0
    }
    #expect(value == 42)
  }

  @Test(
    "The deadline's answer, when an operation that ignores cancellation never answers"
  )
  func deadlineFirst() async {
    let gate = Mutex<CheckedContinuation<Int, Never>?>(nil)
    let value = await withDeadline(.milliseconds(10)) {
      // Answers only when the test lets it, whatever cancellation says.
      await withCheckedContinuation { continuation in
        gate.withLock { $0 = continuation }
      }
    } onTimeout: {
      -1
    }
    #expect(value == -1)
    // The late answer is dropped.
    while gate.withLock({ $0 }) == nil { await Task.yield() }
    gate.withLock { $0 }?.resume(returning: 7)
  }

  @Test("A caller that is cancelled gets the deadline's answer at once")
  func cancelledCaller() async {
    let gate = Mutex<CheckedContinuation<Int, Never>?>(nil)
    let caller = Task {
      await withDeadline(.seconds(600)) {
        await withCheckedContinuation { continuation in
          gate.withLock { $0 = continuation }
        }
      } onTimeout: {
        -1
      }
    }
    while gate.withLock({ $0 }) == nil { await Task.yield() }
    caller.cancel()
    #expect(await caller.value == -1)
    gate.withLock { $0 }?.resume(returning: 7)
  }

  @Test("A caller cancelled before the call gets the deadline's answer at once")
  func cancelledBeforeTheCall() async {
    let caller = Task {
      // Cancelled before it waits: withUnsafeCurrentTask's flag is set.
      while !Task.isCancelled { await Task.yield() }
      return await withDeadline(.seconds(600)) {
        await withCheckedContinuation { (_: CheckedContinuation<Int, Never>) in
          Issue.record("the operation of a cancelled caller started")
        }
      } onTimeout: {
        -1
      }
    }
    caller.cancel()
    #expect(await caller.value == -1)
  }
}
