import BenchmarkSupport
import TestSupport

/// Scenario 3: the server's own `module-switch-on-connect` as the
/// in-server reference.
///
/// With every stream on `bench_a` following the default, load a null sink
/// `bench_new` and time until the observer sees it the default with every
/// stream on it; then unload it and start over. pipewire-pulse loads the
/// module but it never fires for null sinks, so after three timeouts in a
/// row with no success the scenario gives up.
struct SwitchOnConnectScenario {
  let session: BenchmarkSession

  /// The timeouts in a row, without a success, after which the module
  /// counts as never firing.
  static let triesBeforeGivingUp = 3

  /// How long to wait for the switch: PulseAudio needs tens of
  /// milliseconds; on PipeWire it is known not to come.
  var timeout: Duration {
    session.kind == .pipeWire ? .seconds(1) : .seconds(3)
  }

  func run(repetitions: Int) async throws -> [Figure] {
    let arguments = try NullSinkSpec.speaker(
      name: BenchmarkSession.newSink, description: "Bench new"
    ).moduleArguments()
    let goal = session.streamsGoal(
      on: BenchmarkSession.newSink, default: BenchmarkSession.newSink)
    var done = Samples()
    var loadAck = Samples()
    for _ in 0..<repetitions {
      try await session.reset()
      try await session.observer.arm(goal)
      let start = ContinuousClock.now
      let module = try await session.connection.loadModule(
        "module-null-sink", arguments: arguments)
      loadAck.append(.now - start)
      let seen = try await session.observer.wait(until: start + timeout)
      if let seen {
        done.append(seen - start)
      } else {
        done.timeouts += 1
      }
      try await session.connection.unloadModule(module)
      if done.count == 0 && done.timeouts >= Self.triesBeforeGivingUp {
        break
      }
    }
    try await session.reset()
    let streams = session.streamIndexes.count
    return [
      Figure(
        server: session.kind, kind: .switchOnConnect, streams: streams,
        samples: done),
      Figure(
        server: session.kind, kind: .switchOnConnectLoadAck, streams: streams,
        samples: loadAck),
    ]
  }
}
