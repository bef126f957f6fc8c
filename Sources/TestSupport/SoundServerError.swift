/// An error from starting, driving or stopping a test sound server.
///
/// When the server itself misbehaved, the error carries the end of its logs,
/// so a failing test shows why.
public struct SoundServerError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, in one sentence.
  public var message: String

  /// The last lines of the server logs, or an empty string.
  public var logTail: String

  /// Creates an error with a message and, optionally, the server logs.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - logTail: The last lines of the server logs.
  public init(_ message: String, logTail: String = "") {
    self.message = message
    self.logTail = logTail
  }

  /// The message, followed by the log tail if there is one.
  public var description: String {
    logTail.isEmpty ? message : "\(message)\n\(logTail)"
  }
}
