// Tests of contrib/acctl.bash-completion: it runs in bash against the
// built acctl and a fake daemon, and offers what acctl's help lists.

import Foundation
import TestSupport
import Testing

/// The completion script in the package's contrib directory.
private let script = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
  .appendingPathComponent("contrib/acctl.bash-completion")

/// Returns what bash completes for a command line typed up to its end.
///
/// - Parameters:
///   - line: The command line, such as `acctl update `.
///   - socket: The daemon's socket, in `ACCESSORYD_SOCKET`.
private func complete(
  _ line: String, socket: String = "/nonexistent/x.sock"
) async throws -> [String] {
  let binaries = try builtProduct("acctl").deletingLastPathComponent().path
  var environment = ProcessInfo.processInfo.environment
  environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin")
  environment["ACCESSORYD_SOCKET"] = socket
  let result = try await runProgram(
    "/bin/bash",
    [
      "--norc", "--noprofile", "-c",
      #"source "$1"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}; _acctl; "#
        + #"printf '%s\n' "${COMPREPLY[@]}""#,
      "bash", script.path, line,
    ], environment: environment)
  #expect(result.status == 0)
  let data = Data(result.stdout.utf8)
  return String(decoding: data, as: UTF8.self)
    .split(separator: "\n").map(String.init)
}

/// Returns the labels listed in one section of a help text.
private func labels(_ section: String, in help: String) -> [String] {
  guard let start = help.range(of: section + ":\n") else { return [] }
  return help[start.upperBound...]
    .split(separator: "\n", omittingEmptySubsequences: false)
    .prefix { !$0.isEmpty }
    .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
    .map { line in
      String(line.dropFirst(2).prefix { $0 != " " }).replacing(",", with: "")
    }
}

@Suite struct CompletionTests {
  @Test func subcommandsMatchTheHelp() async throws {
    let help = try await acctl("--help").output
    #expect(
      try await complete("acctl ") == labels("SUBCOMMANDS", in: help) + ["help"]
    )
    #expect(try await complete("acctl u") == ["unpair", "update"])
    #expect(
      try await complete("acctl policy ") == ["check", "show", "-h", "--help"])
  }

  @Test(
    arguments: [
      "pair", "unpair", "register", "update", "current", "list", "route",
      "events", "policy check", "policy show", "status",
    ])
  func optionsMatchTheHelp(command: String) async throws {
    let words = command.split(separator: " ").map(String.init)
    let help = try await acctl(words + ["--help"]).output
    // The help's last entry, "-h, --help", completes "--" as "--help".
    let listed = labels("OPTIONS", in: help).filter { $0 != "-h" } + ["--help"]
    #expect(try await complete("acctl \(command) --") == listed)
  }

  @Test func placementsCapabilitiesAndNone() async throws {
    #expect(
      try await complete("acctl update X --placement ")
        == ["inEar", "onHead", "overTheEar", "offHead", "none"])
    #expect(
      try await complete("acctl register X --placement o")
        == ["onHead", "overTheEar", "offHead"])
    #expect(
      try await complete("acctl update X --placement=in") == ["inEar"])
    #expect(
      try await complete("acctl register X --capabilities ")
        == ["audioSwitching", "placement"])
    #expect(
      try await complete("acctl register X --capabilities audioSwitching,")
        == ["audioSwitching,placement"])
    #expect(try await complete("acctl update X --primary-source ") == ["none"])
    #expect(try await complete("acctl register X --primary-source ") == [])
  }

  @Test func accessoriesComeFromTheDaemon() async throws {
    let daemon = try FakeDaemon(results: [
      "accessory.list": """
      {"accessories":[{"address":"AA:BB:CC:DD:EE:01",\
      "displayName":"Studio Buds","registration":null,"output":null},\
      {"address":"aa:bb:cc:dd:ee:02","displayName":"Desk",\
      "registration":null,"output":null}]}
      """
    ])
    defer { daemon.stop() }
    #expect(
      try await complete("acctl update ", socket: daemon.path)
        == ["AA:BB:CC:DD:EE:01", "Studio\\ Buds", "AA:BB:CC:DD:EE:02", "Desk"])
    #expect(
      try await complete("acctl current S", socket: daemon.path) == [
        "Studio\\ Buds"
      ])
    // Bash replaces only the part after the last ':' of the word.
    #expect(
      try await complete("acctl unpair AA:BB:CC:DD:EE:0", socket: daemon.path)
        == ["01", "02"])
    // Once the accessory is given, nothing more is offered.
    #expect(try await complete("acctl update Desk ", socket: daemon.path) == [])
  }

  @Test func pairOffersTheDiscoveredDevices() async throws {
    let daemon = try FakeDaemon(results: [
      "discovery.list": """
      {"devices":[{"address":"AA:BB:CC:DD:EE:01","displayName":"Studio Buds"},\
      {"address":"aa:bb:cc:dd:ee:07","displayName":"Kitchen Lamp"}]}
      """
    ])
    defer { daemon.stop() }
    #expect(
      try await complete("acctl pair ", socket: daemon.path)
        == ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:07"])
    #expect(
      try await complete(
        "acctl pair --select AA:BB:CC:DD:EE:0", socket: daemon.path)
        == ["01", "07"])
    #expect(try await complete("acctl pair AA:BB:CC:DD:EE:01 ") == [])
  }

  @Test func nothingWhenTheDaemonIsDown() async throws {
    #expect(try await complete("acctl current ") == [])
  }
}
