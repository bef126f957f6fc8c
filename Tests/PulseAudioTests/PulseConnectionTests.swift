// The typed client against real servers: a private PulseAudio daemon and a
// private PipeWire + WirePlumber + pipewire-pulse stack, each test on its
// own server.

import ConcurrencyHelpers
import Foundation
import PulseAudio
import SoundServerModel
import TestSupport
import Testing

/// Starts a server with a speaker and a Bluetooth-like headphone sink and
/// connects to it.
func startServerAndConnect(
  _ kind: SoundServerKind,
  operationTimeout: Duration = .seconds(5)
) async throws -> (SoundServer, PulseConnection) {
  let server = try await SoundServer.start(
    kind,
    sinks: [
      .speaker(name: "speaker", description: "Built-in Speaker"),
      .bluetoothHeadphones(
        name: "buds", address: "AA:BB:CC:DD:EE:FF",
        description: "Studio Buds", formFactor: "headphone",
        deviceAPI: kind.bluetoothDeviceAPI),
    ])
  let connection = try await PulseConnection.connect(
    .init(server: server.serverAddress, operationTimeout: operationTimeout))
  return (server, connection)
}

/// Polls until a condition holds, or fails the test after a deadline,
/// saying what was awaited, how often it was checked and the last error.
///
/// The deadline only finds a server that stopped: under
/// `scripts/test-under-load`, with every suite's servers sharing two busy
/// cores, pipewire-pulse has been seen to take more than 5 s to tell a
/// client that the default changed.
func eventually(
  _ what: String, within limit: Duration = .seconds(60),
  _ condition: () async throws -> Bool
) async throws {
  do {
    try await waitUntil(what, within: limit, condition)
  } catch let error as FixtureError {
    Issue.record("\(error.message)")
  }
}

