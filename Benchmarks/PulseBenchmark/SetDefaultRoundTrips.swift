import BenchmarkSupport

/// How long a measured repetition may take until the observer sees it done,
/// before it counts as a timeout.
let observationTimeout = Duration.seconds(5)

/// Scenario 1: one set-default round trip on a persistent connection,
/// alternating `bench_b` and `bench_a`.
///
/// Measures the acknowledgement with the observer idle, then, in as many
/// further repetitions, the time until the observer sees the new default:
/// PipeWire acknowledges at once and WirePlumber applies the change later.
/// The streams follow the default; each repetition waits, untimed, until
/// the observer has seen them follow.
struct SetDefaultRoundTrips {
  let session: BenchmarkSession

  func run(repetitions: Int) async throws -> [Figure] {
    try await session.reset()
    var ack = Samples()
    var observed = Samples()
    for repetition in 0..<repetitions * 2 {
      let target = BenchmarkSession.target(ofRepetition: repetition)
      let isObserved = repetition >= repetitions
      if isObserved {
        try await session.observer.arm(Goal(defaultSink: target))
      }
      let start = ContinuousClock.now
      try await session.connection.setDefaultSink(target)
      let acknowledged = ContinuousClock.now
      if !isObserved {
        ack.append(acknowledged - start)
      } else if let seen = try await session.observer.wait(
        until: start + observationTimeout)
      {
        observed.append(seen - start)
      } else {
        observed.timeouts += 1
        // The server lost the change; ask again so the next repetition
        // starts from the state it expects.
        try await session.connection.setDefaultSink(target)
      }
      try await session.observer.reach(
        session.streamsGoal(on: target, default: target))
    }
    let streams = session.streamIndexes.count
    return [
      Figure(
        server: session.kind, kind: .setDefaultAck, streams: streams,
        samples: ack),
      Figure(
        server: session.kind, kind: .setDefaultObserved, streams: streams,
        samples: observed),
    ]
  }
}
