import PulseAudio
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

  let kind: SoundServerKind
  let server: SoundServer
  /// The connection that issues the references' commands and the resets.
  let control: PulseConnection
  let observer: StateObserver
  let info: ServerInfo
  /// The sink input index of each stream, in start order.
  private(set) var streamIndexes: [UInt32] = []
  private let observerConnection: PulseConnection
  private let eventDrain: Task<Void, Never>

  private init(
    kind: SoundServerKind, server: SoundServer, control: PulseConnection,
    observerConnection: PulseConnection, observer: StateObserver,
    info: ServerInfo
  ) {
    self.kind = kind
    self.server = server
    self.control = control
    self.observerConnection = observerConnection
    self.observer = observer
    self.info = info
    // The control connection is subscribed too; drain its events.
    let events = control.events
    eventDrain = Task { for await _ in events {} }
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
    let server = try await SoundServer.start(
      kind,
      sinks: [
        .speaker(name: speaker, description: "Bench Speaker"),
        .bluetoothHeadphones(
          name: headphones, address: headphonesAddress,
          description: "Bench Buds", deviceAPI: kind.bluetoothDeviceAPI),
      ] + extraSinks,
      defaultSink: speaker, loadSwitchOnConnect: switchOnConnect)
    var connections: [PulseConnection] = []
    do {
      for name in ["control", "observer"] {
        connections.append(
          try await PulseConnection.connect(
            .init(
              server: server.serverAddress,
              applicationName: "accessoryd-benchmark-\(name)")))
      }
      let observer = await StateObserver.start(connection: connections[1])
      return Rig(
        kind: kind, server: server, control: connections[0],
        observerConnection: connections[1], observer: observer,
        info: try await connections[0].serverInfo())
    } catch {
      connections.forEach { $0.close() }
      server.stop()
      throw error
    }
  }

  /// Closes the connections and stops the streams and the server.
  func close() async {
    await observer.stop()
    eventDrain.cancel()
    control.close()
    observerConnection.close()
    server.stop()
  }

  // MARK: - Streams

  /// Starts more streams on the default sink until there are `count`.
  func growStreams(to count: Int) async throws {
    guard count > streamIndexes.count else { return }
    let started = try server.startStreams(count - streamIndexes.count)
    let inputs = try await control.sinkInputs()
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

  /// Moves every stream to a sink, pipelined.
  func moveAll(to sink: String) async throws {
    let results = await control.moveSinkInputs(streamIndexes, toSinkNamed: sink)
    for (index, result) in zip(streamIndexes, results) {
      do {
        try result.get()
      } catch {
        throw BenchmarkError("moving sink input \(index) to \(sink): \(error)")
      }
    }
  }
}
