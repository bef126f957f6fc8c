import PulseAudio
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

  let kind: SoundServerKind
  let server: SoundServer
  /// The connection that issues the measured operations.
  let connection: PulseConnection
  let observer: ServerObserver
  /// The server's identity, read at start.
  let info: ServerInfo
  let settleInterval: Duration
  /// The sink input index of each stream, in start order.
  private(set) var streamIndexes: [UInt32] = []
  private let observerConnection: PulseConnection
  private let eventDrain: Task<Void, Never>

  private init(
    kind: SoundServerKind, server: SoundServer, connection: PulseConnection,
    observerConnection: PulseConnection, observer: ServerObserver,
    info: ServerInfo, settleInterval: Duration
  ) {
    self.kind = kind
    self.server = server
    self.connection = connection
    self.observerConnection = observerConnection
    self.observer = observer
    self.info = info
    self.settleInterval = settleInterval
    // The measuring connection is subscribed too; drain its events so they
    // do not pile up in memory.
    let events = connection.events
    eventDrain = Task { for await _ in events {} }
  }

  /// Starts a private server with `bench_a` (the default) and `bench_b`,
  /// and `module-switch-on-connect ignore_virtual=no`, and connects to it.
  ///
  /// - Throws: If the server does not start or a connection fails; nothing
  ///   is left running then.
  static func open(
    _ kind: SoundServerKind, settleInterval: Duration
  ) async throws -> BenchmarkSession {
    let server = try await SoundServer.start(
      kind,
      sinks: [
        .speaker(name: sinkA, description: "Bench A"),
        .speaker(name: sinkB, description: "Bench B"),
      ],
      defaultSink: sinkA, loadSwitchOnConnect: true)
    do {
      let connection = try await PulseConnection.connect(
        .init(server: server.serverAddress, applicationName: "pulse-benchmark"))
      let observerConnection: PulseConnection
      do {
        observerConnection = try await PulseConnection.connect(
          .init(
            server: server.serverAddress,
            applicationName: "pulse-benchmark-observer"))
      } catch {
        connection.close()
        throw error
      }
      let observer = await ServerObserver.start(connection: observerConnection)
      let session = BenchmarkSession(
        kind: kind, server: server, connection: connection,
        observerConnection: observerConnection, observer: observer,
        info: try await connection.serverInfo(), settleInterval: settleInterval
      )
      return session
    } catch {
      server.stop()
      throw error
    }
  }

  /// Closes the connections and stops the streams and the server.
  func close() async {
    await observer.stop()
    eventDrain.cancel()
    connection.close()
    observerConnection.close()
    server.stop()
  }

  // MARK: - Streams

  /// Starts more streams on the default sink until there are `count`.
  func growStreams(to count: Int) async throws {
    guard count > streamIndexes.count else { return }
    let started = try server.startStreams(count - streamIndexes.count)
    let inputs = try await connection.sinkInputs()
    for stream in started {
      guard
        let input = inputs.first(where: {
          ($0.clientName ?? $0.applicationName) == stream.clientName
        })
      else {
        throw BenchmarkError("no sink input for \(stream.clientName)")
      }
      streamIndexes.append(input.index)
    }
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
    let results = await connection.moveSinkInputs(
      streamIndexes, toSinkNamed: sink)
    for (index, result) in zip(streamIndexes, results) {
      do {
        try result.get()
      } catch {
        throw BenchmarkError("moving sink input \(index) to \(sink): \(error)")
      }
    }
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
