// The one error type of the test fixtures: private sound servers, the
// daemon under test, private D-Bus buses and the BlueZ mock.

/// An error from starting, driving or stopping a test fixture.
///
/// When a process of the fixture misbehaved, the error carries the end of
/// its logs, so a failing test shows why.
public struct FixtureError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, in one sentence.
  public var message: String

  /// The last lines of the fixture's logs, or an empty string.
  public var logTail: String

  /// Creates an error with a message and, optionally, the logs.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - logTail: The last lines of the logs.
  public init(_ message: String, logTail: String = "") {
    self.message = message
    self.logTail = logTail
  }

  /// The message, followed by the log tail if there is one.
  public var description: String {
    logTail.isEmpty ? message : "\(message)\n\(logTail)"
  }
}

/// An error of the daemon under test (``DaemonFixture``).
public typealias DaemonFixtureError = FixtureError
/// An error of a private bus or the BlueZ mock (``PrivateBus``,
/// ``BlueZMock``).
public typealias BlueZMockError = FixtureError
