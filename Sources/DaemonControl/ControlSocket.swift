// Where the control socket may listen. The daemon makes its socket's
// directory, or uses one that is its own user's, or a sticky directory of
// root's such as /tmp where the socket file itself is its own; it never
// follows a symbolic link there and never changes the mode of a directory
// it did not make.

import AccessoryControl
import AccessoryEngine
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The control socket, listening, made before any service starts.
///
/// The rule for its directory:
/// - missing, it is made (with any missing parent) with mode 0700;
/// - it must not be a symbolic link;
/// - it must belong to the daemon's user and be writable by no one else,
///   or be a sticky directory (mode `1777`, such as `/tmp`) that belongs
///   to the daemon's user or to root, where no one but a file's owner can
///   remove or replace that file.
///
/// The mode of a directory the daemon did not make is never changed. The
/// socket has mode 0600 from its creation. A socket file already at the
/// path is replaced only if it is the daemon user's own and nothing
/// listens on it (a daemon that died); anything else there is refused.
/// The checks and the socket work on the directory opened once, without
/// following links (`O_PATH | O_NOFOLLOW`), so a directory swapped after
/// the check is not the one used.
public final class ControlSocket: Sendable {
  /// The socket's path.
  public let path: String
  /// The listening socket.
  let descriptor: Int32
  /// The socket's directory, opened with `O_PATH`.
  private let directory: Int32
  /// The socket's name in its directory.
  private let name: String
  /// The device and inode of the socket file made, to remove only it.
  private let identity: (device: UInt, inode: UInt)

  private init(
    path: String, descriptor: Int32, directory: Int32, name: String,
    identity: (device: UInt, inode: UInt)
  ) {
    self.path = path
    self.descriptor = descriptor
    self.directory = directory
    self.name = name
    self.identity = identity
  }

  deinit {
    close(directory)
  }

  /// Why the socket cannot be made.
  public struct Failure: Error, CustomStringConvertible {
    /// What a person reads: the path, what is wrong, what to do.
    public let description: String
    /// The daemon's exit status: ``ProcessExitCode/cannotCreate`` for a
    /// socket location that cannot be used,
    /// ``ProcessExitCode/temporaryFailure`` when another daemon already
    /// serves the socket, as it may stop.
    public let exitStatus: ProcessExitCode

    init(_ description: String, status: ProcessExitCode = .cannotCreate) {
      self.description = description
      self.exitStatus = status
    }
  }

  /// Makes the listening socket at a path, by the rule of its directory.
  ///
  /// - Parameter path: The socket's path.
  /// - Returns: The socket, listening.
  /// - Throws: ``Failure`` naming the path, the owner or mode that is
  ///   refused and what is expected; another daemon listening there is
  ///   named by its pid.
  public static func listen(at path: String) throws(Failure) -> ControlSocket {
    do {
      _ = try UnixSocketAddress(path: path)
    } catch {
      throw Failure(
        "the control socket path '\(path)' is \(error.byteCount) bytes "
          + "long; expected at most \(UnixSocketAddress.maximumLength): give "
          + "a shorter --socket")
    }
    let (directoryPath, name) = split(path)
    let directory = try openDirectory(directoryPath)
    do {
      try checkExisting(name, in: directory, path: path)
      let (descriptor, identity) = try bind(name, in: directory, path: path)
      return ControlSocket(
        path: path, descriptor: descriptor, directory: directory, name: name,
        identity: identity)
    } catch {
      close(directory)
      throw error
    }
  }

  /// Removes the socket file, if it is still the one this made.
  func remove() {
    var status = stat()
    guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
      UInt(status.st_dev) == identity.device,
      UInt(status.st_ino) == identity.inode
    else { return }
    unlinkat(directory, name, 0)
  }

  // MARK: - The directory

  /// Linux's `O_PATH` (on x86-64 and ARM), which Glibc hides without
  /// `_GNU_SOURCE`: a descriptor that names a directory without reading it.
  private static let openPath: Int32 = 0o10_000_000

