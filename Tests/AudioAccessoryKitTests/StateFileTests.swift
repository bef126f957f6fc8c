// Durable state: round trips, unreadable files kept aside, failed writes
// that change nothing, and a writer killed mid-write again and again.

import AccessoryBackend
import AudioAccessoryKit
import Foundation
import Logging
import TestSupport
import Testing

@Suite("State file")
struct StateFileTests {
  typealias Configuration = AccessoryControlDevice.Configuration

  @Test func defaultLocationFollowsXDG() {
    #expect(
      StateFile.defaultURL(environment: ["XDG_STATE_HOME": "/x/state"]).path
        == "/x/state/accessoryd/state.json")
    #expect(
      StateFile.defaultURL(environment: ["HOME": "/home/ana"]).path
        == "/home/ana/.local/state/accessoryd/state.json")
    // A relative XDG_STATE_HOME is invalid per the XDG spec and ignored.
    #expect(
      StateFile.defaultURL(
        environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]
      ).path == "/h/.local/state/accessoryd/state.json")
  }

  @Test func registrationsSurviveARestart() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = StateFile(
      url: directory.appendingPathComponent("accessoryd/state.json"))
    let engine = RegistryStore(stateFile: file)
    let buds = try await engine.pair(
      BluetoothAddress("aa-bb-cc-dd-ee-01")!, displayName: "Buds",
      formFactor: .headphone)
    let speaker = try await engine.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:02")!, displayName: "Speaker",
      formFactor: .speaker)
    try await engine.register(
      buds,
      Configuration(
        devicePlacement: .inEar,
        deviceCapabilities: [.audioSwitching, .placement],
        primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6])))
    try await engine.register(
      speaker, Configuration(deviceCapabilities: [.audioSwitching]))
    try await engine.unpair(speaker.bluetoothAddress!)

    let restarted = RegistryStore(stateFile: file)
    #expect(restarted.registry == engine.registry)
    #expect(restarted.accessories.map(\.displayName) == ["Buds"])
    #expect(
      try restarted.configuration(for: buds).devicePlacement == .inEar)

    let attributes = try FileManager.default.attributesOfItem(
      atPath: file.url.path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(
      atPath: file.url.deletingLastPathComponent().path)
    #expect(directoryAttributes[.posixPermissions] as? Int == 0o700)
  }

  @Test(arguments: [
    ("garbage", "{ this is not json"),
    ("an old version", #"{"version": 0, "accessories": []}"#),
    ("wrong shape", #"{"version": 1, "accessories": 7, "registrations": []}"#),
    ("bad address", #"{"version": 1, "accessories": [{"address": "nope"}]}"#),
  ])
  func anUnreadableFileIsKeptAside(kind: String, contents: String) async throws
  {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("state.json")
    try Data(contents.utf8).write(to: url)
    let logs = InMemoryLogHandler()
    let logger = Logger(label: "test", handler: logs)

    let engine = RegistryStore(
      stateFile: StateFile(url: url), logger: logger)
    #expect(engine.registry == AccessoryRegistry())

    let names = try FileManager.default.contentsOfDirectory(
      atPath: directory.path)
    let aside = try #require(
      names.first { $0.hasPrefix("state.json.corrupt-") })
    #expect(!names.contains("state.json"))
    #expect(
      try String(
        contentsOf: directory.appendingPathComponent(aside), encoding: .utf8)
        == contents)
    let record = try #require(logs.records.first)
    #expect(record.level == .error)
    #expect(
      record.message
        == "The state file is unreadable and was kept aside; starting with "
        + "no accessories")
    #expect(record.metadata["state.kept-as"] == directory.path + "/" + aside)

    // New state is written beside the kept copy, never over it.
    try await engine.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "B")
    let after = try FileManager.default.contentsOfDirectory(
      atPath: directory.path)
    #expect(Set(after) == ["state.json", aside])
  }

  @Test func aFileCutShortKeepsEveryWholeEntry() throws {
    var registry = AccessoryRegistry()
    for index in 1...3 {
      let address = BluetoothAddress("AA:BB:CC:DD:EE:0\(index)")!
      try registry.pair(address, displayName: "B\(index)", at: testInstant)
    }
    let whole = [UInt8](StateFile.encode(registry))
    var counts: Set<Int> = []
    // Every cut recovers the entries before it and never one that is not
    // whole; the last two cuts lose only the version.
    for length in 1..<whole.count {
      let recovered = StateFile.recover(Data(whole[..<length]))
      let count = recovered?.registry.accessories.count ?? 0
      counts.insert(count)
      for accessory in recovered?.registry.accessories.values ?? [:].values {
        #expect(registry.accessories[accessory.address] == accessory)
      }
    }
    #expect(counts == [0, 1, 2, 3])
    #expect(
      StateFile.recover(Data(#"{"version": 2, "accessories": []}"#.utf8))
        == nil)
    #expect(StateFile.recover(Data("garbage".utf8)) == nil)
  }

  @Test func damageInsideKeepsEveryEntryBeforeIt() throws {
    let registry = try AccessoryRegistry.registered(
      count: 200, at: testInstant)
    var lines = String(decoding: StateFile.encode(registry), as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    // One record a line, accessories first: a stray byte in the 101st
    // accessory's line.
    let line = try #require(
      lines.firstIndex { $0.contains(#""address":"#) })
    lines[line + 100] = "@" + lines[line + 100]
    let recovered = try #require(
      StateFile.recover(Data(lines.joined(separator: "\n").utf8)))
    #expect(recovered.registry.accessories.count == 100)
    #expect(recovered.registry.registrations.isEmpty)
    for accessory in recovered.registry.accessories.values {
      #expect(registry.accessories[accessory.address] == accessory)
    }
  }

  @Test func oneBadEntryCostsThatEntry() throws {
    var registry = AccessoryRegistry()
    try registry.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "B",
      at: testInstant)
    let text = String(decoding: StateFile.encode(registry), as: UTF8.self)
      .replacingOccurrences(
        of: #""accessories":["#,
        with: #""accessories":[{"address": "nope"},"#)
    let recovered = try #require(StateFile.recover(Data(text.utf8)))
    #expect(recovered.registry == registry)
    #expect(recovered.summary == "1 accessory and 0 registrations")
  }

  @Test func aNewerFileIsLeftAloneAndNeverWritten() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("state.json")
    let newer = #"{"version": 2, "accessories": [], "hats": []}"#
    try Data(newer.utf8).write(to: url)
    #expect(throws: StateFile.StartFailure.self) {
      try StateFile(url: url).checkBeforeStart()
    }
    let engine = RegistryStore(stateFile: StateFile(url: url))
    let reason = await pairingFailureReason(engine)
    #expect(
      reason
        == "the state file '\(url.path)' is version 2, written by a newer "
        + "accessoryd; this one reads version 1")
    #expect(try String(contentsOf: url, encoding: .utf8) == newer)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        == ["state.json"])
  }

  @Test func timestampsReadBackExactly() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let instant = StateFile.storableDate(
        Date(
          timeIntervalSince1970: Double.random(
            in: -1e9...4e9, using: &generator)))
      var registry = AccessoryRegistry()
      try registry.pair(
        BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "B", at: instant)
      let reread = try StateFile.decode(StateFile.encode(registry))
      #expect(reread == registry, "\(instant.timeIntervalSince1970)")
    }
    let text = String(
      decoding: StateFile.encode(
        AccessoryRegistry(accessories: [
          .init(
            address: BluetoothAddress("AA:BB:CC:DD:EE:01")!,
            displayName: "B", pairedAt: Date(timeIntervalSince1970: 0.25))
        ])), as: UTF8.self)
    #expect(text.contains(#""pairedAt":"1970-01-01T00:00:00.250Z""#))
  }

  @Test func theFileIsCompactWithOneRecordALine() throws {
    var registry = AccessoryRegistry()
    for index in 1...3 {
      let address = BluetoothAddress("AA:BB:CC:DD:EE:0\(index)")!
      let paired = try registry.pair(
        address, displayName: "B\(index)", formFactor: .headphone,
        at: testInstant)
      try registry.register(
        paired.accessory,
        Configuration(
          devicePlacement: .inEar, deviceCapabilities: [.placement]),
        at: testInstant)
    }
    let text = String(decoding: StateFile.encode(registry), as: UTF8.self)
    let lines = text.split(separator: "\n")
    // The opening, three accessories, the middle, three registrations and
    // the end, none indented.
    #expect(lines.count == 9, "\(text)")
    #expect(lines.allSatisfy { !$0.hasPrefix(" ") }, "\(text)")
    #expect(!text.contains(": "), "\(text)")
    #expect(lines[0] == #"{"accessories":["#)
    #expect(lines[1].hasPrefix(#"{"address":"AA:BB:CC:DD:EE:01","#))
    #expect(lines[4] == #"],"registrations":["#)
    #expect(lines[8] == #"],"version":1}"#)
    #expect(try StateFile.decode(Data(text.utf8)) == registry)
    let empty = String(
      decoding: StateFile.encode(AccessoryRegistry()), as: UTF8.self)
    #expect(
      empty == #"{"accessories":[],"registrations":[],"version":1}"# + "\n")
  }

  /// A file as accessoryd wrote it before its files were compact: pretty
  /// printed, keys sorted.
  static let prettyFile = #"""
    {
      "accessories" : [
        {
          "address" : "AA:BB:CC:DD:EE:01",
          "descriptor" : {

          },
          "displayName" : "Buds",
          "formFactor" : "headphone",
          "pairedAt" : "2026-01-31T12:00:00.000Z"
        }
      ],
      "registrations" : [
        {
          "address" : "AA:BB:CC:DD:EE:01",
          "configuration" : {
            "deviceCapabilities" : [
              "audioSwitching",
              "placement"
            ],
            "devicePlacement" : "inEar"
          },
          "displayName" : "Buds",
          "isInvalidated" : false,
          "placementChangedAt" : "2026-01-31T12:00:00.000Z",
          "registeredAt" : "2026-01-31T12:00:00.000Z",
          "sourcesChangedAt" : "2026-01-31T12:00:00.000Z"
        }
      ],
      "version" : 1
    }
    """#

  @Test func aPrettyPrintedFileOfVersionOneStillLoads() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = StateFile(url: directory.appendingPathComponent("state.json"))
    try Data(Self.prettyFile.utf8).write(to: file.url)
    let engine = RegistryStore(stateFile: file)
    let address = BluetoothAddress("AA:BB:CC:DD:EE:01")!
    #expect(engine.registry.accessories[address]?.displayName == "Buds")
    #expect(
      engine.registry.registrations[address]?.configuration.devicePlacement
        == .inEar)
    // The next save writes it compact, with the same records.
    try await engine.update(address) { $0.devicePlacement = .onHead }
    let text = try String(contentsOf: file.url, encoding: .utf8)
    #expect(!text.contains("  "))
    #expect(
      RegistryStore(stateFile: file).registry == engine.registry)
  }

  @Test func aSaveEncodesOnlyTheRecordsThatChanged() throws {
    var registry = AccessoryRegistry()
    let addresses = (0..<1000).map {
      BluetoothAddress(
        data: Data([2, 0, 0, 0, UInt8($0 >> 8), UInt8($0 & 0xFF)]))!
    }
    for address in addresses {
      let paired = try registry.pair(
        address, displayName: "A \(address)", at: testInstant)
      try registry.register(
        paired.accessory,
        Configuration(
          devicePlacement: .offHead,
          deviceCapabilities: [.audioSwitching, .placement]),
        at: testInstant)
    }
    var encoder = StateFile.IncrementalEncoder()
    #expect(encoder.encode(registry) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == 2000)
    _ = try registry.update(
      registry.accessory(at: addresses[500]),
      Configuration(
        devicePlacement: .inEar,
        deviceCapabilities: [.audioSwitching, .placement]),
      at: testInstant)
    #expect(encoder.encode(registry) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == 2001)
    // Unpairing changes the registration (invalidated) and removes the
    // accessory; the next save encodes one record again.
    try registry.unpair(addresses[7])
    #expect(encoder.encode(registry) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == 2002)
    #expect(encoder.encode(registry) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == 2002)
  }

  @Test func theChangedRecordsAloneGiveTheWholeFile() throws {
    var registry = AccessoryRegistry()
    let addresses = (0..<50).map {
      BluetoothAddress(data: Data([2, 0, 0, 0, 0, UInt8($0 * 2)]))!
    }
    let configuration = Configuration(
      devicePlacement: .offHead,
      deviceCapabilities: [.audioSwitching, .placement])
    for address in addresses {
      let paired = try registry.pair(
        address, displayName: "A \(address)", at: testInstant)
      try registry.register(paired.accessory, configuration, at: testInstant)
    }
    var encoder = StateFile.IncrementalEncoder()
    _ = encoder.encode(registry)
    func encodeChanges(_ changed: BluetoothAddress...) -> Data {
      encoder.encode(
        changing: Dictionary(
          uniqueKeysWithValues: changed.map { ($0, registry.records(at: $0)) }
        ))
    }
    _ = try registry.update(
      registry.accessory(at: addresses[10]),
      Configuration(
        devicePlacement: .inEar,
        deviceCapabilities: [.audioSwitching, .placement]),
      at: testInstant)
    #expect(encodeChanges(addresses[10]) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == 101)
    try registry.unpair(addresses[3])
    #expect(encodeChanges(addresses[3]) == StateFile.encode(registry))
    // A new accessory between two others.
    let new = BluetoothAddress(data: Data([2, 0, 0, 0, 0, 5]))!
    try registry.pair(new, displayName: "New", at: testInstant)
    #expect(encodeChanges(new) == StateFile.encode(registry))
    // Named but unchanged: nothing encoded.
    let encoded = encoder.recordsEncoded
    #expect(encodeChanges(addresses[0], new) == StateFile.encode(registry))
    #expect(encoder.recordsEncoded == encoded)
  }

  @Test func aVersionMismatchNamesBothVersions() {
    #expect {
      try StateFile.decode(Data(#"{"version": 2}"#.utf8))
    } throws: { error in
      "\(error)" == "its version 2 is not the supported version 1"
    }
  }

  @Test func aFailedWriteChangesNothing() async throws {
    // Nothing can be created under /proc/self, not even by root.
    let url = URL(fileURLWithPath: "/proc/self/accessoryd-test/state.json")
    let engine = RegistryStore(stateFile: StateFile(url: url))
    let reason = try #require(await pairingFailureReason(engine))
    #expect(
      reason.hasPrefix(
        "cannot write the state file '/proc/self/accessoryd-test"))
    #expect(engine.registry == AccessoryRegistry())
  }

  @Test func stagedUpdatesAreCurrentAtOnceAndSavedTogether() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = StateFile(url: directory.appendingPathComponent("state.json"))
    let (engine, buds) = try await registeredBuds(stateFile: file)
    let first = try engine.stageUpdate(buds.bluetoothAddress!) {
      $0.devicePlacement = .inEar
    }
    let second = try engine.stageUpdate(buds.bluetoothAddress!) {
      $0.devicePlacement = .onHead
    }
    #expect(second > first)
    #expect(try engine.configuration(for: buds).devicePlacement == .onHead)
    // One write carries both changes; the older generation is then saved.
    try await engine.saved(through: second)
    try await engine.saved(through: first)
    let restarted = RegistryStore(stateFile: file)
    #expect(try restarted.configuration(for: buds).devicePlacement == .onHead)
    // A change that changes nothing needs no write.
    let same = try engine.stageUpdate(buds.bluetoothAddress!) { _ in }
    #expect(same == second)
    try await engine.saved(through: same)
  }

  @Test func aFailedSaveUndoesEveryUnsavedChange() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stateDirectory = directory.appendingPathComponent("accessoryd")
    let file = StateFile(
      url: stateDirectory.appendingPathComponent("state.json"))
    let (engine, buds) = try await registeredBuds(stateFile: file)
    // The state directory's path becomes a regular file: no write works.
    try FileManager.default.removeItem(at: stateDirectory)
    try Data("blocker".utf8).write(to: stateDirectory)
    let address = try #require(buds.bluetoothAddress)
    let first = try engine.stageUpdate(address) { $0.devicePlacement = .inEar }
    let second = try engine.stageUpdate(address) {
      $0.devicePlacement = .onHead
    }
    let firstError = await accessoryError {
      try await engine.saved(through: first)
    }
    let secondError = await accessoryError {
      try await engine.saved(through: second)
    }
    guard let firstError, firstError.code == .unknown else {
      Issue.record(
        "expected an unknown error, got \(String(describing: firstError))")
      return
    }
    let reason = firstError.reason
    #expect(reason.hasPrefix("cannot write the state file"))
    #expect(secondError == firstError)
    #expect(try engine.configuration(for: buds).devicePlacement == .offHead)

    // Once the directory can be written again, new changes are saved.
    try FileManager.default.removeItem(at: stateDirectory)
    let third = try engine.stageUpdate(address) { $0.devicePlacement = .inEar }
    #expect(third > second)
    try await engine.saved(through: third)
    let restarted = RegistryStore(stateFile: file)
    #expect(try restarted.configuration(for: buds).devicePlacement == .inEar)
  }

  @Test func aFileThatCannotBeKeptAsideIsNeverWrittenOver() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The state directory's path is taken by a regular file, so the state
    // file can be neither read nor renamed.
    let blocker = directory.appendingPathComponent("accessoryd")
    try Data("precious".utf8).write(to: blocker)
    let url = blocker.appendingPathComponent("state.json")
    let logs = InMemoryLogHandler()
    let engine = RegistryStore(
      stateFile: StateFile(url: url),
      logger: Logger(label: "test", handler: logs))
    #expect(logs.records.first?.level == .error)
    let reason = try #require(await pairingFailureReason(engine))
    #expect(reason.hasPrefix("the state file '\(url.path)' is unreadable"))
    #expect(reason.hasSuffix("move it away and restart"))
    #expect(try Data(contentsOf: blocker) == Data("precious".utf8))
    #expect(engine.registry == AccessoryRegistry())
  }

  @Test func leftoverTemporaryFilesOfDeadWritersAreRemoved() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("state.json")
    // PID 2^22 + 1 is above Linux's maximum PID, so it is never alive.
    let stale = directory.appendingPathComponent("state.json.tmp-4194305-7")
    try Data("partial".utf8).write(to: stale)
    _ = StateFile(url: url).load(logger: Logger(label: "test"))
    #expect(!FileManager.default.fileExists(atPath: stale.path))
  }

  /// Kills a process that rewrites the state file in a tight loop, at a
  /// random instant, many times; the file must always parse to one whole
  /// generation.
  @Test func aWriterKilledMidWriteLeavesAWholeState() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("state.json")
    let writer = try builtProduct("StateFileWriter")
    var generator = SystemRandomNumberGenerator()
    var generationsSeen = Set<Int>()
    for _ in 0..<30 {
      let process = try ProgramRun.start(
        writer.path, [url.path, "1000000"],
        environment: ProcessInfo.processInfo.environment)
      // Wait for the first complete write, then let it run a little.
      while process.isRunning, !process.outputSoFar.contains("ready") {
        try await Task.sleep(for: .milliseconds(1))
      }
      try await Task.sleep(
        for: .milliseconds(Int.random(in: 1...40, using: &generator)))
      process.send(SIGKILL)
      let result = try await process.result()
      #expect(result.termination == .signalled(SIGKILL))

      let registry = try StateFile.decode(Data(contentsOf: url))
      let names = registry.accessories.values.map(\.displayName)
      let generations = Set(
        names.map { Int($0.split(separator: "-")[1])! })
      #expect(generations.count == 1, "a mix of generations: \(generations)")
      let generation = try #require(generations.first)
      #expect(names.count == generation % 40 + 1)
      #expect(registry.registrations.count == names.count)
      generationsSeen.insert(generation)
      let loaded = StateFile(url: url).load(logger: Logger(label: "test"))
      #expect(loaded.keptAsideAt == nil)
      #expect(loaded.registry == registry)
    }
    // The kills landed at different points of the writer's life.
    #expect(generationsSeen.count > 1)
  }
}

/// Pairs an accessory through an engine whose state file cannot be
/// written, and returns the reason of the `unknown` error it must throw.
func pairingFailureReason(_ engine: RegistryStore) async -> String? {
  let error = await accessoryError {
    try await engine.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "B")
  }
  guard let error, error.code == .unknown else {
    Issue.record("expected an unknown error, got \(String(describing: error))")
    return nil
  }
  return error.reason
}

/// Returns an engine saving to `stateFile` with headphones paired and
/// registered, taken off.
func registeredBuds(
  stateFile: StateFile
) async throws -> (RegistryStore, ASAccessory) {
  let engine = RegistryStore(stateFile: stateFile)
  let buds = try await engine.pair(
    BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "Buds",
    formFactor: .headphone)
  try await engine.register(
    buds,
    AccessoryControlDevice.Configuration(
      devicePlacement: .offHead,
      deviceCapabilities: [.audioSwitching, .placement]))
  return (engine, buds)
}
