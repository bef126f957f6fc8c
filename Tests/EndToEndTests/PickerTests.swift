// acctl pair's picker end to end: the real acctl in a real terminal (a
// private tmux server), devices that come and go through BlueZ's API
// served by python-dbusmock, a private sound server and the daemon.
// AppPickerTests.swift answers the picker an app shows with it.

import AccessoryControl
import Foundation
import TestSupport
import Testing

/// tmux, or nil when it is not installed.
let tmuxPath: String? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
  return directories.map { "\($0)/tmux" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}()

/// Whether the tests run on CI, where a missing tmux is a failure.
let isCI = ProcessInfo.processInfo.environment["CI"] != nil

/// `acctl pair` without an address, driven through tmux: the picker's list,
/// its keys and its exit statuses.
@Suite(
  "acctl pair's picker, in a terminal",
  .enabled(
    if: tmuxPath != nil || isCI,
    "tmux is not installed (scripts/install-dependencies test installs it)"))
struct PickerTests {
  /// Devices come and go while the picker is open; refused numbers; a
  /// device gone while it is named; a choice renamed and authorized; q
  /// and Ctrl-D cancel.
  @Test(
    "The list follows devices; a number, a name and a yes authorize one",
    .timeLimit(.minutes(3)), arguments: SoundServerKind.allCases)
  func chooseRenameConfirm(_ kind: SoundServerKind) async throws {
    let lamp = "AA:BB:CC:DD:EE:07"
    try await withBlueZRig(kind, devices: [], hostAddresses: []) { rig, mock in
      try await mock.addDevice(address: lamp, name: "Kitchen Lamp")
      _ = try await rig.eventuallyDiscovered(lamp) { _ in true }
      _ = try await rig.eventuallyDiscovered(budsAddress) { _ in true }
      try await chooseRenameConfirm(rig, mock, lamp: lamp)
    }
  }

  /// The body of ``chooseRenameConfirm(_:)``.
  private func chooseRenameConfirm(
    _ rig: Rig, _ mock: BlueZMock, lamp: String
  ) async throws {
    let events = try await EventReader.subscribe(
      socketPath: rig.daemon.socketPath)
    let terminal = try Terminal.start(for: rig)
    defer { terminal.stop() }

    let picker = try await terminal.run(["pair"])
    var screen = try await picker.waitFor("the list") {
      $0.contains(PickerScreen.header) && $0.contains("Kitchen Lamp")
        && $0.contains("Studio Buds")
    }
    #expect(screen.hasSuffix("\n>"))

    // Devices that come show up without a key; one that goes vanishes.
    let speaker = "AA:BB:CC:DD:EE:09"
    let deskLamp = "AA:BB:CC:DD:EE:0A"
    try await mock.addDevice(address: speaker, name: "Travel Speaker")
    try await mock.addDevice(address: deskLamp, name: "Desk Lamp")
    screen = try await picker.waitFor("the new devices") {
      $0.contains("Travel Speaker  \(speaker)")
        && $0.contains("Desk Lamp       \(deskLamp)")
    }
    let deskLampNumber = try PickerScreen.number(of: "Desk Lamp", on: screen)
    try await mock.removeDevice(address: deskLamp)
    screen = try await picker.waitFor("the desk lamp to go") {
      !$0.contains("Desk Lamp")
    }
    #expect(screen.contains("Travel Speaker"))

    // Numbers stay with their devices: a number that is gone, or was
    // never there, is refused.
    try await picker.type("\(deskLampNumber)\n")
    try await picker.waitFor("the refusal of a gone device") {
      $0.contains("\(deskLampNumber) (Desk Lamp) is no longer on the list.")
    }
    try await picker.type("42\n")
    try await picker.waitFor("the refusal of a number never listed") {
      $0.contains("There is no 42 on the list.")
    }

    // A device that goes while it is being named: the daemon's refusal is
    // shown, and the list comes back without it.
    let lampNumber = try PickerScreen.number(of: "Kitchen Lamp", on: screen)
    try await picker.type("\(lampNumber)\n")
    try await picker.waitFor("the name prompt") {
      $0.hasSuffix("Name [Kitchen Lamp]:")
    }
    try await mock.removeDevice(address: lamp)
    try await rig.eventuallyGone(lamp)
    try await picker.type("\n")
    try await picker.waitFor("the confirmation") {
      $0.hasSuffix("Set up 'Kitchen Lamp' (\(lamp))? [Y/n]:")
    }
    try await picker.type("\n")
    screen = try await picker.waitFor("the list again, with the refusal") {
      $0.contains("BlueZ does not see it") && $0.hasSuffix("\n>")
    }
    #expect(!screen.contains("Kitchen Lamp  "))

    // Choose, rename, confirm: the accessory is authorized by its new name.
    let speakerNumber = try PickerScreen.number(
      of: "Travel Speaker", on: screen)
    screen = try await picker.setUp(
      speakerNumber, offering: "Travel Speaker", typing: "Desk Speaker",
      address: speaker, confirming: "")
    #expect(screen.contains("Desk Speaker (\(speaker))\n"))
    #expect(screen.contains("EXIT=0"))
    // The authorized accessories: the rig's Bluetooth headphones nobody
    // paired are listed too, as guarded headphones.
    let listed = try await authorized(rig)
    #expect(listed.count == 1)
    #expect(listed.first?["address"] == .string(speaker))
    #expect(listed.first?["displayName"] == "Desk Speaker")
    #expect(
      try await events.setupEvents(count: 1) == [
        "accessoryAdded \(speaker) Desk Speaker"
      ])

