// Whole reads and writes on a file descriptor: a write goes on after a
// partial write, and both go on after a signal interrupted them, so that
// no caller writes the loop again.

#if canImport(Glibc)
  import Glibc
#endif

/// Reading a file descriptor to its end, and writing all of a buffer.
public enum WholeTransfers {
  /// Writes every byte of some text.
  ///
  /// - Returns: Whether all of it was written; when not, ``Errno/current``
  ///   holds why (a closed terminal, a full disk).
  @discardableResult
  public static func write(_ text: String, to descriptor: Int32) -> Bool {
    var text = text
    return text.withUTF8 {
      writeAll(UnsafeRawBufferPointer($0), to: descriptor) == nil
    }
  }

  /// Writes every byte.
  ///
  /// - Returns: Whether all of them were written; when not,
  ///   ``Errno/current`` holds why.
  @discardableResult
  public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) == nil }
  }

  /// Writes every byte, going on after a partial write and after `EINTR`.
  ///
  /// - Returns: nil once all are written, else why not: the call's
  ///   ``Errno``, or `EIO` when a write took nothing and reported no
  ///   error.
  static func writeAll(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32
  ) -> Errno? {
    var offset = 0
    while offset < bytes.count {
      let written = Errno.retryingInterrupts {
        Glibc.write(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      guard written > 0 else {
        return written == 0 ? Errno(rawValue: EIO) : Errno.current
      }
      offset += written
    }
    return nil
  }

  /// Reads until the end of the file.
  ///
  /// - Returns: Every byte, or nil if a read failed (``Errno/current``
  ///   holds why).
  public static func readToEnd(_ descriptor: Int32) -> [UInt8]? {
    guard case .success(let bytes) = readAll(descriptor, limit: .max) else {
      return nil
    }
    return bytes
  }

  /// Reads until the end of the file, going on after `EINTR`.
  ///
  /// - Returns: Every byte, or why not: the call's ``Errno``, or
  ///   ``Errno/fileTooLarge`` past `limit` bytes.
  static func readAll(
    _ descriptor: Int32, limit: Int
  ) -> Result<[UInt8], Errno> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = Errno.retryingInterrupts {
        read(descriptor, &chunk, chunk.count)
      }
      guard count >= 0 else { return .failure(Errno.current) }
      guard count > 0 else { return .success(bytes) }
      guard bytes.count + count <= limit else {
        return .failure(.fileTooLarge)
      }
      bytes += chunk[..<count]
    }
  }
}
