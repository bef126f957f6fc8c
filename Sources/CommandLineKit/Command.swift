// A command of a command-line tool: its configuration, its signature, how
// it reads its arguments, validates them and runs. Styled after
// swift-argument-parser's `ParsableCommand`, without property wrappers.

/// A command of a command-line tool, or a group of subcommands.
///
/// A tool is a tree of command types. The root is marked `@main`; its
/// ``CommandConfiguration/subcommands`` are nested types declared in
/// extensions, one file each. Running the tool parses the command line down
/// the tree, creates the selected command with ``init(arguments:)``, calls
/// ``validate()`` and then ``run()``.
public protocol Command: CommandDescription {
  /// Creates the command from its split command line.
  ///
  /// Read each value by the name in ``signature`` and convert it.
  ///
  /// - Parameter arguments: The command line, split against ``signature``.
  /// - Throws: A parse error from the cursor, or a ``ValidationError``.
  init(arguments: inout ArgumentCursor) throws

  /// Checks the values together, before ``run()``.
  ///
  /// - Throws: A ``ValidationError`` that says what is wrong.
  func validate() throws

  /// The behavior or functionality of this command.
  ///
  /// The default implementation prints the command's help, which suits a
  /// group of subcommands.
  ///
  /// - Throws: An error to print, ``ExitCode`` to exit with a code, or
  ///   ``CleanExit`` to print help or a message.
  mutating func run() async throws

  /// Values only the running tool knows, for arguments declared with
  /// ``Completion/custom(_:)``, asked of the root command.
  ///
  /// The default offers none.
  ///
  /// - Parameters:
  ///   - source: The name given to ``Completion/custom(_:)``.
  ///   - context: The commands and options typed so far.
  /// - Returns: The values; the shell keeps those that extend the word.
  static func completionCandidates(
    for source: String, context: CompletionContext
  ) async -> [String]
}

// MARK: - Default implementations

extension Command {
  /// Accepts every combination of values.
  public func validate() throws {}

  /// Prints the command's help.
  public mutating func run() async throws {
    throw CleanExit.helpRequest(Self.self)
  }

}

// MARK: - API

extension Command {
  /// Parses a command line and returns the selected command, validated.
  ///
  /// - Parameter arguments: The command line without the tool's name.
  /// - Throws: An error to pass to ``fullMessage(for:)`` and
  ///   ``exitCode(for:)``: a parse error, a ``ValidationError`` or a
  ///   ``CleanExit``.
  public static func parseAsRoot(_ arguments: [String]) throws -> any Command {
    var parser = CommandParser(root: Self.self)
    return try parser.parse(arguments)
  }

  /// Returns the help text of this command or of one of its subcommands.
  ///
  /// - Parameter subcommand: The command whose help to return; nil for
  ///   this one.
  public static func helpMessage(
    for subcommand: (any Command.Type)? = nil
  ) -> String {
    HelpGenerator(stack: stack(to: subcommand ?? Self.self)).help
  }

  /// Returns the usage line of this command or of one of its subcommands,
  /// without the `USAGE:` prefix.
  ///
  /// - Parameter subcommand: The command whose usage to return; nil for
  ///   this one.
  public static func usageString(
    for subcommand: (any Command.Type)? = nil
  ) -> String {
    HelpGenerator(stack: stack(to: subcommand ?? Self.self)).usage
  }

  /// Returns the short message for an error, without usage or help.
  ///
  /// - Parameter error: An error thrown while parsing or running.
  public static func message(for error: any Error) -> String {
    let (_, error) = unwrap(error)
    switch error {
    case let error as ParserError: return error.message
    case let error as ValidationError: return error.message
    case let error as CleanExit:
      if case .message(let text) = error.representation { return text }
      return ""
    case is ExitCode: return ""
    default: return String(describing: error)
    }
  }

  /// Returns everything printed for an error: the help, a message, or
  /// `Error: …` followed, for a bad command line, by the usage and a
  /// pointer to the help.
  ///
  /// - Parameter error: An error thrown while parsing or running.
  public static func fullMessage(for error: any Error) -> String {
    let (stack, error) = unwrap(error)
    let generator = HelpGenerator(stack: stack)
    switch error {
    case let error as CleanExit:
      switch error.representation {
      case .helpRequest(let command?):
        return HelpGenerator(stack: Self.stack(to: command)).help
      case .helpRequest(nil): return generator.help
      case .message(let text): return text
      }
    case is ParserError, is ValidationError:
      return "Error: \(message(for: error))\n"
        + "Usage: \(generator.wrappedUsage(indent: 7))\n"
        + "  See '\(generator.path) --help' for more information."
    case is ExitCode: return ""
    default: return "Error: \(message(for: error))"
    }
  }

