// Renders help and usage text in swift-argument-parser's layout:
// OVERVIEW, USAGE, ARGUMENTS, OPTIONS and SUBCOMMANDS, labels in a
// 26-column gutter, wrapped at 80 columns.

/// Builds the help and usage text of one command.
struct HelpGenerator {
  /// The width text is wrapped to.
  static let screenWidth = 80
  /// The indentation of labels in a section.
  static let helpIndent = 2
  /// The column where descriptions start.
  static let labelColumnWidth = 26

  let stack: [any CommandDescription.Type]

  private var command: any CommandDescription.Type { stack[stack.count - 1] }
  private var root: any CommandDescription.Type { stack[0] }

  /// The command's names from the root, such as `acctl policy check`.
  var path: String {
    stack.map { $0.commandName }.joined(separator: " ")
  }

  /// The parts of the usage line that wrapping keeps together, such as
  /// `[--placement <placement>]`.
  private var usageParts: [String] {
    if let usage = command.configuration.usage {
      return [path] + usage.split(separator: " ").map(String.init)
    }
    if !command.configuration.subcommands.isEmpty {
      return [path, "<subcommand>"]
    }
    return [path]
      + command.signature.map { definition in
        definition.isOptional ? "[\(definition.synopsis)]" : definition.synopsis
      }
  }

  /// The usage line without a prefix.
  var usage: String { usageParts.joined(separator: " ") }

  /// The usage line wrapped after a prefix of `indent` columns, breaking
  /// only between arguments.
  func wrappedUsage(indent: Int) -> String {
    Self.wrap(
      [usageParts], width: Self.screenWidth, firstLineUsed: indent,
      indent: indent)
  }

  /// The whole help text, without a trailing newline.
  var help: String {
    let configuration = command.configuration
    var sections: [String] = []
    if !configuration.abstract.isEmpty {
      sections.append(
        Self.wrap(
          "OVERVIEW: " + configuration.abstract, width: Self.screenWidth,
          firstLineUsed: 0, indent: 0))
    }
    if !configuration.discussion.isEmpty {
      sections.append(
        Self.wrap(
          configuration.discussion, width: Self.screenWidth,
          firstLineUsed: 0, indent: 0))
    }
    sections.append("USAGE: " + wrappedUsage(indent: 7))

    let arguments = command.signature.filter { $0.kind == .positional }
    if !arguments.isEmpty {
      sections.append(
        "ARGUMENTS:\n"
          + arguments.map {
            Self.element(label: $0.helpLabel, abstract: $0.helpAbstract)
          }.joined(separator: "\n"))
    }

    var options = command.signature.filter { $0.kind != .positional }.map {
      Self.element(label: $0.helpLabel, abstract: $0.helpAbstract)
    }
    if stack.count == 1, !configuration.version.isEmpty {
      options.append(
        Self.element(label: "--version", abstract: "Show the version."))
    }
    options.append(
      Self.element(label: "-h, --help", abstract: "Show help information."))
    sections.append("OPTIONS:\n" + options.joined(separator: "\n"))

    if !configuration.subcommands.isEmpty {
      let fallback = configuration.defaultSubcommand.map(ObjectIdentifier.init)
      let lines = configuration.subcommands.map { subcommand in
        var label =
          ([subcommand.commandName]
          + subcommand.configuration.aliases).joined(separator: ", ")
        if ObjectIdentifier(subcommand) == fallback { label += " (default)" }
        return Self.element(
          label: label, abstract: subcommand.configuration.abstract)
      }
      let names = stack.dropFirst().map { $0.commandName }
      let helpPath = ([root.commandName, "help"] + names + ["<subcommand>"])
        .joined(separator: " ")
      sections.append(
        "SUBCOMMANDS:\n" + lines.joined(separator: "\n") + "\n\n"
          + "  See '\(helpPath)' for detailed help.")
    }
    if !configuration.exitStatuses.isEmpty {
      sections.append(
        "EXIT STATUS:\n"
          + configuration.exitStatuses.map {
            Self.exitStatusElement(code: $0.code, meaning: $0.meaning)
          }.joined(separator: "\n"))
    }
    return sections.joined(separator: "\n\n")
  }

  /// One exit status: the code in a 4-column gutter, its meaning after.
  static func exitStatusElement(code: Int32, meaning: String) -> String {
    let label = String(repeating: " ", count: helpIndent) + "\(code)"
    let column = helpIndent + 4
    return label + String(repeating: " ", count: column - label.count)
      + wrap(meaning, width: screenWidth, firstLineUsed: column, indent: column)
  }

  /// One entry of a section: the label in the gutter, the abstract after
  /// it, or on the next line when the label is too wide.
  static func element(label: String, abstract: String) -> String {
    let padded = String(repeating: " ", count: helpIndent) + label
    guard !abstract.isEmpty else { return padded }
    if padded.count < labelColumnWidth {
      let gutter = String(
        repeating: " ", count: labelColumnWidth - padded.count)
      return padded + gutter
        + wrap(
          abstract, width: screenWidth, firstLineUsed: labelColumnWidth,
          indent: labelColumnWidth)
    }
    return padded + "\n" + String(repeating: " ", count: labelColumnWidth)
      + wrap(
        abstract, width: screenWidth, firstLineUsed: labelColumnWidth,
        indent: labelColumnWidth)
  }

  /// Wraps text at spaces so no line passes `width`, keeping its line
  /// breaks.
  ///
  /// - Parameters:
  ///   - text: The text to wrap.
  ///   - width: The longest line, counting any prefix.
  ///   - firstLineUsed: The columns already used on the first line.
  ///   - indent: The spaces before each continuation line.
  static func wrap(
    _ text: String, width: Int, firstLineUsed: Int, indent: Int
  ) -> String {
    let paragraphs = text.split(
      separator: "\n", omittingEmptySubsequences: false
    ).map { $0.split(separator: " ").map(String.init) }
    return wrap(
      paragraphs, width: width, firstLineUsed: firstLineUsed, indent: indent)
  }

  /// Wraps paragraphs of unbreakable parts, joined by spaces, so no line
  /// passes `width` unless a part alone does.
  static func wrap(
    _ paragraphs: [[String]], width: Int, firstLineUsed: Int, indent: Int
  ) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var used = firstLineUsed
    for parts in paragraphs {
      var line = ""
      for part in parts {
        if !line.isEmpty, used + line.count + 1 + part.count > width {
          lines.append(line)
          line = ""
          used = indent
        }
        line += line.isEmpty ? part : " " + part
      }
      lines.append(line)
      used = indent
    }
    return lines.enumerated().map { index, line in
      index == 0 || line.isEmpty ? line : margin + line
    }.joined(separator: "\n")
  }
}
