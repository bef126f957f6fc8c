// Hostile clients, end to end: another Unix user is refused, by the
// kernel and by the daemon's own check, and changes nothing; a flood of
// connections, a half-sent line and a 4 MB line delay no other client, and
// each bound answers with its error.

import AccessoryControl
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Hostile clients, end to end")
struct HostileClientTests {
  /// The user the refusal test runs acctl as.
  static let otherUser = "accessoryd-other"

  /// The uid and gid of the other user, made if missing; nil where this
  /// process cannot make users (with `CI` set, that fails).
  static func otherUserIDs() async throws -> (uid: uid_t, gid: gid_t)? {
    guard getuid() == 0 else {
      if ProcessInfo.processInfo.environment["CI"] != nil {
        Issue.record("the other-user test creates a user and needs root")
      }
      return nil
    }
    if getpwnam(otherUser) == nil {
      let made = try await runProgram(
        "/usr/sbin/useradd",
        [
          "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
          otherUser,
        ],
        environment: ["PATH": "/usr/sbin:/usr/bin:/bin"])
      // Another test may be making the same user at this moment: its
      // useradd made the group first, so this one fails; the user then
      // shows up once that one is done.
      var tries = 0
      while made.status != 0, getpwnam(otherUser) == nil, tries < 100 {
        try await Task.sleep(for: .milliseconds(50))
        tries += 1
      }
      #expect(made.status == 0 || getpwnam(otherUser) != nil, "\(made)")
    }
    let entry = try #require(getpwnam(otherUser))
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  @Test(
    "Another user is refused by the kernel and by the daemon; nothing changes")
  func anotherUserIsRefused() async throws {
    guard let ids = try await Self.otherUserIDs() else { return }
    try await withRig(.pulseAudio, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let statePath = rig.daemon.stateDirectory + "/state.json"
      let before = try Data(contentsOf: URL(fileURLWithPath: statePath))
      // acctl where the other user may run it.
      let bin = rig.daemon.directory + "/other-bin"
      try FileManager.default.createDirectory(
        atPath: bin, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
      try placeBuiltProduct("acctl", at: bin + "/acctl")
      let asOther = {
        try await runProgram(
          "/usr/bin/setpriv",
          [
            "--reuid=\(ids.uid)", "--regid=\(ids.gid)", "--clear-groups",
            "--", bin + "/acctl", "update", budsAddress, "--placement",
            "inEar", "--socket", rig.daemon.socketPath,
          ],
          environment: ["PATH": "/usr/bin:/bin", "HOME": "/"])
      }
      let expected =
        "Error: permission denied: '\(rig.daemon.socketPath)' belongs to "
        + "another user\n"
      var table: [String] = []

      // The directory and the socket are the daemon user's alone: the
      // kernel refuses the connection.
      chmod(rig.daemon.directory, 0o711)
      let byTheKernel = try await asOther()
      #expect(byTheKernel.status == 77, "\(byTheKernel)")
      #expect(byTheKernel.stderr == expected, "\(byTheKernel)")
      table.append(
        BadInputTests.tableRow(
          "`acctl update …` as another user", "\(byTheKernel.status ?? -1)",
          byTheKernel.stderr.trimmingCharacters(in: .newlines)))

      // With the socket opened to everyone, each side checks the other's
      // uid (SO_PEERCRED): acctl refuses a daemon of another user, and the
      // daemon refuses the connection.
      chmod(rig.daemon.socketPath, 0o666)
      let byBoth = try await asOther()
      chmod(rig.daemon.socketPath, 0o600)
      chmod(rig.daemon.directory, 0o700)
      let pid = try #require(rig.daemon.processIdentifier)
      #expect(byBoth.status == 77, "\(byBoth)")
      #expect(
        byBoth.stderr
          == "Error: the socket '\(rig.daemon.socketPath)' is served by "
          + "another user, root (pid \(pid)); expected a daemon of this user, "
          + "\(Self.otherUser): point to your own daemon's socket with "
          + "--socket or ACCESSORYD_SOCKET\n", "\(byBoth)")
      try await waitUntil("the daemon refuses the client", within: .seconds(5))
      {
        rig.daemon.log.contains("Refused a client of another user")
      }
      table.append(
        BadInputTests.tableRow(
          "`acctl update …` as another user, the socket mode 0666",
          "\(byBoth.status ?? -1)",
          byBoth.stderr.trimmingCharacters(in: .newlines)
            .replacingOccurrences(of: "pid \(pid)", with: "pid <pid>")))

      // The other way round: acctl does not talk to another user's daemon.
      table.append(try await Self.daemonOfAnotherUserIsRefused(ids))

      // Nothing changed.
      #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == before)
      let current = try await rig.json(["current", budsAddress])
      #expect(
        current["registration"]?["configuration"]?["devicePlacement"]
          == "offHead")
      try BadInputTests.checkReadmeTable(
        table.map {
          $0.replacingOccurrences(of: rig.daemon.directory + "/", with: "")
        }, name: "other users", suite: "HostileClientTests",
        header: "what acctl says")
    }
  }

