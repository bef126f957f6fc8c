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
  /// What each exit status means, shown under `EXIT STATUS:` in the help
  /// and in the manual page; empty for none.
  public var exitStatuses: [ExitStatusMeaning]
  /// The manual page's section: 1 for commands, 8 for daemons.
  public var manualSection: Int
  /// Sections the manual page adds after the generated ones, such as
  /// ENVIRONMENT, FILES and SEE ALSO.
  public var manualSections: [ManualSection]

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
  ///   - exitStatuses: What each exit status means.
  ///   - manualSection: The manual page's section.
  ///   - manualSections: Sections the manual page adds.
  public init(
    commandName: String? = nil,
    abstract: String = "",
    usage: String? = nil,
    discussion: String = "",
    version: String = "",
    subcommands: [any Command.Type] = [],
    defaultSubcommand: (any Command.Type)? = nil,
    aliases: [String] = [],
    exitStatuses: [ExitStatusMeaning] = [],
    manualSection: Int = 1,
    manualSections: [ManualSection] = []
  ) {
    self.exitStatuses = exitStatuses
    self.manualSection = manualSection
    self.manualSections = manualSections
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

/// One exit status of a tool and what it means.
public struct ExitStatusMeaning: Sendable, Hashable {
  /// The status.
  public var code: Int32
  /// When the tool exits with it.
  public var meaning: String

  /// Creates the meaning of a status.
  public init(_ code: Int32, _ meaning: String) {
    self.code = code
    self.meaning = meaning
  }
}

/// A section of a manual page that the command tree does not give, such
/// as ENVIRONMENT or FILES.
public struct ManualSection: Sendable, Hashable {
  /// The heading, in capitals: `ENVIRONMENT`.
  public var title: String
  /// Paragraphs before the entries.
  public var paragraphs: [String]
  /// Entries: a term (a variable, a path) and what it is.
  public var entries: [Entry]
  /// Text set as it is, after the entries, such as an example file.
  public var example: String?

  /// A term and what it is.
  public struct Entry: Sendable, Hashable {
    /// The term, set in bold.
    public var term: String
    /// What it is.
    public var text: String

    /// Creates an entry.
    public init(_ term: String, _ text: String) {
      self.term = term
      self.text = text
    }
  }

  /// Creates a section.
  public init(
    _ title: String, paragraphs: [String] = [], entries: [Entry] = [],
    example: String? = nil
  ) {
    self.title = title
    self.paragraphs = paragraphs
    self.entries = entries
    self.example = example
  }
}
