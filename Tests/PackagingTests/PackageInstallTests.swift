// The Debian package where it will run: installed with apt into a clean
// Debian 12 root and a clean Debian 13 root made by debootstrap, with no
// Swift toolchain, it answers --version and --help, shows its manual
// pages, switches the output of a private PulseAudio, and leaves nothing
// behind when it is purged. And scripts/demo --installed, the README's
// first command, run in such roots as a newcomer's machine: one with
// GNOME's PipeWire (pipewire-audio, which conflicts with PulseAudio) on
// each release, and one with no sound server; it runs to the end and
// removes no package.
//
// scripts/test-package builds the package and runs this suite with
// ACCESSORYD_PACKAGE set to it; it needs root (chroot, mount) and network
// access to Debian's archive. Each debootstrap root is cached as a tarball
// under ~/.cache/accessoryd/, so a second run on a machine starts at once.

import ConcurrencyHelpers
import Foundation
import Glibc
import TestSupport
import Testing
import TrayIndicator

/// The package under test, from `ACCESSORYD_PACKAGE`.
private let packagePath = ProcessInfo.processInfo.environment[
  "ACCESSORYD_PACKAGE"]

/// Debian's archive, for debootstrap and for apt inside the root.
private let mirror = "http://deb.debian.org/debian"

/// A Debian release the package is tested in.
struct DebianRelease: Sendable, CustomStringConvertible {
  /// The release's number, such as 12.
  var number: Int
  /// Its code name, such as `bookworm`.
  var codeName: String

  /// Debian 12, whose PulseAudio 16 and PipeWire 0.3.65 this machine runs.
  static let bookworm = DebianRelease(number: 12, codeName: "bookworm")
  /// Debian 13, with PulseAudio 17 and PipeWire 1.4.
  static let trixie = DebianRelease(number: 13, codeName: "trixie")

  var description: String { "Debian \(number) (\(codeName))" }
}

/// A machine the demo is tried on: a Debian release, and the sound it
/// has before the demo runs.
struct DemoMachine: Sendable, CustomStringConvertible {
  /// The release.
  var release: DebianRelease
  /// The package of the desktop's sound, such as `pipewire-audio` (GNOME's
  /// since Debian 12), or nil for a machine with no sound server.
  var soundServer: String?

  var description: String {
    "\(release) with \(soundServer ?? "no sound server")"
  }
}

/// A clean Debian root in a temporary directory.
///
/// It has a /proc of its own and, while in use, a sound server's directory
/// mounted into it. debootstrap made its /dev nodes; no host directory but
/// the server's is bound into it.
private final class DebianRoot: Sendable {
  let path: String
  /// What is mounted inside, innermost last.
  let mounts = Mutex<[String]>([])

  private init(path: String) { self.path = path }

