// acctl: the command line of accessoryd. Each subcommand calls one method
// of the daemon's control socket and prints its answer as text or JSON.

import CommandLineKit

/// The `acctl` command: pairs, registers and updates accessories, and shows
/// the route accessoryd chose and why.
@main
struct Acctl: Command {
  /// The version `acctl --version` prints.
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    abstract: "Control accessoryd, the automatic audio output switcher.",
    version: version,
    subcommands: [
      Discover.self, Pair.self, Unpair.self, Rename.self, Register.self,
      Update.self, Current.self,
      List.self, Route.self, Players.self, Events.self, Policy.self,
      Status.self,
    ])

  init(arguments: inout ArgumentCursor) throws {}
}
