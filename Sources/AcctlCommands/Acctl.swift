// acctl: the command line of accessoryd. Each subcommand calls one method
// of the daemon's control socket and prints its answer as text or JSON.
// The commands are a library, so that the fuzzer parses the same tree the
// tool does; Sources/acctl holds only the entry point.

import CommandLineKit

/// The `acctl` command: pairs, registers and updates accessories, and shows
/// the route accessoryd chose and why.
public struct Acctl: Command {
  /// The version `acctl --version` prints.
  public static let version = "0.1.0"

  /// The tool's name, abstract, version and subcommands.
  public static let configuration = CommandConfiguration(
    abstract: "Control accessoryd, the automatic audio output switcher.",
    version: version,
    subcommands: [
      Discover.self, Pair.self, Unpair.self, Rename.self, Register.self,
      Update.self, Current.self,
      List.self, Route.self, Players.self, Events.self, Policy.self,
      Status.self,
    ])

  /// Creates the root command, which takes no options of its own.
  public init(arguments: inout ArgumentCursor) throws {}
}
