// What a new user trips on, end to end: pairing an accessory again keeps
// its name, the default log level has one line per switch and per change
// of an accessory and one per connection to the sound server, and the
// guide's by-hand blocks work when pasted into a shell, on PipeWire and on
// PulseAudio.

import Foundation
import TestSupport
import Testing

@Suite("A new user's first steps, end to end")
struct NewUserTests {
  @Test("Pairing again keeps the name; one notice per change and per switch")
  func pairingAgainAndTheLog() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      try await rig.ok(["pair", budsAddress, "--name", "My Buds"])
      // Pairing again without --name keeps the name it was given.
      try await rig.ok(["pair", budsAddress])
      let list = try await rig.ok(["list"])
      #expect(list.stdout.contains("My Buds"), "\(list)")
      try await rig.ok([
        "register", budsAddress, "--capabilities", "audioSwitching,placement",
        "--placement", "offHead",
      ])
      try await rig.place(budsAddress, "inEar")
      try await waitUntil("the default on buds", within: .seconds(30)) {
        try await rig.server.defaultSinkName() == "buds"
      }
      try await rig.place(budsAddress, "offHead")
      try await waitUntil("the default on the speaker", within: .seconds(30)) {
        try await rig.server.defaultSinkName() == "speaker"
      }
      try await rig.ok(["rename", budsAddress, "Desk Buds"])
      try await rig.ok(["unpair", budsAddress])

      // Each at the default level (notice), once.
      let notices = rig.daemon.log.split(separator: "\n").filter {
        $0.hasPrefix("notice ")
      }
      func count(_ text: String) -> Int {
        notices.count { $0.contains("accessoryd: \(text)") }
      }
      #expect(count("Accessory paired") == 1, "\(notices)")
      #expect(count("Accessory registered") == 1, "\(notices)")
      #expect(count("Accessory renamed") == 1, "\(notices)")
      #expect(count("Accessory unpaired") == 1, "\(notices)")
      #expect(count("Accessory invalidated") == 1, "\(notices)")
      #expect(count("Accessory updated") == 0, "\(notices)")
      #expect(count("Output switched") == 2, "\(notices)")
      #expect(count("Sound server connected") == 1, "\(notices)")
      // No session bus: said once, for every part that needs it.
      #expect(
        notices.count { $0.contains("DBUS_SESSION_BUS_ADDRESS") } == 1,
        "\(notices)")
    }
  }

  @Test(
    "The guide's by-hand blocks switch a private server, and leave nothing",
    arguments: SoundServerKind.allCases)
  func guideBlocksRun(_ kind: SoundServerKind) async throws {
    let guide = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")
        .appendingPathComponent("guide.md"),
      encoding: .utf8)
    let start = try #require(
      guide.range(of: "To try it by hand without touching your session"))
    let end = try #require(
      guide.range(
        of: "`scripts/demo` does the same",
        range: start.upperBound..<guide.endIndex))
    // The section's blocks, in order: PipeWire's start, PulseAudio's,
    // accessoryd's steps, the clean-up.
    var blocks: [String] = []
    var rest = start.upperBound..<end.lowerBound
    while let open = guide.range(of: "```sh\n", range: rest),
      let close = guide.range(
        of: "\n```\n", range: open.upperBound..<end.lowerBound)
    {
      blocks.append(String(guide[open.upperBound..<close.lowerBound]))
      rest = close.upperBound..<end.lowerBound
    }
    try #require(blocks.count == 4, "\(blocks)")
    let serverBlock = kind == .pipeWire ? blocks[0] : blocks[1]
    // The blocks run the products of this build, as they would those of
    // `swift build -c release`, pasted one after the other into one shell.
    let products = try builtProduct("accessoryd").deletingLastPathComponent()
      .path
    let pasted = [serverBlock, blocks[2], "echo \"dir=$dir\"", blocks[3]]
      .joined(separator: "\n").replacing(
        ".build/release/", with: products + "/")
    let result = try await runProgram(
      "/bin/bash", ["-e", "-c", pasted],
      environment: [
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
        "TMPDIR": FileManager.default.temporaryDirectory.path,
      ], within: .seconds(90))
    #expect(result.status == 0, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // The default on the buds once worn, and back on the speaker once
    // taken off; no wait gave up.
    let defaults = lines.filter { $0 == "buds" || $0 == "speaker" }
    #expect(defaults == ["buds", "speaker"], "\(result)")
    #expect(!result.stdout.contains(" after 10 s"), "\(result)")
    #expect(!result.stdout.contains(" in 10 s"), "\(result)")
    #expect(
      result.stdout.contains("back to the output used before"), "\(result)")
    // The clean-up removed the directory, and with it every socket.
    let directory = try #require(
      lines.first { $0.hasPrefix("dir=") }.map { String($0.dropFirst(4)) })
    #expect(!FileManager.default.fileExists(atPath: directory), "\(directory)")
  }
}

