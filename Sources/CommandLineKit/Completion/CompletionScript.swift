// The completion scripts of bash, zsh and fish, and the answers the tool
// gives them. Each script is a few lines that pass the command line typed
// so far to `TOOL __complete SHELL LINE`; the tool walks its own command
// tree and prints what to offer, so the three shells offer the same and
// none can drift from the parser.

/// Writes a tool's completion scripts and its answers to them.
public enum CompletionScript {
  /// The hidden subcommand the scripts call.
  public static let completeCommand = "__complete"
  /// The hidden option that prints a script.
  public static let generateOption = "--generate-completion-script"

  /// The script for a shell.
  ///
  /// - Parameters:
  ///   - shell: The shell.
  ///   - tool: The tool's name, such as `acctl`.
  /// - Returns: The script, to install as bash's
  ///   `completions/TOOL`, zsh's `_TOOL` or fish's `TOOL.fish`.
  public static func script(for shell: Shell, tool: String) -> String {
    let function = "_" + tool.map { $0.isLetter || $0.isNumber ? $0 : "_" }
    switch shell {
    case .bash:
      return """
        # bash completion for \(tool), written by
        # `\(tool) \(generateOption) bash`.
        # \(tool) itself says what to offer: `\(tool) \(completeCommand) bash LINE`.

        \(function)()
        {
            local IFS=$'\\n' reply
            reply=($(\(tool) \(completeCommand) bash "${COMP_LINE:0:COMP_POINT}" 2>/dev/null))
            COMPREPLY=()
            case ${reply[0]} in
                files)
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -f -- "${reply[1]}")) ;;
                directories)
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -d -- "${reply[1]}")) ;;
                values) COMPREPLY=("${reply[@]:1}") ;;
            esac
        }

        complete -F \(function) \(tool)

        """
    case .zsh:
      return """
        #compdef \(tool)
        # zsh completion for \(tool), written by
        # `\(tool) \(generateOption) zsh`.
        # \(tool) itself says what to offer: `\(tool) \(completeCommand) zsh LINE`.

        local -a reply candidates
        reply=("${(@f)$(\(tool) \(completeCommand) zsh "${BUFFER[1,CURSOR]}" 2>/dev/null)}")
        case $reply[1] in
            files) _files ;;
            directories) _files -/ ;;
            values)
                candidates=("${(@)reply[2,-1]}")
                (( $#candidates )) && _describe -t values \(tool) candidates ;;
        esac

        """
    case .fish:
      return """
        # fish completion for \(tool), written by
        # `\(tool) \(generateOption) fish`.
        # \(tool) itself says what to offer: `\(tool) \(completeCommand) fish LINE`.

        function _\(function)_complete
            set -l reply (\(tool) \(completeCommand) fish (commandline -cp) 2>/dev/null)
            switch "$reply[1]"
                case files
                    __fish_complete_path (commandline -ct)
                case directories
                    __fish_complete_directories (commandline -ct)
                case values
                    printf '%s\\n' $reply[2..-1]
            end
        end

        complete -c \(tool) -f -a '(_\(function)_complete)'

        """
    }
  }

  /// The answer to a script: the kind on the first line, then one
  /// candidate a line, as the shell takes it.
  ///
  /// - bash puts a reply in place of the part of the word after its last
  ///   `=` or `:` (its word breaks), or after an open quote, and takes it
  ///   as typed: so the reply is that part, escaped for the shell.
  /// - zsh's `_describe` takes `value:description`, with the value's own
  ///   colons escaped, and quotes what it inserts itself.
  /// - fish takes `value<TAB>description` and quotes it itself.
  static func render(
    _ answer: CompletionAnswer, for line: ShellWords, shell: Shell
  ) -> String {
    var lines = [answer.kind.rawValue]
    if shell == .bash, answer.kind != .values {
      // The path typed so far, for the script's compgen.
      lines.append(answer.pathPrefix)
    }
    for candidate in answer.candidates {
      switch shell {
      case .bash:
        lines.append(bashReply(candidate.value, for: line))
      case .zsh:
        let value = candidate.value.replacing(":", with: "\\:")
        lines.append(
          candidate.description.isEmpty
            ? value : value + ":" + oneLine(candidate.description))
      case .fish:
        lines.append(
          candidate.description.isEmpty
            ? candidate.value
            : candidate.value + "\t" + oneLine(candidate.description))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// What bash puts in place of its word for a candidate.
  private static func bashReply(_ value: String, for line: ShellWords) -> String
  {
    switch line.openQuote {
    case "'":
      return value
    case "\"":
      var text = ""
      for character in value {
        if "\"\\$`".contains(character) { text.append("\\") }
        text.append(character)
      }
      return text
    default:
      var escaped = ""
      for character in value {
        if !(character.isASCII
          && (character.isLetter || character.isNumber
            || "_.,:/@%+=-".contains(character)))
        {
          escaped.append("\\")
        }
        escaped.append(character)
      }
      // Bash replaces only what follows its last word break.
      guard
        let breakIndex = line.currentRaw.lastIndex(where: {
          $0 == "=" || $0 == ":"
        })
      else { return escaped }
      let head = line.currentRaw[...breakIndex]
      return escaped.hasPrefix(head)
        ? String(escaped.dropFirst(head.count)) : escaped
    }
  }

  /// A description on one line, for the shells' lists.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}

extension Command {
  /// Values only the running tool knows, for arguments declared with
  /// ``Completion/custom(_:)``: none unless the root command says.
  public static func completionCandidates(
    for source: String, context: CompletionContext
  ) async -> [String] {
    []
  }

  /// Answers a completion script's call: the lines to print for a shell
  /// and a command line typed up to the cursor.
  ///
  /// - Parameters:
  ///   - shell: The shell that asks.
  ///   - line: The command line up to the cursor, the tool's name first.
  public static func completionReply(
    shell: Shell, line: String
  ) async
    -> String
  {
    let words = ShellWords(line)
    let answer = await CommandCompleter(root: Self.self).complete(words)
    return CompletionScript.render(answer, for: words, shell: shell)
  }
}