  /// A private directory the other user can reach, with `programs` (the
  /// built accessoryd and acctl) in `bin`, removed by the caller.
  static func makeSharedDirectory(
    _ prefix: String, programs: [String] = ["accessoryd", "acctl"]
  ) throws -> String {
    let directory =
      FileManager.default.temporaryDirectory.path
      + "/\(prefix)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(
      atPath: directory + "/bin", withIntermediateDirectories: true)
    chmod(directory, 0o755)
    chmod(directory + "/bin", 0o755)
    for program in programs {
      try placeBuiltProduct(program, at: directory + "/bin/" + program)
    }
    return directory
  }

  /// Starts accessoryd with its socket at `socket`, as the user `ids` names
  /// (nil for this process's user), its state and home in `home`.
  static func startDaemon(
    in directory: String, socket: String, home: String,
    as ids: (uid: uid_t, gid: gid_t)? = nil
  ) throws -> ProgramRun {
    let asUser =
      ids.map {
        [
          "/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)",
          "--clear-groups", "--",
        ]
      } ?? []
    let command =
      asUser + [
        directory + "/bin/accessoryd", "--socket", socket, "--state-dir",
        home + "/state",
      ]
    return try ProgramRun.start(
      command[0], Array(command.dropFirst()),
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": home,
        "XDG_CONFIG_HOME": home + "/.config",
        "PULSE_SERVER": "unix:\(home)/no-sound-server",
      ])
  }

  /// Runs a daemon as the other user and root's acctl against it, which
  /// must refuse it (77) naming the socket and the user; returns the
  /// README's row.
  static func daemonOfAnotherUserIsRefused(
    _ ids: (uid: uid_t, gid: gid_t)
  ) async throws -> String {
    let directory = try makeSharedDirectory("accessoryd-foreign")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let home = directory + "/other"
    try FileManager.default.createDirectory(
      atPath: home, withIntermediateDirectories: true)
    chown(home, ids.uid, ids.gid)
    let socket = home + "/control.sock"
    let daemon = try startDaemon(
      in: directory, socket: socket, home: home, as: ids)
    defer { daemon.stopInBackground() }
    try await waitUntil("the other user's daemon listens", within: .seconds(30))
    {
      FileManager.default.fileExists(atPath: socket)
    }
    let refused = try await runProgram(
      directory + "/bin/acctl", ["status", "--socket", socket],
      environment: ["PATH": "/usr/bin:/bin", "HOME": "/"])
    #expect(refused.status == 77, "\(refused)")
    #expect(
      refused.stderr
        == "Error: the socket '\(socket)' is served by another user, "
        + "\(otherUser) (pid \(daemon.processIdentifier)); expected a daemon "
        + "of this user, root: point to your own daemon's socket with "
        + "--socket or ACCESSORYD_SOCKET\n", "\(refused)")
    #expect(refused.stdout.isEmpty, "\(refused)")
    daemon.send(SIGTERM)
    let stopped = try await daemon.result(within: .seconds(30))
    #expect(stopped.status == 0, "\(stopped)")
    return BadInputTests.tableRow(
      "`acctl status` as root, the daemon another user's",
      "\(refused.status ?? -1)",
      refused.stderr.trimmingCharacters(in: .newlines)
        .replacingOccurrences(of: directory + "/", with: "")
        .replacingOccurrences(
          of: "pid \(daemon.processIdentifier)", with: "pid <pid>"))
  }

  @Test("A socket in a shared sticky directory keeps the directory's mode")
  func aSocketInASharedStickyDirectory() async throws {
    guard try await Self.otherUserIDs() != nil else { return }
    let directory = try Self.makeSharedDirectory("accessoryd-sticky")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shared = directory + "/shared"
    try FileManager.default.createDirectory(
      atPath: shared, withIntermediateDirectories: true)
    chmod(shared, 0o1777)
    let socket = shared + "/accessoryd.sock"
    let daemon = try Self.startDaemon(
      in: directory, socket: socket, home: directory)
    defer { daemon.stopInBackground() }
    try await waitUntil("the daemon listens", within: .seconds(30)) {
      FileManager.default.fileExists(atPath: socket)
    }
    let status = try await runProgram(
      directory + "/bin/acctl", ["status", "--socket", socket],
      environment: ["PATH": "/usr/bin:/bin", "HOME": "/"])
    #expect(status.status == 0, "\(status)")
    var file = stat()
    #expect(lstat(shared, &file) == 0)
    #expect(file.st_mode & 0o7777 == 0o1777, "the shared directory was changed")
    #expect(lstat(socket, &file) == 0)
    #expect(file.st_mode & 0o7777 == 0o600)
    #expect(file.st_uid == getuid())
    daemon.send(SIGTERM)
    let stopped = try await daemon.result(within: .seconds(30))
    #expect(stopped.status == 0, "\(stopped)")
    #expect(!FileManager.default.fileExists(atPath: socket))
    #expect(lstat(shared, &file) == 0 && file.st_mode & 0o7777 == 0o1777)
  }

  /// How many of the daemon's control-client threads are blocked in
  /// poll(2) with no time limit (or ppoll(2) with none), read from
  /// `/proc/PID/task/*/syscall`: the call's number and its arguments.
  static func clientThreadsWaitingForever(in pid: pid_t) -> Int {
    let tasks = "/proc/\(pid)/task"
    let threads =
      (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    var waiting = 0
    for thread in threads {
      let comm = try? String(
        contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8)
      guard comm?.hasPrefix("accessoryd.clie") == true,
        let call = try? String(
          contentsOfFile: "\(tasks)/\(thread)/syscall", encoding: .utf8)
      else { continue }
      let fields = call.split(separator: " ")
      guard fields.count >= 4,
        let third = UInt64(fields[3].dropFirst(2), radix: 16)
      else { continue }
      if Self.waitsForever(number: fields[0], third: third) { waiting += 1 }
    }
    return waiting
  }

  /// Whether a system call, by number, with its third argument, is
  /// poll(2) with no time limit or ppoll(2) with none.
  static func waitsForever(number: Substring, third: UInt64) -> Bool {
    #if arch(x86_64)
      switch number {
      case "7": third & 0xFFFF_FFFF == 0xFFFF_FFFF  // poll, timeout -1
      case "271": third == 0  // ppoll, no timespec
      default: false
      }
    #elseif arch(arm64)
      number == "73" && third == 0  // ppoll, no timespec
    #else
      false
    #endif
  }

  @Test("A flood of connections, a half-sent line and a 4 MB line delay no one")
  func hostileClientsDelayNoOne() async throws {
    try await withRig(.pulseAudio, streams: 0) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      let socket = rig.daemon.socketPath
      var table: [String] = []

      // A hundred connections that send nothing, one with half a line,
      // and one sending 4 MB without a newline.
      let flood = try (0..<100).map { _ in try RawConnection(socket) }
      let half = try RawConnection(socket)
      await half.send(Data(#"{"jsonrpc":"2.0","id":1,"meth"#.utf8))
      // A client whose every write ends a request and begins the next,
      // half a second apart, for longer than 10 s: each line's time
      // starts with the line.
      let streaming = try RawConnection(socket)
      let requests = 25
      let streamed = Task {
        func request(_ id: Int) -> String {
          #"{"jsonrpc":"2.0","id":\#(id),"method":"daemon.status"}"#
        }
        var pieces = [Data(request(1).prefix(20).utf8)]
        for id in 1...requests {
          var next = String(request(id).dropFirst(20)) + "\n"
          if id < requests { next += request(id + 1).prefix(20) }
          pieces.append(Data(next.utf8))
        }
        await streaming.send(pieces, every: .milliseconds(500))
      }
      // A line sent a byte every half second is given its 10 s too.
      let dribble = try RawConnection(socket)
      let dribbling = Task {
        await dribble.send(Data(#"{"jsonrpc":"2.0","id":2,"method":""#.utf8))
        while !Task.isCancelled {
          await dribble.send(Data("a".utf8))
          try? await Task.sleep(for: .milliseconds(500))
        }
      }
      var huge = Data(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8)
      huge.append(Data(repeating: UInt8(ascii: "a"), count: 4 << 20))
      async let hugeAnswer = rig.daemon.sendRaw(huge, lines: 1, timeout: 30)

      // An idle client costs the daemon no wake: the thread that reads
      // each of the hundred sleeps in poll(2) with no time limit (the
      // threads of the unfinished lines alone have one, their lines').
      let daemonPID = try #require(rig.daemon.processIdentifier)
      if (try? String(
        contentsOfFile: "/proc/\(daemonPID)/syscall", encoding: .utf8)) == nil
      {
        // Yama's ptrace_scope may hide another process's system call.
        #expect(
          ProcessInfo.processInfo.environment["CI"] == nil,
          "cannot read the daemon's threads' system calls in /proc")
        print("not checked: the daemon's threads' system calls are hidden")
      } else {
        try await waitUntil(
          "a hundred client threads wait in poll with no time limit",
          within: .seconds(30)
        ) {
          Self.clientThreadsWaitingForever(in: daemonPID) >= 100
        }
      }

      // Meanwhile every other client is answered.
      for placement in ["inEar", "offHead", "onHead"] {
        try await rig.ok(["update", budsAddress, "--placement", placement])
      }
      try await rig.ok(["status"])
      let refused = try await hugeAnswer
      #expect(
        refused
          == [
            #"{"error":{"code":-32600,"message":"invalid request: the line is "#
              + #"longer than 1048576 bytes"},"id":null,"jsonrpc":"2.0"}"#
          ])
      table.append(
        BadInputTests.socketRow("4 MB without a newline", refused))

      // The half line is answered when its time is up, and closed.
      let unfinished = try await half.readLines()
      #expect(
        unfinished
          == [
            #"{"error":{"code":-32600,"message":"invalid request: the line "#
              + #"was not finished within 10 s"},"id":null,"jsonrpc":"2.0"}"#
          ])
      #expect(await half.isClosedByDaemon())
      await streamed.value
      let streamedAnswers = try await streaming.readLines(requests)
      #expect(streamedAnswers.count == requests)
      #expect(
        streamedAnswers.allSatisfy { $0.contains(#""result""#) },
        "\(streamedAnswers.filter { !$0.contains(#""result""#) })")
      let dribbled = try await dribble.readLines()
      dribbling.cancel()
      #expect(dribbled == unfinished)
      #expect(await dribble.isClosedByDaemon())
      table.append(
        BadInputTests.socketRow(
          "half a line, then nothing for 10 s", unfinished))
      try await rig.ok(["status"])
      _ = flood

      // Over the bound, a connection is answered with busy and closed.
      var crowd: [RawConnection] = []
      var busy: [String]?
      while busy == nil, crowd.count < 400 {
        let connection = try RawConnection(socket)
        crowd.append(connection)
        await connection.send(
          Data(#"{"jsonrpc":"2.0","id":1,"method":"daemon.status"}"#.utf8)
            + [0x0A])
        let answer = try await connection.readLines()
        if answer.first?.contains(#""code":-32075"#) == true {
          busy = answer
        } else {
          #expect(answer.first?.contains(#""result""#) == true, "\(answer)")
        }
      }
      let busyAnswer = try #require(busy, "no connection was refused")
      #expect(
        busyAnswer
          == [
            #"{"error":{"code":-32075,"message":"busy: accessoryd serves at "#
              + #"most 256 connections at once; try again when others have "#
              + #"closed"},"id":null,"jsonrpc":"2.0"}"#
          ])
      #expect(crowd.count + flood.count + 1 >= 256, "\(crowd.count)")
      table.append(
        BadInputTests.socketRow(
          "one connection more than the 256 open", busyAnswer))
      crowd.removeAll()
      try await waitUntil("acctl is answered again", within: .seconds(30)) {
        try await rig.daemon.acctl(["status"]).status == 0
      }
      withExtendedLifetime(flood) {}
      try BadInputTests.checkReadmeTable(
        table, name: "hostile clients", suite: "HostileClientTests",
        header: "what the daemon answers")
    }
  }
}
