// acctl doctor: checks what accessoryd needs, one line per part, and says
// how to fix what is wrong: the daemon and its version, the sound server,
// BlueZ and this host's addresses (as the daemon sees them: acctl asks it
// and never talks to BlueZ itself), the session bus, the policy, the state
// directory and its lock, the user unit, and for AirPods BlueZ's DeviceID.

import AccessoryControl
import CommandLineKit
import FoundationEssentials
import Glibc
import HeadphoneProtocols
import PolicyFiles
import RoutingCore
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

extension Acctl {
  /// Checks the daemon and what it needs.
  struct Doctor: Command {
    static let configuration = CommandConfiguration(
      abstract: "Check the daemon and what it needs, with fixes.",
      discussion: """
        Checks, one line each: the daemon (running, same version as acctl), \
        the sound server it uses, BlueZ as the daemon sees it (running, \
        adapters, this host's addresses), the session bus (media players), the policy (valid, \
        which file), the state directory (writable, locked by this daemon), \
        the user unit (enabled, active) where systemd runs, and for paired \
        AirPods BlueZ's DeviceID setting. Each line says ok, the problem and \
        its fix, or why it was skipped. Exits with 5 when any check finds a \
        problem.
        """)

    static let signature: [ArgumentDefinition] = [
      Shared.json("the checks"),
      Shared.socket,
    ]

    /// The exit status when a check finds a problem.
    static let problemExitCode = ExitCode(.problemFound)

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    init(arguments: inout ArgumentCursor) throws {
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let environment = ProcessInfo.processInfo.environment
      var checkup = Checkup(socket: socket, environment: environment)
      checkup.run()
      if json {
        Output.print(Rendering.json(checkup.json))
      } else {
        Output.print(checkup.text)
      }
      if checkup.findings.contains(where: { $0.result == .problem }) {
        throw Self.problemExitCode
      }
    }
  }
}

/// What one check found.
struct DoctorFinding: Sendable, Hashable {
  /// How a check ended.
  enum Result: String, Sendable, Hashable {
    /// Nothing to fix.
    case ok
    /// Something to fix, said in ``DoctorFinding/fix``.
    case problem
    /// Not checked here, and why.
    case skipped
  }

  /// The name of what was checked, such as `daemon` or `sound server`.
  var check: String
  /// How it ended.
  var result: Result
  /// What was found.
  var detail: String
  /// How to fix a problem.
  var fix: String?
}

/// The checks of one `acctl doctor`, in order; each may use what the ones
/// before it found.
struct Checkup {
  /// The daemon's socket.
  let socket: String
  /// acctl's environment.
  let environment: [String: String]
  /// Whether systemd manages this machine, so that the fixes may name
  /// `systemctl`; elsewhere they say what to do in plain words.
  let systemdManages: Bool
  /// What the checks found, in order.
  private(set) var findings: [DoctorFinding] = []
  /// The daemon's status, when it answered.
  private var status: DaemonStatus?
  /// The connection to the daemon, when it answered.
  private var client: ControlClient?

  init(
    socket: String, environment: [String: String],
    systemdManages: Bool = Checkup.systemdManagesThisMachine
  ) {
    self.socket = socket
    self.environment = environment
    self.systemdManages = systemdManages
  }

  /// Whether systemd is the service manager: this directory exists
  /// (sd_booted(3)).
  static var systemdManagesThisMachine: Bool {
    FileManager.default.fileExists(atPath: "/run/systemd/system")
  }

  /// Returns a fix in systemd's words where systemd manages this machine,
  /// and in plain ones where it does not.
  private func fix(systemd: String, otherwise: String) -> String {
    systemdManages ? systemd : otherwise
  }

  private mutating func ok(_ check: String, _ detail: String) {
    findings.append(DoctorFinding(check: check, result: .ok, detail: detail))
  }

  private mutating func problem(
    _ check: String, _ detail: String, fix: String
  ) {
    findings.append(
      DoctorFinding(check: check, result: .problem, detail: detail, fix: fix))
  }

  private mutating func skipped(_ check: String, _ detail: String) {
    findings.append(
      DoctorFinding(check: check, result: .skipped, detail: detail))
  }

  /// Runs every check.
  mutating func run() {
    checkDaemon()
    checkSoundServer()
    checkBluetooth()
    checkSessionBus()
    checkPolicy()
    checkStateDirectory()
    checkUnit()
  }

  // MARK: - The checks

