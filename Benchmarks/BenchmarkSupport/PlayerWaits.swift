// Waiting for media players, as an independent MPRIS client sees them:
// the media benchmarks' "paused" figures.

import MPRIS

/// The first instant every player shows the status, from the changes
/// seen since before the update.
///
/// - Throws: ``BenchmarkError`` if they do not within 5 s.
public func firstTime(
  all pids: Set<Int32>, reach status: MediaPlayer.PlaybackStatus,
  in changes: AsyncStream<MediaPlayerChange>, on watcher: MPRISClient,
  within limit: Duration = .seconds(5)
) async throws -> ContinuousClock.Instant {
  @Sendable func done() -> Bool {
    let players = watcher.players().filter {
      pids.contains($0.processID ?? -1)
    }
    return players.count == pids.count
      && players.allSatisfy { $0.playbackStatus == status }
  }
  if done() { return .now }
  let seen = await withTaskGroup(of: ContinuousClock.Instant?.self) {
    group in
    group.addTask {
      for await _ in changes where done() { return .now }
      return nil
    }
    group.addTask {
      try? await Task.sleep(for: limit)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
  guard let seen else {
    throw BenchmarkError(
      "the players did not all become \(status) within \(limit)")
  }
  return seen
}

/// Waits until every player of the processes shows the status.
///
/// - Throws: ``BenchmarkError`` if they do not within 30 s.
public func waitForStatus(
  _ status: MediaPlayer.PlaybackStatus, of pids: Set<Int32>,
  on watcher: MPRISClient
) async throws {
  let deadline = ContinuousClock.now + .seconds(30)
  while ContinuousClock.now < deadline {
    let players = watcher.players().filter {
      pids.contains($0.processID ?? -1)
    }
    if players.count == pids.count,
      players.allSatisfy({ $0.playbackStatus == status })
    {
      return
    }
    try await Task.sleep(for: .milliseconds(20))
  }
  throw BenchmarkError("the players are not all \(status)")
}