  /// The directory part and the name of a path.
  private static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (
      directory.isEmpty ? "/" : directory,
      String(path[path.index(after: slash)...])
    )
  }

  /// Opens the socket's directory without following a link, making it if
  /// missing, and requires that the daemon may use it.
  private static func openDirectory(
    _ directory: String
  ) throws(Failure) -> Int32 {
    let flags = openPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    var descriptor = open(directory, flags)
    if descriptor < 0, Errno.current == .noSuchFileOrDirectory {
      if let (path, code) = makeDirectories(directory, mode: 0o700) {
        throw Failure(
          "cannot create the socket directory '\(directory)': "
            + code.message
            + (path == directory ? "" : " at '\(path)'"))
      }
      descriptor = open(directory, flags)
    }
    guard descriptor >= 0 else {
      let code = Errno.current
      var status = stat()
      if lstat(directory, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
        throw Failure(refusal(directory, kind: status))
      }
      throw Failure(
        "cannot open the socket directory '\(directory)': \(code.message)")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = Errno.current.message
      close(descriptor)
      throw Failure(
        "cannot open the socket directory '\(directory)': \(reason)")
    }
    if let problem = problem(with: status) {
      close(descriptor)
      throw Failure(
        "the socket directory '\(directory)' \(problem); accessoryd "
          + "listens only in a directory of its own user that no one else "
          + "can write (it makes one, mode 0700, if missing), or in a "
          + "sticky directory of root's such as /tmp: give --socket a path "
          + "in such a directory")
    }
    return descriptor
  }

  /// What is wrong with a socket directory of this status, or nil.
  private static func problem(with status: stat) -> String? {
    let mode = status.st_mode
    let sticky = mode & S_ISVTX != 0
    let owner = status.st_uid
    if owner != getuid(), !(owner == 0 && sticky) {
      return "belongs to \(userName(owner)), mode \(permissionText(mode))"
    }
    if mode & 0o022 != 0, !sticky {
      return "is writable by others (mode \(permissionText(mode))) and not "
        + "sticky, so another user could replace the socket"
    }
    return nil
  }

  /// The message for a socket directory that is not a directory.
  private static func refusal(_ directory: String, kind status: stat) -> String
  {
    guard status.st_mode & S_IFMT == S_IFLNK else {
      return "the socket directory '\(directory)' is "
        + "\(fileKindName(status.st_mode)), not a directory; move it away or "
        + "give another --socket"
    }
    let target =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: directory))
      ?? "?"
    return "the socket directory '\(directory)' is a symbolic link to "
      + "'\(target)', owned by \(userName(status.st_uid)); accessoryd does "
      + "not follow a link to its socket's directory: give --socket a path "
      + "in the directory itself"
  }

  // MARK: - The socket

  /// Requires that a file at the socket's path is a socket of the daemon's
  /// user that nothing listens on, and removes it.
  private static func checkExisting(
    _ name: String, in directory: Int32, path: String
  ) throws(Failure) {
    var status = stat()
    guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
      let code = Errno.current
      guard code == .noSuchFileOrDirectory else {
        throw Failure(
          "cannot use the control socket '\(path)': \(code.message)")
      }
      return
    }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      throw Failure(
        "the control socket '\(path)' is \(fileKindName(status.st_mode)), "
          + "not a socket; move it away or give another --socket")
    }
    guard status.st_uid == getuid() else {
      throw Failure(
        "the control socket '\(path)' belongs to "
          + "\(userName(status.st_uid)); accessoryd replaces only a socket "
          + "of its own user: have it removed, or give another --socket")
    }
    // Non-blocking: a wedged daemon whose backlog is full answers EAGAIN
    // at once rather than holding the start.
    let probe = try makeSocket(nonBlocking: true)
    defer { close(probe) }
    let code: Errno?
    do {
      try UnixSocket.connect(probe, to: address(of: name, in: directory))
      code = nil
    } catch {
      code = error
    }
    switch code {
    case .connectionRefused:
      // A daemon that died left it.
      unlinkat(directory, name, 0)
    case nil, .wouldBlock:
      let pid = code == nil ? PeerCredentials(socket: probe)?.pid ?? 0 : 0
      throw Failure(
        "another accessoryd\(pid > 0 ? " (pid \(pid))" : "") already "
          + "listens on '\(path)'; stop it first, or give this one another "
          + "--socket",
        status: .temporaryFailure)
    case let code?:
      throw Failure(
        "cannot use the control socket '\(path)': \(code.message)")
    }
  }

  /// Binds a socket of mode 0600 in the directory and listens on it.
  private static func bind(
    _ name: String, in directory: Int32, path: String
  ) throws(Failure) -> (Int32, (device: UInt, inode: UInt)) {
    let descriptor = try makeSocket(nonBlocking: false)
    // The socket is created with no permissions for others from the start.
    let oldMask = umask(0o177)
    var code: Errno?
    do {
      try UnixSocket.bind(descriptor, to: address(of: name, in: directory))
    } catch {
      code = error
    }
    umask(oldMask)
    var status = stat()
    if code == nil, fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) != 0
    {
      code = Errno.current
    }
    if let code {
      close(descriptor)
      throw Failure("cannot bind '\(path)': \(code.message)")
    }
    let identity = (UInt(status.st_dev), UInt(status.st_ino))
    guard Glibc.listen(descriptor, 128) == 0 else {
      let reason = Errno.current.message
      close(descriptor)
      unlinkat(directory, name, 0)
      throw Failure("cannot listen on '\(path)': \(reason)")
    }
    return (descriptor, identity)
  }

  /// Makes a stream socket for the control socket.
  private static func makeSocket(nonBlocking: Bool) throws(Failure) -> Int32 {
    do {
      return try UnixSocket.make(.stream, nonBlocking: nonBlocking)
    } catch {
      throw Failure("cannot make a socket: \(error.message)")
    }
  }

  /// The address of `name` in the opened directory, reached through
  /// `/proc/self/fd`, so that no link on the way to the directory is
  /// followed again.
  private static func address(
    of name: String, in directory: Int32
  ) throws(Errno) -> UnixSocketAddress {
    do {
      return try UnixSocketAddress(path: "/proc/self/fd/\(directory)/\(name)")
    } catch {
      throw .fileNameTooLong
    }
  }
}
