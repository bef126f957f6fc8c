// Unit tests of CommandLineKit: splitting, errors and help layout, on a
// small command tree made for the purpose.

import CommandLineKit
import Testing

// MARK: - A command tree for the tests

struct Tool: Command {
  static let configuration = CommandConfiguration(
    commandName: "tool",
    abstract: "A tool for testing the parser.",
    version: "1.2.3",
    subcommands: [Assign.self, SinkVolume.self, Group.self])

  init(arguments: inout ArgumentCursor) throws {}
}

extension Tool {
  struct Assign: Command {
    static let configuration = CommandConfiguration(
      abstract: "Assign a value to a name.",
      aliases: ["set"])

    static let signature: [ArgumentDefinition] = [
      .argument("name", abstract: "The name to assign."),
      .argument(
        "value", abstract: "The value; empty when left out.", isOptional: true),
      .option("level", abstract: "How loud.", allValues: ["low", "high"]),
      .option("count", shortName: "c", abstract: "How many times."),
      .option("tag", abstract: "A tag; repeat it for more."),
      .flag("verbose", shortName: "v", abstract: "Say more."),
    ]

    var name: String
    var value: String?
    var level: String?
    var count: Int?
    var tags: [String]
    var verbose: Bool

    init(arguments: inout ArgumentCursor) throws {
      name = try arguments.required("name")
      value = arguments.value("value")
      level = arguments.value("level")
      count = try arguments.value("count") { text in
        guard let count = Int(text) else {
          throw ValidationError("expected an integer")
        }
        return count
      }
      tags = arguments.values("tag")
      verbose = arguments.flag("verbose")
    }

    func validate() throws {
      if count == 0 { throw ValidationError("Please provide a count above 0.") }
    }
  }

  struct SinkVolume: Command {
    init(arguments: inout ArgumentCursor) throws {}
  }

  struct Group: Command {
    static let configuration = CommandConfiguration(
      abstract: "A group with a default subcommand.",
      subcommands: [Leaf.self],
      defaultSubcommand: Leaf.self)

    init(arguments: inout ArgumentCursor) throws {}
  }
}

extension Tool.Group {
  struct Leaf: Command {
    static let configuration = CommandConfiguration(
      abstract: "The default subcommand.",
      discussion: """
        A discussion long enough to be wrapped at eighty columns, so the help \
        shows how paragraphs are broken between words.
        """)

    static let signature: [ArgumentDefinition] = [
      .flag("dry-run", abstract: "Show what would happen."),
      .option(
        "a-very-long-option", valueName: "value",
        abstract: "An option whose label is too wide for the gutter, with an "
          + "abstract long enough to wrap."),
    ]

    var dryRun: Bool

    init(arguments: inout ArgumentCursor) throws {
      dryRun = arguments.flag("dry-run")
    }
  }
}

/// Returns the message and exit code of a command line that fails.
private func failure(_ arguments: String...) -> (String, Int32)? {
  do {
    _ = try Tool.parseAsRoot(arguments)
    return nil
  } catch {
    return (Tool.fullMessage(for: error), Tool.exitCode(for: error).rawValue)
  }
}

private let assignUsage = """
  Usage: tool assign <name> [<value>] [--level <level>] [--count <count>]
         [--tag <tag>] [--verbose]
    See 'tool assign --help' for more information.
  """

// MARK: - Parsing

