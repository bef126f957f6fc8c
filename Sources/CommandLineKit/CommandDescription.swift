// What a command is, apart from how it runs: its name, help text and
// signature. The help, the manual page and the completion scripts are
// written from it.

/// A command's configuration and signature: all that its help and manual
/// page are written from.
///
/// ``Command`` refines it with parsing and running. A tool that parses its
/// own command line, as a daemon that merges flags with a config file
/// does, conforms only to this and still gets the same help and manual
/// page.
public protocol CommandDescription: SendableMetatype {
  /// The command's name, help text and subcommands.
  static var configuration: CommandConfiguration { get }

  /// The positional arguments, options and flags the command accepts, in
  /// the order the usage line shows them.
  ///
  /// `-h` and `--help` are added to every command.
  static var signature: [ArgumentDefinition] { get }
}

extension CommandDescription {
  /// A configuration with every field at its default.
  public static var configuration: CommandConfiguration {
    CommandConfiguration()
  }

  /// No arguments, options or flags.
  public static var signature: [ArgumentDefinition] { [] }

  /// The name on the command line: the configured one, or the type name in
  /// kebab case.
  public static var commandName: String {
    if let name = configuration.commandName { return name }
    var result = ""
    for character in String(describing: Self.self) {
      if character.isUppercase, !result.isEmpty { result.append("-") }
      result.append(contentsOf: character.lowercased())
    }
    return result
  }

  /// The help of this command as the root of its tool, without a trailing
  /// newline.
  public static func helpText() -> String {
    HelpGenerator(stack: [Self.self]).help
  }

  /// The usage line of this command as the root of its tool, without the
  /// `USAGE:` prefix.
  public static func usageText() -> String {
    HelpGenerator(stack: [Self.self]).usage
  }
}