@Suite("PulseConnection on real servers")
struct PulseConnectionTests {
  @Test(arguments: SoundServerKind.allCases)
  func propertiesReadBackExactly(_ kind: SoundServerKind) async throws {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    let info = try await connection.serverInfo()
    #expect(info.isPipeWire == (kind == .pipeWire))
    #expect(info.defaultSinkName == "speaker")

    let sinks = try await connection.sinks()
    #expect(Set(sinks.map(\.name)).isSuperset(of: ["speaker", "buds"]))
    let buds = try #require(sinks.first { $0.name == "buds" })
    #expect(buds.description == "Studio Buds")
    #expect(buds.properties["device.bus"] == "bluetooth")
    #expect(buds.properties["device.api"] == kind.bluetoothDeviceAPI)
    #expect(buds.properties["device.string"] == "AA:BB:CC:DD:EE:FF")
    #expect(buds.properties["api.bluez5.address"] == "AA:BB:CC:DD:EE:FF")
    #expect(buds.properties["device.form_factor"] == "headphone")
    #expect(buds.properties["device.description"] == "Studio Buds")
    #expect(try await connection.sink(named: "buds") == buds)

    // The same values that pactl, an independent client, reports.
    let observed = try #require(
      try await server.sinks().first { $0.name == "buds" })
    for (key, value) in observed.properties {
      #expect(buds.properties[key] == value, "\(key)")
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func setDefaultSink(_ kind: SoundServerKind) async throws {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    try await connection.setDefaultSink("buds")
    // Asked through a new client each time: pipewire-pulse 0.3.65 now and
    // then keeps telling a connection it already has the old default.
    try await eventually("the default to become buds") {
      try await server.defaultSinkName() == "buds"
    }
    await #expect(throws: PulseError.noSuchEntity) {
      try await connection.setDefaultSink("no-such-sink")
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func moveManyStreamsPipelined(_ kind: SoundServerKind) async throws {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    let streams = try await server.startStreams(10, on: "speaker")
    defer { streams.forEach { $0.stop() } }
    let speaker = try await connection.sink(named: "speaker")
    let buds = try await connection.sink(named: "buds")
    let inputs = try await connection.sinkInputs()
      .filter { $0.sinkIndex == speaker.index }
    #expect(inputs.count == 10)
    #expect(Set(inputs.compactMap(\.clientName)).count == 10)

    let results = await connection.moveSinkInputs(
      inputs.map(\.index), toSinkNamed: "buds")
    #expect(results.count == 10)
    for result in results { #expect(throws: Never.self) { try result.get() } }
    try await eventually("every stream on buds") {
      try await connection.sinkInputs().filter { $0.sinkIndex == buds.index }
        .count == 10
    }

    // A stream that does not exist fails alone.
    let mixed = await connection.moveSinkInputs(
      [inputs[0].index, 999_999], toSinkNamed: "speaker")
    #expect(throws: Never.self) { try mixed[0].get() }
    #expect(throws: PulseError.noSuchEntity) { try mixed[1].get() }
  }

  @Test(arguments: SoundServerKind.allCases)
  func eventsArriveForSinksAndStreams(_ kind: SoundServerKind) async throws {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    let recorder = EventRecorder(connection.events)

    let module = try await connection.loadModule(
      "module-null-sink", arguments: "sink_name=extra")
    let extra = try await connection.sink(named: "extra")
    try await recorder.wait(
      for: .init(facility: .sink, kind: .new, index: extra.index))

    // PipeWire 1.4 neither mutes a null sink made through pipewire-pulse
    // nor changes its volume (`pactl set-sink-mute extra 1` leaves `Mute:
    // no`, and no event comes); accessoryd mutes streams, never sinks.
    let info = try await connection.serverInfo()
    if !info.isPipeWire || info.serverName.contains("PipeWire 0.") {
      try await connection.setSinkMute(sinkNamed: "extra", muted: true)
      try await recorder.wait(
        for: .init(facility: .sink, kind: .change, index: extra.index))
      #expect(try await connection.sink(named: "extra").isMuted)
    }

    let streams = try await server.startStreams(1, on: "speaker")
    defer { streams.forEach { $0.stop() } }
    let input = try #require(try await connection.sinkInputs().first)
    try await connection.moveSinkInput(input.index, toSinkNamed: "extra")
    try await recorder.wait(
      for: .init(facility: .sinkInput, kind: .change, index: input.index))

    try await connection.moveSinkInput(input.index, toSinkNamed: "speaker")
    try await connection.unloadModule(module)
    try await recorder.wait(
      for: .init(facility: .sink, kind: .remove, index: extra.index))

    try await connection.setDefaultSink("buds")
    try await eventually("the default to become buds") {
      try await server.defaultSinkName() == "buds"
    }
    if kind == .pipeWire {
      // pipewire-pulse 0.3.65 now and then tells a connection nothing of a
      // default its own request changed (seen under ThreadSanitizer on a
      // busy machine, and with both cores busy, several changes in a
      // row). A change another client makes (pactl, as the person's own
      // mixer would) it tells its subscribers.
      var next = "speaker"
      for _ in 0..<4 {
        if await recorder.sees(
          facility: .server, kind: .change, within: .seconds(5))
        {
          break
        }
        _ = try await server.pactl(["set-default-sink", next])
        next = next == "speaker" ? "buds" : "speaker"
      }
    }
    if info.isPipeWire, info.serverName.contains("PipeWire 0.") {
      // About 1 run in 10, pipewire-pulse 0.3.65 tells this connection of
      // no default change at all, its own or pactl's, for the rest of the
      // run (seen with CI=true alone and beside busy loops). accessoryd
      // does not rely on it: it asks again for the defaults when PipeWire
      // shows a stale one (RouterTests, personsMoveOffTheDefaultIsChecked).
      // What it relies on is checked on every run: the connection's own
      // answer is the default pactl sees.
      if !(await recorder.sees(
        facility: .server, kind: .change, within: .seconds(10)))
      {
        print("pipewire-pulse told this connection of no default change")
      }
      try await eventually("the connection's default to be pactl's") {
        try await connection.serverInfo().defaultSinkName
          == server.defaultSinkName()
      }
    } else {
      try await recorder.waitForAny(facility: .server, kind: .change)
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func serverDeathFailsTheOperationAndEndsTheConnection(
    _ kind: SoundServerKind
  ) async throws {
    // The operation's own timeout is far beyond the kill, which a loaded
    // machine (killing a stopped server in a Debian 13 root) may take
    // seconds to carry out: the failure must be the connection's.
    let (server, connection) = try await startServerAndConnect(
      kind, operationTimeout: .seconds(30))
    defer { server.stop() }
    let states = StateRecorder(connection.states)
    let pid = try #require(server.pulseProtocolServerPID)

    // Freeze the server so the operation is surely in flight, then kill it.
    kill(pid, SIGSTOP)
    async let pending: Result<[Sink], PulseError> = {
      do throws(PulseError) {
        return .success(try await connection.sinks())
      } catch {
        return .failure(error)
      }
    }()
    try await Task.sleep(for: .milliseconds(100))
    await server.kill()
    let result = await pending
    #expect(throws: PulseError.self) { try result.get() }
    // It failed because the connection broke, not by its timeout.
    if case .failure(let error) = result {
      #expect(error.meansConnectionLost, "\(error)")
    }
    let finalStates = await states.finished()
    #expect(finalStates.last == .terminated)
    #expect(
      finalStates.contains { if case .failed = $0 { true } else { false } })

    // Later operations fail at once; a new client connects after a restart.
    await #expect(throws: PulseError.self) { try await connection.serverInfo() }
    try await server.restart()
    let again = try await PulseConnection.connect(
      .init(server: server.serverAddress))
    #expect(try await again.sinks().contains { $0.name == "buds" })
  }

  @Test(arguments: SoundServerKind.allCases)
  func aServerThatStopsAnsweringTimesOut(_ kind: SoundServerKind) async throws {
    let (server, connection) = try await startServerAndConnect(
      kind, operationTimeout: .milliseconds(300))
    defer { server.stop() }
    let pid = try #require(server.pulseProtocolServerPID)
    kill(pid, SIGSTOP)
    defer { kill(pid, SIGCONT) }
    await #expect(throws: PulseError.timeout) {
      try await connection.serverInfo()
    }
    let results = await connection.moveSinkInputs([1, 2, 3], toSinkNamed: "x")
    for result in results {
      #expect(throws: PulseError.timeout) { try result.get() }
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func sourcesCaptureStreamsAndTheDefaultSource(
    _ kind: SoundServerKind
  ) async throws {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    // A microphone of its own: PulseAudio's null source; on PipeWire a
    // null sink made a virtual source.
    switch kind {
    case .pulseAudio:
      _ = try await server.pactl([
        "load-module", "module-null-source", "source_name=microphone",
        "description=Microphone",
      ])
    case .pipeWire:
      _ = try await server.pactl([
        "load-module", "module-null-sink", "media.class=Audio/Source/Virtual",
        "sink_name=microphone", "channel_map=front-left,front-right",
      ])
    }
    var sources: [Source] = []
    try await eventually("the microphone to be listed") {
      sources = try await connection.sources()
      return sources.contains { $0.name == "microphone" }
    }
    let microphone = try #require(sources.first { $0.name == "microphone" })
    #expect(!microphone.isMonitor)
    let speaker = try await connection.sink(named: "speaker")
    let monitor = try #require(
      sources.first { $0.monitorOfSinkIndex == speaker.index },
      "no monitor of the speaker among \(sources.map(\.name))")
    #expect(monitor.isMonitor)

    let call = try await server.startRecording(
      from: "microphone", properties: ["media.role": "phone"])
    defer { call.stop() }
    var outputs: [SourceOutput] = []
    // Running: pipewire-pulse lists a recording corked until its node
    // starts, which a loaded machine delays.
    try await eventually("the call's recording running on the microphone") {
      outputs = try await connection.sourceOutputs()
      return outputs.contains {
        $0.applicationName == call.clientName
          && $0.sourceIndex == microphone.index && !$0.isCorked
      }
    }
    let recording = try #require(
      outputs.first { $0.applicationName == call.clientName })
    #expect(recording.mediaRole == "phone")
    #expect(!recording.isPeakMeter)

    try await connection.setDefaultSource("microphone")
    // Asked through a new client each time, as for the default sink:
    // pipewire-pulse 0.3.65 now and then keeps telling a connection it
    // already has the old default.
    try await eventually("the default source to become the microphone") {
      try await server.defaultSourceName() == "microphone"
    }
    await #expect(throws: PulseError.noSuchEntity) {
      try await connection.setDefaultSource("no-such-source")
    }
  }

  @Test func connectingToNothingFails() async throws {
    let directory = FileManager.default.temporaryDirectory.path
    await #expect(throws: PulseError.self) {
      try await PulseConnection.connect(
        .init(server: "unix:\(directory)/no-such-socket-\(getpid())"))
    }
    await #expect(throws: PulseError.self) {
      try await PulseConnection.connect(.init(server: "not a server ::"))
    }
  }