@Suite struct ParsingTests {
  @Test func positionalOptionsAndFlags() throws {
    let command = try #require(
      Tool.parseAsRoot([
        "assign", "volume", "11", "--level", "high", "--count=3", "-v",
        "--tag", "a", "--tag=b",
      ]) as? Tool.Assign)
    #expect(command.name == "volume")
    #expect(command.value == "11")
    #expect(command.level == "high")
    #expect(command.count == 3)
    #expect(command.tags == ["a", "b"])
    #expect(command.verbose)
  }

  @Test func optionalArgumentsMayBeLeftOut() throws {
    let command = try #require(
      Tool.parseAsRoot(["assign", "volume"]) as? Tool.Assign)
    #expect(command.value == nil)
    #expect(command.level == nil)
    #expect(command.count == nil)
    #expect(command.tags.isEmpty)
    #expect(!command.verbose)
  }

  @Test func optionsMayComeFirstAndRepeat() throws {
    let command = try #require(
      Tool.parseAsRoot([
        "assign", "--level", "low", "-c", "2", "volume", "--level=high", "-c5",
      ]) as? Tool.Assign)
    #expect(command.name == "volume")
    #expect(command.level == "high")
    #expect(command.count == 5)
  }

  @Test func doubleDashEndsOptions() throws {
    let command = try #require(
      Tool.parseAsRoot(["assign", "--", "--level", "-v"]) as? Tool.Assign)
    #expect(command.name == "--level")
    #expect(command.value == "-v")
    #expect(command.level == nil)
    #expect(!command.verbose)
  }

  @Test func attachedValuesMayStartWithADash() throws {
    let command = try #require(
      Tool.parseAsRoot(["assign", "x", "--tag=-1", "--tag="]) as? Tool.Assign)
    #expect(command.tags == ["-1", ""])
  }

  @Test func aliasesSelectTheCommand() throws {
    let command = try #require(
      Tool.parseAsRoot(["set", "volume"]) as? Tool.Assign)
    #expect(command.name == "volume")
  }

  @Test func defaultSubcommandRunsWhenNoneIsNamed() throws {
    #expect(try Tool.parseAsRoot(["group"]) is Tool.Group.Leaf)
    let leaf = try #require(
      Tool.parseAsRoot(["group", "--dry-run"]) as? Tool.Group.Leaf)
    #expect(leaf.dryRun)
    #expect(try Tool.parseAsRoot(["group", "leaf"]) is Tool.Group.Leaf)
  }

  @Test func commandNamesAreKebabCase() {
    #expect(Tool.SinkVolume.commandName == "sink-volume")
    #expect(Tool.Assign.commandName == "assign")
    #expect(Tool.commandName == "tool")
  }
}

// MARK: - Errors

@Suite struct ErrorTests {
  @Test func unknownOption() {
    let result = failure("assign", "x", "--foo")
    #expect(result?.0 == "Error: Unknown option '--foo'\n" + assignUsage)
    #expect(result?.1 == 64)
    #expect(
      failure("assign", "x", "--foo=1")?.0.hasPrefix(
        "Error: Unknown option '--foo'\n") == true)
    #expect(
      failure("assign", "x", "-z")?.0.hasPrefix(
        "Error: Unknown option '-z'\n") == true)
    #expect(
      failure("assign", "x", "-vx")?.0.hasPrefix(
        "Error: Unknown option '-vx'\n") == true)
  }

  @Test func missingArgument() {
    let result = failure("assign")
    #expect(
      result?.0 == "Error: Missing expected argument '<name>'\n" + assignUsage)
    #expect(result?.1 == 64)
  }

  @Test func unexpectedArguments() {
    #expect(
      failure("assign", "a", "b", "c")?.0
        == "Error: Unexpected argument 'c'\n" + assignUsage)
    #expect(
      failure("assign", "a", "b", "c", "d")?.0
        == "Error: 2 unexpected arguments: 'c', 'd'\n" + assignUsage)
  }

  @Test func valueNotAmongTheAcceptedOnes() {
    #expect(
      failure("assign", "a", "--level", "loud")?.0
        == "Error: The value 'loud' is invalid for '--level': expected one "
        + "of low, high\n" + assignUsage)
  }

  @Test func valueThatDoesNotConvert() {
    #expect(
      failure("assign", "a", "--count", "many")?.0
        == "Error: The value 'many' is invalid for '--count': expected an "
        + "integer\n" + assignUsage)
  }

  @Test func missingValue() {
    #expect(
      failure("assign", "a", "--count")?.0
        == "Error: Missing value for '--count <count>'\n" + assignUsage)
    #expect(
      failure("assign", "a", "--count", "--verbose")?.0
        == "Error: Missing value for '--count <count>'\n" + assignUsage)
  }

  @Test func flagWithAValue() {
    #expect(
      failure("assign", "a", "--verbose=yes")?.0
        == "Error: The option '--verbose' does not take any value, but 'yes' "
        + "was specified.\n" + assignUsage)
  }

  @Test func validationError() {
    let result = failure("assign", "a", "--count", "0")
    #expect(
      result?.0 == "Error: Please provide a count above 0.\n" + assignUsage)
    #expect(result?.1 == 64)
  }

  @Test func unknownSubcommand() {
    let expected = """
      Error: Unexpected argument 'frobnicate'
      Usage: tool <subcommand>
        See 'tool --help' for more information.
      """
    #expect(failure("frobnicate")?.0 == expected)
    #expect(failure("help", "frobnicate")?.0 == expected)
    #expect(
      failure("--frobnicate")?.0.hasPrefix(
        "Error: Unknown option '--frobnicate'\n") == true)
  }

  @Test("A mistyped subcommand or option names the closest one")
  func didYouMean() {
    #expect(
      failure("asign")?.0.hasPrefix(
        "Error: Unexpected argument 'asign'; did you mean 'assign'?\n")
        == true)
    #expect(
      failure("assign", "a", "--cuont", "2")?.0.hasPrefix(
        "Error: Unknown option '--cuont'; did you mean '--count'?\n") == true)
    // Nothing close: no guess.
    #expect(
      failure("zzzzzz")?.0.hasPrefix("Error: Unexpected argument 'zzzzzz'\n")
        == true)
  }

  @Test func exitCodes() {
    struct Broken: Error, CustomStringConvertible {
      var description: String { "the thing broke" }
    }
    #expect(Tool.exitCode(for: ExitCode(42)) == ExitCode(42))
    #expect(Tool.fullMessage(for: ExitCode(42)) == "")
    #expect(Tool.exitCode(for: CleanExit.helpRequest) == .success)
    #expect(Tool.exitCode(for: Broken()) == .failure)
    #expect(Tool.fullMessage(for: Broken()) == "Error: the thing broke")
    #expect(Tool.exitCode(for: ValidationError("no")) == .validationFailure)
    #expect(ExitCode.validationFailure.rawValue == 64)
  }
}