@Suite("acctl current shows what acctl list shows")
struct CurrentShowsWhatListShowsTests {
  @Test("Headphones nobody paired, and paired ones nobody registered")
  func unregisteredAccessories() async throws {
    try await withRig(.pulseAudio, phones: true, streams: 0) { rig in
      try await waitUntil(
        "the guarded phones in the list", within: .seconds(30)
      ) {
        try await rig.ok(["list"]).stdout.contains(phonesAddress)
      }
      for selector in [
        phonesAddress, "Travel Phones", "  Travel Phones ", "travel phones",
      ] {
        let shown = try await rig.ok(["current", selector]).stdout
        #expect(shown.hasPrefix("Travel Phones (\(phonesAddress))"), "\(shown)")
        #expect(shown.contains("state:             headphones"), "\(shown)")
        #expect(shown.contains("registration:      none"), "\(shown)")
      }
      let json = try await rig.json(["current", phonesAddress.lowercased()])
      #expect(json["state"] == "headphones", "\(json)")

      try await rig.ok(["pair", budsAddress])
      let paired = try await rig.ok(["current", "Studio Buds"]).stdout
      #expect(paired.contains("state:             authorized"), "\(paired)")
      #expect(paired.contains("registration:      none"), "\(paired)")

      // A second accessory of that name in another case: paired, and the
      // answer says that a name no longer tells them apart.
      let namesake = try await rig.ok([
        "pair", phonesAddress, "--name", "STUDIO buds",
      ])
      .stdout
      #expect(
        namesake.contains(
          "Note: \(budsAddress) is named 'STUDIO buds' too, in any case; "
            + "commands that take a name need the address to tell them "
            + "apart. To give this one its own name: acctl rename "
            + "\(phonesAddress) NEW-NAME"), "\(namesake)")
      let again = try await rig.json(["current", phonesAddress])
      #expect(again["sharesNameWith"] == nil, "\(again)")

      // Nothing of that name: refused as before.
      let nobody = try await rig.daemon.acctl(["current", "Nobody"])
      #expect(nobody.status == 3, "\(nobody)")
      #expect(
        nobody.stderr.contains("no accessory is named 'Nobody'"), "\(nobody)")
    }
  }
}

@Suite("acctl events in the order things happen")
struct EventsInOrderTests {
  @Test("An update's event comes before the route it causes")
  func updateBeforeItsRoute() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let events = try rig.daemon.startAcctl(["events"])
      defer { events.stop() }
      // Subscribed once a rename shows (a rename routes nothing).
      var number = 0
      try await waitUntil("acctl events follows", within: .seconds(30)) {
        number += 1
        try await rig.ok(["rename", budsAddress, "Studio Buds \(number)"])
        return events.outputSoFar.contains("accessory renamed")
      }
      try await rig.place(budsAddress, "inEar")
      try await waitUntil("the route to the buds", within: .seconds(30)) {
        events.outputSoFar.contains("route buds")
      }
      let lines = events.outputSoFar.split(separator: "\n")
      let updated = lines.firstIndex { $0.contains("accessory updated") }
      let routed = lines.firstIndex { $0.contains("route buds") }
      #expect(updated != nil && updated! < routed!, "\(lines)")
    }
  }
}

@Suite("route --explain names one input")
struct ExplainedInputTests {
  @Test(
    "The monitor the server moves with the default is the one explained",
    arguments: SoundServerKind.allCases)
  func monitorFollowsTheDefault(_ kind: SoundServerKind) async throws {
    try await withRig(kind, streams: 1) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      try await rig.place(budsAddress, "inEar")
      try await waitForDefault(rig.server, "buds")
      // The header shows the input as the server has it (PulseAudio moves
      // its monitor with the default; pipewire-pulse leaves it); the
      // explained decision names the same one.
      func input(_ text: String) -> (header: String?, step: String?) {
        let lines = text.split(separator: "\n")
        let header = lines.first { $0.hasPrefix("input:") }?
          .split(separator: " ", omittingEmptySubsequences: true).dropFirst()
          .first.map(String.init)
        let step = lines.first { $0.hasPrefix("6. input: use ") }?
          .dropFirst("6. input: use ".count).split(separator: " ").first
          .map(String.init)
        return (header, step)
      }
      let explained = try await waitFor(
        "the header's input and the decision's agree", within: .seconds(30)
      ) {
        try await rig.ok(["route", "--explain"]).stdout
      } until: { text in
        let (header, step) = input(text)
        return text.contains("because an accessory was updated")
          && header != nil && header == step
      }
      let monitor =
        kind == .pulseAudio ? "buds.monitor" : input(explained).header!
      #expect(input(explained).step == monitor, "\(explained)")
      if kind == .pulseAudio {
        #expect(
          explained.contains(
            "default-input: the server moves the default input to buds.monitor"),
          "\(explained)")
      }
    }
  }
}

