// Files and sockets as the system sees them, shared by the daemon and
// acctl: Foundation's file errors carry an errno that a person knows as
// "Permission denied", a uid is a user's name, a mode is four octal digits,
// and a socket's peer is who the kernel says it is.

import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The system's words for a failed file operation ("Permission denied"),
/// or the error itself where it carries no system error number.
///
/// Foundation's `CocoaError` prints as a dump of its code and user info;
/// this is what a log line or a message says instead.
///
/// - Parameter error: The error of a file operation.
/// - Returns: The text of the underlying `errno`, else the error's text.
package func systemReason(_ error: any Error) -> String {
  if let posix = (error as? CocoaError)?.underlying as? POSIXError {
    return Errno(rawValue: posix.code.rawValue).message
  }
  if let posix = error as? POSIXError {
    return Errno(rawValue: posix.code.rawValue).message
  }
  return "\(error)"
}

/// The name of a user, such as `root`, or `uid 1234` for a uid with no
/// entry in the user database.
///
/// - Parameter uid: The user's id.
package func userName(_ uid: uid_t) -> String {
  guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else {
    return "uid \(uid)"
  }
  return String(cString: name)
}

/// A file's permission bits as `chmod` takes them, such as `0600` or
/// `1777`.
///
/// - Parameter mode: The `st_mode` of a file.
package func permissionText(_ mode: mode_t) -> String {
  let digits = String(mode & 0o7777, radix: 8)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Names a kind of file for a message, such as "a regular file".
///
/// - Parameter mode: The `st_mode` of a file.
package func fileKindName(_ mode: mode_t) -> String {
  switch mode & S_IFMT {
  case S_IFREG: "a regular file"
  case S_IFDIR: "a directory"
  case S_IFLNK: "a symbolic link"
  case S_IFSOCK: "a socket"
  case S_IFIFO: "a named pipe"
  default: "a device"
  }
}

/// Creates a directory and the missing directories above it, each with
/// `mode`.
///
/// - Parameters:
///   - directory: The directory to make.
///   - mode: The mode of each directory made, before the umask.
/// - Returns: nil once the directory exists, else the directory that could
///   not be made and the reason of the failure.
package func makeDirectories(
  _ directory: String, mode: mode_t
) -> (path: String, code: Errno)? {
  var status = stat()
  var missing: [String] = []
  var path = directory
  while !path.isEmpty, path != "/", stat(path, &status) != 0 {
    missing.append(path)
    path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
  }
  for path in missing.reversed() where mkdir(path, mode) != 0 {
    let code = Errno.current
    guard code != .fileExists else { continue }
    return (path, code)
  }
  return nil
}

/// Who is at the other end of a connected Unix socket, as the kernel
/// recorded it when the connection was made (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Equatable {
  /// The peer's process id, or 0 where the kernel gives none.
  package var pid: Int32
  /// The peer's user id.
  package var uid: UInt32
  /// The peer's group id.
  package var gid: UInt32

  /// Reads the credentials of a connected Unix socket's peer.
  ///
  /// The layout is that of Linux's `struct ucred`, which Glibc hides
  /// without `_GNU_SOURCE`.
  ///
  /// - Parameter descriptor: A connected Unix socket.
  /// - Returns: nil if the kernel does not say.
  package init?(socket descriptor: Int32) {
    var credentials = PeerCredentials(pid: 0, uid: .max, gid: .max)
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard
      getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        == 0, length == socklen_t(MemoryLayout<PeerCredentials>.size)
    else { return nil }
    self = credentials
  }

  private init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
}
