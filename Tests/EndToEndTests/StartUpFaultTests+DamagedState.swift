// The daemon's state file damaged, end to end: what decodes is recovered and
// the damaged file kept aside, a large one within a memory limit, and on a
// full disk the file stays in place and changes are refused.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import Foundation
import Glibc
import TestSupport
import Testing

extension StartUpFaultTests {
  @Test("A damaged state file is kept aside and what decodes is recovered")
  func damagedStateIsRecovered() async throws {
    try await withRig(.pulseAudio, phones: true, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.pairAndRegister(phonesAddress, placement: "onHead")
      let statePath = rig.daemon.stateDirectory + "/state.json"
      var table: [String] = []

      // Cut short inside the second registration.
      await rig.daemon.stop()
      let whole = try String(contentsOfFile: statePath, encoding: .utf8)
      let second = try #require(
        whole.range(
          of: #""address":"AA:BB:CC:DD:EE:02""#, options: .backwards))
      let cut = String(whole[..<second.upperBound])
      try cut.write(toFile: statePath, atomically: true, encoding: .utf8)
      try await rig.daemon.restart()
      let recovered = try rig.stateLogLine()
      #expect(
        recovered.hasPrefix(
          "error accessoryd: The state file is unreadable and was kept aside; "
            + "recovered 2 accessories and 1 registration from it"),
        "\(recovered)")
      let list = try await rig.json(["list"])
      #expect(Self.count(list) == 2, "\(list)")
      let buds = try await rig.json(["current", budsAddress])
      #expect(Self.placement(buds) == "inEar", "\(buds)")
      // The phones' registration, cut in the middle, is not recovered:
      // acctl current shows them paired, with no registration.
      let phones = try await rig.json(["current", phonesAddress])
      #expect(phones["state"] == "authorized", "\(phones)")
      #expect(
        phones["registration"] == nil || phones["registration"] == .null,
        "\(phones)")
      let aside = try Self.keptAside(rig.daemon.stateDirectory)
      #expect(aside.count == 1)
      #expect(
        try String(contentsOfFile: aside[0], encoding: .utf8) == cut,
        "the damaged file was not kept as it was")
      // What was recovered is the state file now, and survives a restart.
      try await rig.daemon.restart()
      #expect(Self.count(try await rig.json(["list"])) == 2)
      table.append(
        BadInputTests.tableRow(
          "state file: cut short in its second registration",
          "starts", Self.short(recovered)))