  private mutating func checkDaemon() {
    do {
      let client = try ControlClient(path: socket)
      let answer = try client.callForJSON(DaemonStatusRequest())
      status = try ControlClient.decode(
        answer, as: DaemonStatus.self, of: "daemon.status")
      self.client = client
    } catch .unreachable {
      problem(
        "daemon", "not running: nothing listens on \(socket)",
        fix: fix(
          systemd: "systemctl --user enable --now accessoryd (or run "
            + "accessoryd in a terminal)",
          otherwise: "start accessoryd: in a terminal, or from your "
            + "session's autostart"))
      return
    } catch .permissionDenied {
      problem(
        "daemon", "\(socket) belongs to another user",
        fix: "use your own daemon's socket (--socket or ACCESSORYD_SOCKET)")
      return
    } catch .servedByAnotherUser(_, let owner, _) {
      problem(
        "daemon", "\(socket) is served by another user, \(owner)",
        fix: "use your own daemon's socket (--socket or ACCESSORYD_SOCKET)")
      return
    } catch {
      problem(
        "daemon", "does not answer on \(socket): \(error.description)",
        fix: fix(
          systemd: "systemctl --user restart accessoryd; journalctl --user "
            + "-u accessoryd says what it did",
          otherwise: "stop accessoryd and start it again; what it writes to "
            + "standard error says what it did"))
      return
    }
    guard let status else { return }
    guard status.version == ProjectVersion.number else {
      problem(
        "daemon",
        "accessoryd \(status.version) runs, but acctl is "
          + ProjectVersion.number,
        fix: fix(
          systemd: "systemctl --user restart accessoryd, so that the "
            + "installed version runs",
          otherwise: "stop accessoryd and start it again, so that the "
            + "installed version runs"))
      return
    }
    ok("daemon", "accessoryd \(status.version), on \(socket)")
  }

  private mutating func checkSoundServer() {
    guard let status else {
      skipped("sound server", "the daemon is not running to ask")
      return
    }
    let server = status.soundServer
    guard server.state == .connected else {
      problem(
        "sound server", "the daemon cannot reach it",
        fix: fix(
          systemd: "start PipeWire's PulseAudio server (systemctl --user "
            + "start pipewire-pulse) or PulseAudio; `pactl info` must answer",
          otherwise: "start PipeWire's PulseAudio server (pipewire-pulse) or "
            + "PulseAudio in your session; `pactl info` must answer"))
      return
    }
    ok(
      "sound server",
      ([server.name, server.version].compactMap { $0 }.joined(
        separator: " ")) + ", connected")
  }

  /// BlueZ as the daemon sees it: acctl asks the daemon
  /// (`bluetooth.status`) and never talks to BlueZ itself.
  private mutating func checkBluetooth() {
    guard let client else {
      skipBluetooth(
        "the daemon is not running to ask; acctl asks it about BlueZ")
      return
    }
    let bluetooth: BluetoothStatus
    do {
      bluetooth = try client.call(BluetoothStatusRequest())
    } catch .remote(let error)
      where error.code == ControlError.methodNotFound("").code
    {
      skipBluetooth(
        "this accessoryd does not report BlueZ; restart it so that the "
          + "installed version runs")
      return
    } catch {
      skipBluetooth(
        "the daemon did not say what BlueZ reports: \(error.description)")
      return
    }
    switch bluetooth.state {
    case .running:
      break
    case .busUnreachable:
      problem(
        "bluez",
        "the daemon cannot reach the system bus: "
          + (bluetooth.reason ?? "no reason given"),
        fix: fix(
          systemd: "sudo systemctl start dbus, then systemctl --user "
            + "restart accessoryd",
          otherwise: "start the system bus (sudo service dbus start), then "
            + "start accessoryd again"))
      skipBluetooth("BlueZ is not reachable", afterBlueZ: true)
      return
    case .notRunning:
      problem(
        "bluez",
        "not running on the system bus ("
          + (bluetooth.reason ?? "no reason given") + ")",
        fix: fix(
          systemd: "sudo apt install bluez; sudo systemctl enable --now "
            + "bluetooth",
          otherwise: "sudo apt install bluez; sudo service bluetooth start"))
      skipBluetooth("BlueZ is not running", afterBlueZ: true)
      return
    default:
      skipBluetooth(
        "the daemon does not read BlueZ now (\(bluetooth.state)"
          + (bluetooth.reason.map { ": \($0)" } ?? "") + ")")
      return
    }
    let adapters = bluetooth.adapters
    if adapters.isEmpty {
      problem(
        "bluez", "running, with no Bluetooth adapter",
        fix: "plug one in, or unblock it: rfkill unblock bluetooth")
    } else if !adapters.contains(where: \.powered) {
      problem(
        "bluez",
        "no adapter is powered: "
          + adapters.map { "\($0.interface) \($0.address)" }.joined(
            separator: ", "),
        fix: "bluetoothctl power on")
    } else {
      ok(
        "bluez",
        adapters.map {
          "\($0.interface) \($0.address)" + ($0.powered ? "" : " (off)")
        }.joined(separator: ", "))
    }
    checkHostAddresses(adapters)
    checkDeviceID(bluetooth.devices)
  }

