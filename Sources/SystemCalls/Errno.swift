// The system's error numbers as a type: a failed call throws an `Errno`,
// and a message says "No such file or directory (ENOENT)" rather than a
// bare number or a hand-made string.

#if canImport(Glibc)
  import Glibc
#endif

/// An error number the system reports (`errno`).
///
/// Two ways to put one in words: ``message`` is the system's words alone,
/// "No such file or directory", for a sentence that already frames it;
/// ``description`` adds the symbolic name, "No such file or directory
/// (ENOENT)", for a log line or a diagnostic.
public struct Errno: RawRepresentable, Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// The number, as `errno` holds it.
  public let rawValue: Int32

  /// An error number.
  ///
  /// - Parameter rawValue: The number, as `errno` holds it.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The calling thread's `errno`, read at once: read it right after the
  /// call that failed, before anything else can change it.
  public static var current: Errno {
    Errno(rawValue: errno)
  }

  /// The system's words for the number (`strerror_r`), such as "No such
  /// file or directory"; "Unknown error 4242" for a number it does not know.
  public var message: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard strerror_r(rawValue, &buffer, buffer.count) == 0 else {
      return "Unknown error \(rawValue)"
    }
    return String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
      as: UTF8.self)
  }

  /// The symbolic name, such as `ENOENT`, or nil for a number not named
  /// here.
  public var name: String? {
    Self.names[rawValue]
  }

  /// The system's words and the symbolic name, such as "No such file or
  /// directory (ENOENT)"; a number not named here shows as "(errno 4242)".
  public var description: String {
    "\(message) (\(name ?? "errno \(rawValue)"))"
  }
}

// MARK: - The numbers

