import BenchmarkSupport
import PulseAudio
import SoundServerModel
import TestSupport

/// One private server with what every scenario shares: the measuring
/// connection, the observer with its own connection, and the playing
/// streams.
///
/// Streams start on `bench_a`, the default, and only grow in number, so
/// the scenarios for 1, 10 and 50 streams run on the same streams.
final class BenchmarkSession {
  static let sinkA = "bench_a"
  static let sinkB = "bench_b"
  /// The sink that the switch-on-connect scenario loads and unloads.
  static let newSink = "bench_new"

  /// The server, its connections, observer and streams.
  let base: BenchmarkServer
  let settleInterval: Duration

  var kind: SoundServerKind { base.kind }
  var server: SoundServer { base.server }
  /// The connection that issues the measured operations.
  var connection: PulseConnection { base.connection }
  var observer: ServerObserver { base.observer }
  /// The server's identity, read at start.
  var info: ServerInfo { base.info }
  /// The sink input index of each stream, in start order.
  var streamIndexes: [UInt32] { base.streamIndexes }

  private init(base: BenchmarkServer, settleInterval: Duration) {
    self.base = base
    self.settleInterval = settleInterval
  }

  /// Starts a private server with `bench_a` (the default) and `bench_b`,
  /// and `module-switch-on-connect ignore_virtual=no`, and connects to it.
  ///
  /// - Throws: If the server does not start or a connection fails; nothing
  ///   is left running then.
  static func open(
    _ kind: SoundServerKind, settleInterval: Duration
  ) async throws -> BenchmarkSession {
    let base = try await BenchmarkServer.open(
      kind,
      sinks: [
        .speaker(name: sinkA, description: "Bench A"),
        .speaker(name: sinkB, description: "Bench B"),
      ],
      defaultSink: sinkA, switchOnConnect: true,
      applicationNames: ("pulse-benchmark", "pulse-benchmark-observer"))
    return BenchmarkSession(base: base, settleInterval: settleInterval)
  }

  /// Closes the connections and stops the streams and the server.
  func close() async {
    await base.close()
  }

  // MARK: - Streams

  /// Starts more streams on the default sink until there are `count`.
  func growStreams(to count: Int) async throws {
    try await base.growStreams(to: count)
  }

  /// The goal that every stream plays on a sink.
  func streamsGoal(on sink: String, default defaultSink: String? = nil) -> Goal
  {
    Goal(defaultSink: defaultSink, streamsSink: sink, streams: streamIndexes)
  }

  // MARK: - Between measurements

  /// Returns to the starting point: `bench_a` is the default, `bench_new` is
  /// gone, and every stream plays on `bench_a` following the default, as
  /// switch-on-connect needs.
  ///
  /// An explicit move to a sink other than the default pins a stream there;
  /// a move to the current default unpins it, but only if the stream is not
  /// on that sink already (PulseAudio ignores a move to the stream's own
  /// sink). So the streams go to `bench_b` and back.
  func reset() async throws {
    try await connection.setDefaultSink(Self.sinkA)
    try await observer.reach(
      Goal(defaultSink: Self.sinkA, absentSink: Self.newSink))
    try await moveAll(to: Self.sinkB)
    try await observer.reach(streamsGoal(on: Self.sinkB))
    try await moveAll(to: Self.sinkA)
    try await settle(at: streamsGoal(on: Self.sinkA, default: Self.sinkA))
  }

  /// Moves every stream to a sink, pipelined, and throws if one move
  /// fails.
  func moveAll(to sink: String) async throws {
    try await base.moveAll(to: sink)
  }

  /// Waits, untimed, until the observer sees a goal, then lets the server
  /// calm down for ``settleInterval``.
  func settle(at goal: Goal) async throws {
    try await observer.reach(goal)
    try await Task.sleep(for: settleInterval)
  }

  /// The sink a repetition moves to: `bench_b` first, then back.
  static func target(ofRepetition repetition: Int) -> String {
    repetition.isMultiple(of: 2) ? sinkB : sinkA
  }
}