  /// Unpacks the cached minimal root, or makes it with debootstrap and
  /// caches it.
  static func make(_ release: DebianRelease) async throws -> DebianRoot {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-debian-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true)
    let root = DebianRoot(path: path)
    let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
    let cache = home + "/.cache/accessoryd"
    let tarball = cache + "/debian-\(release.number)-minbase.tar"
    if FileManager.default.fileExists(atPath: tarball) {
      try await root.host("tar", ["-xf", tarball, "-C", path])
    } else {
      try await root.host(
        "debootstrap",
        ["--variant=minbase", release.codeName, path, mirror],
        within: .seconds(900))
      try FileManager.default.createDirectory(
        atPath: cache, withIntermediateDirectories: true)
      try await root.host(
        "tar", ["-cf", tarball + ".part", "-C", path, "."],
        within: .seconds(300))
      try FileManager.default.moveItem(
        atPath: tarball + ".part", toPath: tarball)
    }
    // Name resolution for apt, as the host has it.
    try? FileManager.default.removeItem(atPath: path + "/etc/resolv.conf")
    try FileManager.default.copyItem(
      atPath: "/etc/resolv.conf", toPath: path + "/etc/resolv.conf")
    try await root.host("mount", ["-t", "proc", "proc", path + "/proc"])
    root.mounts.withLock { $0.append(path + "/proc") }
    return root
  }

  /// Mounts a host directory at the same path inside the root.
  func bind(_ directory: String) async throws {
    let target = path + directory
    try FileManager.default.createDirectory(
      atPath: target, withIntermediateDirectories: true)
    try await host("mount", ["--bind", directory, target])
    mounts.withLock { $0.append(target) }
  }

  /// Runs a host program and requires that it succeeds.
  @discardableResult
  func host(
    _ program: String, _ arguments: [String],
    within limit: Duration = .seconds(120)
  ) async throws -> ProgramResult {
    let result = try await runProgram(
      "/usr/bin/env", [program] + arguments,
      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"],
      within: limit)
    guard result.status == 0 else {
      throw FixtureError("\(program) \(arguments) failed: \(result)")
    }
    return result
  }

  /// Runs a program inside the root, with a clean environment.
  func run(
    _ arguments: [String], environment: [String: String] = [:],
    within limit: Duration = .seconds(300)
  ) async throws -> ProgramResult {
    var all = [
      "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
      "LC_ALL": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive",
    ]
    all.merge(environment) { $1 }
    return try await runProgram(
      "/usr/sbin/chroot", [path] + arguments, environment: all,
      within: limit)
  }

  /// Starts a program inside the root that runs until stopped.
  func start(
    _ arguments: [String], environment: [String: String]
  ) throws -> ProgramRun {
    var all = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"]
    all.merge(environment) { $1 }
    return try ProgramRun.start(
      "/usr/sbin/chroot", [path] + arguments, environment: all)
  }

  /// Unmounts everything and removes the root; a root that something is
  /// still mounted in is left, and named, rather than removed through
  /// the mount.
  func remove() async {
    for target in mounts.withLock({ $0 }).reversed() {
      _ = try? await runProgram(
        "/usr/bin/umount", [target], environment: ["PATH": "/usr/bin:/bin"])
    }
    mounts.withLock { $0 = [] }
    let table =
      (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
    let stillMounted = table.split(separator: "\n").contains {
      $0.split(separator: " ").dropFirst().first?.hasPrefix(path) == true
    }
    guard !stillMounted else {
      Issue.record("\(path) still has a mount in it; it is left in place")
      return
    }
    try? FileManager.default.removeItem(atPath: path)
  }
}

@Suite("The Debian package in clean Debian 12 and 13", .serialized)
struct PackageInstallTests {
  @Test(
    "Installed with apt: it runs without Swift, switches, and purges clean",
    .enabled(
      if: packagePath != nil || ProcessInfo.processInfo.environment["CI"] != nil
    ), arguments: [DebianRelease.bookworm, .trixie])
  func installRunRemove(_ release: DebianRelease) async throws {
    guard let package = packagePath else {
      throw FixtureError(
        "ACCESSORYD_PACKAGE is not set: run scripts/test-package, which "
          + "builds the package and runs this test")
    }
    #expect(getuid() == 0, "this test needs root for chroot and mount")
    let root = try await DebianRoot.make(release)
    do {
      try await check(package, in: root)
    } catch {
      await root.remove()
      throw error
    }
    await root.remove()
  }

  @Test(
    "The demo runs to the end on the machine's own kind of server, removing nothing",
    .enabled(
      if: packagePath != nil || ProcessInfo.processInfo.environment["CI"] != nil
    ),
    arguments: [
      DemoMachine(release: .bookworm, soundServer: "pipewire-audio"),
      DemoMachine(release: .trixie, soundServer: "pipewire-audio"),
      DemoMachine(release: .bookworm, soundServer: nil),
    ])
  func demoRunsWithoutRemoving(_ machine: DemoMachine) async throws {
    guard let package = packagePath else {
      throw FixtureError(
        "ACCESSORYD_PACKAGE is not set: run scripts/test-package, which "
          + "builds the package and runs this test")
    }
    #expect(getuid() == 0, "this test needs root for chroot and mount")
    let root = try await DebianRoot.make(machine.release)
    do {
      try await checkDemo(on: machine, package: package, in: root)
    } catch {
      await root.remove()
      throw error
    }
    await root.remove()
  }

