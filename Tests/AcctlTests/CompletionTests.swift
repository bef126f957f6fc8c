// Tests of acctl's completion scripts, as `acctl
// --generate-completion-script` writes them: bash runs its completion
// function, fish its `complete -C`, and zsh completes in a real terminal
// (tmux) with compinit, each against the built acctl and a fake daemon.

import Foundation
import TestSupport
import Testing

/// A private directory with acctl's script for each shell and zsh's
/// start-up file, removed when the test process ends.
private let scripts: String = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("acctl-completion-\(getpid())").path
  try? FileManager.default.createDirectory(
    atPath: directory + "/zsh", withIntermediateDirectories: true)
  return directory
}()

/// Writes the script of a shell with the built acctl and returns its path.
private func script(for shell: String) async throws -> String {
  let path =
    switch shell {
    case "bash": scripts + "/acctl.bash"
    case "zsh": scripts + "/zsh/_acctl"
    default: scripts + "/acctl.fish"
    }
  let result = try await acctl("--generate-completion-script", shell)
  #expect(result.status == 0)
  try result.output.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// The path of a program the tests need, such as a shell.
///
/// - Throws: ``FixtureError`` saying how to install it, when it is missing.
private func executable(_ name: String) throws -> String {
  for directory in ["/usr/local/bin", "/usr/bin", "/bin"]
  where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
    return directory + "/" + name
  }
  throw FixtureError(
    "\(name) is not installed: install it with scripts/install-dependencies "
      + "test")
}

/// The environment the shells run in: the built acctl first on PATH.
private func shellEnvironment(socket: String) throws -> [String: String] {
  let binaries = try builtProduct("acctl").deletingLastPathComponent().path
  var environment = ProcessInfo.processInfo.environment
  environment["PATH"] = binaries + ":/usr/local/bin:/usr/bin:/bin"
  environment["ACCESSORYD_SOCKET"] = socket
  return environment
}

/// Returns what bash completes for a command line typed up to its end.
///
/// - Parameters:
///   - line: The command line, such as `acctl update `.
///   - socket: The daemon's socket, in `ACCESSORYD_SOCKET`.
private func complete(
  _ line: String, socket: String = "/nonexistent/x.sock"
) async throws -> [String] {
  let result = try await runProgram(
    "/bin/bash",
    [
      "--norc", "--noprofile", "-c",
      #"source "$1"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}; _acctl; "#
        + #"printf '%s\n' "${COMPREPLY[@]}""#,
      "bash", try await script(for: "bash"), line,
    ], environment: try shellEnvironment(socket: socket))
  #expect(result.status == 0)
  return result.stdout.split(separator: "\n").map(String.init)
}

/// Returns what fish completes for a command line, without descriptions.
private func fishCompletes(
  _ line: String, socket: String = "/nonexistent/x.sock"
) async throws -> [String] {
  let result = try await runProgram(
    try executable("fish"),
    [
      "--no-config", "-c", #"source $argv[1]; complete -C $argv[2]"#,
      try await script(for: "fish"), line,
    ], environment: try shellEnvironment(socket: socket))
  #expect(result.status == 0, "\(result)")
  return result.stdout.split(separator: "\n").map {
    String($0.prefix { $0 != "\t" })
  }
}

/// A fake daemon with one accessory, Studio Buds, AA:BB:CC:DD:EE:01.
private func studioBudsDaemon() throws -> FakeDaemon {
  try FakeDaemon(results: [
    "accessory.list": """
    {"accessories":[{"address":"AA:BB:CC:DD:EE:01",\
    "displayName":"Studio Buds","registration":null,"output":null}]}
    """
  ])
}

/// The first line of a screen.
private func firstLine(_ screen: String) -> String {
  String(screen.prefix { $0 != "\n" })
}

