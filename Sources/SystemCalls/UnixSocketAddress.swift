// The address of a Unix socket, built once with its length checked, for
// bind, connect and sendto.

#if canImport(Glibc)
  import Glibc
#endif

/// The address of a Unix socket: a path in the file system, or a name in
/// Linux's abstract namespace.
///
/// A `sockaddr_un` holds at most 107 bytes of path and its ending NUL; a
/// longer path is refused when the address is made, naming the path and
/// the limit, rather than cut short or left to the kernel.
public struct UnixSocketAddress: Sendable, Hashable, CustomStringConvertible {
  /// The most bytes a path, or an abstract name and its leading NUL, may
  /// have: `sun_path` less the NUL that ends a path.
  public static let maximumLength =
    MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// A path or name too long for a Unix socket address.
  public struct TooLong: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path, or `@` and the abstract name, as given.
    public let path: String
    /// Its length in bytes; for an abstract name, with its leading NUL.
    public let byteCount: Int

    /// What a person reads: the path, its length and the limit.
    public var description: String {
      "the Unix socket path '\(path)' is \(byteCount) bytes long; a socket "
        + "address holds at most \(UnixSocketAddress.maximumLength)"
    }
  }

  /// The bytes of `sun_path`: a path without its NUL, or a NUL and the
  /// abstract name.
  private let bytes: [UInt8]

  /// The address of a socket file.
  ///
  /// - Parameter path: The socket's path, absolute or relative.
  /// - Throws: ``TooLong`` for a path of more than ``maximumLength``
  ///   bytes.
  public init(path: String) throws(TooLong) {
    let bytes = Array(path.utf8)
    guard bytes.count <= Self.maximumLength else {
      throw TooLong(path: path, byteCount: bytes.count)
    }
    self.bytes = bytes
  }

  /// The address of an abstract socket, which has a name and no file.
  ///
  /// - Parameter abstractName: The name, without the leading NUL.
  /// - Throws: ``TooLong`` for a name of more than ``maximumLength`` - 1
  ///   bytes.
  public init(abstractName: String) throws(TooLong) {
    let bytes = [0] + Array(abstractName.utf8)
    guard bytes.count <= Self.maximumLength else {
      throw TooLong(path: "@" + abstractName, byteCount: bytes.count)
    }
    self.bytes = bytes
  }

  /// The address a path or `@name` gives, as `NOTIFY_SOCKET` and `ss`
  /// write them: `@` starts an abstract name.
  ///
  /// - Parameter notation: A path, or `@` followed by an abstract name.
  /// - Throws: ``TooLong`` when it does not fit.
  public init(notation: String) throws(TooLong) {
    if notation.hasPrefix("@") {
      try self.init(abstractName: String(notation.dropFirst()))
    } else {
      try self.init(path: notation)
    }
  }

  /// Whether the address is in the abstract namespace.
  public var isAbstract: Bool {
    bytes.first == 0
  }

  /// The path, or `@` and the abstract name.
  public var description: String {
    isAbstract
      ? "@" + String(decoding: bytes.dropFirst(), as: UTF8.self)
      : String(decoding: bytes, as: UTF8.self)
  }

  /// Calls `body` with the address as `bind`, `connect` and `sendto` take
  /// it.
  ///
  /// - Parameter body: Takes the address, valid only during the call, and
  ///   its length: a path's with its ending NUL, an abstract name's
  ///   exactly, as its length is part of it.
  /// - Returns: What `body` returns.
  public func withSockaddr<Result, Failure: Error>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      if !isAbstract { raw[bytes.count] = 0 }
    }
    let length = socklen_t(
      MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count
        + (isAbstract ? 0 : 1))
    return try withUnsafePointer(to: &address) { pointer throws(Failure) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        pointer throws(Failure) in
        try body(pointer, length)
      }
    }
  }
}

/// Unix sockets made and addressed with typed errors; each is made with
/// `SOCK_CLOEXEC`, so no program the process starts inherits it.
public enum UnixSocket {
  /// The kind of a socket.
  public enum Kind: Sendable {
    /// `SOCK_STREAM`: a connection.
    case stream
    /// `SOCK_DGRAM`: datagrams.
    case datagram
  }

  /// Makes a Unix socket.
  ///
  /// - Parameters:
  ///   - kind: Stream or datagram.
  ///   - nonBlocking: Whether calls on it return `EAGAIN` rather than
  ///     wait (`SOCK_NONBLOCK`).
  /// - Returns: The socket's descriptor, which the caller closes.
  /// - Throws: ``Errno`` when the system makes none.
  public static func make(
    _ kind: Kind, nonBlocking: Bool = false
  ) throws(Errno) -> Int32 {
    var type =
      Int32(kind == .stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)
      | Int32(SOCK_CLOEXEC.rawValue)
    if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
    return try Errno.check { socket(AF_UNIX, type, 0) }
  }

  /// Connects a socket to an address.
  ///
  /// - Parameters:
  ///   - descriptor: A Unix socket.
  ///   - address: Where to connect.
  /// - Throws: ``Errno``, such as ``Errno/connectionRefused`` when
  ///   nothing listens there.
  public static func connect(
    _ descriptor: Int32, to address: UnixSocketAddress
  ) throws(Errno) {
    // A connect that a signal interrupts goes on in the background; it is
    // not made again.
    let status = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
    guard status == 0 else { throw Errno.current }
  }

  /// Binds a socket to an address.
  ///
  /// - Parameters:
  ///   - descriptor: A Unix socket.
  ///   - address: Its address: a file is made at a path.
  /// - Throws: ``Errno``, such as ``Errno/addressInUse``.
  public static func bind(
    _ descriptor: Int32, to address: UnixSocketAddress
  ) throws(Errno) {
    let status = address.withSockaddr { Glibc.bind(descriptor, $0, $1) }
    guard status == 0 else { throw Errno.current }
  }

  /// Makes a socket and connects it to an address.
  ///
  /// - Parameters:
  ///   - kind: Stream or datagram.
  ///   - address: Where to connect.
  /// - Returns: The connected socket's descriptor, which the caller closes.
  /// - Throws: ``Errno`` when the socket cannot be made or connected; no
  ///   socket is left open then.
  public static func connected(
    _ kind: Kind, to address: UnixSocketAddress
  ) throws(Errno) -> Int32 {
    try make(kind) { descriptor throws(Errno) in
      try connect(descriptor, to: address)
    }
  }

  /// Makes a socket and binds it to an address.
  ///
  /// - Parameters:
  ///   - kind: Stream or datagram.
  ///   - address: Its address: a file is made at a path.
  /// - Returns: The bound socket's descriptor, which the caller closes.
  /// - Throws: ``Errno`` when the socket cannot be made or bound; no
  ///   socket is left open then.
  public static func bound(
    _ kind: Kind, to address: UnixSocketAddress
  ) throws(Errno) -> Int32 {
    try make(kind) { descriptor throws(Errno) in
      try bind(descriptor, to: address)
    }
  }

  /// Makes a socket and takes a step with it, closing it when the step
  /// fails.
  private static func make(
    _ kind: Kind, then step: (Int32) throws(Errno) -> Void
  ) throws(Errno) -> Int32 {
    let descriptor = try make(kind)
    do {
      try step(descriptor)
    } catch {
      close(descriptor)
      throw error
    }
    return descriptor
  }
}
