// The chores of the engine loop: work it starts and does not wait for,
// run as child tasks, none lost and none outliving the loop.

import ConcurrencyHelpers
import Testing

@testable import AccessoryEngine

@Suite("The engine loop's chores")
struct LoopChoresTests {
  @Test(
    "Work started before finish runs, even when the runner is cancelled; work after it is refused"
  )
  func nothingStartedIsLost() async {
    let chores = LoopChores()
    let ran = Mutex<[Int]>([])
    // Started before the runner: queued.
    for number in 0..<3 {
      #expect(chores.start { ran.withLock { $0.append(number) } })
    }
    let runner = Task { await chores.run() }
    // The runner's task cancelled, as the loop's is when the service
    // stops: it keeps taking work until finish.
    runner.cancel()
    #expect(chores.start { ran.withLock { $0.append(3) } })
    chores.finish()
    #expect(!chores.start { ran.withLock { $0.append(4) } })
    await runner.value
    #expect(ran.withLock { $0.sorted() } == [0, 1, 2, 3])
  }

  @Test(
    "Finishing cancels the work in flight, and the runner returns when it has")
  func finishingCancelsWhatRuns() async {
    let chores = LoopChores()
    let runner = Task { await chores.run() }
    let (started, starting) = AsyncStream.makeStream(of: Void.self)
    let cancelled = Mutex(false)
    chores.start {
      starting.yield()
      // Waits until cancelled.
      let (never, _) = AsyncStream.makeStream(of: Void.self)
      for await _ in never {}
      cancelled.withLock { $0 = Task.isCancelled }
    }
    for await _ in started { break }
    chores.finish()
    await runner.value
    #expect(cancelled.withLock { $0 })
  }

  @Test("Work started before finish and taken after it runs, cancelled")
  func takenAfterFinishRunsCancelled() async {
    let chores = LoopChores()
    let seen = Mutex<[Bool]>([])
    for _ in 0..<3 {
      chores.start { seen.withLock { $0.append(Task.isCancelled) } }
    }
    chores.finish()
    // Not cancelled itself: only finish decides.
    await chores.run()
    #expect(seen.withLock { $0 } == [true, true, true])
  }
}
