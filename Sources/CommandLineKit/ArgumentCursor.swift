// Splits a command line against a command's signature and hands the values
// to the command's initializer, which converts them explicitly.

/// The words of a command line, split against a command's signature.
///
/// The parser creates a cursor for the command being run and passes it to
/// ``Command/init(arguments:)``, which reads each value by the name in its
/// ``ArgumentDefinition`` and converts it:
///
/// ```swift
/// init(arguments: inout ArgumentCursor) throws {
///   accessory = try arguments.required("accessory")
///   placement = try arguments.value("placement") { try Placement(text: $0) }
///   json = arguments.flag("json")
/// }
/// ```
///
/// A conversion that throws becomes the message
/// `The value 'x' is invalid for '--placement': <the error's description>`.
public struct ArgumentCursor: Sendable {
  /// The definitions the words were split against.
  public let signature: [ArgumentDefinition]
  private var given: [String: [String]] = [:]

  /// Splits words against a signature.
  ///
  /// Options are written `--name value` or `--name=value`, flags `--name`,
  /// and `--` makes every later word positional. `-h` or `--help` before
  /// `--` requests help.
  ///
  /// - Parameters:
  ///   - words: The words after the command's name.
  ///   - signature: The definitions the command accepts.
  /// - Throws: ``CleanExit/helpRequest`` when help is asked for, or a
  ///   parse error naming the word at fault.
  public init<Words: Collection<String>>(
    _ words: Words, signature: [ArgumentDefinition]
  ) throws {
    self.signature = signature
    let options = words.prefix { $0 != "--" }
    if options.contains(where: { $0 == "-h" || $0 == "--help" }) {
      throw CleanExit.helpRequest
    }
    var positionals: [String] = []
    var iterator = words.makeIterator()
    var terminated = false
    while let word = iterator.next() {
      if terminated || word == "-" || !word.hasPrefix("-") {
        positionals.append(word)
      } else if word == "--" {
        terminated = true
      } else if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let attached = body.firstIndex(of: "=").map {
          String(body[body.index(after: $0)...])
        }
        guard
          let definition = signature.first(where: {
            $0.kind != .positional && $0.name == name
          })
        else {
          throw ParserError.unknownOption(
            "--" + name,
            suggestion: suggestion(
              for: name,
              among: signature.filter { $0.kind != .positional }.map(\.name)
            ).map { "--" + $0 })
        }
        try take(definition, attached: attached, from: &iterator)
      } else {
        let letters = word.dropFirst()
        guard
          let definition = signature.first(where: {
            $0.kind != .positional && $0.shortName == letters.first
          }), definition.kind == .option || letters.count == 1
        else { throw ParserError.unknownOption(word) }
        let attached = letters.count > 1 ? String(letters.dropFirst()) : nil
        try take(definition, attached: attached, from: &iterator)
      }
    }
    let slots = signature.filter { $0.kind == .positional }
    if positionals.count > slots.count {
      throw ParserError.unexpectedArguments(
        Array(positionals[slots.count...]))
    }
    for (slot, value) in zip(slots, positionals) {
      given[slot.name] = [try Self.canonical(value, for: slot)]
    }
    for definition in signature
    where !definition.isOptional && given[definition.name] == nil {
      throw ParserError.missingArgument(definition)
    }
  }

  private mutating func take<Words: IteratorProtocol<String>>(
    _ definition: ArgumentDefinition, attached: String?,
    from words: inout Words
  ) throws {
    if definition.kind == .flag {
      if let attached {
        throw ParserError.unexpectedValue(
          option: definition.displayName, value: attached)
      }
      given[definition.name, default: []].append("")
      return
    }
    guard let value = attached ?? words.next(),
      attached != nil || value == "-" || !value.hasPrefix("-")
    else { throw ParserError.missingValue(definition) }
    given[definition.name, default: []].append(
      try Self.canonical(value, for: definition))
  }

  /// A value as the definition lists it: a listed value matches without
  /// regard to case (`inear` is `inEar`).
  private static func canonical(
    _ value: String, for definition: ArgumentDefinition
  ) throws -> String {
    guard !definition.allValues.isEmpty else { return value }
    if definition.allValues.contains(value) { return value }
    if let listed = definition.allValues.first(where: {
      $0.lowercased() == value.lowercased()
    }) {
      return listed
    }
    throw ParserError.invalidValue(
      value, definition,
      detail: "expected one of "
        + definition.allValues.joined(separator: ", "))
  }

  private func definition(_ name: String) -> ArgumentDefinition {
    guard let definition = signature.first(where: { $0.name == name }) else {
      preconditionFailure("'\(name)' is not in the command's signature")
    }
    return definition
  }

  // MARK: - Reading values

  /// Returns whether the command line gives a value or flag.
  ///
  /// - Parameter name: The definition's name.
  public func contains(_ name: String) -> Bool {
    _ = definition(name)
    return given[name] != nil
  }

  /// Returns whether a flag is set.
  ///
  /// - Parameter name: The flag's long name without dashes.
  public func flag(_ name: String) -> Bool {
    precondition(definition(name).kind == .flag, "'\(name)' is not a flag")
    return given[name] != nil
  }

  /// Returns the value of an option or positional argument; the last one
  /// when an option is repeated.
  ///
  /// - Parameter name: The definition's name.
  public func value(_ name: String) -> String? {
    precondition(definition(name).kind != .flag, "'\(name)' is a flag")
    return given[name]?.last
  }

  /// Returns every value given for an option, in order.
  ///
  /// - Parameter name: The option's long name without dashes.
  public func values(_ name: String) -> [String] {
    precondition(definition(name).kind != .flag, "'\(name)' is a flag")
    return given[name] ?? []
  }

  /// Returns the converted value of an option or positional argument, or
  /// nil when it is not given.
  ///
  /// - Parameters:
  ///   - name: The definition's name.
  ///   - transform: Converts the text; the description of the error it
  ///     throws says what was expected.
  /// - Throws: A parse error: `The value 'x' is invalid for '--name': …`.
  public func value<Value>(
    _ name: String, _ transform: (String) throws -> Value
  ) throws -> Value? {
    guard let text = value(name) else { return nil }
    do {
      return try transform(text)
    } catch let error as ParserError {
      throw error
    } catch {
      throw ParserError.invalidValue(
        text, definition(name), detail: String(describing: error))
    }
  }

  /// Returns the value of an option or positional argument that must be
  /// given.
  ///
  /// - Parameter name: The definition's name.
  /// - Throws: A parse error: `Missing expected argument '<name>'`.
  public func required(_ name: String) throws -> String {
    guard let text = value(name) else {
      throw ParserError.missingArgument(definition(name))
    }
    return text
  }

  /// Returns the converted value of an option or positional argument that
  /// must be given.
  ///
  /// - Parameters:
  ///   - name: The definition's name.
  ///   - transform: Converts the text; the description of the error it
  ///     throws says what was expected.
  /// - Throws: A parse error for a missing or invalid value.
  public func required<Value>(
    _ name: String, _ transform: (String) throws -> Value
  ) throws -> Value {
    guard let value = try value(name, transform) else {
      throw ParserError.missingArgument(definition(name))
    }
    return value
  }
}
