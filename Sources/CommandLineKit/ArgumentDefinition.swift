// The declaration of one argument, option or flag of a command: what the
// parser accepts and what the help shows.

/// One positional argument, option or flag that a command accepts.
///
/// A command lists its definitions in ``Command/signature``; the parser
/// uses them to split the command line and the help generator to describe
/// it.
public struct ArgumentDefinition: Sendable, Hashable {
  /// The kinds of command-line input.
  public enum Kind: Sendable, Hashable {
    /// A value identified by its position, such as `<accessory>`.
    case positional
    /// A named value, such as `--placement inEar` or `--placement=inEar`.
    case option
    /// A name without a value, such as `--json`.
    case flag
  }

  /// Whether this is a positional argument, an option or a flag.
  public var kind: Kind
  /// The long name without dashes (`placement` for `--placement`), or the
  /// positional argument's value name.
  public var name: String
  /// The one-letter name, such as `n` for `-n`, if any.
  public var shortName: Character?
  /// The name of the value in help and messages (`<placement>`).
  public var valueName: String
  /// A one-line description for the help.
  public var abstract: String
  /// Whether the command line may leave it out.
  public var isOptional: Bool
  /// Every value the parser accepts; empty to accept any value.
  public var allValues: [String]
  /// What the shell offers for the value: by default the accepted values
  /// if they are listed, else nothing.
  public var completion: Completion = .none

  /// Declares a positional argument.
  ///
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`.
  ///   - abstract: A one-line description.
  ///   - isOptional: Whether the command line may leave it out.
  public static func argument(
    _ name: String, abstract: String, isOptional: Bool = false
  ) -> ArgumentDefinition {
    ArgumentDefinition(
      kind: .positional, name: name, shortName: nil, valueName: name,
      abstract: abstract, isOptional: isOptional, allValues: [])
  }

  /// Declares an option that takes a value.
  ///
  /// - Parameters:
  ///   - name: The long name without dashes.
  ///   - shortName: A one-letter name, if any.
  ///   - valueName: The value's name in help; nil uses `name`.
  ///   - abstract: A one-line description.
  ///   - isOptional: Whether the command line may leave it out.
  ///   - allValues: Every accepted value; empty to accept any value.
  public static func option(
    _ name: String,
    shortName: Character? = nil,
    valueName: String? = nil,
    abstract: String,
    isOptional: Bool = true,
    allValues: [String] = []
  ) -> ArgumentDefinition {
    var definition = ArgumentDefinition(
      kind: .option, name: name, shortName: shortName,
      valueName: valueName ?? name, abstract: abstract,
      isOptional: isOptional, allValues: allValues)
    if !allValues.isEmpty { definition.completion = .values(allValues) }
    return definition
  }

  /// Declares a flag.
  ///
  /// - Parameters:
  ///   - name: The long name without dashes.
  ///   - shortName: A one-letter name, if any.
  ///   - abstract: A one-line description.
  public static func flag(
    _ name: String, shortName: Character? = nil, abstract: String
  ) -> ArgumentDefinition {
    ArgumentDefinition(
      kind: .flag, name: name, shortName: shortName, valueName: name,
      abstract: abstract, isOptional: true, allValues: [])
  }

  /// The name in messages: `--placement` or `<accessory>`.
  public var displayName: String {
    kind == .positional ? "<\(valueName)>" : "--\(name)"
  }

  /// The argument as written in usage, without brackets:
  /// `--placement <placement>`, `--json` or `<accessory>`.
  public var synopsis: String {
    switch kind {
    case .positional: "<\(valueName)>"
    case .option: "--\(name) <\(valueName)>"
    case .flag: "--\(name)"
    }
  }

  /// The label in the help's list: `-n, --name <name>`.
  var helpLabel: String {
    guard let shortName else { return synopsis }
    return "-\(shortName), " + synopsis
  }

  /// The abstract followed by the accepted values, if they are listed.
  var helpAbstract: String {
    guard !allValues.isEmpty else { return abstract }
    let values = "(values: " + allValues.joined(separator: ", ") + ")"
    return abstract.isEmpty ? values : abstract + " " + values
  }
}
