// A tool's manual page in man(7) markup, written from the same command
// tree as its help, the way swift-argument-parser's manual generator
// works: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, one part per subcommand,
// EXIT STATUS, then the sections the tool adds (ENVIRONMENT, FILES, SEE
// ALSO). `man -l` shows it; it cannot drift from `--help`. A page of a file
// format is written from sections alone.

/// The manual page of a tool.
///
/// ```swift
/// let page = ManualPage(root: Acctl.self)
/// try page.text.write(toFile: "acctl.1", atomically: true, encoding: .utf8)
/// ```
public struct ManualPage {
  /// The hidden option that prints a tool's manual page.
  public static let generateOption = "--generate-manual"

  /// What the page is written from.
  private enum Source {
    /// A tool's command tree.
    case command(any CommandDescription.Type)
    /// A file format's page: its name, section, abstract, footer and
    /// sections.
    case document(
      name: String, section: Int, abstract: String, footer: String,
      sections: [ManualSection])
  }

  private let source: Source

  /// The page of a tool's root command.
  ///
  /// - Parameter root: The root command; its configuration gives the
  ///   section, version and added sections.
  public init(root: any CommandDescription.Type) {
    self.source = .command(root)
  }

  /// A page that no command tree gives, such as a file format's.
  ///
  /// - Parameters:
  ///   - name: The page's name, such as `accessoryd.policy`.
  ///   - section: The manual section, such as 5 for file formats.
  ///   - abstract: The one line after the name.
  ///   - footer: The footer, such as the version line.
  ///   - sections: The sections after NAME, SYNOPSIS first.
  public init(
    name: String, section: Int, abstract: String, footer: String,
    sections: [ManualSection]
  ) {
    self.source = .document(
      name: name, section: section, abstract: abstract, footer: footer,
      sections: sections)
  }

  /// The page in man(7) markup.
  public var text: String {
    switch source {
    case .command(let root): commandText(root: root)
    case .document(let name, let section, let abstract, let footer, let parts):
      (Self.header(
        name: name, section: section, abstract: abstract, footer: footer)
        + parts.flatMap(Self.lines(of:))).joined(separator: "\n") + "\n"
    }
  }

  /// The title line and the NAME section.
  private static func header(
    name: String, section: Int, abstract: String, footer: String
  ) -> [String] {
    [
      ".TH \(quoted(name.uppercased())) \(section) \"\" \(quoted(footer))",
      // Names and key paths are not hyphenated.
      ".nh",
      ".SH NAME",
      escaped(name) + " \\- " + escaped(withoutFinalPeriod(abstract)),
    ]
  }

  /// A section the tool or the format gives: paragraphs, entries, then an
  /// example set as it is.
  private static func lines(of section: ManualSection) -> [String] {
    var lines = [".SH \(quoted(section.title))"]
    for (index, paragraph) in section.paragraphs.enumerated() {
      if index > 0 { lines.append(".PP") }
      lines.append(escaped(paragraph))
    }
    for entry in section.entries {
      lines.append(".TP")
      lines.append(".B \(quoted(entry.term))")
      lines.append(escaped(entry.text))
    }
    if let example = section.example {
      lines += [".PP", ".RS", ".nf"]
      lines += example.split(separator: "\n", omittingEmptySubsequences: false)
        .map { escaped($0) }
      lines += [".fi", ".RE"]
    }
    return lines
  }

  /// The page of a command tree.
  private func commandText(root: any CommandDescription.Type) -> String {
    let configuration = root.configuration
    let name = root.commandName
    // The version line, as `--version` prints it, is the footer.
    var lines = Self.header(
      name: name, section: configuration.manualSection,
      abstract: configuration.abstract,
      footer: configuration.version.isEmpty ? name : configuration.version)

    lines.append(".SH SYNOPSIS")
    lines += synopsis(of: [root])

    lines.append(".SH DESCRIPTION")
    lines += Self.paragraphs(
      [configuration.abstract, configuration.discussion].filter {
        !$0.isEmpty
      }.joined(separator: "\n\n"))

    lines.append(".SH OPTIONS")
    lines += options(of: [root])

    if !configuration.subcommands.isEmpty {
      lines.append(".SH COMMANDS")
      for subcommand in configuration.subcommands {
        lines += commandPart(stack: [root, subcommand])
      }
    }

    if !configuration.exitStatuses.isEmpty {
      lines.append(".SH \"EXIT STATUS\"")
      for status in configuration.exitStatuses {
        lines.append(".TP")
        lines.append(".B \(status.code)")
        lines.append(Self.escaped(status.meaning))
      }
    }

    lines += configuration.manualSections.flatMap(Self.lines(of:))
    return lines.joined(separator: "\n") + "\n"
  }

