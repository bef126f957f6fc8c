// Timing decisions and reading the process's resident memory.

import Foundation
import RoutingCore

/// Consumes a decision so that the optimizer cannot drop the work that made
/// it.
@inline(never)
@_optimize(none)
func blackHole(_ decision: Decision) {
  _ = decision
}

/// The timings of many decisions on one snapshot.
struct Timing {
  /// How many decisions were timed.
  let repetitions: Int
  /// The median time of one decision, in microseconds.
  let medianMicroseconds: Double
  /// The 99th percentile (nearest rank), in microseconds.
  let p99Microseconds: Double
  /// Decisions per second over the timed decisions.
  let perSecond: Double

  /// Times single decisions, with or without their explanation, after a
  /// warm-up, until both the minimum count
  /// and the time budget are reached, or the maximum count is.
  static func measure(
    _ snapshot: Snapshot, _ policy: Policy, explaining: Bool, warmUp: Int,
    minimum: Int, maximum: Int, budget: Duration
  ) -> Timing {
    for _ in 0..<warmUp {
      blackHole(decide(snapshot, policy, explaining: explaining))
    }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(maximum)
    let start = clock.now
    while samples.count < maximum {
      let before = clock.now
      let decision = decide(snapshot, policy, explaining: explaining)
      let after = clock.now
      blackHole(decision)
      samples.append(after - before)
      if samples.count >= minimum, after - start >= budget { break }
    }
    let total = samples.reduce(Duration.zero, +)
    samples.sort()
    let p99Rank = max(0, Int((Double(samples.count) * 0.99).rounded(.up)) - 1)
    return Timing(
      repetitions: samples.count,
      medianMicroseconds: microseconds(samples[samples.count / 2]),
      p99Microseconds: microseconds(samples[p99Rank]),
      perSecond: Double(samples.count) / (microseconds(total) / 1e6))
  }
}

/// Returns a duration in microseconds.
func microseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

/// Returns the process's resident memory in kB (`VmRSS` in
/// /proc/self/status), or nil where it cannot be read.
func residentKilobytes() -> Int? {
  guard
    let status = try? String(
      contentsOfFile: "/proc/self/status", encoding: .utf8)
  else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    if fields.count >= 2 { return Int(fields[1]) }
  }
  return nil
}
