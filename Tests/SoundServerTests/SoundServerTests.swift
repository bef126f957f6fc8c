import Foundation
import Glibc
import Testing

@testable import TestSupport

/// Two sinks every server test starts with.
private let speakers = NullSinkSpec.speaker(
  name: "lab_speakers", description: "Lab Speakers")
private let headphones = NullSinkSpec.bluetoothHeadphones(
  name: "lab_buds", address: "AA:BB:CC:DD:EE:FF", description: "Lab Buds Pro")

@Suite("Private sound servers")
struct SoundServerTests {
  @Test(
    "A server starts and answers with exactly the requested sinks",
    arguments: SoundServerKind.allCases)
  func startsWithRequestedSinks(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [speakers, headphones])
    defer { server.stop() }

    let sinks = try await server.sinks()
    #expect(sinks.map(\.name).sorted() == ["lab_buds", "lab_speakers"])
    let descriptions = Dictionary(
      uniqueKeysWithValues: sinks.map { ($0.name, $0.description) })
    #expect(
      descriptions == [
        "lab_speakers": "Lab Speakers", "lab_buds": "Lab Buds Pro",
      ])
    #expect(server.kind == kind)
    #expect(server.serverAddress.hasPrefix("unix:\(server.directory.path)/"))
    #expect(server.environment["PULSE_SERVER"] == server.serverAddress)
    #expect(server.pids.count == (kind == .pulseAudio ? 1 : 4))
    #expect(server.isRunning)
    let info = try await server.pactl(["info"])
    let serverName = try #require(
      PactlOutput.infoField("Server Name", in: info))
    #expect(serverName.contains("PipeWire") == (kind == .pipeWire))
  }

  @Test(
    "Bluetooth-like properties and a description with spaces read back",
    arguments: SoundServerKind.allCases)
  func bluetoothPropertiesReadBack(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [speakers, headphones])
    defer { server.stop() }

    let expected: [String: String] = [
      "device.bus": "bluetooth",
      "device.api": "bluez",
      "device.string": "AA:BB:CC:DD:EE:FF",
      "api.bluez5.address": "AA:BB:CC:DD:EE:FF",
      "device.form_factor": "headphone",
      "device.description": "Lab Buds Pro",
    ]
    let sink = try #require(
      try await server.sinks().first { $0.name == "lab_buds" })
    #expect(sink.description == "Lab Buds Pro")
    #expect(sink.properties.filter { expected[$0.key] != nil } == expected)

    // The same through a module loaded at run time, with the server's own
    // device.api value, and gone again after unloading.
    let loaded = NullSinkSpec.bluetoothHeadphones(
      name: "lab_car", address: "11:22:33:44:55:66",
      description: "Car Kit  Two Spaces", formFactor: "car",
      deviceAPI: kind.bluetoothDeviceAPI)
    let module = try await server.loadNullSink(loaded)
    let car = try #require(
      try await server.sinks().first { $0.name == "lab_car" })
    #expect(car.description == "Car Kit  Two Spaces")
    #expect(car.ownerModule == module)
    for (key, value) in loaded.allProperties {
      #expect(car.properties[key] == value, "\(key)")
    }
    try await server.unloadModule(module)
    #expect(try await !server.sinks().contains { $0.name == "lab_car" })
  }

  @Test(
    "The default sink is the requested one and can be changed",
    arguments: SoundServerKind.allCases)
  func defaultSinkIsRequested(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [speakers, headphones], defaultSink: "lab_buds")
    defer { server.stop() }

    #expect(try await server.defaultSinkName() == "lab_buds")
    try await server.setDefaultSink("lab_speakers")
    #expect(try await server.defaultSinkName() == "lab_speakers")
  }

  @Test(
    "Without a requested default, the first sink is the default",
    arguments: SoundServerKind.allCases)
  func firstSinkIsDefault(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [headphones, speakers])
    defer { server.stop() }

    #expect(try await server.defaultSinkName() == "lab_buds")
  }

  @Test(
    "Streams start and appear as sink inputs on the right sinks",
    arguments: SoundServerKind.allCases)
  func streamsAppearAsSinkInputs(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [speakers, headphones])
    defer { server.stop() }

    let onDefault = try await server.startStreams(3)
    let onHeadphones = try await server.startStreams(1, on: "lab_buds")
    let streams = onDefault + onHeadphones
    #expect(Set(streams.map(\.clientName)).count == 4)
    #expect(streams.allSatisfy { $0.isRunning })

    let inputs = try await server.sinkInputs()
    #expect(inputs.count == 4)
    let sinkByClient = Dictionary(
      uniqueKeysWithValues: inputs.map { ($0.clientName ?? "", $0.sinkName) })
    for stream in onDefault {
      #expect(sinkByClient[stream.clientName] == "lab_speakers")
    }
    #expect(sinkByClient[onHeadphones[0].clientName] == "lab_buds")

    onDefault[0].stop()
    #expect(try await eventually { !onDefault[0].isRunning })
    let remaining = try await eventually {
      try await server.sinkInputs().count == 3
    }
    #expect(remaining, "the stopped stream's sink input stays")
  }

  @Test(
    "stop() ends every process and removes the directory",
    arguments: SoundServerKind.allCases)
  func stopRemovesEverything(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(kind, sinks: [speakers])
    let streams = try await server.startStreams(2)
    let pids = server.pids + streams.map(\.processIdentifier)
    let directory = server.directory.path
    #expect(FileManager.default.fileExists(atPath: directory))

    await server.stopAndWait()

    #expect(!FileManager.default.fileExists(atPath: directory))
    for pid in pids {
      #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH, "pid \(pid)")
    }
    #expect(server.pids.isEmpty)
    #expect(!server.isRunning)
    #expect(streams.allSatisfy { !$0.isRunning })
    server.stop()
    await #expect(throws: FixtureError.self) {
      try await server.pactl(["info"])
    }
  }

  @Test(
    "A killed server restarts on the same socket with the same sinks",
    arguments: SoundServerKind.allCases)
  func killAndRestart(kind: SoundServerKind) async throws {
    let server = try await SoundServer.start(
      kind, sinks: [speakers, headphones], defaultSink: "lab_buds")
    defer { server.stop() }
    let oldPids = server.pids

    await server.kill()
    #expect(server.pids.isEmpty)
    #expect(!server.isRunning)
    for pid in oldPids {
      #expect(Glibc.kill(pid, 0) == -1, "pid \(pid)")
    }
    await #expect(throws: FixtureError.self) {
      try await server.pactl(["info"])
    }

    try await server.restart()
    #expect(server.isRunning)
    await #expect(
      try server.sinks().map(\.name).sorted() == ["lab_buds", "lab_speakers"])
    #expect(try await server.defaultSinkName() == "lab_buds")
    let info = try await server.pactl(["info"])
    #expect(
      PactlOutput.infoField("Server String", in: info) == server.serverAddress)
  }

  @Test(
    "module-switch-on-connect is loaded only on request",
    arguments: SoundServerKind.allCases)
  func switchOnConnectOnRequest(kind: SoundServerKind) async throws {
    let plain = try await SoundServer.start(kind, sinks: [speakers])
    defer { plain.stop() }
    let switching = try await SoundServer.start(
      kind, sinks: [speakers], loadSwitchOnConnect: true)
    defer { switching.stop() }

    let module = "module-switch-on-connect"
    #expect(
      try await !plain.pactl(["list", "short", "modules"]).contains(module))
    #expect(
      try await switching.pactl(["list", "short", "modules"]).contains(module))
  }

  @Test("pactl failures carry the exit status and standard error")
  func pactlFailureIsDescribed() async throws {
    let server = try await SoundServer.start(.pulseAudio, sinks: [speakers])
    defer { server.stop() }

    let error = try await #require(throws: FixtureError.self) {
      try await server.pactl(["set-default-sink", "no_such_sink"])
    }
    #expect(error.message.contains("exit status 1"))
    #expect(error.message.contains("No such entity"))
  }

  @Test("A server that refuses its configuration fails with its log tail")
  func startFailureCarriesLogTail() async throws {
    // PulseAudio refuses sink names longer than 127 characters.
    let tooLong = NullSinkSpec.speaker(
      name: String(repeating: "x", count: 200), description: "Too Long")
    let error = try await #require(throws: FixtureError.self) {
      try await SoundServer.start(.pulseAudio, sinks: [tooLong])
    }
    #expect(error.message.contains("PulseAudio did not start"))
    #expect(error.message.contains("refused the sinks"))
    #expect(error.logTail.contains("==> pulseaudio.log <=="))
    #expect(error.logTail.contains("Failed to create sink object"))
    let directory = try #require(
      error.message.split(separator: " ").first { $0.hasPrefix("/") })
    let path = String(directory.dropLast())  // the path ends with ":"
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("An unknown default sink is refused before anything starts")
  func unknownDefaultSinkIsRefused() async throws {
    await #expect(throws: FixtureError.self) {
      try await SoundServer.start(
        .pulseAudio, sinks: [speakers], defaultSink: "lab_missing")
    }
  }
}

