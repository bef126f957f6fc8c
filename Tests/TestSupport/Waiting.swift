// Waiting for a condition without holding a thread, and saying, when it
// never holds, what was awaited and what was seen instead.

/// Polls until what `observe` returns satisfies `condition`, sleeping
/// between checks without holding a thread.
///
/// ```swift
/// let sinks = try await waitFor("sink buds to appear", within: .seconds(10),
///   observing: { try await server.sinks().map(\.name) },
///   until: { $0.contains("buds") })
/// ```
///
/// - Parameters:
///   - what: What is awaited, for the message.
///   - limit: How long to wait.
///   - observe: Looks at the system once; an error counts as a miss, and
///     the last one is named in the message.
///   - condition: Whether what was seen is what is awaited.
/// - Returns: The observation that satisfied the condition.
/// - Throws: ``FixtureError`` after `limit`, naming what was awaited, how
///   many checks were made, the last observation and the last error.
@discardableResult
public func waitFor<Observation: Sendable>(
  _ what: String, within limit: Duration,
  observing observe: () async throws -> Observation,
  until condition: (Observation) -> Bool
) async throws -> Observation {
  let start = ContinuousClock.now
  var interval = Duration.milliseconds(2)
  var checks = 0
  var last: Observation?
  var lastError: (any Error)?
  while true {
    checks += 1
    do {
      let observation = try await observe()
      if condition(observation) { return observation }
      last = observation
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      lastError = error
    }
    if ContinuousClock.now - start >= limit { break }
    try await Task.sleep(for: interval)
    interval = min(interval * 2, .milliseconds(50))
  }
  throw FixtureError(
    "timed out after \(limit) waiting for \(what) (\(checks) checks); "
      + "last seen: \(last.map { "\($0)" } ?? "nothing")"
      + (lastError.map { "; last error: \($0)" } ?? ""))
}

/// Polls a yes-or-no condition until it holds, without holding a thread.
///
/// - Parameters:
///   - what: What is awaited, for the message.
///   - limit: How long to wait.
///   - condition: Checked at once, then after 2, 4, … up to every 50 ms; an
///     error counts as a miss.
/// - Throws: ``FixtureError`` after `limit`, naming what was awaited, how
///   many checks found it false, and the last error.
public func waitUntil(
  _ what: String, within limit: Duration,
  _ condition: () async throws -> Bool
) async throws {
  try await waitFor(
    what, within: limit, observing: condition, until: { $0 })
}
