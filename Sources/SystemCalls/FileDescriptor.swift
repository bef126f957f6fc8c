// An open file descriptor that owns what it names: closed exactly once,
// when the value ends or is consumed by close(). Every call through it
// throws the Errno when it fails (and those that can be interrupted go on
// after a signal), so that its callers neither read errno nor close by
// hand.

#if canImport(Glibc)
  import Glibc
#endif

/// An open file descriptor, owned: the system's descriptor is closed when
/// this value ends, or by ``close()``, and never twice.
///
/// Calls through it throw the ``Errno`` the system reported; reads,
/// writes, `fsync` and `ftruncate` go on after `EINTR` (`close` is not
/// made again on Linux, and a lock is taken without waiting). Every file opened through ``open(_:_:permissions:)``
/// is close-on-exec.
public struct FileDescriptor: ~Copyable, Sendable {
  /// The system's number for it: valid while this value lives.
  public let rawValue: Int32

  /// Takes ownership of an open descriptor.
  ///
  /// - Parameter rawValue: A descriptor no one else closes.
  public init(adopting rawValue: Int32) {
    self.rawValue = rawValue
  }

  deinit {
    _ = Glibc.close(rawValue)
  }

  /// Closes it now.
  ///
  /// - Throws: The ``Errno`` of a failed close (`EIO` from a file system
  ///   that reports a failed write only then); the descriptor is released
  ///   either way.
  public consuming func close() throws(Errno) {
    let number = rawValue
    discard self
    guard Glibc.close(number) == 0 else { throw Errno.current }
  }

  // MARK: - Opening

  /// How a file is opened (`open(2)`'s flags).
  public struct OpenOptions: OptionSet, Sendable {
    /// The flags, as `open(2)` takes them.
    public let rawValue: Int32

    /// Options from `open(2)`'s flags.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_RDONLY`: for reading only (no bit of its own).
    public static let readOnly = OpenOptions([])
    /// `O_WRONLY`: for writing only.
    public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
    /// `O_RDWR`: for reading and writing.
    public static let readWrite = OpenOptions(rawValue: O_RDWR)
    /// `O_CREAT`: created if missing, with the permissions given.
    public static let create = OpenOptions(rawValue: O_CREAT)
    /// `O_EXCL`: with ``create``, fails with `EEXIST` if the name exists,
    /// a link included.
    public static let exclusive = OpenOptions(rawValue: O_EXCL)
    /// `O_TRUNC`: emptied on opening.
    public static let truncate = OpenOptions(rawValue: O_TRUNC)
    /// `O_NOFOLLOW`: fails with `ELOOP` if the last component is a
    /// symbolic link.
    public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// `O_DIRECTORY`: fails with `ENOTDIR` unless it is a directory.
    public static let directory = OpenOptions(rawValue: O_DIRECTORY)
  }

  /// Opens a file, close-on-exec.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - options: How; `O_CLOEXEC` is always added.
  ///   - permissions: The mode of a file ``OpenOptions/create`` makes.
  /// - Throws: The ``Errno`` of the failed `open(2)`.
  public static func open(
    _ path: String, _ options: OpenOptions, permissions: mode_t = 0o600
  ) throws(Errno) -> FileDescriptor {
    let number = try Errno.check {
      Glibc.open(path, options.rawValue | O_CLOEXEC, permissions)
    }
    return FileDescriptor(adopting: number)
  }

  // MARK: - Reading

  /// Reads once into a buffer.
  ///
  /// - Returns: How many bytes were read; 0 at the end of the file.
  public func read(
    into buffer: UnsafeMutableRawBufferPointer
  ) throws(Errno)
    -> Int
  {
    try Errno.check {
      Glibc.read(rawValue, buffer.baseAddress, buffer.count)
    }
  }

  /// Reads at most `count` bytes from `offset`, without moving the file's
  /// position (`pread(2)`).
  ///
  /// - Returns: The bytes read; fewer at the end of the file.
  public func read(upTo count: Int, at offset: Int) throws(Errno) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let read = try Errno.check {
      pread(rawValue, &bytes, count, off_t(offset))
    }
    return Array(bytes.prefix(read))
  }

  /// Reads until the end of the file.
  ///
  /// - Parameter limit: The most bytes to read; a file with more fails
  ///   with `EFBIG` rather than filling memory.
  public func readToEnd(limit: Int = .max) throws(Errno) -> [UInt8] {
    try WholeTransfers.readAll(rawValue, limit: limit).get()
  }

  // MARK: - Writing

  /// Writes every byte, going on after a partial write.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    if let failure = WholeTransfers.writeAll(bytes, to: rawValue) {
      throw failure
    }
  }

  /// Writes every byte, going on after a partial write.
  public func writeAll(_ bytes: [UInt8]) throws(Errno) {
    let failure = bytes.withUnsafeBytes {
      WholeTransfers.writeAll($0, to: rawValue)
    }
    if let failure { throw failure }
  }

  /// Writes bytes at `offset`, without moving the file's position
  /// (`pwrite(2)`), going on after a partial write.
  public func writeAll(_ bytes: [UInt8], at offset: Int) throws(Errno) {
    var written = 0
    while written < bytes.count {
      let count = try Errno.check {
        bytes.withUnsafeBytes {
          pwrite(
            rawValue, $0.baseAddress! + written, $0.count - written,
            off_t(offset + written))
        }
      }
      // Nothing written and no error: the file takes no more.
      guard count > 0 else { throw .ioError }
      written += count
    }
  }

  /// Cuts the file to `size` bytes (`ftruncate(2)`).
  public func truncate(to size: Int) throws(Errno) {
    _ = try Errno.check { ftruncate(rawValue, off_t(size)) }
  }

  /// Flushes the file's data and metadata to the disk (`fsync(2)`).
  public func sync() throws(Errno) {
    _ = try Errno.check { fsync(rawValue) }
  }

  // MARK: - Locks

  /// An advisory lock on the whole file (`flock(2)`).
  public enum Lock: Sendable {
    /// Others may hold it shared too; no one exclusively.
    case shared
    /// No one else holds it.
    case exclusive
  }

  /// Takes a lock without waiting.
  ///
  /// - Returns: Whether it was taken; false when another open file holds
  ///   a lock that excludes it.
  /// - Throws: The ``Errno`` of any other failure.
  public func tryLock(_ lock: Lock) throws(Errno) -> Bool {
    let operation =
      switch lock {
      case .shared: LOCK_SH
      case .exclusive: LOCK_EX
      }
    guard flock(rawValue, operation | LOCK_NB) == 0 else {
      let failure = Errno.current
      guard failure == .wouldBlock else { throw failure }
      return false
    }
    return true
  }
}