  /// Returns the exit code for an error.
  ///
  /// - Parameter error: An error thrown while parsing or running.
  /// - Returns: ``ExitCode/success`` for a ``CleanExit``,
  ///   ``ExitCode/validationFailure`` for a bad command line, the code
  ///   itself for an ``ExitCode``, and ``ExitCode/failure`` otherwise.
  public static func exitCode(for error: any Error) -> ExitCode {
    switch unwrap(error).error {
    case is CleanExit: .success
    case let code as ExitCode: code
    case is ParserError, is ValidationError: .validationFailure
    default: .failure
    }
  }

  /// Prints the message for an error and exits with its code.
  ///
  /// Help and messages of a ``CleanExit`` go to standard output; errors go
  /// to standard error.
  ///
  /// - Parameter error: An error thrown while parsing or running, or nil
  ///   for success.
  public static func exit(withError error: (any Error)? = nil) -> Never {
    guard let error else { terminate(with: .success) }
    let text = fullMessage(for: error)
    let code = exitCode(for: error)
    if !text.isEmpty {
      let stream: StandardStream =
        unwrap(error).error is CleanExit ? .output : .error
      stream.write(text + "\n")
    }
    terminate(with: code)
  }

  /// Parses the process's command line, runs the selected command and
  /// exits.
  public static func main() async {
    await main(Array(CommandLine.arguments.dropFirst()))
  }

  /// Parses a command line, runs the selected command and exits.
  ///
  /// - Parameter arguments: The command line without the tool's name.
  public static func main(_ arguments: [String]) async -> Never {
    if let reply = await generatedText(for: arguments) {
      switch reply {
      case .success(let text):
        StandardStream.output.write(text)
        terminate(with: .success)
      case .failure(let message):
        StandardStream.error.write("Error: \(message)\n")
        terminate(with: .validationFailure)
      }
    }
    var command: any Command
    do {
      command = try parseAsRoot(arguments)
    } catch {
      exit(withError: error)
    }
    do {
      try await command.run()
    } catch {
      exit(
        withError: CommandError(
          stack: stack(to: type(of: command)), underlying: error))
    }
    exit()
  }

  // MARK: - Helpers

  /// What the hidden requests print: a completion script
  /// (`--generate-completion-script SHELL`), a completion script's answer
  /// (`__complete SHELL LINE`) or the manual page (`--generate-manual`);
  /// nil for any other command line.
  static func generatedText(
    for arguments: [String]
  ) async -> Result<String, GeneratedTextError>? {
    guard let first = arguments.first else { return nil }
    func shell(
      _ index: Int, for option: String
    ) -> Result<Shell, GeneratedTextError> {
      let names = Shell.allCases.map(\.rawValue)
      guard index < arguments.count else {
        return .failure(
          .init(
            "Missing value for '\(option) <shell>': expected "
              + names.joined(separator: ", ")))
      }
      guard let shell = Shell(rawValue: arguments[index]) else {
        return .failure(
          .init(
            "The value '\(arguments[index])' is invalid for '\(option) <shell>': "
              + "expected " + names.joined(separator: ", ")))
      }
      return .success(shell)
    }
    switch first {
    case CompletionScript.generateOption:
      return shell(1, for: first).map {
        CompletionScript.script(for: $0, tool: commandName)
      }
    case CompletionScript.completeCommand:
      switch shell(1, for: first) {
      case .success(let shell):
        let line = arguments.count > 2 ? arguments[2] : commandName + " "
        return .success(await completionReply(shell: shell, line: line))
      case .failure(let error):
        return .failure(error)
      }
    case ManualPage.generateOption:
      return .success(ManualPage(root: Self.self).text)
    default:
      return nil
    }
  }

  /// The commands from this root down to a command of its tree.
  static func stack(to target: any Command.Type) -> [any Command.Type] {
    func search(_ path: [any Command.Type]) -> [any Command.Type]? {
      guard let last = path.last else { return nil }
      if ObjectIdentifier(last) == ObjectIdentifier(target) { return path }
      for child in last.configuration.subcommands {
        if let found = search(path + [child]) { return found }
      }
      return nil
    }
    return search([Self.self]) ?? [Self.self, target]
  }

  private static func unwrap(
    _ error: any Error
  ) -> (stack: [any Command.Type], error: any Error) {
    if let error = error as? CommandError {
      return (error.stack, error.underlying)
    }
    return ([Self.self], error)
  }
}
