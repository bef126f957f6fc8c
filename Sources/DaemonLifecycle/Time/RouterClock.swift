// The daemon's one source of time: the decisions' `now`, the grace times,
// the media rules' windows, and the sound-server link's backoff and settle
// waits all read it, so that the engine's unit tests drive time by hand.

import FoundationEssentials

/// The time the engine decides with and waits on.
public protocol RouterClock: Sendable {
  /// The current time.
  func now() -> Date

  /// Returns at `deadline`, or at once if it has passed.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first.
  func sleep(until deadline: Date) async throws
}

/// The system's wall clock.
public struct SystemRouterClock: RouterClock {
  /// Creates the clock.
  public init() {}

  /// The current time.
  public func now() -> Date { Date() }

  /// Sleeps until `deadline`, to within a tenth of the wait and at most
  /// 5 ms: the link's 2 ms settle waits stay 2 ms.
  public func sleep(until deadline: Date) async throws {
    let seconds = deadline.timeIntervalSinceNow
    guard seconds > 0 else { return }
    try await Task.sleep(
      for: .seconds(seconds), tolerance: .seconds(min(0.005, seconds / 10)))
  }
}

extension RouterClock {
  /// Returns after `duration`, or at once if it is not positive.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now().addingTimeInterval(duration.seconds))
  }
}

extension Duration {
  /// The duration in seconds.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
