// What to offer for the word being typed, found by walking the command
// tree as the parser does: subcommands, then the selected command's
// options, their values and its positional arguments.

/// The shells whose completion scripts CommandLineKit writes.
public enum Shell: String, Sendable, CaseIterable {
  /// GNU bash, with its programmable completion.
  case bash
  /// The Z shell, with its completion system (`compinit`).
  case zsh
  /// The friendly interactive shell.
  case fish
}

/// One value the shell may put in place of the word being typed.
struct CompletionCandidate: Equatable {
  /// The whole word, unquoted.
  var value: String
  /// What it is, for shells that show descriptions.
  var description: String
}

/// What the shell is asked to offer.
struct CompletionAnswer: Equatable {
  /// How the shell completes the word.
  enum Kind: String, Equatable {
    /// The candidates listed.
    case values
    /// Paths, by the shell's own file completion.
    case files
    /// Directories, by the shell's own completion.
    case directories
  }

  /// How the shell completes the word.
  var kind: Kind
  /// The candidates, for ``Kind/values``, already filtered by the word.
  var candidates: [CompletionCandidate]
  /// For ``Kind/files`` and ``Kind/directories``: the path typed so far,
  /// after any `--option=`.
  var pathPrefix = ""
}

/// Finds what to offer for a command line typed up to the cursor.
struct CommandCompleter {
  let root: any Command.Type

  /// The answer for a line.
  ///
  /// - Parameter line: The split line; its first word is the tool's name.
  func complete(_ line: ShellWords) async -> CompletionAnswer {
    var stack: [any Command.Type] = [root]
    var words = line.words.dropFirst()[...]
    var optionValues: [String: String] = [:]
    var isHelp = false
    var carried: [String] = []

    // Subcommands, and the options given before the one that declares them.
    while let word = words.first {
      let current = stack[stack.count - 1]
      if !current.configuration.subcommands.isEmpty,
        let option = CommandParser.sharedOption(word, under: current)
      {
        carried.append(word)
        words = words.dropFirst()
        if option.kind == .option, !word.contains("="), let value = words.first
        {
          carried.append(value)
          words = words.dropFirst()
        }
        continue
      }
      if stack.count == 1, word == "help", !isHelp {
        isHelp = true
        words = words.dropFirst()
        continue
      }
      if let next = current.configuration.subcommands.first(where: {
        $0.commandName == word || $0.configuration.aliases.contains(word)
      }) {
        stack.append(next)
        words = words.dropFirst()
        continue
      }
      break
    }
    let command = stack[stack.count - 1]
    let signature = command.signature
    let options = signature.filter { $0.kind != .positional }
    let positionals = signature.filter { $0.kind == .positional }

    // The selected command's words so far.
    var positionalCount = 0
    var pendingOption: ArgumentDefinition?
    var optionsEnded = false
    for word in carried + words {
      if let option = pendingOption {
        optionValues[option.name] = word
        pendingOption = nil
      } else if !optionsEnded, word == "--" {
        optionsEnded = true
      } else if !optionsEnded, word.hasPrefix("-"), word != "-" {
        let (name, value) = Self.split(option: word)
        guard let option = Self.option(named: name, in: options) else {
          continue
        }
        if option.kind == .option {
          if let value {
            optionValues[option.name] = value
          } else {
            pendingOption = option
          }
        }
      } else {
        positionalCount += 1
      }
    }

    let context = CompletionContext(
      commandPath: stack.dropFirst().map { $0.commandName },
      optionValues: optionValues, prefix: line.current)
    let prefix = line.current

    // The value of an option: after it, or after its `=`.
    if let option = pendingOption {
      return await values(of: option, prefix: prefix, context: context)
    }
    if !optionsEnded, prefix.hasPrefix("--"),
      let equals = prefix.firstIndex(of: "=")
    {
      let name = String(prefix[..<equals])
      guard let option = Self.option(named: name, in: options),
        option.kind == .option
      else { return CompletionAnswer(kind: .values, candidates: []) }
      let head = String(prefix[...equals])
      var answer = await values(
        of: option, prefix: String(prefix[prefix.index(after: equals)...]),
        context: context)
      answer.candidates = answer.candidates.map {
        CompletionCandidate(value: head + $0.value, description: $0.description)
      }
      return answer
    }

    var candidates: [CompletionCandidate] = []
    if isHelp || !command.configuration.subcommands.isEmpty {
      if prefix.hasPrefix("-"), !isHelp {
        candidates = optionCandidates(of: stack, options: options)
      } else if !isHelp || positionalCount == 0 {
        candidates = command.configuration.subcommands.map {
          CompletionCandidate(
            value: $0.commandName, description: $0.configuration.abstract)
        }
        if stack.count == 1, !isHelp {
          candidates.append(
            CompletionCandidate(
              value: "help", description: "Show help for a subcommand."))
        }
      }
      if !isHelp, !prefix.hasPrefix("-"), stack.count > 1 {
        candidates += optionCandidates(of: stack, options: options)
      }
      return filtered(candidates, by: prefix)
    }
    if !optionsEnded, prefix.hasPrefix("-") {
      return filtered(optionCandidates(of: stack, options: options), by: prefix)
    }
    guard positionalCount < positionals.count else {
      return CompletionAnswer(kind: .values, candidates: [])
    }
    return await values(
      of: positionals[positionalCount], prefix: prefix, context: context)
  }

