// A file written whole or not at all, as the state file and the settings
// file are: a temporary file beside it, flushed with fsync and renamed
// over it, then the directory flushed, so a crash at any instant leaves
// either the old contents or the new.

import AccessoryControl
import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A file replaced atomically and durably.
public struct DurableFile: Sendable {
  /// Why a file could not be written.
  public struct WriteFailure: Error, CustomStringConvertible {
    /// The path that could not be written.
    public let path: String
    /// The system's reason.
    public let reason: String
    /// The path and the reason.
    public var description: String { "cannot write '\(path)': \(reason)" }
  }

  /// The file.
  public let url: URL

  /// Names the file.
  public init(url: URL) { self.url = url }

  /// Replaces the file's contents: a temporary file, renamed over the
  /// file, then the directory flushed.
  public func write(_ contents: Data) throws(WriteFailure) {
    let temporary = try writeTemporary(contents)
    guard rename(temporary, url.path) == 0 else {
      let failure = Errno.current.message
      unlink(temporary)
      throw WriteFailure(path: url.path, reason: failure)
    }
    syncDirectory()
  }

  /// Writes contents to a new temporary file beside the file and flushes
  /// it, creating the directory (mode 0700) if missing.
  ///
  /// - Returns: The temporary file's path.
  /// - Throws: ``WriteFailure``; no temporary file is left then.
  public func writeTemporary(_ data: Data) throws(WriteFailure) -> String {
    let directory = url.deletingLastPathComponent().path
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw WriteFailure(path: directory, reason: systemReason(error))
      }
    }
    let temporary =
      url.path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let file = try Self.create(temporary)
    do throws(Errno) {
      try data.withUnsafeBytes { buffer in
        Result { () throws(Errno) in try file.writeAll(buffer) }
      }.get()
      try file.sync()
      try file.close()
    } catch {
      unlink(temporary)
      throw WriteFailure(path: url.path, reason: error.message)
    }
    return temporary
  }

  /// Creates a file that must not exist yet, mode 0600.
  private static func create(
    _ path: String
  ) throws(WriteFailure) -> FileDescriptor {
    do {
      return try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
    } catch {
      throw WriteFailure(path: path, reason: error.message)
    }
  }

  /// Flushes the directory, so that a rename in it is durable.
  public func syncDirectory() {
    try? FileDescriptor.open(
      url.deletingLastPathComponent().path, [.readOnly, .directory]
    ).sync()
  }

  /// A free name to keep a damaged file aside: `NAME.corrupt-<time>`.
  public func asideName() -> String {
    let stamp = Date().formatted(
      Date.ISO8601FormatStyle().year().month().day()
        .time(includingFractionalSeconds: false)
        .dateSeparator(.omitted).timeSeparator(.omitted))
    var aside = url.path + ".corrupt-\(stamp)"
    var attempt = 1
    while FileManager.default.fileExists(atPath: aside) {
      attempt += 1
      aside = url.path + ".corrupt-\(stamp)-\(attempt)"
    }
    return aside
  }
}
