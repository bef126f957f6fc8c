// The daemon's one source of time: the decisions' `now`, the grace times,
// the media rules' windows, and the sound-server link's backoff and settle
// waits all read it, so that the engine's unit tests drive time by hand.

import FoundationEssentials

/// The time the engine decides with and waits on.
public protocol EngineClock: Sendable {
  /// The current time.
  func now() -> Date

  /// Returns at `deadline`, or at once if it has passed.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first.
  func sleep(until deadline: Date) async throws
}

/// The system's continuous clock, told as wall time.
///
/// It reads the wall clock once, when it is made, and from then on counts
/// on `ContinuousClock` (which counts through a suspend too): setting the
/// wall clock, or NTP stepping it, moves none of the engine's grace times,
/// windows or timers, and its time never goes back. The times it tells
/// stay the wall clock's as of the start, for logs and answers.
public struct SystemEngineClock: EngineClock {
  /// The wall time and the continuous instant it was read at.
  private let anchor: (wall: Date, instant: ContinuousClock.Instant)

  /// Creates the clock, anchored to the wall clock now.
  public init() {
    self.init(wall: Date(), instant: ContinuousClock.now)
  }

  /// Creates the clock anchored to a wall time at a continuous instant,
  /// for tests.
  package init(wall: Date, instant: ContinuousClock.Instant) {
    anchor = (wall, instant)
  }

  /// The current time: the anchor's wall time plus the continuous time
  /// since.
  public func now() -> Date {
    anchor.wall.addingTimeInterval(
      (ContinuousClock.now - anchor.instant).seconds)
  }

  /// Sleeps on the continuous clock until `deadline`, to within a tenth of
  /// the wait and at most 5 ms: the link's 2 ms settle waits stay 2 ms.
  public func sleep(until deadline: Date) async throws {
    let target =
      anchor.instant + .seconds(deadline.timeIntervalSince(anchor.wall))
    let wait = target - ContinuousClock.now
    guard wait > .zero else { return }
    try await Task.sleep(
      until: target, tolerance: .seconds(min(0.005, wait.seconds / 10)),
      clock: .continuous)
  }
}

extension EngineClock {
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