  @Test(arguments: SoundServerKind.allCases)
  func closingEndsStreamsAndFailsLaterOperations(
    _ kind: SoundServerKind
  )
    async throws
  {
    let (server, connection) = try await startServerAndConnect(kind)
    defer { server.stop() }
    let states = StateRecorder(connection.states)
    connection.close()
    #expect(await states.finished().last == .terminated)
    await #expect(throws: PulseError.connectionTerminated) {
      try await connection.sinks()
    }
  }
}

/// Collects server events in the background so a test can wait for one.
final class EventRecorder: Sendable {
  private final class Seen: Sendable {
    let events = Mutex<[ServerEvent]>([])
  }
  private let seen = Seen()
  private let task: Task<Void, Never>

  init(_ events: AsyncStream<ServerEvent>) {
    let seen = self.seen
    task = Task {
      for await event in events { seen.events.withLock { $0.append(event) } }
    }
  }

  deinit { task.cancel() }

  func wait(for event: ServerEvent) async throws {
    try await eventually("event \(event)") {
      seen.events.withLock { $0.contains(event) }
    }
  }

  /// Whether an event of this facility and kind has arrived.
  func hasAny(facility: ServerEvent.Facility, kind: ServerEvent.Kind) -> Bool {
    seen.events.withLock {
      $0.contains { $0.facility == facility && $0.kind == kind }
    }
  }

  /// Whether an event of this facility and kind arrives within a limit.
  func sees(
    facility: ServerEvent.Facility, kind: ServerEvent.Kind,
    within limit: Duration
  ) async -> Bool {
    (try? await waitUntil("a \(facility) \(kind) event", within: limit) {
      hasAny(facility: facility, kind: kind)
    }) != nil
  }

  func waitForAny(
    facility: ServerEvent.Facility, kind: ServerEvent.Kind
  ) async throws {
    try await eventually("a \(facility) \(kind) event") {
      seen.events.withLock {
        $0.contains { $0.facility == facility && $0.kind == kind }
      }
    }
  }
}

/// Collects connection states until the stream ends.
final class StateRecorder: Sendable {
  private let task: Task<[ConnectionState], Never>

  init(_ states: AsyncStream<ConnectionState>) {
    task = Task {
      var all: [ConnectionState] = []
      for await state in states { all.append(state) }
      return all
    }
  }

  func finished() async -> [ConnectionState] { await task.value }
}
