// Walks a command line down the command tree: names select subcommands,
// `help` and `--help` ask for help, `--version` for the version, and the
// rest is split against the selected command's signature.

/// Selects and creates the command a command line names.
struct CommandParser {
  let root: any Command.Type
  private(set) var stack: [any Command.Type]

  init(root: any Command.Type) {
    self.root = root
    self.stack = [root]
  }

  /// Parses a command line and returns the selected command, validated.
  ///
  /// Every error thrown is a ``CommandError`` that carries the commands
  /// selected so far.
  mutating func parse(_ arguments: [String]) throws -> any Command {
    do {
      return try parseCommand(arguments)
    } catch let error as CommandError {
      throw error
    } catch {
      throw CommandError(stack: stack, underlying: error)
    }
  }

  private mutating func parseCommand(
    _ arguments: [String]
  ) throws -> any Command {
    var index = arguments.startIndex
    // Options given before the subcommand that declares them, as in
    // `acctl --socket PATH list`: passed on to it.
    var carried: [String] = []
    while let current = stack.last,
      !current.configuration.subcommands.isEmpty
    {
      guard index < arguments.endIndex else {
        guard let fallback = current.configuration.defaultSubcommand else {
          throw CleanExit.helpRequest(current)
        }
        stack.append(fallback)
        break
      }
      let word = arguments[index]
      if word == "-h" || word == "--help" {
        throw CleanExit.helpRequest(current)
      }
      if word == "--version", !root.configuration.version.isEmpty {
        throw CleanExit.message(root.configuration.version)
      }
      if stack.count == 1, word == "help" {
        throw try helpRequest(Array(arguments[(index + 1)...]))
      }
      if let next = Self.subcommand(named: word, of: current) {
        stack.append(next)
        index += 1
        continue
      }
      if let option = Self.sharedOption(word, under: current) {
        carried.append(word)
        index += 1
        if option.kind == .option, !word.contains("=") {
          guard index < arguments.endIndex else {
            throw ParserError.missingValue(option)
          }
          carried.append(arguments[index])
          index += 1
        }
        continue
      }
      // The default subcommand takes options; any other word is a
      // subcommand, mistyped or not.
      if let fallback = current.configuration.defaultSubcommand,
        word.hasPrefix("-")
      {
        stack.append(fallback)
        break
      }
      if word.hasPrefix("-"), word != "-", word != "--" {
        throw ParserError.unknownOption(word)
      }
      let subcommands = current.configuration.subcommands
      guard !subcommands.isEmpty else {
        throw ParserError.unexpectedArguments([word])
      }
      throw ParserError.unknownSubcommand(
        word,
        suggestion: suggestion(
          for: word,
          among: subcommands.flatMap {
            [$0.commandName] + $0.configuration.aliases
          }))
    }
    let selected = stack[stack.count - 1]
    var cursor = try ArgumentCursor(
      carried + arguments[index...], signature: selected.signature)
    let command = try selected.init(arguments: &cursor)
    try command.validate()
    return command
  }

  /// Resolves `help <subcommand> …` to the request for that help.
  private func helpRequest(_ names: [String]) throws -> CleanExit {
    var command = root
    for name in names {
      guard let next = Self.subcommand(named: name, of: command) else {
        throw ParserError.unexpectedArguments([name])
      }
      command = next
    }
    return CleanExit.helpRequest(command)
  }

  /// The option a word names (`--socket` or `--socket=PATH`) if a command
  /// under `command` declares it.
  static func sharedOption(
    _ word: String, under command: any Command.Type
  ) -> ArgumentDefinition? {
    guard word.hasPrefix("--"), word.count > 2 else { return nil }
    let name = String(word.dropFirst(2).prefix { $0 != "=" })
    for subcommand in command.configuration.subcommands {
      if let option = subcommand.signature.first(where: {
        $0.kind != .positional && $0.name == name
      }) {
        return option
      }
      if let option = sharedOption(word, under: subcommand) { return option }
    }
    return nil
  }

  private static func subcommand(
    named name: String, of command: any Command.Type
  ) -> (any Command.Type)? {
    command.configuration.subcommands.first {
      $0.commandName == name || $0.configuration.aliases.contains(name)
    }
  }
}
