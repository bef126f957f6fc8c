// What a shell may offer for a value: declared on each argument and
// option, so that one command tree drives bash, zsh and fish.

/// What the shell offers when a value of an argument or option is being
/// typed.
///
/// ```swift
/// .option("placement", abstract: "Where it is.", allValues: placements)
/// .argument("accessory", abstract: "An address or a name.")
///   .completing(.custom("accessories"))
/// ```
public enum Completion: Sendable, Hashable {
  /// Nothing: the value is free text.
  case none
  /// These values.
  case values([String])
  /// A comma-separated list of these values, each at most once.
  case list([String])
  /// A file or directory path.
  case file
  /// A directory path.
  case directory
  /// Values only the running tool knows, such as the names of the
  /// accessories a daemon holds: the root command's
  /// ``Command/completionCandidates(for:context:)`` is asked for them by
  /// this name.
  case custom(String)
}

extension ArgumentDefinition {
  /// Returns this definition with what the shell offers for its value.
  ///
  /// - Parameter completion: What to offer.
  public func completing(_ completion: Completion) -> ArgumentDefinition {
    var definition = self
    definition.completion = completion
    return definition
  }
}

/// What a command line says so far, for a root command that is asked for
/// ``Completion/custom(_:)`` values.
public struct CompletionContext: Sendable {
  /// The names of the commands selected, from the root's first
  /// subcommand: `["policy", "check"]`.
  public var commandPath: [String]
  /// The options given so far, by long name without dashes, with the last
  /// value of each.
  public var optionValues: [String: String]
  /// The word being completed, without its quotes.
  public var prefix: String
}
