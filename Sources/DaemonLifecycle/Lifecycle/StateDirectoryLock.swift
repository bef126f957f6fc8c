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
  private let descriptor: Int32

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
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
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .unusable(path: path, reason: Errno.current.message)
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let code = Errno.current
      let holder = StateLockFile.readRecord(descriptor)
      close(descriptor)
      guard code == .wouldBlock else {
        throw .unusable(path: path, reason: code.message)
      }
      throw .held(directory: directory, holder: holder)
    }
    let record = StateLockFile.record(pid: getpid(), socketPath: socketPath)
    _ = ftruncate(descriptor, 0)
    _ = record.utf8CString.withUnsafeBufferPointer { buffer in
      pwrite(descriptor, buffer.baseAddress, buffer.count - 1, 0)
    }
    return StateDirectoryLock(path: path, descriptor: descriptor)
  }

  deinit {
    close(descriptor)
  }
}
