import Foundation
import TestSupport

/// A command line the benchmark does not understand.
public struct UsageError: Error, CustomStringConvertible {
  /// What is wrong with the command line.
  public var description: String

  /// Creates an error that says what is wrong with the command line.
  public init(_ description: String) {
    self.description = description
  }
}

extension ArraySlice where Element == String {
  /// Takes the value of an option that needs a positive number.
  ///
  /// - Throws: ``UsageError`` if the next argument is missing or not a
  ///   positive number.
  public mutating func popPositiveNumber(
    after option: String
  ) throws(UsageError) -> Int {
    guard let text = popFirst(), let value = Int(text), value > 0 else {
      throw UsageError("\(option) needs a positive number")
    }
    return value
  }

  /// Takes the value of an option that names a server, such as `--server`.
  ///
  /// - Throws: ``UsageError`` if the next argument is missing or names no
  ///   server kind.
  public mutating func popServerKind(
    after option: String
  ) throws(UsageError) -> SoundServerKind {
    guard let name = popFirst() else {
      throw UsageError("\(option) needs a value")
    }
    guard
      let kind = SoundServerKind.allCases.first(where: {
        $0.identifier == name.lowercased()
      })
    else {
      throw UsageError("unknown server '\(name)'")
    }
    return kind
  }

  /// Takes the value of an option, which must not look like an option.
  ///
  /// - Parameter what: What the option needs, such as `a value`.
  /// - Throws: ``UsageError`` if the next argument is missing or starts
  ///   with `-`.
  public mutating func popValue(
    after option: String, what: String = "a value"
  ) throws(UsageError) -> String {
    guard let value = popFirst(), !value.hasPrefix("-") else {
      throw UsageError("\(option) needs \(what)")
    }
    return value
  }
}

extension SoundServerKind {
  /// The server's name in machine-readable output: `pulseaudio` or
  /// `pipewire`.
  public var identifier: String { description.lowercased() }
}

/// A benchmark's options, as its command line gives them.
public protocol CommandLineOptions {
  /// The text that `--help` and a bad command line print.
  static var usage: String { get }

  /// Parses the arguments, without the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Self

  /// Whether to print the usage and stop.
  var showsHelp: Bool { get }
}

extension CommandLineOptions {
  /// Parses the process's arguments, or ends the process.
  ///
  /// On a bad command line it writes the problem and the usage to standard
  /// error and exits with 2; for `--help` it prints the usage and exits
  /// with 0.
  ///
  /// - Parameter program: The name the problem is reported under.
  public static func parseCommandLine(program: String) -> Self {
    let options: Self
    do {
      options = try parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(
        Data("\(program): \(error)\n\(usage)\n".utf8))
      exit(2)
    }
    if options.showsHelp {
      print(usage)
      exit(0)
    }
    return options
  }
}
