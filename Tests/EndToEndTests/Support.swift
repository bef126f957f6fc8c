// What every end-to-end test shares: a private sound server with a speaker
// and Bluetooth-like headphones, a private accessoryd on it, acctl, and
// observation loops that trust only the sound server (pactl), not the
// daemon's word.

import AccessoryControl
import Foundation
import TestSupport
import Testing

/// The Bluetooth-like headphones every test has.
let budsAddress = "AA:BB:CC:DD:EE:01"
/// The second headset, for tests with two accessories.
let phonesAddress = "AA:BB:CC:DD:EE:02"
/// This host's Bluetooth address, as the daemon is told.
let thisHost = DaemonFixture.defaultHostAddress
/// Another host, such as the person's phone.
let otherHost = "66:55:44:33:22:11"

/// The prefix of the client names of the test's playback streams.
let streamPrefix = "accessoryd-test-stream-"

/// One test's sound server and daemon.
struct Rig {
  let server: SoundServer
  let daemon: DaemonFixture

  // MARK: - acctl

  /// Runs acctl and requires it to succeed.
  @discardableResult
  func ok(
    _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> AcctlResult {
    let result = try await daemon.acctl(arguments)
    guard result.status == 0 else {
      throw RigFailure(
        "acctl failed:\n\(result)", details: await diagnostics())
    }
    return result
  }

  /// Runs acctl with `--json` and returns what it printed, decoded.
  func json(_ arguments: [String]) async throws -> JSONValue {
    let result = try await ok(arguments + ["--json"])
    return try decodeJSON(result.stdout)
  }

  /// Pairs an accessory and registers it.
  func pairAndRegister(
    _ address: String, capabilities: String = "audioSwitching,placement",
    placement: String? = "offHead", extra: [String] = []
  ) async throws {
    try await ok(["pair", address])
    var arguments = ["register", address, "--capabilities", capabilities]
    if let placement { arguments += ["--placement", placement] }
    try await ok(arguments + extra)
  }

  /// Sets an accessory's placement with acctl.
  func place(_ address: String, _ placement: String) async throws {
    try await ok(["update", address, "--placement", placement])
  }

  /// The decisions that changed the route, newest first, as
  /// `acctl route --history 100` lists them.
  func routeChanges() async throws -> [JSONValue] {
    guard
      case .array(let decisions)? = try await json(
        ["route", "--history", "100"])["decisions"]
    else { throw RigFailure("route --history --json has no decisions") }
    return decisions
  }

  // MARK: - Observing the sound server

  /// The sound server's default and where the test's streams play.
  func observe() async throws -> Observed {
    let inputs = try await server.sinkInputs().filter {
      $0.clientName?.hasPrefix(streamPrefix) ?? false
    }
    return await Observed(
      defaultSink: try server.defaultSinkName(),
      streams: inputs.map { ($0.clientName ?? "?", $0.sinkName) })
  }

  /// Polls the sound server every 50 ms until a condition holds.
  ///
  /// - Throws: ``RigFailure`` after the deadline, with the last
  ///   observation, the daemon's explanation and its log.
  func eventually(
    _ what: String, within limit: Duration = .seconds(30),
    _ condition: (Observed) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + limit
    var last: Observed?
    var lastError: (any Error)?
    while true {
      do {
        let observed = try await observe()
        if condition(observed) { return }
        last = observed
      } catch {
        lastError = error
      }
      if ContinuousClock.now >= deadline { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw RigFailure(
      "timed out after \(limit) waiting for \(what); last observed: "
        + (last.map { "\($0)" } ?? "nothing")
        + (lastError.map { "; last error: \($0)" } ?? ""),
      details: await diagnostics())
  }

  /// Polls the sound server every 50 ms for a while and requires a
  /// condition to hold each time.
  func consistently(
    _ what: String, for duration: Duration = .milliseconds(700),
    _ condition: (Observed) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + duration
    while ContinuousClock.now < deadline {
      let observed = try await observe()
      guard condition(observed) else {
        throw RigFailure(
          "expected \(what) to hold, but observed \(observed)",
          details: await diagnostics())
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  /// Waits until the default and every test stream are on a sink.
  func eventuallyRouted(
    to sink: String, streams count: Int = 3,
    within limit: Duration = .seconds(30)
  ) async throws {
    try await eventually(
      "the default and \(count) streams on \(sink)", within: limit
    ) {
      $0.isRouted(to: sink, streams: count)
    }
  }

  /// Requires the default and every test stream to stay on a sink.
  func staysRouted(
    to sink: String, streams count: Int = 3,
    for duration: Duration = .milliseconds(700)
  ) async throws {
    try await consistently(
      "the default and \(count) streams on \(sink)", for: duration
    ) {
      $0.isRouted(to: sink, streams: count)
    }
  }

  /// The daemon's explanation and the end of its log, for failures.
  func diagnostics() async -> String {
    var text = ""
    if let explain = try? await daemon.acctl(["route", "--explain"]) {
      text +=
        "--- acctl route --explain (status \(explain.status))\n"
        + explain.stdout + explain.stderr
    }
    if !daemon.isRunning {
      text +=
        "--- accessoryd is not running: "
        + (daemon.exitDescription ?? "stopped") + "\n"
    }
    return text + daemon.logTail(lines: 30)
  }
}

/// The sound server's state, as pactl reports it.
struct Observed: CustomStringConvertible {
  /// The default sink.
  var defaultSink: String?
  /// The test's streams: client name and sink.
  var streams: [(client: String, sink: String?)]

  /// Whether the default and at least `count` streams, all of them, are on
  /// a sink.
  func isRouted(to sink: String, streams count: Int) -> Bool {
    defaultSink == sink && streams.count >= count
      && streams.allSatisfy { $0.sink == sink }
  }

  var description: String {
    "default \(defaultSink ?? "none"), streams "
      + streams.map { "\($0.client)→\($0.sink ?? "none")" }.joined(
        separator: ", ")
  }
}

/// A failed expectation about the system, with what helps to see why.
struct RigFailure: Error, CustomStringConvertible {
  var message: String
  var details: String

  init(_ message: String, details: String = "") {
    self.message = message
    self.details = details
  }

  var description: String {
    details.isEmpty ? message : "\(message)\n\(details)"
  }
}

/// Decodes acctl's JSON output.
func decodeJSON(_ text: String) throws -> JSONValue {
  try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}

/// The sinks of every test: the speaker, the default; the buds; and, when
/// asked, a second headset.
func sinks(_ kind: SoundServerKind, phones: Bool) -> [NullSinkSpec] {
  var sinks: [NullSinkSpec] = [
    .speaker(name: "speaker", description: "Built-in Speaker"),
    .bluetoothHeadphones(
      name: "buds", address: budsAddress, description: "Studio Buds",
      deviceAPI: kind.bluetoothDeviceAPI),
  ]
  if phones {
    sinks.append(
      .bluetoothHeadphones(
        name: "phones", address: phonesAddress, description: "Travel Phones",
        deviceAPI: kind.bluetoothDeviceAPI))
  }
  return sinks
}

/// Starts a server with the test sinks and `streams` playback streams on
/// the speaker, then a daemon on it; runs `body`; then stops the daemon,
/// requiring a clean exit, and the server.
///
/// - Parameters:
///   - kind: The sound server.
///   - phones: Whether to add the second headset.
///   - policy: The policy text; nil for the default with a 0.3 s grace
///     time.
///   - streams: How many streams to play.
func withRig(
  _ kind: SoundServerKind, phones: Bool = false, policy: String? = nil,
  streams: Int = 3, _ body: (Rig) async throws -> Void
) async throws {
  let server = try await SoundServer.start(
    kind, sinks: sinks(kind, phones: phones))
  defer { server.stop() }
  if streams > 0 {
    _ = try await server.startStreams(streams)
  }
  let daemon = try await DaemonFixture.start(on: server, policy: policy)
  defer { daemon.shutDown() }
  let rig = Rig(server: server, daemon: daemon)
  try await body(rig)
  // A clean stop on SIGTERM: exit status 0 and the socket removed.
  let exit = await daemon.stop()
  #expect(
    exit == 0, "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())"
  )
  #expect(
    !FileManager.default.fileExists(atPath: daemon.socketPath),
    "accessoryd left its socket behind")
}

/// A Bluetooth device for BlueZ's mock: its address, its name and the
/// `org.bluez.Device1` properties to set, in order.
struct MockDevice {
  let address: String
  let name: String
  var properties: [(String, BlueZMock.PropertyValue)] = []
}

/// The A2DP sink service, as BlueZ lists it in `UUIDs`.
let a2dpSinkUUID = "0000110b-0000-1000-8000-00805f9b34fb"

/// Runs a test with BlueZ's D-Bus API (python3-dbusmock, one adapter `hci0`
/// with these devices), a sound server with the speaker and the buds, and
/// a daemon that sees both; the daemon must stop cleanly at the end.
func withBlueZRig(
  _ kind: SoundServerKind = .pulseAudio, devices: [MockDevice],
  hostAddresses: [String] = [DaemonFixture.defaultHostAddress],
  _ body: (Rig, BlueZMock) async throws -> Void
) async throws {
  let mock = try await BlueZMock.start()
  defer { mock.stop() }
  try await mock.addAdapter("hci0", systemName: "laptop")
  for device in devices {
    try await mock.addDevice(address: device.address, name: device.name)
    for (property, value) in device.properties {
      try await mock.setDeviceProperty(device.address, property, value)
    }
  }
  let server = try await SoundServer.start(
    kind, sinks: sinks(kind, phones: false))
  defer { server.stop() }
  let daemon = try await DaemonFixture.start(
    on: server, hostAddresses: hostAddresses,
    systemBusAddress: mock.busAddress)
  defer { daemon.shutDown() }
  try await body(Rig(server: server, daemon: daemon), mock)
  await #expect(
    daemon.stop() == 0,
    "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
}

extension ControlClient {
  /// Calls a method of the daemon on a thread of its own: the client
  /// blocks until the answer, and a test's task must not hold a shared
  /// thread meanwhile.
  func request(
    _ method: String, params: JSONValue? = nil
  ) async throws -> JSONValue {
    try await onOwnThread { try self.call(method, params: params) }
  }

  /// Waits, on a thread of its own, for the next notification.
  func nextEvent() async throws -> ControlResponse {
    try await onOwnThread { try self.nextNotification() }
  }
}
