// acctl: the command line of accessoryd. Each subcommand calls one method
// of the daemon's control socket and prints its answer as text or JSON.
// The commands are a library, so that the fuzzer parses the same tree the
// tool does; Sources/acctl holds only the entry point.

import AccessoryControl
import CommandLineKit

/// The `acctl` command: pairs, registers and updates accessories, and shows
/// the route accessoryd chose and why.
public struct Acctl: Command {
  /// The version `acctl --version` prints, the same line as the daemon's.
  public static let version = ProjectVersion.line

  /// The tool's name, abstract, version and subcommands.
  public static let configuration = CommandConfiguration(
    abstract: "Control accessoryd, the automatic audio output switcher.",
    usage: "<subcommand> [--json] [--socket <path>]",
    discussion: """
      Every subcommand that asks the daemon takes --socket <path>: the \
      daemon's control socket (default: $ACCESSORYD_SOCKET, else \
      $XDG_RUNTIME_DIR/accessoryd/control.sock); those that print take \
      --json too.
      """,
    version: version,
    subcommands: [
      Discover.self, Pair.self, Unpair.self, Rename.self, Register.self,
      Update.self, Current.self,
      List.self, Route.self, Outputs.self, Players.self, Events.self,
      Policy.self, Status.self, Doctor.self,
    ],
    exitStatuses: [
      ExitStatusMeaning(.success, "done"),
      ExitStatusMeaning(.failure, "the daemon failed for another reason"),
      ExitStatusMeaning(
        .accessoryNotCapable,
        "the accessory lacks the capability the change needs"),
      ExitStatusMeaning(
        .requestRefused,
        "the daemon refused the request: no such accessory, a bad value"),
      ExitStatusMeaning(.invalidated, "the registration was invalidated"),
      ExitStatusMeaning(.problemFound, "acctl doctor found a problem"),
      ExitStatusMeaning(.usage, "a bad command line"),
      ExitStatusMeaning(
        .unavailable, "the daemon is not running, does not answer, or is busy"),
      ExitStatusMeaning(.noPermission, "the socket belongs to another user"),
      ExitStatusMeaning(.configuration, "a bad policy file"),
    ],
    manualSections: [
      ManualSection(
        "ENVIRONMENT",
        entries: [
          .init(
            "ACCESSORYD_SOCKET",
            "The daemon's socket, unless --socket says; else "
              + "$XDG_RUNTIME_DIR/accessoryd/control.sock."),
          .init(
            "ACCESSORYD_BLUETOOTH_CONFIG",
            "The BlueZ configuration acctl doctor reads for DeviceID; else "
              + "/etc/bluetooth/main.conf."),
        ]),
      ManualSection(
        "COMPLETION",
        paragraphs: [
          "acctl --generate-completion-script bash (or zsh, or fish) prints "
            + "the completion script of that shell; the package installs "
            + "all three. They offer subcommands, options, placements, "
            + "capabilities, and the names and addresses of the daemon's "
            + "accessories."
        ]),
      ManualSection(
        "SEE ALSO",
        paragraphs: ["accessoryd(8), accessoryd.policy(5)"]),
    ])

  /// Creates the root command, which takes no options of its own.
  public init(arguments: inout ArgumentCursor) throws {}
}
