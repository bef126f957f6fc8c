// The errors a command throws to end the process: a message for a bad
// command line, an exit code, or a clean exit that prints help or a
// message. Styled after swift-argument-parser's `Errors.swift`.

/// An error that reports a command line that parsed but does not make sense.
///
/// Throw it from ``Command/validate()`` or from ``Command/init(arguments:)``.
/// The process prints `Error: <message>`, the command's usage and a pointer
/// to its help, and exits with ``ExitCode/validationFailure``.
public struct ValidationError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// The message shown to the user.
  public var message: String

  /// Creates an error with a message for the user.
  ///
  /// - Parameter message: What is wrong, quoting the user's input.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// An error that ends the process with a specific exit code and no message.
///
/// Print any message yourself before throwing it.
public struct ExitCode: Error, Sendable, Hashable, RawRepresentable {
  /// The value passed to `exit`.
  public var rawValue: Int32

  /// Creates an exit code.
  ///
  /// - Parameter code: The value passed to `exit`.
  public init(_ code: Int32) {
    self.rawValue = code
  }

  /// Creates an exit code.
  ///
  /// - Parameter rawValue: The value passed to `exit`.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Whether the code means success.
  public var isSuccess: Bool { rawValue == 0 }

  /// The command succeeded.
  public static let success = ExitCode(0)
  /// The command failed.
  public static let failure = ExitCode(1)
  /// The command line was not valid.
  ///
  /// The value is `EX_USAGE` (64) from `sysexits.h`.
  public static let validationFailure = ExitCode(64)
}

/// An error that ends the process successfully after printing help or a
/// message.
public struct CleanExit: Error, Sendable, CustomStringConvertible {
  enum Representation: Sendable {
    case helpRequest((any Command.Type)?)
    case message(String)
  }

  let representation: Representation

  /// Requests the help of the command that is running.
  public static let helpRequest = CleanExit(representation: .helpRequest(nil))

  /// Requests the help of a command.
  ///
  /// - Parameter command: The command whose help is printed.
  public static func helpRequest(_ command: any Command.Type) -> CleanExit {
    CleanExit(representation: .helpRequest(command))
  }

  /// Requests that a message be printed to standard output.
  ///
  /// - Parameter text: The message, such as a version.
  public static func message(_ text: String) -> CleanExit {
    CleanExit(representation: .message(text))
  }

  /// A description of the request, for debugging.
  public var description: String {
    switch representation {
    case .helpRequest(let command?): "help for \(command.commandName)"
    case .helpRequest(nil): "help"
    case .message(let text): text
    }
  }
}

/// What went wrong while splitting the command line.
///
/// These become text in one place, ``ParserError/message``.
enum ParserError: Error, Sendable {
  case unknownOption(String, suggestion: String? = nil)
  /// A word where a subcommand was expected, with the closest one.
  case unknownSubcommand(String, suggestion: String?)
  case missingValue(ArgumentDefinition)
  case unexpectedValue(option: String, value: String)
  case unexpectedArguments([String])
  case missingArgument(ArgumentDefinition)
  case invalidValue(String, ArgumentDefinition, detail: String)

  /// The message, quoting the user's input.
  var message: String {
    switch self {
    case .unknownOption(let name, let suggestion):
      return "Unknown option '\(name)'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .unknownSubcommand(let word, let suggestion):
      return "Unexpected argument '\(word)'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .missingValue(let definition):
      return "Missing value for '\(definition.synopsis)'"
    case .unexpectedValue(let option, let value):
      return "The option '\(option)' does not take any value, but '\(value)' "
        + "was specified."
    case .unexpectedArguments(let values):
      if values.count == 1 { return "Unexpected argument '\(values[0])'" }
      let list = values.map { "'\($0)'" }.joined(separator: ", ")
      return "\(values.count) unexpected arguments: \(list)"
    case .missingArgument(let definition):
      return "Missing expected argument '\(definition.synopsis)'"
    case .invalidValue(let value, let definition, let detail):
      let message =
        "The value '\(value)' is invalid for '\(definition.displayName)'"
      return detail.isEmpty ? message : message + ": " + detail
    }
  }
}

/// An error raised while parsing or running a command, with the commands
/// that lead to it, so its message can show the right usage.
struct CommandError: Error {
  var stack: [any Command.Type]
  var underlying: any Error
}

/// Returns the message for an error of ``ArgumentCursor``, such as
/// `Unknown option '--bogus'`, or the error's own description, for a tool
/// that splits its command line without a ``Command``.
public func argumentErrorMessage(for error: any Error) -> String {
  (error as? ParserError)?.message ?? String(describing: error)
}

/// A bad value for one of the hidden requests that print completion
/// scripts and manual pages.
struct GeneratedTextError: Error, CustomStringConvertible {
  /// What is wrong, naming the value and what is expected.
  var description: String

  init(_ description: String) { self.description = description }
}