  /// The options a command lists in its help, in the same order.
  private func optionCandidates(
    of stack: [any Command.Type], options: [ArgumentDefinition]
  ) -> [CompletionCandidate] {
    var candidates = options.map {
      CompletionCandidate(value: "--" + $0.name, description: $0.abstract)
    }
    if stack.count == 1, !root.configuration.version.isEmpty {
      candidates.append(
        CompletionCandidate(
          value: "--version", description: "Show the version."))
    }
    candidates.append(
      CompletionCandidate(
        value: "--help", description: "Show help information."))
    return candidates
  }

  /// What to offer for the value of an argument or option.
  private func values(
    of definition: ArgumentDefinition, prefix: String,
    context: CompletionContext
  ) async -> CompletionAnswer {
    switch definition.completion {
    case .none:
      return CompletionAnswer(kind: .values, candidates: [])
    case .file:
      return CompletionAnswer(kind: .files, candidates: [], pathPrefix: prefix)
    case .directory:
      return CompletionAnswer(
        kind: .directories, candidates: [], pathPrefix: prefix)
    case .values(let values):
      return filtered(
        values.map { CompletionCandidate(value: $0, description: "") },
        by: prefix)
    case .list(let names):
      let done = prefix.lastIndex(of: ",").map { prefix[...$0] } ?? ""
      let given = Set(done.split(separator: ",").map(String.init))
      return filtered(
        names.filter { !given.contains($0) }.map {
          CompletionCandidate(value: done + $0, description: "")
        }, by: prefix)
    case .custom(let source):
      var context = context
      context.prefix = prefix
      let values = await root.completionCandidates(
        for: source, context: context)
      return filtered(
        values.map { CompletionCandidate(value: $0, description: "") },
        by: prefix)
    }
  }

  /// The candidates that extend the word typed.
  private func filtered(
    _ candidates: [CompletionCandidate], by prefix: String
  ) -> CompletionAnswer {
    CompletionAnswer(
      kind: .values,
      candidates: candidates.filter { $0.value.hasPrefix(prefix) })
  }

  /// `--name=value` as its name and value; other words as themselves.
  private static func split(option word: String) -> (String, String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else {
      return (word, nil)
    }
    return (
      String(word[..<equals]), String(word[word.index(after: equals)...])
    )
  }

  /// The option a word names, by `--name` or `-n`.
  private static func option(
    named name: String, in options: [ArgumentDefinition]
  ) -> ArgumentDefinition? {
    options.first {
      "--" + $0.name == name
        || $0.shortName.map { "-" + String($0) } == name
    }
  }
}
