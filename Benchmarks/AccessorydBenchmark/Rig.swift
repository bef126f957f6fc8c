import BenchmarkSupport
import PulseAudio
import SoundServerModel
import TestSupport

/// One private server with what the measurements share: a control
/// connection for the references' commands, the observer on a connection
/// of its own, and the playing streams.
final class Rig {
  static let speaker = "bench_speaker"
  static let headphones = "bench_buds"
  /// The sink that the switch-on-connect reference loads and unloads.
  static let newSink = "bench_new"
  static let headphonesAddress = "AA:BB:CC:DD:EE:01"

  /// The server, its connections, observer and streams.
  let base: BenchmarkServer

  var kind: SoundServerKind { base.kind }
  var server: SoundServer { base.server }
  /// The connection that issues the references' commands and the resets.
  var control: PulseConnection { base.connection }
  var observer: ServerObserver { base.observer }
  var info: ServerInfo { base.info }
  /// The sink input index of each stream, in start order.
  var streamIndexes: [UInt32] { base.streamIndexes }

  private init(base: BenchmarkServer) {
    self.base = base
  }

  /// Starts a private server with a speaker (the default) and Bluetooth-like
  /// headphones with ``headphonesAddress`` and the server's own
  /// `device.api`, plus extra sinks, and connects to it.
  ///
  /// - Parameters:
  ///   - extraSinks: More sinks to create at start.
  ///   - switchOnConnect: Whether to load `module-switch-on-connect
  ///     ignore_virtual=no`.
  /// - Throws: If the server does not start or a connection fails; nothing
  ///   is left running then.
  static func open(
    _ kind: SoundServerKind, extraSinks: [NullSinkSpec] = [],
    switchOnConnect: Bool = false
  ) async throws -> Rig {
    let base = try await BenchmarkServer.open(
      kind,
      sinks: [
        .speaker(name: speaker, description: "Bench Speaker"),
        .bluetoothHeadphones(
          name: headphones, address: headphonesAddress,
          description: "Bench Buds", deviceAPI: kind.bluetoothDeviceAPI),
      ] + extraSinks,
      defaultSink: speaker, switchOnConnect: switchOnConnect,
      applicationNames: (
        "accessoryd-benchmark-control", "accessoryd-benchmark-observer"
      ))
    return Rig(base: base)
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

  /// The goal that every stream plays on a sink, which is the default.
  func everything(on sink: String, absent: String? = nil) -> Goal {
    Goal(
      defaultSink: sink, streamsSink: sink, streams: streamIndexes,
      absentSink: absent)
  }

  // MARK: - Resets for the references

  /// Returns to the starting point without the daemon: the speaker is the
  /// default, ``newSink`` is gone, and every stream plays on the speaker
  /// following the default.
  ///
  /// An explicit move to a sink other than the default pins a stream; a
  /// move to the current default unpins it, unless the stream is on that
  /// sink already. So the streams go to the headphones and back.
  func reset() async throws {
    try await control.setDefaultSink(Self.speaker)
    try await observer.reach(
      Goal(defaultSink: Self.speaker, absentSink: Self.newSink))
    try await moveAll(to: Self.headphones)
    try await observer.reach(
      Goal(streamsSink: Self.headphones, streams: streamIndexes))
    try await moveAll(to: Self.speaker)
    try await observer.reach(everything(on: Self.speaker, absent: Self.newSink))
  }

  /// Times `module-switch-on-connect`.
  ///
  /// With every stream on the speaker following the default, it loads a
  /// new null sink and times until the observer sees it the default with
  /// every stream on it; then unloads it. The first time is a warm-up,
  /// not recorded.
  ///
  /// - Parameters:
  ///   - repetitions: How many times to record.
  ///   - settle: How long the server settles after each reset.
  ///   - limit: How long to wait for the switch.
  /// - Returns: Load to seen, and load to its acknowledgement.
  func switchOnConnect(
    repetitions: Int, settle: Duration, within limit: Duration
  ) async throws -> (done: Samples, loadAck: Samples) {
    let arguments = try NullSinkSpec.speaker(
      name: Self.newSink, description: "Bench New"
    ).moduleArguments()
    let goal = everything(on: Self.newSink)
    var done = Samples()
    var loadAck = Samples()
    for repetition in 0...repetitions {
      try await reset()
      try await Task.sleep(for: settle)
      try await observer.arm(goal)
      let start = ContinuousClock.now
      let module = try await control.loadModule(
        "module-null-sink", arguments: arguments)
      let acknowledged = ContinuousClock.now
      let seen = try await observer.wait(until: start + limit)
      if repetition > 0 {
        loadAck.append(acknowledged - start)
        if let seen {
          done.append(seen - start)
        } else {
          done.timeouts += 1
        }
      }
      try await control.unloadModule(module)
      if done.count == 0 && done.timeouts >= 3 { break }
    }
    try await reset()
    return (done, loadAck)
  }

  /// Moves every stream to a sink, pipelined.
  func moveAll(to sink: String) async throws {
    try await base.moveAll(to: sink)
  }
}
