// The one table of the exit statuses of accessoryd and acctl, which their
// manual pages list. The sysexits.h values keep their names there; the
// others are acctl's own. A status is part of the interface scripts and
// service managers read: add one, never change or reuse a value.

/// An exit status of accessoryd or acctl.
public struct ProcessExitCode: RawRepresentable, Hashable, Sendable,
  CustomStringConvertible
{
  /// The value passed to `exit`.
  public var rawValue: Int32

  /// Creates an exit status.
  ///
  /// - Parameter rawValue: The value passed to `exit`.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The number, as the shell sees it.
  public var description: String { String(rawValue) }

  /// The status of a process that a signal ended, as the shell reports
  /// it: 128 plus the signal's number, such as 143 for SIGTERM.
  ///
  /// - Parameter number: The signal's number.
  public static func signal(_ number: Int32) -> ProcessExitCode {
    ProcessExitCode(rawValue: 128 + number)
  }

  // MARK: Both tools

  /// Done: 0.
  public static let success = ProcessExitCode(rawValue: 0)
  /// Failed for a reason no other status names: 1.
  public static let failure = ProcessExitCode(rawValue: 1)

  // MARK: acctl's own, for the daemon's answers

  /// The accessory lacks the capability the change needs (the daemon's
  /// ``ControlErrorCode/accessoryNotCapable``): 2.
  public static let accessoryNotCapable = ProcessExitCode(rawValue: 2)
  /// The daemon refused the request: no such accessory, a bad value: 3.
  public static let requestRefused = ProcessExitCode(rawValue: 3)
  /// The registration was invalidated (the daemon's
  /// ``ControlErrorCode/accessoryInvalidated``): 4.
  public static let invalidated = ProcessExitCode(rawValue: 4)
  /// `acctl doctor` found a problem: 5.
  public static let problemFound = ProcessExitCode(rawValue: 5)

  // MARK: sysexits.h

  /// A bad command line: `EX_USAGE`, 64.
  public static let usage = ProcessExitCode(rawValue: 64)
  /// Bad input data, such as a state file of a newer version:
  /// `EX_DATAERR`, 65.
  public static let dataError = ProcessExitCode(rawValue: 65)
  /// A service is not available, such as a daemon that is not running,
  /// does not answer or is busy: `EX_UNAVAILABLE`, 69.
  public static let unavailable = ProcessExitCode(rawValue: 69)
  /// A file or socket cannot be made where it must be: `EX_CANTCREAT`, 73.
  public static let cannotCreate = ProcessExitCode(rawValue: 73)
  /// A temporary failure, such as another daemon holding the state
  /// directory or serving the socket, which may stop: `EX_TEMPFAIL`, 75.
  public static let temporaryFailure = ProcessExitCode(rawValue: 75)
  /// Not allowed, such as a socket of another user: `EX_NOPERM`, 77.
  public static let noPermission = ProcessExitCode(rawValue: 77)
  /// A bad configuration: a config file, a policy or `NOTIFY_SOCKET`:
  /// `EX_CONFIG`, 78.
  public static let configuration = ProcessExitCode(rawValue: 78)
}
