// The router's one source of time: the decision's `now`, the grace times
// and the waits for the server all read it, so that the router's unit
// tests drive time by hand.

import DaemonInputs
import DaemonLifecycle
import FoundationEssentials

/// The time the router decides with and waits on.
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

  /// Sleeps until `deadline`, to within a few milliseconds.
  public func sleep(until deadline: Date) async throws {
    let seconds = deadline.timeIntervalSinceNow
    guard seconds > 0 else { return }
    try await Task.sleep(
      for: .seconds(seconds), tolerance: .milliseconds(5))
  }
}
