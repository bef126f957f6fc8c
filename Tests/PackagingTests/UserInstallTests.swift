// scripts/install-user, the guide's install from a clone: one binary with
// acctl and accessoryd-tray as links, and every file the package has (the
// unit, the D-Bus files, the tray's autostart file and icons, the manual
// pages, the completions) under a user's own XDG directories, naming the
// installed binary; --uninstall removes all of it.

import Foundation
import TestSupport
import Testing

@Suite("Installing from a clone for one user")
struct UserInstallTests {
  /// The clone's root.
  static let clone = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("Everything the package has, for one user, and --uninstall removes it")
  func installAndUninstall() async throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-user-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    let environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LC_ALL": "C.UTF-8",
      "TMPDIR": FileManager.default.temporaryDirectory.path,
    ]
    let script = Self.clone.appendingPathComponent("scripts/install-user").path
    let install = try await runProgram(
      "/bin/bash",
      [script, "--binary", try builtProduct("accessoryd").path],
      environment: environment, within: .seconds(120))
    #expect(install.status == 0, "\(install)")
    #expect(
      install.stdout.contains(
        "systemctl --user daemon-reload; systemctl --user enable --now "
          + "accessoryd"), "\(install)")

    let bin = home + "/.local/bin"
    let data = home + "/.local/share"
    let config = home + "/.config"
    // One binary; acctl and the tray are links to it.
    for name in ["acctl", "accessoryd-tray"] {
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "\(bin)/\(name)")
      #expect(target == "accessoryd", "\(name) → \(target ?? "no link")")
    }
    let version = try await runProgram(
      "\(bin)/acctl", ["--version"], environment: environment)
    #expect(version.status == 0 && version.stdout.hasPrefix("accessoryd "))

    func read(_ path: String) throws -> String {
      try String(contentsOfFile: path, encoding: .utf8)
    }
    // Each file names the installed binary, whatever the session's PATH.
    let unit = try read(config + "/systemd/user/accessoryd.service")
    #expect(unit.contains("\nExecStart=\(bin)/accessoryd\n"), "\(unit)")
    let activation = try read(
      data + "/dbus-1/services/io.github.accessoryd.service")
    #expect(activation.contains("\nExec=\(bin)/accessoryd\n"), "\(activation)")
    #expect(activation.contains("\nSystemdService=accessoryd.service"))
    let autostart = try read(config + "/autostart/accessoryd-tray.desktop")
    #expect(
      autostart.contains("\nExec=\(bin)/accessoryd-tray\n"), "\(autostart)")
    #expect(
      autostart.contains("\nTryExec=\(bin)/accessoryd-tray\n"), "\(autostart)")
    let icons = try FileManager.default.subpathsOfDirectory(
      atPath: Self.clone.appendingPathComponent("contrib/icons").path
    ).filter { $0.hasSuffix(".svg") }
    #expect(!icons.isEmpty)
    for icon in icons {
      #expect(
        FileManager.default.fileExists(atPath: "\(data)/icons/\(icon)"),
        "\(icon)")
    }
    for file in [
      "/man/man1/acctl.1", "/man/man1/accessoryd-tray.1",
      "/man/man8/accessoryd.8", "/man/man5/accessoryd.policy.5",
      "/bash-completion/completions/acctl", "/zsh/site-functions/_acctl",
      "/dbus-1/interfaces/io.github.accessoryd.Daemon1.xml",
      "/accessoryd/policies/default.json5",
    ] {
      let size =
        (try? FileManager.default.attributesOfItem(atPath: data + file))?[
          .size] as? Int ?? 0
      #expect(size > 0, "\(file) is missing or empty")
    }
    #expect(
      FileManager.default.fileExists(
        atPath: config + "/fish/completions/acctl.fish"))

    // --uninstall leaves no file behind, and says how to stop the unit.
    let uninstall = try await runProgram(
      "/bin/bash", [script, "--uninstall"], environment: environment,
      within: .seconds(60))
    #expect(uninstall.status == 0, "\(uninstall)")
    let left =
      (FileManager.default.enumerator(atPath: home)?.allObjects
      as? [String] ?? []).filter { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(
          atPath: "\(home)/\(path)", isDirectory: &isDirectory)
          && !isDirectory.boolValue
      }
    #expect(left.isEmpty, "left after --uninstall: \(left)")
    let links = try FileManager.default.contentsOfDirectory(atPath: bin)
    #expect(links.isEmpty, "left in \(bin): \(links)")
  }
}
