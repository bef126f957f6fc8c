import PulseAudio
import SoundServerModel
import TestSupport

/// One private server with what every measurement shares: a connection that
/// issues commands, the observer on a connection of its own, and the playing
/// streams.
public final class BenchmarkServer {
  /// The kind of server.
  public let kind: SoundServerKind
  /// The running server.
  public let server: SoundServer
  /// The connection that issues the measured operations and the resets.
  public let connection: PulseConnection
  /// The independent observer, on a connection of its own.
  public let observer: ServerObserver
  /// The server's identity, read at start.
  public let info: ServerInfo
  /// The sink input index of each stream, in start order.
  public private(set) var streamIndexes: [UInt32] = []
  private let observerConnection: PulseConnection
  private let eventDrain: Task<Void, Never>

  private init(
    kind: SoundServerKind, server: SoundServer, connection: PulseConnection,
    observerConnection: PulseConnection, observer: ServerObserver,
    info: ServerInfo
  ) {
    self.kind = kind
    self.server = server
    self.connection = connection
    self.observerConnection = observerConnection
    self.observer = observer
    self.info = info
    // The measuring connection is subscribed too; drain its events so they
    // do not pile up in memory.
    let events = connection.events
    eventDrain = Task { for await _ in events {} }
  }

  /// Starts a private server with the sinks and connects to it twice: once
  /// to issue commands and once for the observer.
  ///
  /// - Parameters:
  ///   - sinks: The sinks to create at start.
  ///   - defaultSink: The sink to make the default.
  ///   - switchOnConnect: Whether to load `module-switch-on-connect
  ///     ignore_virtual=no`.
  ///   - applicationNames: The client names of the command connection and
  ///     of the observer's.
  /// - Throws: If the server does not start or a connection fails; nothing
  ///   is left running then.
  public static func open(
    _ kind: SoundServerKind, sinks: [NullSinkSpec], defaultSink: String,
    switchOnConnect: Bool,
    applicationNames: (command: String, observer: String)
  ) async throws -> BenchmarkServer {
    let server = try await SoundServer.start(
      kind, sinks: sinks, defaultSink: defaultSink,
      loadSwitchOnConnect: switchOnConnect)
    var connections: [PulseConnection] = []
    do {
      for name in [applicationNames.command, applicationNames.observer] {
        connections.append(
          try await PulseConnection.connect(
            .init(server: server.serverAddress, applicationName: name)))
      }
      let observer = await ServerObserver.start(connection: connections[1])
      return BenchmarkServer(
        kind: kind, server: server, connection: connections[0],
        observerConnection: connections[1], observer: observer,
        info: try await connections[0].serverInfo())
    } catch {
      connections.forEach { $0.close() }
      server.stop()
      throw error
    }
  }

  /// Closes the connections and stops the streams and the server.
  public func close() async {
    await observer.stop()
    eventDrain.cancel()
    connection.close()
    observerConnection.close()
    server.stop()
  }

  // MARK: - Streams

  /// Starts more streams on the default sink until there are `count`.
  public func growStreams(to count: Int) async throws {
    guard count > streamIndexes.count else { return }
    let started = try await server.startStreams(count - streamIndexes.count)
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

  /// Moves every stream to a sink, pipelined, and throws if one move
  /// fails.
  public func moveAll(to sink: String) async throws {
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
}
