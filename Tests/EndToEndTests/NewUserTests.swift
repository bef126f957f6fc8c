// What a new user trips on, end to end: pairing an accessory again keeps
// its name, the default log level has one line per switch and per change
// of an accessory and one per connection to the sound server, and the
// guide's by-hand block works when pasted into a shell.

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
    }
  }

  @Test("The guide's by-hand block switches a private PulseAudio")
  func readmeBlockRuns() async throws {
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")
        .appendingPathComponent("guide.md"),
      encoding: .utf8)
    let start = try #require(
      readme.range(of: "To try it by hand without touching your session"))
    let open = try #require(
      readme.range(of: "```sh\n", range: start.upperBound..<readme.endIndex))
    let close = try #require(
      readme.range(of: "\n```\n", range: open.upperBound..<readme.endIndex))
    // The block runs the products of this build, as it would those of
    // `swift build -c release`.
    let products = try builtProduct("accessoryd").deletingLastPathComponent()
      .path
    let block = String(readme[open.upperBound..<close.lowerBound])
      .replacing(".build/release/", with: products + "/")
    let result = try await runProgram(
      "/bin/bash", ["-e", "-c", block],
      environment: [
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
        "TMPDIR": FileManager.default.temporaryDirectory.path,
      ], within: .seconds(60))
    #expect(result.status == 0, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("buds"), "\(result)")
    #expect(
      result.stdout.contains("back to the output used before")
        || result.stdout.contains("speaker"), "\(result)")
  }
}