@Suite("What acctl says when BlueZ cannot be asked")
struct BlueZCannotBeAskedTests {
  @Test("pair --migrate and discover say BlueZ was not asked")
  func migrateAndDiscover() async throws {
    // Only a speaker: nothing the sound server has is an accessory, and
    // the daemon's system bus is not there.
    let server = try await SoundServer.start(
      .pulseAudio,
      sinks: [.speaker(name: "speaker", description: "Built-in Speaker")])
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(on: server)
    defer { daemon.shutDown() }
    let migrate = try await daemon.acctl(["pair", "--migrate"])
    #expect(migrate.status == 69, "\(migrate)")
    #expect(
      migrate.stderr == """
        Error: BlueZ could not be asked: accessoryd cannot reach the system \
        bus, and the devices this host paired are BlueZ's; nothing was \
        migrated (acctl doctor says why)

        """, "\(migrate)")
    let discover = try await daemon.acctl(["discover"])
    #expect(discover.status == 0, "\(discover)")
    #expect(
      discover.stderr == """
        Note: BlueZ could not be asked: accessoryd cannot reach the system \
        bus (acctl doctor says why); only the sound server's outputs are \
        listed

        """, "\(discover)")
    #expect(await daemon.stop() == 0)
    // The log says once that BlueZ cannot be asked, for discovery and the
    // battery alike; the battery's own attempts are below notice.
    let notices = daemon.log.split(separator: "\n").filter {
      $0.hasPrefix("notice ") || $0.hasPrefix("warning ")
    }
    #expect(
      notices.count { $0.contains("BlueZ cannot be asked") } == 1,
      "\(notices)")
    #expect(
      notices.count { $0.contains("D-Bus bus at") } == 1, "\(notices)")
  }
}

@Suite("The daemon's log in a terminal and elsewhere")
struct DaemonLogTimesTests {
  /// Whether a line starts with a local time, `HH:MM:SS.mmm `.
  static func startsWithTime(_ line: Substring) -> Bool {
    let characters = Array(line.prefix(13))
    guard characters.count == 13 else { return false }
    return characters.enumerated().allSatisfy { index, character in
      switch index {
      case 2, 5: character == ":"
      case 8: character == "."
      case 12: character == " "
      default: character.isASCII && character.isNumber
      }
    }
  }

  @Test("In a terminal each line starts with the time; in a pipe it does not")
  func timesInATerminal() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-log-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let accessoryd = try builtProduct("accessoryd").path
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": directory,
      "PULSE_SERVER": "unix:\(directory)/no-sound-server",
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory)/no-system-bus",
    ]
    let daemon =
      "timeout -s TERM 2 \(accessoryd) --state-dir \(directory)/state "
      + "--socket \(directory)/control.sock"
    // util-linux's script gives the daemon a terminal for its standard
    // error, as a person's shell does.
    let inTerminal = try await runProgram(
      "/usr/bin/script", ["-qec", daemon, "/dev/null"],
      environment: environment, within: .seconds(30))
    let terminalLines = inTerminal.stdout.split(whereSeparator: \.isNewline)
    let starting = terminalLines.first { $0.contains("accessoryd: Starting") }
    #expect(
      starting.map(Self.startsWithTime) == true,
      "no time before the line: \(inTerminal)")
    // A pipe (or the journal) gets no time: the journal adds its own.
    let inPipe = try await runProgram(
      "/bin/sh", ["-c", daemon], environment: environment,
      within: .seconds(30))
    let pipeLines = inPipe.stderr.split(whereSeparator: \.isNewline)
    #expect(
      pipeLines.first?.hasPrefix("notice accessoryd: Starting") == true,
      "\(inPipe)")
  }
}
