// PulseConnection.apply against real servers: a private PulseAudio daemon
// and a private PipeWire stack, each test on its own server. Changes are
// confirmed from a second connection, never from the acknowledgements.

import Foundation
import PulseAudio
import SoundServerModel
import TestSupport
import Testing

@Suite("PulseConnection.apply on real servers")
struct PulseConnectionBatchTests {
  /// Starts a server with two sinks, `speaker` (the default) and `buds`,
  /// and connects a commanding and an observing client to it.
  private static func start(
    _ kind: SoundServerKind, operationTimeout: Duration = .seconds(5)
  ) async throws -> (SoundServer, PulseConnection, PulseConnection) {
    let server = try await SoundServer.start(
      kind,
      sinks: [
        .speaker(name: "speaker", description: "Built-in Speaker"),
        .bluetoothHeadphones(
          name: "buds", address: "AA:BB:CC:DD:EE:FF",
          description: "Studio Buds", deviceAPI: kind.bluetoothDeviceAPI),
      ])
    let options = PulseConnection.Options(
      server: server.serverAddress, operationTimeout: operationTimeout)
    let commander = try await PulseConnection.connect(options)
    let observer = try await PulseConnection.connect(options)
    return (server, commander, observer)
  }

  /// Waits until a condition holds, rechecking after each of the
  /// observer's events and every 100 ms (PipeWire now and then does not
  /// tell an existing connection about a change); fails the test after
  /// the deadline, with what the observer shows and, given the server,
  /// the default a new client sees.
  ///
  /// The deadline only finds a server that stopped: with the whole suite
  /// on two cores, a check that asks a new client (pactl) took long
  /// enough that one wait of 10 s ended with everything in place.
  private static func waitUntil(
    _ what: String, on observer: PulseConnection,
    server: SoundServer? = nil, within limit: Duration = .seconds(60),
    _ condition: @escaping @Sendable () async throws -> Bool
  ) async throws {
    let events = observer.events
    let satisfied = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        if try await condition() { return true }
        for await _ in events {
          if try await condition() { return true }
        }
        return false
      }
      group.addTask {
        while !Task.isCancelled {
          try await Task.sleep(for: .milliseconds(100))
          if try await condition() { return true }
        }
        return false
      }
      group.addTask {
        try await Task.sleep(for: limit)
        return false
      }
      let first = try await group.next() ?? false
      group.cancelAll()
      return first
    }
    guard !satisfied else { return }
    let info = try? await observer.serverInfo()
    let sinks: String =
      if let inputs = try? await observer.sinkInputs() {
        "\(inputs.map(\.sinkIndex))"
      } else { "unknown" }
    var message =
      "timed out after \(limit) waiting for \(what); the observer shows the "
      + "default \(info?.defaultSinkName ?? "unknown") and streams on sinks "
      + sinks
    if let server {
      let seen = try? await server.defaultSinkName()
      message += "; a new client sees the default \(seen ?? "unknown")"
    }
    Issue.record("\(message)")
  }

  /// Waits until the server shows `buds` the default, to a new client
  /// (pipewire-pulse 0.3.65 now and then keeps showing an existing
  /// connection the old default), and the observer every stream on it.
  private static func waitForEverythingOnBuds(
    _ observer: PulseConnection, server: SoundServer
  ) async throws {
    let buds = try await observer.sink(named: "buds")
    try await waitUntil(
      "default buds, every stream on buds", on: observer, server: server
    ) {
      let inputs = try await observer.sinkInputs()
      return try await server.defaultSinkName() == "buds"
        && inputs.allSatisfy { $0.sinkIndex == buds.index }
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func defaultAndMovesGoOutInOneRound(_ kind: SoundServerKind) async throws {
    let (server, commander, observer) = try await Self.start(kind)
    defer { server.stop() }
    let streams = try await server.startStreams(3)
    defer { streams.forEach { $0.stop() } }
    let inputs = try await observer.sinkInputs()
    #expect(inputs.count == 3)

    let batch = ServerBatch(
      defaultSink: "buds",
      moves: inputs.map { .init(sinkInput: $0.index, sink: "buds") })
    #expect(batch.operationCount == 4)
    let result = await commander.apply(batch)
    #expect(result.cardProfiles.isEmpty)
    #expect(throws: Never.self) { try result.defaultSink?.get() }
    #expect(result.moves.count == 3)
    #expect(result.succeeded)
    #expect(result.all.count == 4)
    #expect(throws: Never.self) { try result.get() }

    try await Self.waitForEverythingOnBuds(observer, server: server)
    #expect(try await server.defaultSinkName() == "buds")
    #expect(try await server.sinkInputs().allSatisfy { $0.sinkName == "buds" })
  }

  @Test(arguments: SoundServerKind.allCases)
  func mutesGoOutAfterTheMoves(_ kind: SoundServerKind) async throws {
    let (server, commander, observer) = try await Self.start(kind)
    defer { server.stop() }
    let streams = try await server.startStreams(2, on: "speaker")
    defer { streams.forEach { $0.stop() } }
    let inputs = try await observer.sinkInputs()
    #expect(inputs.count == 2)
    let muted = try #require(inputs.first)

    let result = await commander.apply(
      ServerBatch(
        moves: inputs.map { .init(sinkInput: $0.index, sink: "buds") },
        mutes: [
          .init(sinkInput: muted.index, muted: true),
          .init(sinkInput: 999_999, muted: true),
        ]))
    #expect(result.moves.count == 2)
    #expect(result.mutes.count == 2)
    #expect(throws: Never.self) { try result.mutes[0].get() }
    #expect(throws: SoundServerError.self) { try result.mutes[1].get() }
    #expect(result.all.count == 4)
    let buds = try await observer.sink(named: "buds")
    try await Self.waitUntil("one stream muted, both on buds", on: observer) {
      let now = try await observer.sinkInputs()
      return now.allSatisfy { $0.sinkIndex == buds.index }
        && now.filter(\.isMuted).map(\.index) == [muted.index]
    }
    _ = await commander.apply(
      ServerBatch(mutes: [.init(sinkInput: muted.index, muted: false)]))
    try await Self.waitUntil("no stream muted", on: observer) {
      try await observer.sinkInputs().allSatisfy { !$0.isMuted }
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func eachOperationSucceedsOrFailsAlone(
    _ kind: SoundServerKind
  ) async throws {
    let (server, commander, observer) = try await Self.start(kind)
    defer { server.stop() }
    let streams = try await server.startStreams(1, on: "speaker")
    defer { streams.forEach { $0.stop() } }
    let input = try #require(try await observer.sinkInputs().first)

    let result = await commander.apply(
      ServerBatch(
        cardProfiles: [.init(cardName: "no-such-card", profileName: "off")],
        defaultSink: "no-such-sink",
        moves: [
          .init(sinkInput: input.index, sink: "buds"),
          .init(sinkInput: 999_999, sink: "buds"),
          .init(sinkInput: input.index, sink: "no-such-sink"),
        ]))
    #expect(result.cardProfiles.count == 1)
    #expect(throws: SoundServerError.noSuchEntity) {
      try result.cardProfiles[0].get()
    }
    #expect(throws: SoundServerError.noSuchEntity) {
      try result.defaultSink?.get()
    }
    #expect(throws: Never.self) { try result.moves[0].get() }
    #expect(throws: SoundServerError.noSuchEntity) { try result.moves[1].get() }
    #expect(throws: SoundServerError.noSuchEntity) { try result.moves[2].get() }
    #expect(result.errors.count == 4)
    #expect(!result.succeeded)
    #expect(throws: SoundServerError.self) { try result.get() }

    let buds = try await observer.sink(named: "buds")
    try await Self.waitUntil("the stream on buds", on: observer) {
      try await observer.sinkInputs().first?.sinkIndex == buds.index
    }
    #expect(try await server.defaultSinkName() == "speaker")
  }

  @Test(arguments: SoundServerKind.allCases)
  func operationsAreInFlightTogether(_ kind: SoundServerKind) async throws {
    let timeout = Duration.milliseconds(400)
    let (server, commander, _) = try await Self.start(
      kind, operationTimeout: timeout)
    defer { server.stop() }
    let pid = try #require(server.pulseProtocolServerPID)
    // A frozen server answers nothing: every operation of the batch was
    // sent and is still waiting when the batch's one timeout fires.
    kill(pid, SIGSTOP)
    defer { kill(pid, SIGCONT) }
    let result = await commander.apply(
      ServerBatch(
        cardProfiles: [.init(cardName: "card", profileName: "profile")],
        defaultSink: "buds",
        moves: [1, 2, 3].map { .init(sinkInput: $0, sink: "buds") }))
    #expect(result.all.count == 5)
    #expect(result.errors == Array(repeating: .timeout, count: 5))
  }

  @Test(arguments: SoundServerKind.allCases)
  func emptyAndClosedBatches(_ kind: SoundServerKind) async throws {
    let (server, commander, _) = try await Self.start(kind)
    defer { server.stop() }
    let empty = await commander.apply(ServerBatch())
    #expect(ServerBatch().isEmpty)
    #expect(empty.all.isEmpty)
    #expect(empty.defaultSink == nil)
    #expect(empty.succeeded)

    commander.close()
    let closed = await commander.apply(
      ServerBatch(
        defaultSink: "buds", moves: [.init(sinkInput: 1, sink: "buds")]))
    #expect(closed.errors == [.connectionTerminated, .connectionTerminated])
  }
}