  /// Skips the checks that need what BlueZ reports: `bluez` too, unless
  /// it found the problem already.
  private mutating func skipBluetooth(
    _ detail: String, afterBlueZ: Bool = false
  ) {
    for check in ["bluez", "host addresses", "airpods"]
    where !afterBlueZ || check != "bluez" {
      skipped(check, detail)
    }
  }

  private mutating func checkHostAddresses(
    _ adapters: [BluetoothStatus.Adapter]
  ) {
    guard let status else {
      skipped("host addresses", "the daemon is not running to ask")
      return
    }
    let used = Set(status.hostAddresses.map(Rendering.canonicalAddress))
    let present = Set(adapters.map { Rendering.canonicalAddress($0.address) })
    let text = used.sorted().joined(separator: ", ")
    guard !used.isEmpty else {
      problem(
        "host addresses",
        "the daemon knows none, so it cannot tell which host an accessory "
          + "plays for",
        fix: "let it read BlueZ's adapters (drop an empty hostAddresses "
          + "from the config file), or give --host-address")
      return
    }
    guard present.isEmpty || used == present else {
      problem(
        "host addresses",
        "the daemon uses \(text), but BlueZ's adapters are "
          + present.sorted().joined(separator: ", "),
        fix: "drop --host-address and hostAddresses from the config file, "
          + "so that it reads the adapters, or name every adapter")
      return
    }
    ok("host addresses", text)
  }

