// The systemd user unit in contrib/: systemd-analyze verifies it against
// the built daemon and the generated manual pages, and rates its sandbox;
// it is a notify unit that does not restart a daemon that cannot start.

import Foundation
import TestSupport
import Testing

/// The unit file as the package ships it.
let unitPath = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
  .appendingPathComponent("contrib/accessoryd.service").path

/// A private home with the unit, its ExecStart pointed at the built
/// daemon, and the manual pages its Documentation= names.
private struct UnitCheckHome {
  let directory: String
  let unit: String
  let environment: [String: String]

  init() async throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-unit-\(UUID().uuidString)").path
    for path in ["run", "man/man1", "man/man5", "man/man8"] {
      try FileManager.default.createDirectory(
        atPath: directory + "/" + path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    let accessoryd = try builtProduct("accessoryd").path
    let acctl = try builtProduct("acctl").path
    unit = directory + "/accessoryd.service"
    try String(contentsOfFile: unitPath, encoding: .utf8)
      .replacing(
        "ExecStart=/usr/bin/accessoryd", with: "ExecStart=" + accessoryd
      )
      .write(toFile: unit, atomically: true, encoding: .utf8)
    environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory,
      "XDG_RUNTIME_DIR": directory + "/run", "MANPATH": directory + "/man",
      "LC_ALL": "C.UTF-8",
    ]
    for (program, option, page) in [
      (accessoryd, "--generate-manual", "man8/accessoryd.8"),
      (acctl, "--generate-manual", "man1/acctl.1"),
      (accessoryd, "--generate-policy-manual", "man5/accessoryd.policy.5"),
    ] {
      let result = try await runProgram(
        program, [option], environment: environment)
      try result.stdout.write(
        toFile: directory + "/man/" + page, atomically: true, encoding: .utf8)
    }
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// The path of systemd-analyze, which CI must have.
private func systemdAnalyze() throws -> String {
  let path = "/usr/bin/systemd-analyze"
  guard FileManager.default.isExecutableFile(atPath: path) else {
    throw FixtureError(
      "systemd-analyze is not installed: install it with "
        + "scripts/install-dependencies test")
  }
  return path
}

@Suite("The systemd user unit")
struct UserUnitTests {
  @Test("systemd-analyze verify finds nothing wrong")
  func verifies() async throws {
    let home = try await UnitCheckHome()
    defer { home.remove() }
    let result = try await runProgram(
      try systemdAnalyze(), ["verify", "--user", home.unit],
      environment: home.environment)
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test("Its sandbox rates OK or better, and the rating is printed")
  func sandboxIsRated() async throws {
    let home = try await UnitCheckHome()
    defer { home.remove() }
    let result = try await runProgram(
      try systemdAnalyze(),
      ["security", "--offline=yes", "--user", "--no-pager", home.unit],
      environment: home.environment)
    let line = try #require(
      (result.stdout + result.stderr).split(separator: "\n").first {
        $0.contains("Overall exposure level")
      }, "\(result)")
    print("systemd-analyze security --user: \(line)")
    // systemd's scale: 0 to 10, SAFE, OK, MEDIUM, EXPOSED, UNSAFE.
    #expect(line.contains(" SAFE") || line.contains(" OK"), "\(line)")
  }

  @Test("A notify unit that does not restart what cannot start")
  func tellsTheTruth() async throws {
    let text = try String(contentsOfFile: unitPath, encoding: .utf8)
    let settings = text.split(separator: "\n").filter {
      !$0.hasPrefix("#") && $0.contains("=")
    }.map(String.init)
    #expect(settings.contains("Type=notify"))
    #expect(settings.contains("ExecReload=/bin/kill -HUP $MAINPID"))
    let prevented = try #require(
      settings.first { $0.hasPrefix("RestartPreventExitStatus=") }
    ).dropFirst("RestartPreventExitStatus=".count).split(separator: " ")
    // Each is an exit status the daemon's help lists.
    let help = try await runProgram(
      try builtProduct("accessoryd").path, ["--help"],
      environment: ["PATH": "/usr/bin:/bin"]
    ).stdout
    let listed = help.split(separator: "\n").drop {
      $0 != "EXIT STATUS:"
    }.compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
    #expect(prevented.compactMap { Int($0) } == [64, 65, 73, 75, 78])
    #expect(Set(prevented.compactMap { Int($0) }).isSubset(of: Set(listed)))
  }

  @Test("Every start failure has a documented status, not restarted on")
  func startFailuresAreNotRestarted() async throws {
    let text = try String(contentsOfFile: unitPath, encoding: .utf8)
    let prevented = Set(
      try #require(
        text.split(separator: "\n").first {
          $0.hasPrefix("RestartPreventExitStatus=")
        }
      ).dropFirst("RestartPreventExitStatus=".count).split(separator: " ")
        .compactMap { Int32($0) })
    let accessoryd = try builtProduct("accessoryd").path
    let help = try await runProgram(
      accessoryd, ["--help"], environment: ["PATH": "/usr/bin:/bin"]
    ).stdout
    let listed = Set(
      help.split(separator: "\n").drop { $0 != "EXIT STATUS:" }
        .compactMap { $0.split(separator: " ").first.flatMap { Int32($0) } })
    // The configuration errors of sysexits.h the help lists.
    let configurationErrors = listed.filter { (64...78).contains($0) }
    #expect(configurationErrors.isSubset(of: prevented))
    // Every status of the README's table of failed starts, which
    // StartUpFaultTests writes from real starts.
    let readme = try String(
      contentsOfFile: URL(fileURLWithPath: unitPath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")
        .appendingPathComponent("reliability.md").path, encoding: .utf8)
    let table = try #require(
      readme.components(separatedBy: "<!-- daemon start:").dropFirst().first?
        .components(separatedBy: "<!-- end of daemon start -->").first)
    let statuses = Set(
      table.split(separator: "\n").filter { $0.hasPrefix("| ") }
        .compactMap { row in
          Int32(
            row.split(separator: "|", omittingEmptySubsequences: false)
              .dropFirst(2).first?.trimmingCharacters(in: .whitespaces) ?? "")
        })
    #expect(statuses.count >= 4, "\(statuses)")
    #expect(statuses.isSubset(of: prevented), "\(statuses)")
    #expect(statuses.isSubset(of: listed), "\(statuses)")
    // A socket that cannot be made stops the start with one of them.
    let directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-unit-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = FileManager.default.createFile(
      atPath: directory + "/file", contents: Data())
    let start = try await runProgram(
      accessoryd,
      [
        "--socket", directory + "/file/control.sock", "--state-dir",
        directory + "/state",
      ],
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": directory,
        "XDG_CONFIG_HOME": directory + "/.config",
        "PULSE_SERVER": "unix:\(directory)/no-sound-server",
      ], within: .seconds(10))
    let status = try #require(start.status, "\(start)")
    #expect(prevented.contains(status), "\(start)")
    #expect(listed.contains(status), "\(start)")
  }
}