/// Polls a condition until it holds or the timeout passes.
///
/// - Returns: Whether the condition became true.
func eventually(
  timeout: Duration = .seconds(20),
  _ condition: () async throws -> Bool
) async throws -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try await Task.sleep(for: .milliseconds(20))
  }
  return try await condition()
}

@Suite("Cleanup after a crashed test process")
struct CrashCleanupTests {
  @Test(
    "A dying test process leaves no server process or directory behind",
    arguments: SoundServerKind.allCases)
  func crashedProcessLeavesNothing(kind: SoundServerKind) async throws {
    let result = try await #require(
      processExitsWith: .signal(SIGKILL), observing: [\.standardOutputContent]
    ) { [rawKind = kind.rawValue as String] in
      let kind = try #require(SoundServerKind(rawValue: rawKind))
      let server = try await SoundServer.start(kind, sinks: [speakers])
      let stream = try await server.startStreams(1)[0]
      let pids = server.pids + [stream.processIdentifier]
      let report = """
        \(server.directory.path)
        \(pids.map(String.init).joined(separator: " "))

        """
      FileHandle.standardOutput.write(Data(report.utf8))
      _ = Glibc.kill(getpid(), SIGKILL)
    }
    let lines = String(decoding: result.standardOutputContent, as: UTF8.self)
      .split(separator: "\n").map(String.init)
    try #require(lines.count >= 2)
    let directory = lines[0]
    let pids = lines[1].split(separator: " ").compactMap { pid_t($0) }
    #expect(pids.count == (kind == .pulseAudio ? 2 : 5))

    let isClean = try await eventually(timeout: .seconds(10)) {
      !FileManager.default.fileExists(atPath: directory)
        && pids.allSatisfy { !isAlive($0) }
    }
    #expect(isClean, "left behind: \(pids.filter(isAlive)) \(directory)")
  }
}

/// Whether a process exists and is not a zombie.
private func isAlive(_ pid: pid_t) -> Bool {
  guard
    let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat")
  else { return false }
  let text = String(decoding: stat, as: UTF8.self)
  // The state follows the parenthesized command name: "123 (name) S ...".
  guard let end = text.lastIndex(of: ")") else { return false }
  return !text[end...].hasPrefix(") Z")
}