      // Garbage: nothing decodes.
      await rig.daemon.stop()
      try "garbage".write(toFile: statePath, atomically: true, encoding: .utf8)
      try await rig.daemon.restart()
      let garbage = try rig.stateLogLine()
      #expect(
        garbage.hasPrefix(
          "error accessoryd: The state file is unreadable and was kept aside; "
            + "starting with no accessories"),
        "\(garbage)")
      #expect(Self.count(try await rig.json(["list"])) == 0)
      #expect(try Self.keptAside(rig.daemon.stateDirectory).count == 2)
      table.append(
        BadInputTests.tableRow(
          "state file: garbage", "starts", Self.short(garbage)))

      // A full disk: the change is refused, never acknowledged and lost.
      guard Self.mayMount() else { return }
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      await rig.daemon.stop()
      let saved = try Data(contentsOf: URL(fileURLWithPath: statePath))
      try Self.mountTmpfs(rig.daemon.stateDirectory, size: "64k")
      defer { umount2(rig.daemon.stateDirectory, Int32(MNT_DETACH)) }
      let filler = try await Self.fill(
        rig.daemon.stateDirectory, after: saved)
      try await rig.daemon.restart()
      let full = try rig.stateLogLine(containing: "full")
      #expect(
        full.contains(
          "the state directory '\(rig.daemon.stateDirectory)' is full (No "
            + "space left on device); accessoryd routes with the accessories "
            + "it has and refuses changes until there is room"),
        "\(full)")
      table.append(
        BadInputTests.tableRow(
          "state directory: full", "starts", Self.short(full)))
      let refused = try await rig.daemon.acctl([
        "update", budsAddress, "--placement", "inEar",
      ])
      let stateDirectory = rig.daemon.stateDirectory
      #expect(refused.status == 1, "\(refused)")
      #expect(
        refused.stderr
          == "Error: cannot write the state file '\(stateDirectory)/state.json'"
          + ": No space left on device\n", "\(refused)")
      table.append(
        BadInputTests.tableRow(
          "state directory: full, `acctl update … --placement inEar`",
          "\(refused.status)",
          refused.stderr.trimmingCharacters(in: .newlines)))
      // Nothing acknowledged is lost; the refused change was not made.
      try await rig.daemon.restart()
      #expect(
        Self.placement(try await rig.json(["current", budsAddress]))
          == "offHead")
      try FileManager.default.removeItem(atPath: filler)
      try await rig.ok(["update", budsAddress, "--placement", "inEar"])
      try await rig.daemon.restart()
      #expect(
        Self.placement(try await rig.json(["current", budsAddress])) == "inEar")
      try BadInputTests.checkReadmeTable(
        table.map {
          $0.replacingOccurrences(of: rig.daemon.directory + "/", with: "")
        }, name: "state faults", suite: "StartUpFaultTests",
        header: "what accessoryd logs, or acctl says")
    }
  }

  /// The accessories of the large state file.
  static let manyAccessories = 5_000
  /// The daemon's address-space limit with them: a quarter of what
  /// recovering their file took when each candidate beginning of the file
  /// was built at once (2.2 GiB for 3,000).
  static let memoryLimit = "--as=\(1 << 30)"

  @Test("A large state file cut short is recovered within 1 GiB")
  func largeDamagedStateIsRecoveredWithinAMemoryLimit() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      await rig.daemon.stop()
      let registry = try AccessoryRegistry.registered(
        count: Self.manyAccessories, at: Date())
      // Cut short inside the last registration.
      let whole = StateFile.encode(registry)
      let cut = whole.prefix(whole.count - 40)
      let statePath = rig.daemon.stateDirectory + "/state.json"
      try cut.write(to: URL(fileURLWithPath: statePath))

      // A debug build on a machine busy with other suites takes its time
      // over 5,000 accessories; the memory limit is what is tested.
      try await rig.daemon.restart(
        through: ["/usr/bin/prlimit", Self.memoryLimit, "--"],
        readyWithin: .seconds(90))
      let recovered = try rig.stateLogLine()
      #expect(
        recovered.hasPrefix(
          "error accessoryd: The state file is unreadable and was kept aside; "
            + "recovered \(Self.manyAccessories) accessories and "
            + "\(Self.manyAccessories - 1) registrations from it"),
        "\(recovered)")
      // It answers. acctl route, not status: status lists all 5,000, which
      // a debug build beside the other suites may take longer to write
      // than the test waits; what it holds is checked in the file below.
      try await rig.ok(["route"])
      #expect(try Self.keptAside(rig.daemon.stateDirectory).count == 1)
      // What was recovered is the state file now.
      let written = try StateFile.decode(
        Data(contentsOf: URL(fileURLWithPath: statePath)))
      #expect(written.accessories.count == Self.manyAccessories)
    }
  }

  @Test("A damaged state file on a full disk stays in place")
  func damagedStateOnAFullDiskStaysInPlace() async throws {
    guard Self.mayMount() else { return }
    try await withRig(.pulseAudio, phones: true, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.pairAndRegister(phonesAddress, placement: "onHead")
      let stateDirectory = rig.daemon.stateDirectory
      let statePath = stateDirectory + "/state.json"
      await rig.daemon.stop()
      let whole = try Data(contentsOf: URL(fileURLWithPath: statePath))
      let cut = whole.prefix(whole.count - 40)
      try Self.mountTmpfs(stateDirectory, size: "64k")
      defer { umount2(stateDirectory, Int32(MNT_DETACH)) }
      let filler = try await Self.fill(stateDirectory, after: cut)

      try await rig.daemon.restart()
      let line = try rig.stateLogLine(containing: "left in place")
      #expect(
        line.hasPrefix(
          "error accessoryd: The state file '\(statePath)' is unreadable and "
            + "the 2 accessories and 1 registration recovered from it cannot "
            + "be written (No space left on device); it is left in place and "
            + "changes are refused"),
        "\(line)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == cut)
      #expect(try Self.keptAside(stateDirectory).isEmpty)
      // What was recovered routes, and no change is made.
      #expect(Self.count(try await rig.json(["list"])) == 2)
      #expect(
        Self.placement(try await rig.json(["current", budsAddress]))
          == "inEar")
      let refused = try await rig.daemon.acctl([
        "update", budsAddress, "--placement", "offHead",
      ])
      #expect(refused.status == 1, "\(refused)")
      #expect(
        refused.stderr
          == "Error: the state file '\(statePath)' is damaged and the 2 "
          + "accessories and 1 registration recovered from it cannot be "
          + "written (No space left on device); it stays in place and nothing "
          + "is changed until they can be: make room in '\(stateDirectory)' "
          + "and restart accessoryd\n", "\(refused)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == cut)

      // Room again: the next start recovers them, and keeps the damaged
      // file aside as it was.
      try FileManager.default.removeItem(atPath: filler)
      try await rig.daemon.restart()
      let recovered = try rig.stateLogLine()
      #expect(
        recovered.hasPrefix(
          "error accessoryd: The state file is unreadable and was kept aside; "
            + "recovered 2 accessories and 1 registration from it"),
        "\(recovered)")
      let aside = try Self.keptAside(stateDirectory)
      #expect(aside.count == 1)
      #expect(
        try aside.first.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
          == cut)
      #expect(Self.count(try await rig.json(["list"])) == 2)
      try await rig.ok(["update", budsAddress, "--placement", "offHead"])
      try await rig.daemon.restart()
      #expect(
        Self.placement(try await rig.json(["current", budsAddress]))
          == "offHead")
    }
  }

  /// Writes the state file into a small tmpfs, then fills the tmpfs.
  ///
  /// - Returns: The path of the file that fills it.
  static func fill(
    _ stateDirectory: String, after state: Data
  ) async throws -> String {
    try state.write(to: URL(fileURLWithPath: stateDirectory + "/state.json"))
    let filler = stateDirectory + "/filler"
    let fill = try await runProgram(
      "/bin/sh", ["-c", "head -c 1048576 /dev/zero > '\(filler)'"],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(fill.status != 0, "the tmpfs did not fill: \(fill)")
    return filler
  }

  /// The number of accessories `acctl list --json` gave.
  static func count(_ value: JSONValue) -> Int? {
    guard case .array(let items)? = value["accessories"] else { return nil }
    // Headphones nobody paired or registered are listed too: not counted.
    return items.count { $0["state"] != "headphones" }
  }

  /// The placement `acctl current --json` gave.
  static func placement(_ current: JSONValue) -> JSONValue? {
    current["registration"]?["configuration"]?["devicePlacement"]
  }

  /// The files a damaged state file was kept aside as.
  static func keptAside(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("state.json.corrupt-") }.sorted()
      .map { directory + "/" + $0 }
  }

  /// A log line without the metadata that changes from run to run.
  static func short(_ line: String) -> String {
    line.components(separatedBy: " state.").first ?? line
  }
}

extension Rig {
  /// The last line of this daemon start's log about the state file.
  func stateLogLine(containing word: String = "state file") throws -> String {
    let lines = daemon.log.split(separator: "\n").map(String.init)
    guard let line = lines.last(where: { $0.contains(word) }) else {
      throw FixtureError("the log says nothing of the state file")
    }
    return line
  }
}