  /// The synopsis of a command: its path in bold, then each argument.
  private func synopsis(of stack: [any CommandDescription.Type]) -> [String] {
    let command = stack[stack.count - 1]
    let path = stack.map { $0.commandName }.joined(separator: " ")
    var parts = ["\\fB\(Self.escaped(path))\\fR"]
    if let usage = command.configuration.usage {
      parts.append(Self.escaped(usage))
    } else if !command.configuration.subcommands.isEmpty {
      parts.append("\\fIsubcommand\\fR")
    } else {
      parts += command.signature.map { definition in
        let text = Self.markup(definition)
        return definition.isOptional ? "[" + text + "]" : text
      }
    }
    return [parts.joined(separator: " ")]
  }

  /// The options of a command, the help ones included, as tagged
  /// paragraphs.
  private func options(of stack: [any CommandDescription.Type]) -> [String] {
    let command = stack[stack.count - 1]
    var lines: [String] = []
    for definition in command.signature {
      lines.append(".TP")
      let label =
        (definition.shortName.map { "\\fB\\-\($0)\\fR, " } ?? "")
        + Self.markup(definition)
      lines.append(label)
      lines.append(Self.escaped(definition.helpAbstract))
    }
    if stack.count == 1, !stack[0].configuration.version.isEmpty {
      lines += [".TP", "\\fB\\-\\-version\\fR", "Show the version."]
    }
    lines += [
      ".TP", "\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "Show help information.",
    ]
    return lines
  }

  /// The part of one subcommand, and of its own subcommands after it.
  private func commandPart(stack: [any CommandDescription.Type]) -> [String] {
    let command = stack[stack.count - 1]
    let path = stack.dropFirst().map { $0.commandName }.joined(separator: " ")
    var lines = [".SS \(Self.quoted(path))"]
    lines += synopsis(of: stack)
    lines.append(".PP")
    lines += Self.paragraphs(
      [command.configuration.abstract, command.configuration.discussion]
        .filter { !$0.isEmpty }.joined(separator: "\n\n"))
    if !command.signature.isEmpty {
      lines.append(".RS")
      lines += options(of: stack).dropLast(3)
      lines.append(".RE")
    }
    for subcommand in command.configuration.subcommands {
      lines += commandPart(stack: stack + [subcommand])
    }
    return lines
  }

  /// `--name <value>` in bold and italics, or `<value>` for an argument.
  private static func markup(_ definition: ArgumentDefinition) -> String {
    let name = "\\fB\\-\\-" + escaped(definition.name) + "\\fR"
    let value = "\\fI" + escaped(definition.valueName) + "\\fR"
    switch definition.kind {
    case .positional: return value
    case .option: return name + " " + value
    case .flag: return name
    }
  }

  /// Text split at blank lines into paragraphs.
  private static func paragraphs(_ text: String) -> [String] {
    var lines: [String] = []
    let blocks = text.split(separator: "\n\n", omittingEmptySubsequences: true)
    for (index, block) in blocks.enumerated() {
      if index > 0 { lines.append(".PP") }
      lines.append(escaped(block.split(separator: "\n").joined(separator: " ")))
    }
    return lines
  }

  /// Text that roff prints as it is: backslashes and dashes escaped, and a
  /// line that starts with a control character protected.
  static func escaped(_ text: some StringProtocol) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      default: result.append(character)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") {
      result = "\\&" + result
    }
    return result
  }

  /// A macro argument in double quotes.
  private static func quoted(_ text: String) -> String {
    "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
  }

  private static func withoutFinalPeriod(_ text: String) -> String {
    text.hasSuffix(".") ? String(text.dropLast()) : text
  }
}
