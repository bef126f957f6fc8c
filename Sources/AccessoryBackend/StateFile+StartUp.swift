// Linux addition: the state file's checks at start-up. A daemon that
// cannot keep what it acknowledges must say so before it acknowledges
// anything, not at the first change.

import AccessoryControl
import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

extension StateFile {
  /// Why the daemon cannot start with this state file.
  public struct StartFailure: Error, CustomStringConvertible {
    /// What a person reads: the path and what is wrong with it.
    public let description: String
    /// The daemon's exit status: ``ProcessExitCode/cannotCreate`` for a
    /// location that cannot hold the state file,
    /// ``ProcessExitCode/dataError`` for a state file of a newer version.
    public let exitStatus: ProcessExitCode
  }

  /// What the checks at start-up found that does not stop the daemon.
  public struct StartWarning: Sendable, CustomStringConvertible {
    /// What a person reads: the path and what is wrong with it.
    public let description: String
  }

  /// Checks, before the daemon starts, that the state file can be read and
  /// replaced.
  ///
  /// The directory is created (mode 0700) if missing. It must be a
  /// directory this process can write: a file is written there, flushed
  /// and removed, as large as the state file. The state file, if there is
  /// one, must be a regular file (not a symbolic link, which the atomic
  /// rename would replace) that this process can read, of a version this
  /// code reads. A file it cannot read (one of root's after a `sudo` run,
  /// or of mode 0000) stops the daemon: it is not damaged, and keeping it
  /// aside would lose every accessory in it.
  ///
  /// - Returns: A warning when the directory is full: the daemon can route
  ///   with the state it has, and refuses changes until there is room.
  /// - Throws: ``StartFailure`` naming the path and what is wrong.
  public func checkBeforeStart() throws(StartFailure) -> StartWarning? {
    let directory = url.deletingLastPathComponent().path
    try Self.makeDirectory(directory)
    var status = stat()
    if lstat(url.path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        break
      case S_IFLNK:
        let target =
          (try? FileManager.default.destinationOfSymbolicLink(
            atPath: url.path)) ?? "?"
        throw StartFailure(
          description:
            "the state file '\(url.path)' is a symbolic link to '\(target)'; "
            + "accessoryd replaces its state file by renaming a new one over "
            + "it, which would replace the link: put the file itself at "
            + "'\(url.path)'",
          exitStatus: .cannotCreate)
      default:
        throw StartFailure(
          description:
            "the state file '\(url.path)' is \(fileKindName(status.st_mode)), "
            + "not a regular file; move it away",
          exitStatus: .cannotCreate)
      }
      try checkReadable(status)
      if let version = Self.newerVersion(at: url) {
        throw StartFailure(
          description:
            "the state file '\(url.path)' is version \(version), written by a "
            + "newer accessoryd; this one reads version \(Self.currentVersion)"
            + ": run the newer accessoryd, or move the file away to start "
            + "with no accessories",
          exitStatus: .dataError)
      }
    }
    let size = Int(status.st_size)
    return try probeWriting(directory, bytes: max(1, size))
  }

  /// Requires that this process can open the state file for reading.
  ///
  /// - Parameter status: The file's `lstat`, for its owner and mode.
  private func checkReadable(_ status: stat) throws(StartFailure) {
    let code: Errno
    do {
      _ = try FileDescriptor.open(url.path, [.readOnly, .noFollow])
      return
    } catch {
      code = error
    }
    let reason = code.message
    let path = url.path
    let fix: String
    if code != .permissionDenied, code != .notPermitted {
      fix = "; restore it or move it away"
    } else if status.st_uid != getuid() {
      let user = userName(getuid())
      fix =
        ": it belongs to \(userName(status.st_uid)), mode "
        + "\(permissionText(status.st_mode)), and accessoryd runs as \(user);"
        + " give it back with 'sudo chown \(user): \(path)'"
    } else {
      fix =
        ": it belongs to \(userName(status.st_uid)), mode "
        + "\(permissionText(status.st_mode)); make it readable with "
        + "'chmod 0600 \(path)'"
    }
    throw StartFailure(
      description: "the state file '\(path)' cannot be read (\(reason))\(fix)",
      exitStatus: .cannotCreate)
  }

  /// Creates the state directory, or requires that it is one.
  private static func makeDirectory(_ directory: String) throws(StartFailure) {
    var status = stat()
    if stat(directory, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw StartFailure(
          description:
            "the state directory '\(directory)' is "
            + "\(fileKindName(status.st_mode)), not a directory; move it away or "
            + "give another --state-dir",
          exitStatus: .cannotCreate)
      }
      return
    }
    if let (path, code) = makeDirectories(directory, mode: 0o700) {
      throw StartFailure(
        description:
          "cannot create the state directory '\(directory)': "
          + code.message
          + (path == directory ? "" : " at '\(path)'"),
        exitStatus: .cannotCreate)
    }
  }

  /// Writes, flushes and removes a file of `bytes` bytes in the directory,
  /// named as the writer's temporary files are, so that one left by a kill
  /// is removed at the next start.
  private func probeWriting(
    _ directory: String, bytes: Int
  ) throws(StartFailure) -> StartWarning? {
    let probe = url.path + ".tmp-\(getpid())-probe"
    defer { unlink(probe) }
    do throws(Errno) {
      let file = try FileDescriptor.open(
        probe, [.writeOnly, .create, .truncate, .noFollow])
      try file.writeAll([UInt8](repeating: 0, count: bytes))
      try file.sync()
      try file.close()
      return nil
    } catch {
      return try Self.refuse(directory, errno: error)
    }
  }

  /// Turns a failed write into a warning (full) or a failure (anything
  /// else).
  private static func refuse(
    _ directory: String, errno code: Errno
  ) throws(StartFailure) -> StartWarning {
    let reason = code.message
    if code == .noSpace || code == .diskQuotaExceeded {
      return StartWarning(
        description:
          "the state directory '\(directory)' is full (\(reason)); "
          + "accessoryd routes with the accessories it has and refuses "
          + "changes until there is room")
    }
    let what =
      code == .readOnlyFileSystem || code == .permissionDenied
        || code == .notPermitted
      ? "is read-only (\(reason))" : "cannot be written (\(reason))"
    throw StartFailure(
      description:
        "the state directory '\(directory)' \(what); accessoryd keeps the "
        + "paired accessories there and must be able to write it: make it "
        + "writable or give another --state-dir",
      exitStatus: .cannotCreate)
  }
}
