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
      #expect(made.status == 0, "\(made)")
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
      try FileManager.default.copyItem(
        atPath: try builtProduct("acctl").path, toPath: bin + "/acctl")
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

      // With the socket opened to everyone, the daemon's own check of the
      // peer's uid refuses it.
      chmod(rig.daemon.socketPath, 0o666)
      let byTheDaemon = try await asOther()
      chmod(rig.daemon.socketPath, 0o600)
      chmod(rig.daemon.directory, 0o700)
      #expect(byTheDaemon.status == 77, "\(byTheDaemon)")
      #expect(byTheDaemon.stderr == expected, "\(byTheDaemon)")
      #expect(rig.daemon.log.contains("Refused a client of another user"))
      table.append(
        BadInputTests.tableRow(
          "`acctl update …` as another user, the socket mode 0666",
          "\(byTheDaemon.status ?? -1)",
          byTheDaemon.stderr.trimmingCharacters(in: .newlines)))

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
      var huge = Data(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8)
      huge.append(Data(repeating: UInt8(ascii: "a"), count: 4 << 20))
      async let hugeAnswer = rig.daemon.sendRaw(huge, lines: 1, timeout: 30)

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
      try await waitUntil("acctl is answered again", within: .seconds(10)) {
        try await rig.daemon.acctl(["status"]).status == 0
      }
      withExtendedLifetime(flood) {}
      try BadInputTests.checkReadmeTable(
        table, name: "hostile clients", suite: "HostileClientTests",
        header: "what the daemon answers")
    }
  }
}
