/// One object in the output of `pactl list`, such as one sink.
struct PactlListEntry: Equatable {
  /// The number after `#` in the heading.
  var index: Int

  /// The `Key: value` lines directly under the heading.
  var fields: [String: String] = [:]

  /// The `key = "value"` lines of the `Properties:` block, unquoted.
  var properties: [String: String] = [:]
}

/// Parsers for the text that `pactl` prints in the C locale.
enum PactlOutput {
  /// Splits `pactl list <objects>` output into entries.
  ///
  /// - Parameters:
  ///   - text: The output, such as that of `pactl list sinks`.
  ///   - heading: The heading word(s) before `#`, such as "Sink" or
  ///     "Sink Input".
  static func entries(in text: String, heading: String) -> [PactlListEntry] {
    var entries: [PactlListEntry] = []
    var current: PactlListEntry?
    var isInProperties = false
    let headingPrefix = "\(heading) #"
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix(headingPrefix) {
        if let current { entries.append(current) }
        let number = Int(line.dropFirst(headingPrefix.count)) ?? -1
        current = PactlListEntry(index: number)
        isInProperties = false
      } else if current == nil {
        continue
      } else if line.hasPrefix("\t\t") {
        if isInProperties, let (key, value) = property(in: line) {
          current?.properties[key] = value
        }
      } else if line.hasPrefix("\t") {
        let content = line.dropFirst()
        isInProperties = content == "Properties:"
        if let separator = content.range(of: ": ") {
          let key = String(content[..<separator.lowerBound])
          current?.fields[key] = String(content[separator.upperBound...])
        }
      } else {
        isInProperties = false
      }
    }
    if let current { entries.append(current) }
    return entries
  }

  /// The value of a `Key: value` line of `pactl info`, such as
  /// "Default Sink".
  static func infoField(_ key: String, in text: String) -> String? {
    let prefix = "\(key): "
    for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
      return String(line.dropFirst(prefix.count))
    }
    return nil
  }

  /// Parses a `key = "value"` property line.
  private static func property(
    in line: Substring
  ) -> (key: String, value: String)? {
    let content = line.drop { $0 == "\t" }
    guard let separator = content.range(of: " = ") else { return nil }
    let key = String(content[..<separator.lowerBound])
    var value = content[separator.upperBound...]
    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
      value = value.dropFirst().dropLast()
    }
    let unescaped = String(value).replacing("\\\"", with: "\"")
    return (key, unescaped)
  }
}