  /// Gives the root the machine's sound (GNOME's `pipewire-audio`, which
  /// conflicts with `pulseaudio`) and the package, then runs
  /// `scripts/demo --installed` in it, as on that machine, and compares
  /// its packages and its enabled units before and after.
  private func checkDemo(
    on machine: DemoMachine, package: String, in root: DebianRoot
  ) async throws {
    let clone = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    for directory in ["scripts", "policies"] {
      try FileManager.default.createDirectory(
        atPath: root.path + "/tmp/clone/" + directory,
        withIntermediateDirectories: true)
    }
    for file in [
      "scripts/demo", "scripts/install-dependencies", "policies/default.json5",
    ] {
      try FileManager.default.copyItem(
        atPath: clone.appendingPathComponent(file).path,
        toPath: root.path + "/tmp/clone/" + file)
    }
    try FileManager.default.copyItem(
      atPath: package, toPath: root.path + "/tmp/accessoryd.deb")
    let update = try await root.run(["apt-get", "update", "-qq"])
    try #require(update.status == 0, "\(update)")
    let setUp = try await root.run(
      [
        "apt-get", "install", "-y", "-qq", "--no-install-recommends",
        "/tmp/accessoryd.deb",
      ] + (machine.soundServer.map { [$0] } ?? []), within: .seconds(900))
    try #require(setUp.status == 0, "\(setUp)")

    func packages() async throws -> Set<String> {
      let listed = try await root.run(
        ["dpkg-query", "-W", "-f", "${Package} ${Status}\n"])
      return Set(
        listed.stdout.split(separator: "\n").filter {
          $0.hasSuffix(" install ok installed")
        }.compactMap { $0.split(separator: " ").first.map(String.init) })
    }
    func units() async throws -> [String] {
      let listed = try await root.run([
        "sh", "-c",
        "find /etc/systemd -type l -printf '%p -> %l\\n' | sort",
      ])
      return listed.stdout.split(separator: "\n").map(String.init)
    }
    let packagesBefore = try await packages()
    let unitsBefore = try await units()

    let demo = try await root.run(
      ["bash", "/tmp/clone/scripts/demo", "--installed"],
      environment: ["TMPDIR": "/tmp"], within: .seconds(900))
    #expect(demo.status == 0, "\(demo)")
    let serverName = machine.soundServer == nil ? "PulseAudio" : "PipeWire"
    #expect(
      demo.stdout.contains("A private \(serverName) with a speaker"), "\(demo)")
    #expect(
      demo.stdout.contains("The demo's files are removed now."), "\(demo)")
    // Each switch happened, as the sound server itself reports it.
    #expect(
      demo.stdout.contains("sound server: default output buds;"), "\(demo)")

    let packagesAfter = try await packages()
    let removed = packagesBefore.subtracting(packagesAfter)
    let added = packagesAfter.subtracting(packagesBefore)
    #expect(removed.isEmpty, "the demo removed \(removed.sorted())")
    let needed =
      (machine.soundServer == nil
        ? ["pulseaudio"] : ["pipewire", "pipewire-pulse", "wireplumber"])
      + [
        "pulseaudio-utils", "python3-dbusmock", "dbus-daemon", "libglib2.0-bin",
      ]
    for package in needed {
      #expect(
        packagesAfter.contains(package), "\(package) is not installed: \(added)"
      )
    }
    // Nothing to build with (--installed), and the test stack stays with
    // scripts/test.
    for unwanted in [
      "libpulse-dev", "qemu-system-x86", "linux-image-amd64", "zsh", "fish",
      "mpv", "tmux", "bluez",
    ] + (machine.soundServer == nil ? ["pipewire", "wireplumber"] : []) {
      #expect(!added.contains(unwanted), "the demo installed \(unwanted)")
    }
    let unitsAfter = try await units()
    #expect(
      unitsAfter == unitsBefore,
      "the units changed: \(unitsBefore) → \(unitsAfter)")
    // Nothing of the demo's was left behind to stop services starting.
    #expect(
      !FileManager.default.fileExists(
        atPath: root.path + "/usr/sbin/policy-rc.d"))
    // Where the desktop's sound conflicts with PulseAudio, the demo asked
    // for PulseAudio stops before it removes anything, and says why.
    if machine.soundServer != nil {
      let build = try await root.run(
        [
          "bash", "/tmp/clone/scripts/demo", "--installed", "--server",
          "pulseaudio",
        ],
        within: .seconds(300))
      #expect(build.status == 69, "\(build)")
      #expect(
        build.stderr.contains("would remove")
          && build.stderr.contains("pipewire-audio")
          && build.stderr.contains("nothing was installed"), "\(build)")
      let afterRefusal = try await packages()
      #expect(
        afterRefusal == packagesAfter, "the refused install changed packages")
    }
    print(
      "The demo in \(machine): \(added.count) packages added "
        + "(\(added.sorted().joined(separator: " "))), none removed; enabled "
        + "units \(unitsBefore.count) before and after")
  }

  private func check(_ package: String, in root: DebianRoot) async throws {
    try FileManager.default.copyItem(
      atPath: package, toPath: root.path + "/tmp/accessoryd.deb")
    let update = try await root.run(["apt-get", "update", "-qq"])
    #expect(update.status == 0, "\(update)")
    let install = try await root.run([
      "apt-get", "install", "-y", "-qq", "--no-install-recommends",
      "/tmp/accessoryd.deb", "man-db",
    ])
    try #require(install.status == 0, "\(install)")

    // No Swift toolchain: the runtime is in the binaries.
    let swift = try await root.run([
      "sh", "-c", "command -v swift swiftc; ls /usr/lib/swift 2>/dev/null",
    ])
    #expect(swift.stdout.isEmpty, "\(swift)")
    let ldd = try await root.run(["ldd", "/usr/bin/accessoryd"])
    #expect(!ldd.stdout.contains("swift"), "\(ldd.stdout)")
    #expect(!ldd.stdout.contains("not found"), "\(ldd.stdout)")
    // libpulse and libdbus load at their first call, which acctl never
    // makes; the package depends on them for the daemon.
    #expect(!ldd.stdout.contains("libpulse"), "\(ldd.stdout)")
    #expect(!ldd.stdout.contains("libdbus"), "\(ldd.stdout)")
    // One binary: acctl is a link to accessoryd.
    let link = try await root.run(["readlink", "/usr/bin/acctl"])
    #expect(link.stdout == "accessoryd\n", "\(link)")

    let version = try await root.run(["accessoryd", "--version"])
    #expect(version.status == 0 && version.stdout.hasPrefix("accessoryd "))
    let help = try await root.run(["acctl", "--help"])
    #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "\(help)")
    // The tray: the same binary under its own name.
    let tray = try await root.run(["accessoryd-tray", "--version"])
    #expect(tray.status == 0 && tray.stdout.hasPrefix("accessoryd "), "\(tray)")
    for page in [
      "/usr/share/man/man1/acctl.1.gz", "/usr/share/man/man8/accessoryd.8.gz",
      "/usr/share/man/man5/accessoryd.policy.5.gz",
      "/usr/share/man/man1/accessoryd-tray.1.gz",
    ] {
      let shown = try await root.run(
        ["man", "-l", "-P", "cat", page], environment: ["MANWIDTH": "100"])
      #expect(shown.status == 0, "\(shown)")
      #expect(shown.stderr.isEmpty, "\(shown)")
      #expect(
        shown.stdout.contains("EXIT STATUS")
          || shown.stdout.contains("SETTINGS"), "\(page)")
    }

    try await switches(in: root)

    let files = try await root.run(["dpkg", "-L", "accessoryd"])
    let installed = files.stdout.split(separator: "\n").map(String.init)
    #expect(installed.contains("/usr/lib/systemd/user/accessoryd.service"))
    // The session D-Bus API's files, where dbus-daemon and dbus-broker
    // look for them.
    let trayIcons = TrayIcon.allCases.map {
      "/usr/share/icons/hicolor/scalable/status/\($0.rawValue).svg"
    }
    for file in [
      "/usr/share/dbus-1/services/io.github.accessoryd.service",
      "/usr/share/dbus-1/interfaces/io.github.accessoryd.Daemon1.xml",
      "/usr/share/dbus-1/interfaces/io.github.accessoryd.Route1.xml",
      "/usr/share/dbus-1/interfaces/io.github.accessoryd.Accessory1.xml",
      // The tray's autostart file and icons.
      "/etc/xdg/autostart/accessoryd-tray.desktop",
      "/usr/share/icons/hicolor/scalable/apps/accessoryd.svg",
    ] + trayIcons {
      #expect(installed.contains(file), "\(file) is not installed")
    }
    let purge = try await root.run([
      "apt-get", "purge", "-y", "-qq", "accessoryd",
    ])
    #expect(purge.status == 0, "\(purge)")
    var isDirectory: ObjCBool = false
    let left = installed.filter { path in
      FileManager.default.fileExists(
        atPath: root.path + path, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }
    #expect(left.isEmpty, "left after purge: \(left)")
    #expect(
      !FileManager.default.fileExists(
        atPath: root.path + "/usr/share/accessoryd"))
  }

  /// Pair, register and put on the headphones of a private PulseAudio:
  /// the installed daemon moves its default.
  private func switches(in root: DebianRoot) async throws {
    let server = try await SoundServer.start(
      .pulseAudio,
      sinks: [
        .speaker(name: "speaker", description: "Built-in Speaker"),
        .bluetoothHeadphones(
          name: "buds", address: "AA:BB:CC:DD:EE:01",
          description: "Studio Buds", formFactor: "headphone",
          deviceAPI: SoundServerKind.pulseAudio.bluetoothDeviceAPI),
      ])
    defer { server.stop() }
    try await root.bind(server.directory.path)
    let state = "/tmp/accessoryd-state"
    let environment = [
      "PULSE_SERVER": server.serverAddress,
      "XDG_RUNTIME_DIR": "/tmp/accessoryd-runtime",
      "ACCESSORYD_SOCKET": state + "/control.sock",
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent",
    ]
    let daemon = try root.start(
      [
        "accessoryd", "--state-dir", state, "--host-address",
        "11:22:33:44:55:66",
      ], environment: environment)
    defer { daemon.stopInBackground() }
    try await waitUntil("the installed daemon to answer", within: .seconds(30))
    {
      try await root.run(["acctl", "status"], environment: environment)
        .status == 0
    }
    for command in [
      ["acctl", "pair", "AA:BB:CC:DD:EE:01"],
      [
        "acctl", "register", "AA:BB:CC:DD:EE:01", "--capabilities",
        "audioSwitching,placement", "--placement", "offHead",
      ],
      ["acctl", "update", "AA:BB:CC:DD:EE:01", "--placement", "inEar"],
    ] {
      let result = try await root.run(command, environment: environment)
      #expect(result.status == 0, "\(command): \(result)")
    }
    try await waitUntil("the default to move to buds", within: .seconds(20)) {
      try await server.defaultSinkName() == "buds"
    }
  }
}
