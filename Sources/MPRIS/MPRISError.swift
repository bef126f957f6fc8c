// The error of every MPRIS client operation: the D-Bus error, and what was
// being attempted when it came.

import DBus

/// An error from talking to media players over the session bus.
public struct MPRISError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The D-Bus error name, such as
  /// `org.freedesktop.DBus.Error.ServiceUnknown`.
  public var name: String
  /// The message that came with it.
  public var message: String
  /// What was being attempted, such as `pausing org.mpris.MediaPlayer2.mpv`.
  public var operation: String

  /// Creates an error.
  public init(name: String, message: String, operation: String) {
    self.name = name
    self.message = message
    self.operation = operation
  }

  init(_ failure: DBusFailure, operation: String) {
    self.init(
      name: failure.name, message: failure.message, operation: operation)
  }

  /// The name of the error for a process that has no session bus.
  public static let noSessionBus = "org.freedesktop.DBus.Error.NoServer"

  /// `operation failed: message (name)`.
  public var description: String {
    "\(operation) failed: \(message) (\(name))"
  }
}
