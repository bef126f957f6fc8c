// A command line typed so far, split into words as bash, zsh and fish
// split it: blanks separate words, a backslash escapes the next
// character, single quotes take everything literally, double quotes let a
// backslash escape `"`, `\`, `$` and a backquote. The last word may be
// unfinished, with its quote still open.

/// A command line up to the cursor, split into words.
struct ShellWords: Equatable {
  /// The words before the one being typed, without their quotes.
  var words: [String]
  /// The word being typed, without its quotes: empty after a blank.
  var current: String
  /// The word being typed as it stands on the line, escapes and quotes
  /// included.
  var currentRaw: String
  /// The quote the word being typed leaves open, if any.
  var openQuote: Character?

  /// Splits a command line typed up to the cursor.
  ///
  /// - Parameter line: The line, such as `acctl update "Studio B`.
  init(_ line: String) {
    words = []
    var word = ""
    var raw = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        word.append(character)
        raw.append(character)
        escaped = false
        continue
      }
      switch quote {
      case "'":
        raw.append(character)
        if character == "'" { quote = nil } else { word.append(character) }
        continue
      case "\"":
        raw.append(character)
        if character == "\"" {
          quote = nil
        } else if character == "\\" {
          escaped = true
        } else {
          word.append(character)
        }
        continue
      default:
        break
      }
      if character == " " || character == "\t" || character == "\n" {
        if inWord {
          words.append(word)
          word = ""
          raw = ""
          inWord = false
        }
        continue
      }
      inWord = true
      raw.append(character)
      switch character {
      case "\\": escaped = true
      case "'", "\"": quote = character
      default: word.append(character)
      }
    }
    current = word
    currentRaw = raw
    openQuote = quote
  }
}
