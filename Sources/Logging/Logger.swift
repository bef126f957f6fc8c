// A small structured logger in the shape of swift-log's `Logger`, written
// for this package because no outside Swift package can be a dependency.

import ConcurrencyHelpers
import FoundationEssentials
import Glibc
import SystemCalls

/// A value that emits log messages at a level, with structured metadata.
///
/// `Logger` is a value type: copy it to add metadata for a narrower scope
/// and pass it to libraries, which take a `logger:` parameter and never make
/// their own. Executables bootstrap one in `main`; tests capture messages
/// with ``InMemoryLogHandler``.
public struct Logger: Sendable {
  /// The severity of a log message, from the most verbose to the most severe.
  public enum Level: String, Sendable, Codable, CaseIterable, Comparable {
    /// Very fine-grained tracing, off by default.
    case trace
    /// Information useful while debugging.
    case debug
    /// Normal operational messages.
    case info
    /// Conditions that are not errors but deserve attention.
    case notice
    /// Something unexpected that the program recovered from.
    case warning
    /// An error that stopped an operation.
    case error
    /// An error that stops the program.
    case critical

    private var ordinal: Int {
      switch self {
      case .trace: 0
      case .debug: 1
      case .info: 2
      case .notice: 3
      case .warning: 4
      case .error: 5
      case .critical: 6
      }
    }

    /// Returns whether the first level is less severe than the second.
    public static func < (lhs: Level, rhs: Level) -> Bool {
      lhs.ordinal < rhs.ordinal
    }
  }

  /// Structured data attached to a message, keyed by dotted names such as
  /// `"accessory.address"`.
  public typealias Metadata = [String: String]

  /// The name of the component that logs, for example `"accessoryd.router"`.
  public let label: String

  /// The least severe level this logger emits.
  public var logLevel: Level

  /// Metadata added to every message this logger emits.
  public var metadata: Metadata

  /// The destination of the messages.
  public var handler: any LogHandler

  /// Creates a logger with a label, a handler and a minimum level.
  ///
  /// - Parameters:
  ///   - label: The name of the component that logs.
  ///   - handler: Where messages go; by default, nowhere.
  ///   - logLevel: The least severe level to emit.
  public init(
    label: String,
    handler: any LogHandler = DiscardingLogHandler(),
    logLevel: Level = .info
  ) {
    self.label = label
    self.handler = handler
    self.logLevel = logLevel
    self.metadata = [:]
  }

  /// Emits a message at the given level if the level is enabled.
  ///
  /// - Parameters:
  ///   - level: The severity of the message.
  ///   - message: The text, evaluated only when the level is enabled.
  ///   - metadata: Data for this message alone, merged over the logger's.
  public func log(
    level: Level,
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    guard level >= logLevel else { return }
    let merged = self.metadata.merging(metadata()) { _, new in new }
    handler.log(
      LogRecord(
        label: label,
        level: level,
        message: message(),
        metadata: merged,
        file: file,
        line: line
      )
    )
  }

  /// Emits a message at the `trace` level.
  public func trace(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(level: .trace, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `debug` level.
  public func debug(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(level: .debug, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `info` level.
  public func info(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(level: .info, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `notice` level.
  public func notice(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(level: .notice, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `warning` level.
  public func warning(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(
      level: .warning, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `error` level.
  public func error(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(level: .error, message(), metadata: metadata(), file: file, line: line)
  }

  /// Emits a message at the `critical` level.
  public func critical(
    _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata = [:],
    file: String = #fileID,
    line: UInt = #line
  ) {
    log(
      level: .critical, message(), metadata: metadata(), file: file, line: line)
  }
}

/// One emitted log message with its context.
public struct LogRecord: Sendable, Hashable {
  /// The label of the logger that emitted the message.
  public var label: String
  /// The severity of the message.
  public var level: Logger.Level
  /// The text of the message.
  public var message: String
  /// The merged metadata of the logger and the call.
  public var metadata: Logger.Metadata
  /// The source file that emitted the message, as `#fileID`.
  public var file: String
  /// The source line that emitted the message.
  public var line: UInt
}

/// A destination for log records.
public protocol LogHandler: Sendable {
  /// Writes one record to the destination.
  func log(_ record: LogRecord)
}

/// A handler that drops every record; the default for libraries.
public struct DiscardingLogHandler: LogHandler {
  /// Creates a handler that drops every record.
  public init() {}

  /// Drops the record.
  public func log(_ record: LogRecord) {}
}

/// A handler that writes one line per record to standard error.
///
/// The line is `LEVEL label: message key=value …`, with metadata keys
/// sorted, which reads well in a terminal and in the systemd journal; in a
/// terminal it starts with the local time, which the journal adds itself.
public struct StandardErrorLogHandler: LogHandler {
  /// Whether each line starts with the local time, `HH:MM:SS.mmm`.
  public let timestamps: Bool

  /// Creates a handler that writes to standard error.
  ///
  /// - Parameter timestamps: Whether each line starts with the local time.
  public init(timestamps: Bool = false) {
    self.timestamps = timestamps
  }

  /// Whether a process's log lines want the time: standard error is a
  /// terminal, not the journal (which sets `JOURNAL_STREAM` and adds its
  /// own) nor a file.
  public static var standardErrorWantsTimes: Bool {
    isatty(STDERR_FILENO) == 1 && getenv("JOURNAL_STREAM") == nil
  }

  /// Formats the record as one line and writes it to standard error.
  public func log(_ record: LogRecord) {
    Self.write(
      (timestamps ? LocalTime.now() + " " : "") + Self.format(record) + "\n")
  }

  /// Writes `text` to standard error whole, without buffering: what a
  /// crashing process printed last is not lost.
  public static func write(_ text: String) {
    writeUnbuffered(text, toDescriptor: STDERR_FILENO)
  }

  /// Returns the one-line text form of a record.
  public static func format(_ record: LogRecord) -> String {
    var line = "\(record.level.rawValue) \(record.label): \(record.message)"
    for key in record.metadata.keys.sorted() {
      line += " \(key)=\(record.metadata[key] ?? "")"
    }
    return String(line.map { $0.isNewline ? " " : $0 })
  }
}

/// A handler that keeps records in memory, for tests.
public final class InMemoryLogHandler: LogHandler {
  private let storage = Mutex<[LogRecord]>([])

  /// Creates an empty handler.
  public init() {}

  /// Appends the record.
  public func log(_ record: LogRecord) {
    storage.withLock { $0.append(record) }
  }

  /// The records received so far, oldest first.
  public var records: [LogRecord] {
    storage.withLock { $0 }
  }
}

/// Writes `text` whole to a file descriptor, retrying short and interrupted
/// writes, without buffering; stops silently if the descriptor fails (a
/// closed terminal is no reason to crash).
public func writeUnbuffered(_ text: String, toDescriptor descriptor: Int32) {
  WholeTransfers.write(text, to: descriptor)
}
