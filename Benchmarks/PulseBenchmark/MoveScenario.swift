import BenchmarkSupport

/// Scenario 2: moving every stream from one sink to the other, alternating
/// direction.
///
/// Sequential awaits each move before the next; pipelined sends all moves
/// before awaiting any (``PulseConnection/moveSinkInputs(_:toSinkNamed:)``).
/// Either is done when every move is acknowledged. The observed variant
/// measures until the observer lists every stream on the target.
struct MoveScenario {
  enum Mode {
    case sequential
    case pipelined
    case pipelinedObserved
  }

  let session: BenchmarkSession
  let mode: Mode

  var figureKind: FigureKind {
    switch mode {
    case .sequential: .moveSequential
    case .pipelined: .movePipelined
    case .pipelinedObserved: .movePipelinedObserved
    }
  }

  func run(repetitions: Int) async throws -> Figure {
    try await session.reset()
    var samples = Samples()
    for repetition in 0..<repetitions {
      let target = BenchmarkSession.target(ofRepetition: repetition)
      let goal = session.streamsGoal(on: target)
      if mode == .pipelinedObserved {
        try await session.observer.arm(goal)
      }
      let start = ContinuousClock.now
      switch mode {
      case .sequential:
        for index in session.streamIndexes {
          try await session.connection.moveSinkInput(index, toSinkNamed: target)
        }
      case .pipelined, .pipelinedObserved:
        try await session.moveAll(to: target)
      }
      let acknowledged = ContinuousClock.now
      if mode == .pipelinedObserved {
        if let seen = try await session.observer.wait(
          until: start + observationTimeout)
        {
          samples.append(seen - start)
        } else {
          samples.timeouts += 1
        }
      } else {
        samples.append(acknowledged - start)
      }
      try await session.settle(at: goal)
    }
    return Figure(
      server: session.kind, kind: figureKind,
      streams: session.streamIndexes.count, samples: samples)
  }
}
