// The daemon's start and its state on disk, end to end: bad flags, config
// files and policies, state directories it cannot use, and state files
// that are damaged, of a newer version or on a full disk. Each case gives
// its exact message and exit code, and lands in the README's tables. The
// damaged state files are in StartUpFaultTests+DamagedState.swift.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The daemon's start and its state on disk, end to end")
struct StartUpFaultTests {
  /// One start of accessoryd that must fail, and what it must say.
  struct Start: CustomStringConvertible, Sendable {
    /// The README's first cell.
    var input: String
    /// Builds what the case needs in the test's directory and returns the
    /// arguments.
    var prepare: @Sendable (String) throws -> [String]
    var status: Int32
    /// The first line of standard error, with `<dir>` for the directory.
    var message: String
    /// Whether accessoryd runs as ``HostileClientTests/otherUser``.
    var asOtherUser = false

    var description: String { input }
  }

  /// Whether this process may mount file systems, as the read-only and
  /// full-disk cases need; with `CI` set, not being allowed fails.
  static func mayMount() -> Bool {
    if getuid() == 0 { return true }
    if ProcessInfo.processInfo.environment["CI"] != nil {
      Issue.record("the disk-fault cases mount tmpfs and need root under CI")
    }
    return false
  }

  /// Mounts a tmpfs of `size` at `path`, read-only if asked.
  static func mountTmpfs(
    _ path: String, size: String, readOnly: Bool = false
  ) throws {
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true)
    let flags = UInt(readOnly ? MS_RDONLY : 0)
    guard mount("tmpfs", path, "tmpfs", flags, "size=\(size)") == 0 else {
      throw FixtureError("cannot mount a tmpfs at \(path): \(errno)")
    }
  }

  static let starts: [Start] = [
    Start(
      input: "`accessoryd --log-level loud`",
      prepare: { _ in ["--log-level", "loud"] }, status: 64,
      message:
        "Error: The value 'loud' is invalid for '--log-level': expected "
        + "trace, debug, info, notice, warning, error, critical"),
    Start(
      input: "`accessoryd --frobnicate`", prepare: { _ in ["--frobnicate"] },
      status: 64, message: "Error: Unknown option '--frobnicate'"),
    Start(
      input: "`accessoryd --host-address 12:34`",
      prepare: { _ in ["--host-address", "12:34"] }, status: 64,
      message:
        "Error: The value '12:34' is invalid for '--host-address': expected "
        + "a Bluetooth address such as 'AA:BB:CC:DD:EE:FF'"),
    Start(
      input: "`accessoryd --stop-timeout 0`",
      prepare: { _ in ["--stop-timeout", "0"] }, status: 64,
      message:
        "Error: The value '0' is invalid for '--stop-timeout': expected a "
        + "number of seconds from 0.001 to 3600, such as 5 or 0.5"),
    configStart(
      #"{ logLevel: "loud" }"#,
      message:
        "logLevel: is 'loud'; expected one of trace, debug, info, notice, "
        + "warning, error, critical"),
    configStart(
      #"{ hostAddresses: ["12:34"] }"#,
      message:
        "hostAddresses[0]: is '12:34'; expected a Bluetooth address such as "
        + "'AA:BB:CC:DD:EE:FF'"),
    configStart(
      #"{ sever: "x" }"#,
      message:
        "sever: is not a known setting; expected one of 'server', 'policy', "
        + "'stateDirectory', 'socket', 'hostAddresses', 'logLevel'"),
    configStart(
      "{ logLevel: 3 }",
      message: "logLevel: is the number 3; expected a string"),
    configStart(
      "{ server: ",
      message: "line 1, column 11: expected a value, found the end of the file"),
    Start(
      input: "config file: missing",
      prepare: { ["--config", $0 + "/missing.json5"] }, status: 78,
      message:
        "Error: <dir>/missing.json5: cannot be read: No such file or directory"),
    Start(
      input: "policy: `{ version: 9 }`",
      prepare: { directory in
        try "{ version: 9 }".write(
          toFile: directory + "/policy.json5", atomically: true,
          encoding: .utf8)
        return ["--policy", directory + "/policy.json5"]
      }, status: 78,
      message:
        "Error: <dir>/policy.json5: version: is the number 9; expected a "
        + "whole number from 1 to 1"),
    Start(
      input: "state directory: a regular file",
      prepare: { directory in
        _ = FileManager.default.createFile(
          atPath: directory + "/state", contents: Data())
        return []
      }, status: 73,
      message:
        "Error: the state directory '<dir>/state' is a regular file, not a "
        + "directory; move it away or give another --state-dir"),
    Start(
      input: "state directory: under a regular file",
      prepare: { directory in
        _ = FileManager.default.createFile(
          atPath: directory + "/file", contents: Data())
        return ["--state-dir", directory + "/file/state"]
      }, status: 73,
      message:
        "Error: cannot create the state directory '<dir>/file/state': Not a "
        + "directory"),
    Start(
      input: "state directory: on a read-only file system",
      prepare: { directory in
        try mountTmpfs(directory + "/state", size: "64k", readOnly: true)
        return []
      }, status: 73,
      message:
        "Error: the state directory '<dir>/state' is read-only (Read-only "
        + "file system); accessoryd keeps the paired accessories there and "
        + "must be able to write it: make it writable or give another "
        + "--state-dir"),
    Start(
      input: "state directory: missing, on a read-only file system",
      prepare: { directory in
        try mountTmpfs(directory + "/ro", size: "64k", readOnly: true)
        return ["--state-dir", directory + "/ro/state"]
      }, status: 73,
      message:
        "Error: cannot create the state directory '<dir>/ro/state': "
        + "Read-only file system"),
    Start(
      input: "state file: a symbolic link",
      prepare: { directory in
        try FileManager.default.createDirectory(
          atPath: directory + "/state", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
          atPath: directory + "/state/state.json",
          withDestinationPath: directory + "/elsewhere.json")
        return []
      }, status: 73,
      message:
        "Error: the state file '<dir>/state/state.json' is a symbolic link "
        + "to '<dir>/elsewhere.json'; accessoryd replaces its state file by "
        + "renaming a new one over it, which would replace the link: put "
        + "the file itself at '<dir>/state/state.json'"),
    Start(
      input: "state file: a directory",
      prepare: { directory in
        try FileManager.default.createDirectory(
          atPath: directory + "/state/state.json",
          withIntermediateDirectories: true)
        return []
      }, status: 73,
      message:
        "Error: the state file '<dir>/state/state.json' is a directory, not "
        + "a regular file; move it away"),
    Start(
      input: "state file: from a newer version",
      prepare: { directory in
        try FileManager.default.createDirectory(
          atPath: directory + "/state", withIntermediateDirectories: true)
        try newerState.write(
          toFile: directory + "/state/state.json", atomically: true,
          encoding: .utf8)
        return []
      }, status: 65,
      message:
        "Error: the state file '<dir>/state/state.json' is version 2, "
        + "written by a newer accessoryd; this one reads version 1: run the "
        + "newer accessoryd, or move the file away to start with no "
        + "accessories"),
  ]

  /// The starts on state files and socket locations that another user
  /// set up, or that accessoryd, run as that user, cannot read.
  static let otherUserStarts: [Start] = [
    Start(
      input: "state file: root's, mode 0600, accessoryd run as another user",
      prepare: { directory in
        try makeStateDirectory(directory, ownedBy: try otherUser().uid)
        try writeState(directory + "/state/state.json", mode: 0o600)
        return []
      }, status: 73,
      message:
        "Error: the state file '<dir>/state/state.json' cannot be read "
        + "(Permission denied): it belongs to root, mode 0600, and accessoryd "
        + "runs as accessoryd-other; give it back with 'sudo chown "
        + "accessoryd-other: <dir>/state/state.json'",
      asOtherUser: true),
    Start(
      input: "state file: mode 0000, accessoryd run as its owner",
      prepare: { directory in
        let other = try otherUser()
        try makeStateDirectory(directory, ownedBy: other.uid)
        try writeState(directory + "/state/state.json", mode: 0)
        chown(directory + "/state/state.json", other.uid, other.gid)
        return []
      }, status: 73,
      message:
        "Error: the state file '<dir>/state/state.json' cannot be read "
        + "(Permission denied): it belongs to accessoryd-other, mode 0000; "
        + "make it readable with 'chmod 0600 <dir>/state/state.json'",
      asOtherUser: true),
    Start(
      input: "socket directory: another user's",
      prepare: { directory in
        let other = try otherUser()
        try makeDirectory(directory + "/theirs", mode: 0o700)
        chown(directory + "/theirs", other.uid, other.gid)
        return ["--socket", directory + "/theirs/control.sock"]
      }, status: 73,
      message:
        "Error: the socket directory '<dir>/theirs' belongs to "
        + "accessoryd-other, mode 0700; \(socketRule)"),
    Start(
      input:
        "socket directory: a symbolic link another user planted in a "
        + "shared sticky directory, to one of root's",
      prepare: { directory in
        let other = try otherUser()
        try makeDirectory(directory + "/shared", mode: 0o1777)
        try makeDirectory(directory + "/roots", mode: 0o755)
        try FileManager.default.createSymbolicLink(
          atPath: directory + "/shared/accessoryd",
          withDestinationPath: directory + "/roots")
        lchown(directory + "/shared/accessoryd", other.uid, other.gid)
        return ["--socket", directory + "/shared/accessoryd/control.sock"]
      }, status: 73,
      message:
        "Error: the socket directory '<dir>/shared/accessoryd' is a symbolic "
        + "link to '<dir>/roots', owned by accessoryd-other; accessoryd does "
        + "not follow a link to its socket's directory: give --socket a path "
        + "in the directory itself"),
    Start(
      input: "socket directory: writable by others, not sticky",
      prepare: { directory in
        try makeDirectory(directory + "/open", mode: 0o777)
        return ["--socket", directory + "/open/control.sock"]
      }, status: 73,
      message:
        "Error: the socket directory '<dir>/open' is writable by others "
        + "(mode 0777) and not sticky, so another user could replace the "
        + "socket; \(socketRule)"),
    Start(
      input:
        "socket: another user's, in a shared sticky directory",
      prepare: { directory in
        let other = try otherUser()
        try makeDirectory(directory + "/shared", mode: 0o1777)
        let planted = directory + "/shared/control.sock"
        guard mknod(planted, S_IFSOCK | 0o600, 0) == 0 else {
          throw FixtureError("cannot make a socket at \(planted): \(errno)")
        }
        chown(planted, other.uid, other.gid)
        return ["--socket", planted]
      }, status: 73,
      message:
        "Error: the control socket '<dir>/shared/control.sock' belongs to "
        + "accessoryd-other; accessoryd replaces only a socket of its own "
        + "user: have it removed, or give another --socket"),
    Start(
      input: "socket: a regular file at its path",
      prepare: { directory in
        _ = FileManager.default.createFile(
          atPath: directory + "/file.sock", contents: Data("keep".utf8))
        return ["--socket", directory + "/file.sock"]
      }, status: 73,
      message:
        "Error: the control socket '<dir>/file.sock' is a regular file, not a "
        + "socket; move it away or give another --socket"),
    Start(
      input: "socket directory: under a regular file",
      prepare: { directory in
        _ = FileManager.default.createFile(
          atPath: directory + "/file", contents: Data())
        return ["--socket", directory + "/file/run/control.sock"]
      }, status: 73,
      message:
        "Error: cannot open the socket directory '<dir>/file/run': Not a "
        + "directory"),
  ]

  /// What a socket directory must be, as accessoryd says it.
  static let socketRule =
    "accessoryd listens only in a directory of its own user that no one "
    + "else can write (it makes one, mode 0700, if missing), or in a sticky "
    + "directory of root's such as /tmp: give --socket a path in such a "
    + "directory"

  /// The other user's ids; the test has made the user.
  static func otherUser() throws -> (uid: uid_t, gid: gid_t) {
    guard let entry = getpwnam(HostileClientTests.otherUser) else {
      throw FixtureError("there is no user \(HostileClientTests.otherUser)")
    }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  /// Makes a directory of exactly this mode, whatever the umask.
  static func makeDirectory(_ path: String, mode: mode_t) throws {
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true)
    chmod(path, mode)
  }

  /// Makes the state directory, mode 0700, owned by `uid`.
  static func makeStateDirectory(_ directory: String, ownedBy uid: uid_t) throws
  {
    try makeDirectory(directory + "/state", mode: 0o700)
    chown(directory + "/state", uid, gid_t.max)
  }

  /// Writes an empty state file of this mode, owned by root.
  static func writeState(_ path: String, mode: mode_t) throws {
    try #"{"version": 1, "accessories": [], "registrations": []}"#.write(
      toFile: path, atomically: false, encoding: .utf8)
    chmod(path, mode)
  }

  static let newerState = #"{"version": 2, "accessories": [], "hats": []}"#

  /// A start with a config file of this text, which must fail with 78 and
  /// a message naming the file and the setting.
  static func configStart(_ text: String, message: String) -> Start {
    Start(
      input: "config file: `\(text)`",
      prepare: { directory in
        try text.write(
          toFile: directory + "/accessoryd.json5", atomically: true,
          encoding: .utf8)
        return ["--config", directory + "/accessoryd.json5"]
      }, status: 78, message: "Error: <dir>/accessoryd.json5: " + message)
  }

  @Test(
    "Without XDG_RUNTIME_DIR it names the variable and --socket, and makes no /run/user"
  )
  func noRuntimeDirectory() async throws {
    let runtime = "/run/user/\(getuid())"
    guard access(runtime, F_OK) != 0 else {
      // A login session's directory is there: the case cannot be made.
      print("Not run: \(runtime) exists, as a login session makes it")
      return
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-no-runtime-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try await runProgram(
      try builtProduct("accessoryd").path,
      ["--state-dir", directory + "/state"],
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": directory,
        "PULSE_SERVER": "unix:\(directory)/no-sound-server",
      ], within: .seconds(30))
    #expect(result.status == 73, "\(result)")
    #expect(
      result.stderr.hasPrefix(
        "Error: XDG_RUNTIME_DIR is not set, and '\(runtime)', where the "
          + "control socket goes without it, does not exist"), "\(result)")
    #expect(result.stderr.contains("--socket"), "\(result)")
    #expect(access(runtime, F_OK) != 0, "accessoryd made \(runtime)")
  }

  @Test("Each start that cannot work exits with its code and message")
  func startsThatCannotWork() async throws {
    guard Self.mayMount() else { return }
    guard try await HostileClientTests.otherUserIDs() != nil else { return }
    // accessoryd where the other user may run it.
    let programs = try HostileClientTests.makeSharedDirectory(
      "accessoryd-start-bin", programs: ["accessoryd"])
    defer { try? FileManager.default.removeItem(atPath: programs) }
    let accessoryd = programs + "/bin/accessoryd"
    let other = try Self.otherUser()
    var table: [String] = []
    for start in Self.starts + Self.otherUserStarts {
      // A directory the other user's daemon finds its way into.
      let directory = try HostileClientTests.makeSharedDirectory(
        "accessoryd-start", programs: [])
      try Self.makeDirectory(directory + "/home", mode: 0o755)
      defer {
        for mounted in ["/state", "/ro"] {
          umount2(directory + mounted, Int32(MNT_DETACH))
        }
        try? FileManager.default.removeItem(atPath: directory)
      }
      let arguments = try start.prepare(directory)
      let defaults = [
        "--socket", directory + "/control.sock", "--state-dir",
        directory + "/state",
      ]
      let before = Self.snapshot(directory)
      let asOther =
        start.asOtherUser
        ? [
          "/usr/bin/setpriv", "--reuid=\(other.uid)", "--regid=\(other.gid)",
          "--clear-groups", "--",
        ] : []
      let command = asOther + [accessoryd] + defaults + arguments
      let result = try await runProgram(
        command[0], Array(command.dropFirst()),
        environment: [
          "PATH": "/usr/bin:/bin", "HOME": directory + "/home",
          "XDG_CONFIG_HOME": directory + "/home/.config",
          "XDG_RUNTIME_DIR": directory,
          "PULSE_SERVER": "unix:\(directory)/no-sound-server",
        ], within: .seconds(30))
      let said = result.stderr.split(separator: "\n").first.map(String.init)
      let expected = start.message.replacingOccurrences(
        of: "<dir>", with: directory)
      #expect(result.status == start.status, "\(start): \(result)")
      #expect(said == expected, "\(start): \(result)")
      #expect(result.stdout.isEmpty, "\(start): \(result)")
      // Nothing was written: no socket, no state, the state file as it was.
      #expect(
        !FileManager.default.fileExists(atPath: directory + "/control.sock"))
      // The state's checks come first and make the state directory, mode
      // 0700, if it is missing; nothing else is made or changed.
      var after = Self.snapshot(directory)
      if before["state"] == nil, after["state"]?.mode == S_IFDIR | 0o700 {
        after["state"] = nil
      }
      #expect(after == before, "\(start) changed the directory")
      table.append(
        BadInputTests.tableRow(
          start.input, "\(result.status ?? -1)",
          (said ?? "").replacingOccurrences(of: directory + "/", with: "")))
    }
    try BadInputTests.checkReadmeTable(
      table, name: "daemon start", suite: "StartUpFaultTests",
      header: "what accessoryd says")
  }

  /// One file as a snapshot keeps it.
  struct FileRecord: Equatable {
    var mode: mode_t
    var owner: uid_t
    var contents: Data?
  }

  /// The names, modes, owners and contents of the directory and the files
  /// under it, but for the state directory's lock file.
  static func snapshot(_ directory: String) -> [String: FileRecord] {
    var files: [String: FileRecord] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory)
    var names = ["."]
    while let name = enumerator?.nextObject() as? String {
      guard !name.hasSuffix("accessoryd.lock") else { continue }
      names.append(name)
    }
    for name in names {
      var status = stat()
      lstat(directory + "/" + name, &status)
      files[name] = FileRecord(
        mode: status.st_mode, owner: status.st_uid,
        contents: FileManager.default.contents(atPath: directory + "/" + name))
    }
    return files
  }
}