// MARK: - Help

@Suite struct HelpTests {
  static let rootHelp = """
    OVERVIEW: A tool for testing the parser.

    USAGE: tool <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      assign, set             Assign a value to a name.
      sink-volume
      group                   A group with a default subcommand.

      See 'tool help <subcommand>' for detailed help.
    """

  static let assignHelp = """
    OVERVIEW: Assign a value to a name.

    USAGE: tool assign <name> [<value>] [--level <level>] [--count <count>]
           [--tag <tag>] [--verbose]

    ARGUMENTS:
      <name>                  The name to assign.
      <value>                 The value; empty when left out.

    OPTIONS:
      --level <level>         How loud. (values: low, high)
      -c, --count <count>     How many times.
      --tag <tag>             A tag; repeat it for more.
      -v, --verbose           Say more.
      -h, --help              Show help information.
    """

  static let leafHelp = """
    OVERVIEW: The default subcommand.

    A discussion long enough to be wrapped at eighty columns, so the help shows how
    paragraphs are broken between words.

    USAGE: tool group leaf [--dry-run] [--a-very-long-option <value>]

    OPTIONS:
      --dry-run               Show what would happen.
      --a-very-long-option <value>
                              An option whose label is too wide for the gutter, with
                              an abstract long enough to wrap.
      -h, --help              Show help information.
    """

  private func help(_ arguments: String...) -> String? {
    do {
      _ = try Tool.parseAsRoot(arguments)
      return nil
    } catch {
      #expect(Tool.exitCode(for: error) == .success)
      return Tool.fullMessage(for: error)
    }
  }

  @Test func rootHelp() {
    #expect(help("--help") == Self.rootHelp)
    #expect(help("-h") == Self.rootHelp)
    #expect(help("help") == Self.rootHelp)
    #expect(help() == Self.rootHelp)
    #expect(Tool.helpMessage() == Self.rootHelp)
  }

  @Test func subcommandHelp() {
    #expect(help("assign", "--help") == Self.assignHelp)
    #expect(help("assign", "x", "--bogus", "-h") == Self.assignHelp)
    #expect(help("help", "assign") == Self.assignHelp)
    #expect(help("set", "-h") == Self.assignHelp)
    #expect(Tool.helpMessage(for: Tool.Assign.self) == Self.assignHelp)
  }

  @Test func nestedHelp() {
    #expect(help("group", "leaf", "--help") == Self.leafHelp)
    #expect(help("help", "group", "leaf") == Self.leafHelp)
    let groupHelp = help("group", "--help")
    #expect(
      groupHelp?.contains("  leaf (default)          The default") == true)
    #expect(
      groupHelp?.hasSuffix(
        "  See 'tool help group <subcommand>' for detailed help.") == true)
  }

  @Test func helpAfterDoubleDashIsAnArgument() throws {
    let command = try #require(
      Tool.parseAsRoot(["assign", "--", "--help"]) as? Tool.Assign)
    #expect(command.name == "--help")
  }

  @Test func version() {
    #expect(help("--version") == "1.2.3")
  }

  @Test func usageString() {
    #expect(
      Tool.usageString(for: Tool.Group.Leaf.self)
        == "tool group leaf [--dry-run] [--a-very-long-option <value>]")
    #expect(Tool.usageString() == "tool <subcommand>")
  }

  @Test func linesFitEightyColumns() {
    for text in [Self.rootHelp, Self.assignHelp, Self.leafHelp] {
      for line in text.split(separator: "\n") {
        #expect(line.count <= 80, "\(line)")
      }
    }
  }
}