    // q, and Ctrl-D, cancel: exit status 1, nothing authorized.
    for cancel in [["q", "Enter"], ["C-d"]] {
      let cancelled = try await terminal.run(["pair"])
      try await cancelled.waitFor("the list") {
        $0.contains("Travel Speaker") && $0.hasSuffix("\n>")
      }
      try await cancelled.press(cancel)
      screen = try await cancelled.waitFor("acctl to end") {
        $0.contains("EXIT=")
      }
      #expect(screen.contains("Cancelled.\nEXIT=1"), "\(screen)")
    }
    #expect(try await authorized(rig).count == 1)

    // Set up again under the name the picker offers (its own, from
    // BlueZ): the name confirmed is the name kept, not the earlier one.
    let again = try await terminal.run(["pair"])
    screen = try await again.waitFor("the list") {
      $0.contains("Travel Speaker") && $0.hasSuffix("\n>")
    }
    screen = try await again.setUp(
      try PickerScreen.number(of: "Travel Speaker", on: screen),
      offering: "Travel Speaker", typing: "", address: speaker,
      confirming: "")
    #expect(screen.contains("EXIT=0"), "\(screen)")
    #expect(
      try await authorized(rig).first?["displayName"] == "Travel Speaker")
  }

  /// The accessories `acctl list` shows as authorized.
  private func authorized(_ rig: Rig) async throws -> [JSONValue] {
    guard case .array(let items)? = try await rig.json(["list"])["accessories"]
    else { return [] }
    return items.filter { $0["state"] == "authorized" }
  }

  /// No address and no terminal: a usage error that points to the picker.
  @Test("Without a terminal and an address, acctl pair is a usage error")
  func noTerminal() async throws {
    let result = try await runProgram(
      try builtProduct("acctl").path,
      ["pair", "--socket", "/nonexistent/control.sock"],
      environment: ProcessInfo.processInfo.environment)
    let error = Data(result.stderr.utf8)
    #expect(result.status == 64)
    #expect(
      String(decoding: error, as: UTF8.self).hasPrefix(
        """
        Error: Give the device's address (or --select ADDRESS), or run acctl \
        pair in a terminal to choose one; 'acctl discover' lists the devices
        Usage: acctl pair [<address>]
        """))
  }
}

// MARK: - The terminal

/// What the picker's screen shows.
enum PickerScreen {
  /// The line above the list.
  static let header = "Choose an accessory to set up (number, or q to cancel):"

  /// The number the list gives a device.
  static func number(of name: String, on screen: String) throws -> Int {
    for line in screen.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      let digits = trimmed.prefix { $0.isNumber }
      if !digits.isEmpty,
        trimmed.dropFirst(digits.count).hasPrefix("  " + name),
        let number = Int(digits)
      {
        return number
      }
    }
    throw RigFailure("no numbered line for \(name) on the screen:\n\(screen)")
  }
}

/// A private tmux server, sized 200 by 50, whose windows run acctl.
///
/// Its socket is in the daemon's private directory; ``stop()`` kills the
/// server, and each window ends by itself 30 seconds after its command.
final class Terminal: Sendable {
  /// The tmux executable.
  let tmux: String
  /// The server's socket.
  let socket: String
  /// The daemon acctl talks to.
  let daemon: DaemonFixture

  private init(tmux: String, socket: String, daemon: DaemonFixture) {
    self.tmux = tmux
    self.socket = socket
    self.daemon = daemon
  }

