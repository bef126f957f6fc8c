// The one pool of threads for blocking work: results and errors come back,
// no more threads run than the bound however much work comes, work beyond
// the bound waits its turn, and idle threads end.

import ConcurrencyHelpers
import Dispatch
import Testing

@Suite("Blocking pool")
struct BlockingPoolTests {
  struct Refused: Error, Equatable {}

  @Test func returnsResultsAndErrors() async throws {
    let pool = BlockingPool(maximumThreads: 2)
    #expect(await pool.run(named: "test.add") { 20 + 22 } == 42)
    await #expect(throws: Refused.self) {
      try await pool.run(named: "test.fail") { () throws(Refused) in
        throw Refused()
      }
    }
  }

  @Test func runsNoMoreThreadsThanItsBound() async {
    let pool = BlockingPool(maximumThreads: 3)
    let gate = DispatchSemaphore(value: 0)
    let (started, starting) = AsyncStream.makeStream(of: Void.self)
    let finished = Mutex(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<12 {
        group.addTask {
          await pool.run(named: "test.block") {
            starting.yield()
            gate.wait()
            finished.withLock { $0 += 1 }
          }
        }
      }
      // Three jobs run, each on its own thread; the others wait.
      var starts = started.makeAsyncIterator()
      for _ in 0..<3 { await starts.next() }
      #expect(pool.threadCounts.now == 3)
      for _ in 0..<12 { gate.signal() }
      await group.waitForAll()
    }
    #expect(finished.withLock { $0 } == 12)
    #expect(pool.threadCounts.peak == 3)
  }

  @Test func idleThreadsEnd() async throws {
    let pool = BlockingPool(maximumThreads: 2, idleSeconds: 0.05)
    _ = await pool.run(named: "test.once") { 1 }
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while pool.threadCounts.now > 0, clock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(pool.threadCounts.now == 0)
    // And it starts one again for the next work.
    #expect(await pool.run(named: "test.again") { 2 } == 2)
  }
}
