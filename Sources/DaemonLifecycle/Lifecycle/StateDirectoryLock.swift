// One daemon per state directory: two daemons sharing one would each take
// the other's switches for the person's own choice, and fight.

import AccessoryControl
import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive lock on a state directory, held for the life of the
/// process.
///
/// The lock is `flock(2)` on `accessoryd.lock` in the directory, so the
/// kernel releases it when the process ends, however it ends; no stale lock
/// survives a crash. The holder writes its process id and control socket
/// into the file, so that a second daemon can say who holds it.
public final class StateDirectoryLock: Sendable {
  /// The exit status of a daemon that finds its state directory locked:
  /// ``ProcessExitCode/temporaryFailure``, as the other daemon may stop.
  public static let exitStatusWhenHeld = ProcessExitCode.temporaryFailure

  /// The lock file's path.
  public let path: String
  /// The open lock file: the lock lives as long as it does.
  private let file: FileDescriptor

  private init(path: String, file: consuming FileDescriptor) {
    self.path = path
    self.file = file
  }

  /// Why the lock could not be taken.
  public enum Failure: Error, CustomStringConvertible {
    /// Another process holds it.
    case held(directory: String, holder: String)
    /// The directory or the file cannot be made or opened.
    case unusable(path: String, reason: String)

    /// What a person reads.
    public var description: String {
      switch self {
      case .held(let directory, let holder):
        "another accessoryd (\(holder)) already uses the state directory "
          + "'\(directory)'; stop it first, or give this one another "
          + "--state-dir"
      case .unusable(let path, let reason):
        "cannot lock '\(path)': \(reason)"
      }
    }
  }

  /// Takes the lock of a state directory, creating the directory (mode
  /// 0700) if needed, and records this process's id and socket in it.
  ///
  /// - Parameters:
  ///   - directory: The state directory.
  ///   - socketPath: This daemon's control socket, for the message another
  ///     daemon prints.
  /// - Throws: ``Failure/held(directory:holder:)`` naming the holder's pid
  ///   and socket if another process has it.
  public static func acquire(
    _ directory: String, socketPath: String
  ) throws(Failure) -> StateDirectoryLock {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unusable(path: directory, reason: systemReason(error))
    }
    let path = directory + "/" + StateLockFile.name
    // Not through a link: the daemon writes its record into the file.
    let file = try openLocked(path, directory: directory)
    let record = StateLockFile.record(pid: getpid(), socketPath: socketPath)
    try? file.truncate(to: 0)
    try? file.writeAll(Array(record.utf8), at: 0)
    return StateDirectoryLock(path: path, file: file)
  }

  /// Opens the lock file, not through a link, and locks it.
  private static func openLocked(
    _ path: String, directory: String
  ) throws(Failure) -> FileDescriptor {
    let file = try open(path)
    let taken: Bool
    do {
      taken = try file.tryLock(.exclusive)
    } catch {
      throw .unusable(path: path, reason: error.message)
    }
    guard taken else {
      throw .held(
        directory: directory, holder: StateLockFile.readRecord(file))
    }
    return file
  }

  /// Opens the lock file, creating it (mode 0600), not through a link.
  private static func open(_ path: String) throws(Failure) -> FileDescriptor {
    do {
      return try FileDescriptor.open(path, [.readWrite, .create, .noFollow])
    } catch {
      throw .unusable(path: path, reason: error.message)
    }
  }
}