  /// Prepares a server for a rig's daemon; it starts with the first
  /// ``run(_:)``.
  static func start(for rig: Rig) throws -> Terminal {
    guard let tmux = tmuxPath else {
      throw RigFailure(
        "tmux is not installed, and CI is set: install it with "
          + "scripts/install-dependencies test")
    }
    return Terminal(
      tmux: tmux, socket: "\(rig.daemon.directory)/tmux.sock",
      daemon: rig.daemon)
  }

  /// Runs acctl, with `--socket`, in a new window.
  ///
  /// The window prints `EXIT=<status>` when acctl ends.
  func run(_ arguments: [String]) async throws -> Window {
    let acctl = try builtProduct("acctl").path
    let command =
      ([acctl] + arguments + ["--socket", daemon.socketPath]).map(quoted)
      .joined(separator: " ")
    let name = "acctl\(UInt32.random(in: 0...UInt32.max))"
    try await tmuxCommand([
      "new-session", "-d", "-s", name, "-x", "200", "-y", "50",
      "timeout --foreground 120 \(command); echo EXIT=$?; sleep 30",
    ])
    return Window(terminal: self, name: name)
  }

  /// Kills the server and its windows.
  func stop() {
    daemon.runInBackground(
      tmux, ["-S", socket, "-f", "/dev/null", "kill-server"],
      environment: environment)
  }

  /// Runs tmux on the private server and returns what it printed.
  @discardableResult
  func tmuxCommand(_ arguments: [String]) async throws -> String {
    try await daemon.run(
      tmux, ["-S", socket, "-f", "/dev/null"] + arguments,
      environment: environment)
  }

  /// The environment of tmux and of what it runs.
  private var environment: [String: String] {
    [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": daemon.directory,
      "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
    ]
  }

  /// Quotes a word for the shell.
  private func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// One window of a ``Terminal``, running acctl.
struct Window {
  /// The server.
  let terminal: Terminal
  /// The session's name.
  let name: String

  /// Types text, literally; `\n` is Enter.
  func type(_ text: String) async throws {
    for (index, line) in text.split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      if index > 0 { try await press(["Enter"]) }
      if !line.isEmpty {
        try await terminal.tmuxCommand([
          "send-keys", "-t", name, "-l", String(line),
        ])
      }
    }
  }

  /// Presses keys by tmux's names, such as `Enter` or `C-d`.
  func press(_ keys: [String]) async throws {
    try await terminal.tmuxCommand(["send-keys", "-t", name] + keys)
  }

  /// The visible screen, without spaces at the ends of lines or blank
  /// lines at its end.
  func screen() async throws -> String {
    let text = try await terminal.tmuxCommand([
      "capture-pane", "-p", "-t", name,
    ])
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.reversed().drop { $0 == " " }.reversed()) }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  /// Chooses a number, answers the name prompt that offers `offered` with
  /// `typed` (empty keeps it), confirms, and returns the screen once acctl
  /// has ended.
  func setUp(
    _ number: Int, offering offered: String, typing typed: String,
    address: String, confirming answer: String = "y"
  ) async throws -> String {
    try await type("\(number)\n")
    try await waitFor("the name prompt") { $0.hasSuffix("Name [\(offered)]:") }
    try await type(typed + "\n")
    let name = typed.isEmpty ? offered : typed
    try await waitFor("the confirmation") {
      $0.hasSuffix("Set up '\(name)' (\(address))? [Y/n]:")
    }
    try await type(answer + "\n")
    return try await waitFor("acctl to end") { $0.contains("EXIT=") }
  }

  /// Polls the screen every 100 ms until a condition holds, for at most
  /// 20 seconds, and returns it.
  ///
  /// - Throws: ``RigFailure`` with the last screen and the daemon's log.
  @discardableResult
  func waitFor(
    _ what: String, _ condition: (String) -> Bool
  ) async throws -> String {
    let deadline = ContinuousClock.now + .seconds(20)
    var last = ""
    while true {
      last = try await screen()
      if condition(last) { return last }
      guard ContinuousClock.now < deadline else {
        throw RigFailure(
          "the terminal never showed \(what); it shows:\n\(last)",
          details: terminal.daemon.logTail(lines: 20))
      }
      try await Task.sleep(for: .milliseconds(100))
    }
  }
}

extension JSONValue {
  /// The number of items of an array; 0 for another value.
  fileprivate var arrayCount: Int {
    if case .array(let items) = self { return items.count }
    return 0
  }

  /// The item at an index of an array, or nil.
  fileprivate subscript(index: Int) -> JSONValue? {
    if case .array(let items) = self, items.indices.contains(index) {
      return items[index]
    }
    return nil
  }
}
