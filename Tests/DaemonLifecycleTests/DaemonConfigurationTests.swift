import DaemonLifecycle
import Foundation
import Testing

@Suite("accessoryd's settings")
struct DaemonConfigurationTests {
  let environment = [
    "HOME": "/nonexistent-home", "XDG_RUNTIME_DIR": "/run/user/1000",
  ]

  @Test func defaultsFollowXDG() throws {
    guard
      case .run(let configuration) = try DaemonConfiguration.parse(
        [], environment: environment)
    else {
      Issue.record("expected a configuration")
      return
    }
    #expect(configuration.server == nil)
    #expect(configuration.policyPath == nil)
    #expect(
      configuration.stateFilePath
        == "/nonexistent-home/.local/state/accessoryd/state.json")
    #expect(
      configuration.socketPath == "/run/user/1000/accessoryd/control.sock")
    #expect(configuration.logLevel == .notice)
  }

  @Test func flagsWin() throws {
    guard
      case .run(let configuration) = try DaemonConfiguration.parse(
        [
          "--server", "unix:/x", "--policy=/p.json5", "--state-dir", "/s",
          "--socket", "/sock", "--host-address", "aa-bb-cc-dd-ee-ff",
          "--host-address", "11:22:33:44:55:66", "--log-level", "debug",
        ], environment: environment)
    else {
      Issue.record("expected a configuration")
      return
    }
    #expect(configuration.server == "unix:/x")
    #expect(configuration.policyPath == "/p.json5")
    #expect(configuration.stateFilePath == "/s/state.json")
    #expect(configuration.socketPath == "/sock")
    #expect(
      configuration.hostAddresses == ["AA:BB:CC:DD:EE:FF", "11:22:33:44:55:66"])
    #expect(configuration.logLevel == .debug)
    #expect(configuration.serverTimeout == .seconds(5))
    #expect(configuration.stopTimeout == .seconds(5))
  }

  @Test("The sound server's and the stop's timeouts are taken in seconds")
  func timeouts() throws {
    guard
      case .run(let configuration) = try DaemonConfiguration.parse(
        ["--server-timeout", "0.5", "--stop-timeout", "120"],
        environment: environment)
    else {
      Issue.record("expected a configuration")
      return
    }
    #expect(configuration.serverTimeout == .milliseconds(500))
    #expect(configuration.stopTimeout == .seconds(120))
  }

  @Test(arguments: [
    (["--bogus"], "Unknown option '--bogus'"),
    (["stray"], "Unexpected argument 'stray'"),
    (["--policy"], "Missing value for '--policy <file>'"),
    (
      ["--log-level", "loud"],
      "The value 'loud' is invalid for '--log-level': expected trace, debug, "
        + "info, notice, warning, error, critical"
    ),
    (
      ["--host-address", "nope"],
      "The value 'nope' is invalid for '--host-address': expected a "
        + "Bluetooth address such as 'AA:BB:CC:DD:EE:FF'"
    ),
    (
      ["--stop-timeout", "0"],
      "The value '0' is invalid for '--stop-timeout': expected a number of "
        + "seconds from 0.001 to 3600, such as 5 or 0.5"
    ),
    (
      ["--server-timeout", "soon"],
      "The value 'soon' is invalid for '--server-timeout': expected a number "
        + "of seconds from 0.001 to 3600, such as 5 or 0.5"
    ),
  ])
  func badArgumentsAreNamed(arguments: [String], message: String) {
    #expect {
      try DaemonConfiguration.parse(arguments, environment: environment)
    } throws: { error in
      // A command-line mistake exits 64 with the usage line.
      "\(error)" == message
        && (error as? DaemonConfiguration.UsageError)?.exitStatus == .usage
    }
  }

  @Test func aConfigFileIsReadAndCheckedKeyByKey() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("good.json5")
    try Data(
      "{ server: 'unix:/a', logLevel: 'info', hostAddresses: ['AA:BB:CC:DD:EE:01'] }"
        .utf8
    ).write(to: good)
    guard
      case .run(let configuration) = try DaemonConfiguration.parse(
        ["--config", good.path, "--log-level", "error"],
        environment: environment)
    else {
      Issue.record("expected a configuration")
      return
    }
    #expect(configuration.server == "unix:/a")
    #expect(configuration.logLevel == .error)
    #expect(configuration.hostAddresses == ["AA:BB:CC:DD:EE:01"])

    let bad = directory.appendingPathComponent("bad.json5")
    try Data("{ sever: 'unix:/a' }".utf8).write(to: bad)
    #expect {
      try DaemonConfiguration.parse(
        ["--config", bad.path], environment: environment)
    } throws: { error in
      // A config file's mistake exits 78, without the usage line.
      (error as? DaemonConfiguration.UsageError)?.exitStatus == .configuration
        && "\(error)"
          == "\(bad.path): sever: is not a known setting; expected one of "
          + "'server', 'policy', 'stateDirectory', 'socket', 'hostAddresses', "
          + "'logLevel'"
    }

    // A syntax error names its line and column.
    let broken = directory.appendingPathComponent("broken.json5")
    try Data("{\n  server: 'unix:/a'\n  logLevel: 'info',\n}".utf8).write(
      to: broken)
    #expect {
      try DaemonConfiguration.parse(
        ["--config", broken.path], environment: environment)
    } throws: { error in
      "\(error)"
        == "\(broken.path): line 3, column 3: expected ',' or '}' after the value of "
        + "'server', found 'l'"
    }
  }

  @Test func helpAndVersion() throws {
    #expect(
      try DaemonConfiguration.parse(["--help"], environment: environment)
        == .help)
    #expect(
      try DaemonConfiguration.parse(["--version"], environment: environment)
        == .version)
  }

  /// The manual's EXIT STATUS lists what the daemon exits with.
  @Test func manualExitStatuses() {
    #expect(
      DaemonConfiguration.configuration.exitStatuses.map(\.code)
        == [0, 1, 64, 65, 73, 75, 78, 143])
  }
}