extension Errno {
  /// `EPERM`: the operation is not permitted.
  public static let notPermitted = Errno(rawValue: EPERM)
  /// `ENOENT`: no such file or directory.
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// `ESRCH`: no such process.
  public static let noSuchProcess = Errno(rawValue: ESRCH)
  /// `EINTR`: a signal interrupted the call; it may be made again.
  public static let interrupted = Errno(rawValue: EINTR)
  /// `EIO`: an input or output error.
  public static let ioError = Errno(rawValue: EIO)
  /// `EBADF`: not an open file descriptor.
  public static let badFileDescriptor = Errno(rawValue: EBADF)
  /// `ENOMEM`: the system cannot allocate memory.
  public static let noMemory = Errno(rawValue: ENOMEM)
  /// `EACCES`: permission denied.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// `EBUSY`: the device or resource is busy.
  public static let resourceBusy = Errno(rawValue: EBUSY)
  /// `EEXIST`: the file exists.
  public static let fileExists = Errno(rawValue: EEXIST)
  /// `ENOTDIR`: a component of the path is not a directory.
  public static let notDirectory = Errno(rawValue: ENOTDIR)
  /// `EISDIR`: the file is a directory.
  public static let isDirectory = Errno(rawValue: EISDIR)
  /// `EINVAL`: an invalid argument.
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// `EMFILE`: the process has too many open files.
  public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
  /// `ETXTBSY`: the file is a program that is running.
  public static let textFileBusy = Errno(rawValue: ETXTBSY)
  /// `ENOSPC`: no space left on the device.
  public static let noSpace = Errno(rawValue: ENOSPC)
  /// `EROFS`: the file system is read-only.
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)
  /// `EPIPE`: the other end of a pipe or socket is closed.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// `ENAMETOOLONG`: the file name is too long.
  public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)
  /// `ELOOP`: too many levels of symbolic links, or a link where
  /// `O_NOFOLLOW` forbids one.
  public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
  /// `EAGAIN` (also `EWOULDBLOCK`): the call would block, or a timeout ran
  /// out; try again.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `ENOTSOCK`: the descriptor is not a socket.
  public static let notSocket = Errno(rawValue: ENOTSOCK)
  /// `EAFNOSUPPORT`: the address family is not supported, such as Bluetooth
  /// sockets on a kernel without them.
  public static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
  /// `EADDRINUSE`: the address is already in use.
  public static let addressInUse = Errno(rawValue: EADDRINUSE)
  /// `ECONNABORTED`: the connection was aborted before it was accepted.
  public static let connectionAborted = Errno(rawValue: ECONNABORTED)
  /// `ECONNRESET`: the peer reset the connection.
  public static let connectionReset = Errno(rawValue: ECONNRESET)
  /// `ENOTCONN`: the socket is not connected.
  public static let socketNotConnected = Errno(rawValue: ENOTCONN)
  /// `ETIMEDOUT`: the connection timed out.
  public static let timedOut = Errno(rawValue: ETIMEDOUT)
  /// `ECONNREFUSED`: nothing listens at the address.
  public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// `EINPROGRESS`: a connection is under way; on a socket with a send
  /// timeout, the timeout ran out first.
  public static let inProgress = Errno(rawValue: EINPROGRESS)
  /// `EHOSTDOWN`: the host is down.
  public static let hostIsDown = Errno(rawValue: EHOSTDOWN)
  /// `EHOSTUNREACH`: no route to the host.
  public static let noRouteToHost = Errno(rawValue: EHOSTUNREACH)
  /// `EDQUOT`: the disk quota is exceeded.
  public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
  /// `EFBIG`: the file is too large.
  public static let fileTooLarge = Errno(rawValue: EFBIG)
  /// `EXDEV`: a link or rename across file systems.
  public static let crossDeviceLink = Errno(rawValue: EXDEV)

  /// The symbolic names of the numbers above.
  private static let names: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR",
    EIO: "EIO", EBADF: "EBADF", ENOMEM: "ENOMEM", EACCES: "EACCES",
    EBUSY: "EBUSY", EEXIST: "EEXIST", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
    EINVAL: "EINVAL", EMFILE: "EMFILE", ETXTBSY: "ETXTBSY", ENOSPC: "ENOSPC",
    EROFS: "EROFS", EPIPE: "EPIPE", ENAMETOOLONG: "ENAMETOOLONG",
    ELOOP: "ELOOP", EAGAIN: "EAGAIN", ENOTSOCK: "ENOTSOCK",
    EAFNOSUPPORT: "EAFNOSUPPORT", EADDRINUSE: "EADDRINUSE",
    ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET",
    ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT",
    ECONNREFUSED: "ECONNREFUSED", EINPROGRESS: "EINPROGRESS",
    EHOSTDOWN: "EHOSTDOWN",
    EHOSTUNREACH: "EHOSTUNREACH", EDQUOT: "EDQUOT", EFBIG: "EFBIG",
    EXDEV: "EXDEV",
  ]
}

// MARK: - Calls

extension Errno {
  /// Makes a call again while a signal interrupts it (`EINTR`).
  ///
  /// - Parameter call: A system call that returns -1 and sets `errno` when
  ///   it fails, such as `read` or `write`.
  /// - Returns: What the call returned; when that is -1, ``current`` still
  ///   holds its reason.
  public static func retryingInterrupts<
    Result: FixedWidthInteger & SignedInteger
  >(
    _ call: () -> Result
  ) -> Result {
    while true {
      let result = call()
      if result == -1, errno == EINTR { continue }
      return result
    }
  }

  /// Makes a call, again while a signal interrupts it, and turns a failure
  /// into a thrown `Errno`.
  ///
  /// - Parameter call: A system call that returns -1 and sets `errno` when
  ///   it fails.
  /// - Returns: What the call returned, never -1.
  /// - Throws: ``Errno`` with the call's reason.
  @discardableResult
  public static func check<Result: FixedWidthInteger & SignedInteger>(
    _ call: () -> Result
  ) throws(Errno) -> Result {
    let result = retryingInterrupts(call)
    guard result != -1 else { throw current }
    return result
  }
}
