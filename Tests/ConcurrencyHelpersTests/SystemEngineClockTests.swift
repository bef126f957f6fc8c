// The engine's clock counts on the continuous clock from a wall time read
// once: a wall clock set or stepped moves none of its waits.

import ConcurrencyHelpers
import Foundation
import Testing

@Suite("The engine's clock")
struct SystemEngineClockTests {
  @Test("Told from a wall time read once, then counted on the continuous clock")
  func countsOnTheContinuousClock() async throws {
    // A wall time far from the system's: the clock tells none of the
    // system's wall clock after it is made.
    let anchor = Date(timeIntervalSince1970: 1_000_000)
    let clock = SystemEngineClock(wall: anchor, instant: .now)
    let first = clock.now()
    #expect(first >= anchor)
    #expect(first.timeIntervalSince(anchor) < 60)
    // Its sleeps wait on the same count: never less than asked.
    try await clock.sleep(for: .milliseconds(20))
    let second = clock.now()
    #expect(second.timeIntervalSince(first) >= 0.02)
    #expect(second.timeIntervalSince(anchor) < 60)
    // A deadline that has passed returns at once, and time never goes
    // back.
    try await clock.sleep(until: anchor)
    #expect(clock.now() >= second)
  }
}
