import BenchmarkSupport

/// Ours with the default change, comparable to switch-on-connect.
///
/// Set-default and the pipelined moves of every stream are issued together;
/// done is when the observer sees the new default and every stream on it,
/// as switch-on-connect also changes the default.
///
/// The two calls run as concurrent tasks on one connection, so which one
/// the server receives first is not fixed.
struct DefaultAndMoveScenario {
  let session: BenchmarkSession

  func run(repetitions: Int) async throws -> Figure {
    try await session.reset()
    let connection = session.connection
    var samples = Samples()
    for repetition in 0..<repetitions {
      let target = BenchmarkSession.target(ofRepetition: repetition)
      let goal = session.streamsGoal(on: target, default: target)
      try await session.observer.arm(goal)
      let start = ContinuousClock.now
      async let defaultChange: Void = connection.setDefaultSink(target)
      try await session.moveAll(to: target)
      try await defaultChange
      if let seen = try await session.observer.wait(
        until: start + observationTimeout)
      {
        samples.append(seen - start)
      } else {
        samples.timeouts += 1
      }
      try await session.settle(at: goal)
    }
    return Figure(
      server: session.kind, kind: .defaultAndMoveObserved,
      streams: session.streamIndexes.count, samples: samples)
  }
}