  private mutating func checkDeviceID(_ devices: [BluetoothStatus.Device]) {
    let airPods = devices.filter {
      $0.paired
        && HeadphoneProtocol(DeviceIdentity(serviceUUIDs: $0.serviceUUIDs))
          == .aap
    }
    guard !airPods.isEmpty else {
      ok("airpods", "none paired, so BlueZ's DeviceID does not matter")
      return
    }
    let names = airPods.map { $0.alias ?? $0.name ?? $0.address }.joined(
      separator: ", ")
    let path =
      environment["ACCESSORYD_BLUETOOTH_CONFIG"] ?? "/etc/bluetooth/main.conf"
    let fix =
      "in \(path), under [General], set DeviceID = bluetooth:004C:0000:0000, "
      + "then "
      + fix(
        systemd: "sudo systemctl restart bluetooth",
        otherwise: "sudo service bluetooth restart")
      + ", and remove and pair the AirPods again"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      problem(
        "airpods", "\(names): \(path) cannot be read, so DeviceID is unset",
        fix: fix)
      return
    }
    guard let deviceID = BlueZMainConfiguration.deviceID(in: text) else {
      problem(
        "airpods",
        "\(names): DeviceID is not set in \(path); AirPods answer only a "
          + "host that says it is Apple's",
        fix: fix)
      return
    }
    guard BlueZMainConfiguration.isApple(deviceID) else {
      problem(
        "airpods",
        "\(names): DeviceID is '\(deviceID)' in \(path), not Apple's "
          + "(bluetooth:004C:…)",
        fix: fix)
      return
    }
    ok("airpods", "\(names): DeviceID is \(deviceID)")
  }

  private mutating func checkSessionBus() {
    guard let media = status?.media else {
      let address =
        environment["DBUS_SESSION_BUS_ADDRESS"]
        ?? environment["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
      guard let address else {
        problem(
          "session bus", "no DBUS_SESSION_BUS_ADDRESS and no XDG_RUNTIME_DIR",
          fix: "run accessoryd in your desktop session")
        return
      }
      skipped(
        "session bus",
        "the daemon is not running to ask; acctl would use \(address)")
      return
    }
    guard media.following else {
      problem(
        "session bus",
        "the daemon follows no media player: "
          + (media.reason ?? "no reason given"),
        fix: fix(
          systemd: "start accessoryd in your desktop session, or give it "
            + "DBUS_SESSION_BUS_ADDRESS (systemctl --user import-environment "
            + "DBUS_SESSION_BUS_ADDRESS)",
          otherwise: "start accessoryd in your desktop session, where "
            + "DBUS_SESSION_BUS_ADDRESS is set"))
      return
    }
    ok("session bus", "media players followed")
  }

  private mutating func checkPolicy() {
    // A file where the daemon looks at each reload, which it has not read
    // yet: made (or copied there) since it started or last reloaded.
    if let status, let search = status.policySearchPath,
      status.policyPath != search,
      FileManager.default.fileExists(atPath: search)
    {
      do {
        _ = try PolicyLoader.load(contentsOf: URL(fileURLWithPath: search))
      } catch {
        problem(
          "policy",
          "'\(search)' is not valid, so the daemon keeps "
            + "\(status.policyPath): \(error.description)",
          fix: "correct it (acctl policy check \(search); man "
            + "accessoryd.policy), then acctl policy reload")
        return
      }
      problem(
        "policy",
        "'\(search)' exists, but the daemon uses \(status.policyPath): it "
          + "was made after the daemon read its policy",
        fix: fix(
          systemd: "acctl policy reload (or systemctl --user reload "
            + "accessoryd) reads it",
          otherwise: "acctl policy reload reads it"))
      return
    }
    var path = status?.policyPath
    if status == nil {
      let file =
        UserDirectories.configHome(environment: environment)
        + "/accessoryd/policy.json5"
      path = FileManager.default.fileExists(atPath: file) ? file : nil
    }
    guard let path, path.hasPrefix("/") else {
      ok("policy", "the built-in default policy")
      return
    }
    do {
      let policy = try PolicyLoader.load(contentsOf: URL(fileURLWithPath: path))
      ok(
        "policy",
        path + (policy.description.isEmpty ? "" : ": \(policy.description)"))
    } catch {
      problem(
        "policy", error.description,
        fix: "correct it (acctl policy check \(path); man accessoryd.policy), "
          + "then acctl policy reload; until then the daemon keeps the "
          + "policy it has")
    }
  }

  private mutating func checkStateDirectory() {
    let directory: String
    if let status {
      directory =
        status.statePath.lastIndex(of: "/").map {
          $0 == status.statePath.startIndex
            ? "/" : String(status.statePath[..<$0])
        } ?? "."
    } else {
      directory =
        UserDirectories.stateHome(environment: environment) + "/accessoryd"
    }
    var info = stat()
    guard stat(directory, &info) == 0 else {
      if status == nil {
        ok("state directory", "\(directory) is made at the first start")
      } else {
        problem(
          "state directory", "\(directory) is gone",
          fix: fix(
            systemd: "systemctl --user restart accessoryd, which makes it "
              + "again",
            otherwise: "stop accessoryd and start it again, which makes it"))
      }
      return
    }
    guard info.st_mode & S_IFMT == S_IFDIR, access(directory, W_OK) == 0 else {
      problem(
        "state directory", "\(directory) is not a directory you can write",
        fix: "mkdir -p \(directory) && chmod 700 \(directory), as yourself")
      return
    }
    let holder = StateLockFile.holder(ofDirectory: directory)
    switch (status, holder) {
    case (let status?, .held(let record))
    where StateLockFile.record(record, names: status.socketPath):
      ok("state directory", "\(directory), writable, locked by this daemon")
    case (_?, .held(let record)):
      problem(
        "state directory",
        "\(directory) is locked by another accessoryd (\(record))",
        fix: "stop the other one, or give each its own --state-dir")
    case (_?, .free):
      problem(
        "state directory",
        "\(directory) is not locked: the daemon that answers uses another "
          + "state directory",
        fix: "acctl status shows which; stop the daemons and start one")
    case (nil, .held(let record)):
      problem(
        "state directory",
        "\(directory) is locked by an accessoryd (\(record)) that does not "
          + "answer on \(socket)",
        fix: "use its socket (--socket), or stop it")
    case (nil, .free):
      ok("state directory", "\(directory), writable, no daemon holds it")
    }
  }

  private mutating func checkUnit() {
    guard systemdManages else {
      skipped("unit", "systemd does not manage this machine")
      return
    }
    let enabled = systemctl(["is-enabled", "accessoryd"])
    let active = systemctl(["is-active", "accessoryd"])
    guard let enabled, let active else {
      skipped("unit", "systemctl --user does not answer")
      return
    }
    guard enabled == "enabled" || enabled == "static" else {
      problem(
        "unit", "accessoryd.service is \(enabled)",
        fix: "systemctl --user daemon-reload; systemctl --user enable --now "
          + "accessoryd")
      return
    }
    guard active == "active" || active == "reloading" else {
      problem(
        "unit", "accessoryd.service is \(enabled) but \(active)",
        fix: "systemctl --user start accessoryd; journalctl --user -u "
          + "accessoryd says why it stopped")
      return
    }
    ok("unit", "accessoryd.service is \(enabled) and \(active)")
  }

  /// The first line `systemctl --user` prints, or nil if it cannot run.
  private func systemctl(_ arguments: [String]) -> String? {
    let program = "/usr/bin/systemctl"
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    // Neither end is the child's but through the dup2 below.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Its output into the pipe (dup2 clears close-on-exec on the copy),
    // its errors nowhere.
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
    posix_spawn_file_actions_addopen(
      &actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    let argv = ([program, "--user"] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    // Its signals as a fresh process has them: the thread that spawns it
    // may block some, and acctl may ignore some.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(
      &attributes, Int16(SpawnSignals.reset(&attributes)))
    var child = pid_t()
    let spawned = posix_spawn(
      &child, program, &actions, &attributes, argv, environ)
    close(ends[1])
    defer { close(ends[0]) }
    guard spawned == 0 else { return nil }
    let output = WholeTransfers.readToEnd(ends[0]) ?? []
    var status: Int32 = 0
    _ = Errno.retryingInterrupts { waitpid(child, &status, 0) }
    return String(decoding: output, as: UTF8.self).split(separator: "\n")
      .first.map(String.init)
  }

  // MARK: - Output

  /// One line per check, and under a problem its fix.
  var text: String {
    let width = (findings.map(\.check.count).max() ?? 0) + 2
    var lines: [String] = []
    for finding in findings {
      let result = finding.result.rawValue
      lines.append(
        result + String(repeating: " ", count: 9 - result.count)
          + finding.check
          + String(repeating: " ", count: width - finding.check.count)
          + finding.detail)
      if let fix = finding.fix {
        lines.append(String(repeating: " ", count: 9 + width) + "fix: " + fix)
      }
    }
    let problems = findings.filter { $0.result == .problem }.count
    lines.append(
      problems == 0
        ? "No problem found."
        : "\(problems) problem\(problems == 1 ? "" : "s") found.")
    return lines.joined(separator: "\n")
  }

  /// The checks as JSON: `checks`, each with `check`, `result`, `detail`
  /// and `fix`, and the number of `problems`.
  var json: JSONValue {
    .object([
      "checks": .array(
        findings.map {
          .object([
            "check": .string($0.check),
            "result": .string($0.result.rawValue),
            "detail": .string($0.detail),
            "fix": $0.fix.map(JSONValue.string) ?? .null,
          ])
        }),
      "problems": .number(
        Double(findings.filter { $0.result == .problem }.count)),
    ])
  }
}

/// Reads `/etc/bluetooth/main.conf`, BlueZ's settings, as BlueZ does: an
/// INI file of `[Section]` headers and `Key = value` lines.
enum BlueZMainConfiguration {
  /// The `DeviceID` under `[General]`, or nil when it is not set.
  static func deviceID(in text: String) -> String? {
    var section = ""
    var found: String?
    for rawLine in text.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingSpaces
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") {
        continue
      }
      if line.hasPrefix("["), line.hasSuffix("]") {
        section = String(line.dropFirst().dropLast())
        continue
      }
      guard section == "General", let equals = line.firstIndex(of: "=")
      else { continue }
      let key = line[..<equals].trimmingSpaces
      let value = line[line.index(after: equals)...].trimmingSpaces
      if key == "DeviceID", !value.isEmpty { found = value }
    }
    return found
  }

  /// Whether a DeviceID names Apple's Bluetooth vendor ID, 0x004C:
  /// `bluetooth:004C:0000:0000`.
  static func isApple(_ deviceID: String) -> Bool {
    let parts = deviceID.split(separator: ":")
    return parts.count >= 2 && parts[0].lowercased() == "bluetooth"
      && UInt16(parts[1], radix: 16) == 0x004C
  }
}
