// The static description of a command: its name, help text and
// subcommands. Field names follow swift-argument-parser's
// `CommandConfiguration`.

/// The name, help text and subcommands of a command.
public struct CommandConfiguration: Sendable {
  /// The name used on the command line; nil derives it from the type name
  /// in kebab case (`PolicyCheck` becomes `policy-check`).
  public var commandName: String?
  /// A one-line description, shown after `OVERVIEW:` and in the parent's
  /// list of subcommands.
  public var abstract: String
  /// A longer description, shown in the help after the abstract.
  public var discussion: String
  /// The version printed by `--version`; empty for none.
  ///
  /// Only the root command's version is used.
  public var version: String
  /// The commands nested under this one.
  public var subcommands: [any Command.Type]
  /// The subcommand that runs when none is named.
  public var defaultSubcommand: (any Command.Type)?
  /// Other names that select this command.
  public var aliases: [String]
  /// A usage line that replaces the generated one, without the command's
  /// name path; nil to generate it from the signature.
  public var usage: String?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - commandName: The name on the command line; nil derives it from the
  ///     type name.
  ///   - abstract: A one-line description.
  ///   - usage: A usage line to show instead of the generated one.
  ///   - discussion: A longer description.
  ///   - version: The version printed by `--version`.
  ///   - subcommands: The commands nested under this one.
  ///   - defaultSubcommand: The subcommand that runs when none is named.
  ///   - aliases: Other names that select this command.
  public init(
    commandName: String? = nil,
    abstract: String = "",
    usage: String? = nil,
    discussion: String = "",
    version: String = "",
    subcommands: [any Command.Type] = [],
    defaultSubcommand: (any Command.Type)? = nil,
    aliases: [String] = []
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.usage = usage
    self.discussion = discussion
    self.version = version
    self.subcommands = subcommands
    self.defaultSubcommand = defaultSubcommand
    self.aliases = aliases
  }
}