/// Types a command line and Tab into an interactive zsh with compinit in
/// a private tmux, and returns the screen once the completion shows.
private func zshCompletes(
  _ line: String, socket: String = "/nonexistent/x.sock"
) async throws -> String {
  _ = try await script(for: "zsh")
  let home = scripts + "/zsh-home-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(
    atPath: home, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: home) }
  try """
  fpath=(\(scripts)/zsh $fpath)
  autoload -Uz compinit
  compinit -u -D
  PROMPT='%% '
  """.write(toFile: home + "/.zshrc", atomically: true, encoding: .utf8)
  let tmux = try executable("tmux")
  let zsh = try executable("zsh")
  var environment = try shellEnvironment(socket: socket)
  environment["ZDOTDIR"] = home
  environment["HOME"] = home
  environment["TERM"] = "xterm-256color"
  let base = ["-S", home + "/tmux.sock", "-f", "/dev/null"]
  func run(_ arguments: [String]) async throws -> String {
    try await runProgram(tmux, base + arguments, environment: environment)
      .stdout
  }
  func screen() async throws -> String {
    try await run(["capture-pane", "-p", "-t", "z"])
  }
  _ = try await run([
    "new-session", "-d", "-s", "z", "-x", "160", "-y", "20", zsh + " -i",
  ])
  do {
    try await waitUntil("zsh's prompt", within: .seconds(20)) {
      // tmux leaves out the spaces at the ends of lines.
      try await screen().hasPrefix("%")
    }
    _ = try await run(["send-keys", "-t", "z", "-l", line])
    try await waitUntil("the line typed", within: .seconds(20)) {
      try await screen().hasPrefix("% " + line)
    }
    let typed = try await screen()
    _ = try await run(["send-keys", "-t", "z", "Tab"])
    let completed = try await waitFor(
      "zsh to complete '\(line)'", within: .seconds(20),
      observing: { try await screen() }, until: { $0 != typed })
    _ = try? await run(["kill-server"])
    return completed
  } catch {
    _ = try? await run(["kill-server"])
    throw error
  }
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
      try await complete("acctl policy ") == [
        "check", "show", "reload", "set", "--help",
      ])
  }

  @Test(
    arguments: [
      "pair", "unpair", "register", "update", "current", "list", "route",
      "events", "policy check", "policy show", "policy reload", "policy set",
      "status",
      "output list", "output choose", "output forget",
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

  @Test func quotedNamesAndFiles() async throws {
    let daemon = try studioBudsDaemon()
    defer { daemon.stop() }
    // Inside an open quote, bash takes the name as it is.
    #expect(
      try await complete(#"acctl current "Studio B"#, socket: daemon.path)
        == ["Studio Buds"])
    #expect(
      try await complete("acctl current 'Stu", socket: daemon.path)
        == ["Studio Buds"])
    #expect(
      try await complete(#"acctl current Studio\ B"#, socket: daemon.path)
        == [#"Studio\ Buds"#])
    // Paths are bash's own file completion.
    #expect(try await complete("acctl policy check /et").contains("/etc"))
  }

  @Test func fishOffersTheSameTree() async throws {
    let daemon = try studioBudsDaemon()
    defer { daemon.stop() }
    #expect(try await fishCompletes("acctl upd") == ["update"])
    #expect(
      Set(try await fishCompletes("acctl update X --placement o"))
        == ["onHead", "overTheEar", "offHead"])
    #expect(
      try await fishCompletes("acctl update X --placement=in")
        == ["--placement=inEar"])
    #expect(
      Set(
        try await fishCompletes(
          "acctl register X --capabilities audioSwitching,"))
        == ["audioSwitching,placement"])
    #expect(
      try await fishCompletes("acctl current Stu", socket: daemon.path)
        == ["Studio Buds"])
    #expect(
      try await fishCompletes("acctl unpair AA:BB", socket: daemon.path)
        == ["AA:BB:CC:DD:EE:01"])
    let help = try await acctl(["update", "--help"]).output
    let listed = labels("OPTIONS", in: help).filter { $0 != "-h" } + ["--help"]
    #expect(Set(try await fishCompletes("acctl update X --")) == Set(listed))
    #expect(try await fishCompletes("acctl policy check /et").contains("/etc/"))
  }

  @Test func zshCompletesInATerminal() async throws {
    let daemon = try studioBudsDaemon()
    defer { daemon.stop() }
    let subcommand = try await zshCompletes("acctl upd")
    #expect(firstLine(subcommand) == "% acctl update", "\(subcommand)")
    // A name with a space is quoted as zsh quotes it.
    let name = try await zshCompletes("acctl current Stu", socket: daemon.path)
    #expect(firstLine(name) == #"% acctl current Studio\ Buds"#, "\(name)")
    let address = try await zshCompletes(
      "acctl unpair AA:BB", socket: daemon.path)
    #expect(
      firstLine(address) == "% acctl unpair AA:BB:CC:DD:EE:01", "\(address)")
    // Several candidates are listed under the line.
    let placements = try await zshCompletes("acctl update X --placement o")
    for placement in ["onHead", "overTheEar", "offHead"] {
      #expect(placements.contains(placement), "\(placements)")
    }
    let value = try await zshCompletes("acctl update X --placement=in")
    #expect(
      firstLine(value) == "% acctl update X --placement=inEar", "\(value)")
  }
}
