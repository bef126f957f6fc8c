// Linux addition: durable state. The registry is written to a temporary
// file in the same directory, flushed with fsync and renamed over the old
// file, so a crash at any instant leaves either the old or the new state.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import FoundationEssentials
import Logging
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The versioned JSON file that keeps paired accessories and registrations
/// across restarts.
///
/// Writes are atomic: write a temporary file, `fsync` it, rename it over the
/// state file, `fsync` the directory. The file is compact JSON, one record
/// a line; ``IncrementalEncoder`` encodes only the records that changed. A
/// file that does not parse is kept aside under a new name, never
/// overwritten, and loading starts with what could be recovered from it.
public struct StateFile: Sendable {
  /// The version of the format this code writes and reads.
  public static let currentVersion = 1

  /// The location of the state file.
  public let url: URL

  /// Creates a state file at a location.
  ///
  /// - Parameter url: The file's location; see ``defaultURL(environment:)``.
  public init(url: URL) {
    self.url = url
  }

  /// Returns the default location, `$XDG_STATE_HOME/accessoryd/state.json`.
  ///
  /// Without `XDG_STATE_HOME` the location is
  /// `$HOME/.local/state/accessoryd/state.json`.
  ///
  /// - Parameter environment: The environment to read the variables from.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    URL(
      fileURLWithPath: UserDirectories.stateHome(environment: environment)
        + "/accessoryd/state.json")
  }

  // MARK: - Reading

  /// What reading the state file found.
  public struct LoadResult: Sendable {
    /// The stored registry, or an empty one.
    public var registry: AccessoryRegistry
    /// Where an unreadable file was kept aside, if it was.
    public var keptAsideAt: URL?
    /// Why the file must not be written, if an unreadable file could not be
    /// kept aside: writing would overwrite the only copy.
    public var writeBlockedReason: String?
  }

  /// Reads the registry, keeping a damaged file aside.
  ///
  /// A missing file yields an empty registry. A file that is read but
  /// does not parse is renamed to `state.json.corrupt-<time>` with an
  /// error logged; the result is what could be recovered from it (see
  /// ``recover(_:)``), written as the new state file before the damaged
  /// one is moved. If what was recovered cannot be written, the damaged
  /// file stays in place; if it cannot be renamed, neither is written:
  /// the result then says that writing is blocked. A file that cannot be
  /// read at all (its owner or mode, a directory in its place) is not
  /// damaged: it is left alone, and writing is blocked, as it is for a
  /// file of a newer version. The daemon refuses to start on either (see
  /// ``checkBeforeStart()``). Temporary files left by a writer that died
  /// are removed.
  ///
  /// - Parameter logger: Where to report a file kept aside.
  /// - Returns: The registry and what happened to an unreadable file.
  public func load(logger: Logger) -> LoadResult {
    removeAbandonedTemporaryFiles()
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return LoadResult(registry: AccessoryRegistry())
    } catch {
      let reason = systemReason(error)
      logger.error(
        "The state file cannot be read; starting with no accessories and "
          + "not writing over it",
        metadata: ["state.path": url.path, "state.reason": reason])
      return LoadResult(
        registry: AccessoryRegistry(),
        writeBlockedReason:
          "the state file '\(url.path)' is unreadable (\(reason)) and is not "
          + "written over; make it readable, or move it away and restart")
    }
    do {
      return LoadResult(registry: try Self.decode(data))
    } catch {
      if let version = error.newerVersion {
        logger.error(
          "The state file is of a newer version; starting with no "
            + "accessories and not writing over it",
          metadata: ["state.path": url.path, "state.version": "\(version)"])
        return LoadResult(
          registry: AccessoryRegistry(),
          writeBlockedReason:
            "the state file '\(url.path)' is version \(version), written by "
            + "a newer accessoryd; this one reads version "
            + "\(Self.currentVersion)")
      }
      return keepAside(
        reason: error.reason, recovered: Self.recover(data), logger: logger)
    }
  }

  /// The version of a state file written by a newer accessoryd, or nil.
  static func newerVersion(at url: URL) -> Int? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    do {
      _ = try decode(data)
      return nil
    } catch {
      return error.newerVersion
    }
  }

  /// Decodes a registry from the file's contents.
  ///
  /// - Throws: ``FormatError`` for contents that are not a state file of a
  ///   known version.
  public static func decode(
    _ data: Data
  ) throws(FormatError) -> AccessoryRegistry {
    let decoder = makeDecoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw FormatError(reason: "it is not a state file: \(error)")
    }
    guard header.version == currentVersion else {
      throw FormatError(
        reason: "its version \(header.version) is not the supported "
          + "version \(currentVersion)",
        newerVersion: header.version > currentVersion ? header.version : nil)
    }
    do {
      let document = try decoder.decode(Document.self, from: data)
      return AccessoryRegistry(
        accessories: document.accessories,
        registrations: document.registrations)
    } catch {
      throw FormatError(reason: "it does not parse: \(error)")
    }
  }

  /// A JSON decoder for the file's timestamps.
  static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = parseTimestamp(text) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "'\(text)' is not a timestamp; expected the form "
            + "'2026-01-31T12:00:00.000Z'")
      }
      return date
    }
    return decoder
  }

  // MARK: - Writing

  /// Writes the registry atomically.
  ///
  /// The directory is created with mode 0700 if missing; the file has mode
  /// 0600.
  ///
  /// - Throws: ``WriteError`` naming the path and the system error; the old
  ///   state file is then unchanged.
  public func save(_ registry: AccessoryRegistry) throws(WriteError) {
    var encoder = IncrementalEncoder()
    try save(registry, using: &encoder)
  }

  /// Writes the registry atomically, encoding only the records that changed
  /// since `encoder` last encoded.
  ///
  /// - Parameters:
  ///   - registry: The registry to write.
  ///   - encoder: The records encoded so far; keep it between saves.
  /// - Throws: ``WriteError`` naming the path and the system error; the old
  ///   state file is then unchanged.
  public func save(
    _ registry: AccessoryRegistry, using encoder: inout IncrementalEncoder
  ) throws(WriteError) {
    try writeAtomically(encoder.encode(registry))
  }

  /// Writes atomically the registry `encoder` last encoded, changed at some
  /// addresses: only their records are encoded.
  ///
  /// - Parameters:
  ///   - changes: The records of each changed address as they now are.
  ///   - encoder: The records of the registry last written; keep it
  ///     between saves.
  /// - Throws: ``WriteError`` naming the path and the system error; the old
  ///   state file is then unchanged.
  public func save(
    changing changes: [BluetoothAddress: AccessoryRegistry.Records],
    using encoder: inout IncrementalEncoder
  ) throws(WriteError) {
    try writeAtomically(encoder.encode(changing: changes))
  }

  /// Writes contents atomically: a temporary file, renamed over the state
  /// file, then the directory flushed.
  private func writeAtomically(_ contents: Data) throws(WriteError) {
    do {
      try DurableFile(url: url).write(contents)
    } catch {
      throw WriteError(path: error.path, reason: error.reason)
    }
  }

  /// Writes contents to a new temporary file beside the state file.
  private func writeTemporary(_ data: Data) throws(WriteError) -> String {
    do {
      return try DurableFile(url: url).writeTemporary(data)
    } catch {
      throw WriteError(path: error.path, reason: error.reason)
    }
  }

  private func syncDirectory() { DurableFile(url: url).syncDirectory() }

  /// Returns the file's contents for a registry: compact JSON, keys sorted,
  /// one record a line, records sorted by address.
  public static func encode(_ registry: AccessoryRegistry) -> Data {
    var encoder = IncrementalEncoder()
    return encoder.encode(registry)
  }

  /// A JSON encoder for one record: compact, keys sorted, timestamps as
  /// UTC ISO 8601 with milliseconds.
  static func makeRecordEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(formatTimestamp(date))
    }
    return encoder
  }

  /// Returns a date at the precision the file keeps, milliseconds, so that
  /// a registry reads back equal to the one written.
  public static func storableDate(_ date: Date) -> Date {
    Self.date(milliseconds: milliseconds(date))
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  private static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Formats a date as UTC ISO 8601 with milliseconds, computed from whole
  /// milliseconds so that no rounding of the fraction can differ.
  static func formatTimestamp(_ date: Date) -> String {
    let total = milliseconds(date)
    let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
    let fraction = Int(total - seconds * 1000)
    let whole = Date(timeIntervalSince1970: Double(seconds))
      .formatted(Date.ISO8601FormatStyle())
    let digits = String(fraction)
    let padded = String(repeating: "0", count: 3 - digits.count) + digits
    return whole.dropLast() + "." + padded + "Z"
  }

  private static func parseTimestamp(_ text: String) -> Date? {
    guard text.hasSuffix("Z") else { return nil }
    let parts = text.dropLast().split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2,
      let whole = try? Date(parts[0] + "Z", strategy: Date.ISO8601FormatStyle())
    else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      guard parts[1].count == 3, let value = Int64(parts[1]) else {
        return nil
      }
      fraction = value
    }
    let seconds = Int64(whole.timeIntervalSince1970.rounded())
    return date(milliseconds: seconds * 1000 + fraction)
  }

  // MARK: - Errors

  /// The error for contents that are not a readable state file.
  public struct FormatError: Error, CustomStringConvertible {
    /// Why the contents were refused.
    public let reason: String
    /// The version of a file written by a newer accessoryd, or nil.
    public var newerVersion: Int? = nil
    /// The reason, as text.
    public var description: String { reason }
  }

  /// The error for a state file that could not be written.
  public struct WriteError: Error, CustomStringConvertible {
    /// The path that could not be written.
    public let path: String
    /// The system's reason.
    public let reason: String
    /// A message naming the path and the reason.
    public var description: String {
      "cannot write the state file '\(path)': \(reason)"
    }
  }

  // MARK: - Private

  private struct Header: Decodable {
    var version: Int
  }

  private struct Document: Decodable {
    var version: Int
    var accessories: [AccessoryRegistry.PairedAccessory]
    var registrations: [AccessoryRegistry.Registration]
  }

  private static func systemError() -> String {
    Errno.current.message
  }

  /// Keeps an unreadable state file aside.
  ///
  /// What was recovered is written to a temporary file first; only then is
  /// the damaged file linked (or, where links fail, renamed) to its new
  /// name and the recovered state renamed over `state.json`, so at every
  /// instant one of them is at `state.json` and the damaged one is never
  /// lost. If the recovered state cannot be written, the damaged file stays
  /// where it is and writing is blocked.
  private func keepAside(
    reason: String, recovered: Recovery?, logger: Logger
  ) -> LoadResult {
    let aside = asideName()
    let registry = recovered?.registry ?? AccessoryRegistry()
    var temporary: String?
    if let recovered {
      do {
        temporary = try writeTemporary(Self.encode(registry))
      } catch {
        logger.error(
          "The state file '\(url.path)' is unreadable and the "
            + "\(recovered.summary) recovered from it cannot be written "
            + "(\(error.reason)); it is left in place and changes are refused",
          metadata: [
            "state.path": url.path, "state.reason": reason,
            "state.write-error": "\(error)",
          ])
        return LoadResult(
          registry: registry,
          writeBlockedReason:
            "the state file '\(url.path)' is damaged and the "
            + "\(recovered.summary) recovered from it cannot be written "
            + "(\(error.reason)); it stays in place and nothing is changed "
            + "until they can be: make room in "
            + "'\(url.deletingLastPathComponent().path)' and restart "
            + "accessoryd")
      }
    }
    guard link(url.path, aside) == 0 || rename(url.path, aside) == 0 else {
      let renameError = Self.systemError()
      if let temporary { unlink(temporary) }
      logger.error(
        "The state file is unreadable and could not be kept aside; starting "
          + "with no accessories and not writing over it",
        metadata: [
          "state.path": url.path, "state.reason": reason,
          "state.rename-error": renameError,
        ])
      return LoadResult(
        registry: AccessoryRegistry(),
        writeBlockedReason:
          "the state file '\(url.path)' is unreadable (\(reason)) and could "
          + "not be kept aside (\(renameError)); move it away and restart")
    }
    var metadata: Logger.Metadata = [
      "state.path": url.path, "state.kept-as": aside, "state.reason": reason,
    ]
    if let temporary {
      // Over the damaged file, or where it was if it was renamed.
      if rename(temporary, url.path) != 0 {
        metadata["state.write-error"] = "\(Self.systemError())"
        unlink(temporary)
      }
    } else {
      // Linked: the damaged file is at both names, and nothing replaces it.
      unlink(url.path)
    }
    syncDirectory()
    logger.error(
      "The state file is unreadable and was kept aside; "
        + (recovered.map { "recovered \($0.summary) from it" }
          ?? "starting with no accessories"),
      metadata: metadata)
    return LoadResult(
      registry: registry, keptAsideAt: URL(fileURLWithPath: aside))
  }

  /// A free name for a damaged state file: `state.json.corrupt-<time>`.
  private func asideName() -> String { DurableFile(url: url).asideName() }

  private func removeAbandonedTemporaryFiles() {
    let directory = url.deletingLastPathComponent()
    let prefix = url.lastPathComponent + ".tmp-"
    guard
      let names = try? FileManager.default.contentsOfDirectory(
        atPath: directory.path)
    else { return }
    for name in names where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let pidText = rest.split(separator: "-").first,
        let pid = pid_t(pidText)
      else { continue }
      // A temporary file of a live writer is still being written.
      if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
      unlink(directory.appendingPathComponent(name).path)
    }
  }
}
