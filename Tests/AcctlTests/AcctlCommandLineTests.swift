// Golden tests of the acctl binary without a daemon: help, version, usage
// errors (exit 64) and an unreachable daemon (exit 69). Each compares the
// whole standard output, standard error and exit status.

import Foundation
import TestSupport
import Testing

private let updateUsage = """
  Usage: acctl update <accessory> [--placement <placement>]
         [--primary-source <address>] [--secondary-source <address>] [--json]
         [--socket <path>]
    See 'acctl update --help' for more information.

  """

@Suite struct AcctlCommandLineTests {
  static let rootHelp = """
    OVERVIEW: Control accessoryd, the automatic audio output switcher.

    Every subcommand that asks the daemon takes --socket <path>: the daemon's
    control socket (default: $ACCESSORYD_SOCKET, else
    $XDG_RUNTIME_DIR/accessoryd/control.sock); those that print take --json too.

    USAGE: acctl <subcommand> [--json] [--socket <path>]

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      discover                List the Bluetooth devices that match a descriptor.
      pair                    Authorize a Bluetooth accessory for accessoryd.
      unpair                  Unpair an accessory and invalidate its registration.
      rename                  Give a paired accessory a new display name.
      register                Register an accessory with its capabilities.
      update                  Change an accessory's placement or audio sources.
      current                 Show an accessory's registration and configuration.
      list                    List the paired accessories.
      route                   Show the output accessoryd chose and why.
      output                  List the outputs and inputs, choose one, or forget the
                              choice.
      players                 List the media players of the session and what they
                              play.
      events                  Print events as they happen, until interrupted.
      policy                  Check a policy file, show the policy in use, reload
                              it, or change a switch while the daemon runs.
      status                  Show the daemon, outputs, streams, accessories and
                              players.
      doctor                  Check the daemon and what it needs, with fixes.

      See 'acctl help <subcommand>' for detailed help.

    EXIT STATUS:
      0   done
      1   the daemon failed for another reason
      2   the accessory lacks the capability the change needs
      3   the daemon refused the request: no such accessory, a bad value
      4   the registration was invalidated
      5   acctl doctor found a problem
      64  a bad command line
      69  the daemon is not running, does not answer, or is busy
      77  the socket belongs to another user
      78  a bad policy file

    """

  static let updateHelp = """
    OVERVIEW: Change an accessory's placement or audio sources.

    Only the given fields change; 'none' clears one. The daemon checks the change
    against the registration and applies the route before it answers.

    USAGE: acctl update <accessory> [--placement <placement>]
           [--primary-source <address>] [--secondary-source <address>] [--json]
           [--socket <path>]

    ARGUMENTS:
      <accessory>             A Bluetooth address or a display name.

    OPTIONS:
      --placement <placement> Where the accessory is now. (values: inEar, onHead,
                              overTheEar, offHead, none)
      --primary-source <address>
                              The Bluetooth address of the primary audio source, or
                              none.
      --secondary-source <address>
                              The Bluetooth address of the secondary audio source,
                              or none.
      --json                  Print the accessory as JSON.
      --socket <path>         The daemon's socket, instead of $ACCESSORYD_SOCKET or
                              the default.
      -h, --help              Show help information.

    """

  @Test func rootHelp() async throws {
    let expected = Transcript(output: Self.rootHelp, error: "", status: 0)
    #expect(try await acctl("--help") == expected)
    #expect(try await acctl("-h") == expected)
    #expect(try await acctl("help") == expected)
    #expect(try await acctl() == expected)
  }

  @Test func updateHelp() async throws {
    let expected = Transcript(output: Self.updateHelp, error: "", status: 0)
    #expect(try await acctl("update", "--help") == expected)
    #expect(try await acctl("update", "Studio Buds", "-h") == expected)
    #expect(try await acctl("help", "update") == expected)
  }

  @Test func policyHelpListsItsSubcommands() async throws {
    let expected = """
      OVERVIEW: Check a policy file, show the policy in use, reload it, or change a
      switch while the daemon runs.

      USAGE: acctl policy <subcommand>

      OPTIONS:
        -h, --help              Show help information.

      SUBCOMMANDS:
        check                   Check a policy file without using it.
        show                    Print the policy in use, as the daemon loaded it.
        reload                  Have the daemon read its policy again, and say which
                                file.
        set                     Turn a switch of the policy on or off while the daemon
                                runs.

        See 'acctl help policy <subcommand>' for detailed help.

      """
    #expect(
      try await acctl("policy", "--help")
        == Transcript(output: expected, error: "", status: 0))
    #expect(try await acctl("policy").output == expected)
    #expect(
      try await acctl("help", "policy", "check").output.hasPrefix(
        "OVERVIEW: Check a policy file without using it.\n"))
  }

  @Test func version() async throws {
    #expect(
      try await acctl("--version")
        == Transcript(output: "accessoryd 0.1.0\n", error: "", status: 0))
    // The same line as the daemon's.
    let daemon = try await runProgram(
      try builtProduct("accessoryd").path, ["--version"],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(daemon.stdout == "accessoryd 0.1.0\n")
  }

  @Test("Output that cannot be written is an error, not a success")
  func outputThatCannotBeWritten() async throws {
    let acctl = try builtProduct("acctl").path
    let policy = FileManager.default.temporaryDirectory
      .appendingPathComponent("acctl-output-\(UUID().uuidString).json5").path
    try "{ version: 1 }".write(
      toFile: policy, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: policy) }
    let full = try await runProgram(
      "/bin/sh", ["-c", "'\(acctl)' policy check '\(policy)' >/dev/full"],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(full.status == 1, "\(full)")
    #expect(
      full.stderr.hasPrefix("Error: cannot write the output: "), "\(full)")
  }

  @Test(
    arguments: [
      (
        ["update", "Studio Buds", "--foo"],
        "Error: Unknown option '--foo'\n" + updateUsage
      ),
      (
        ["output", "chose", "speaker"],
        "Error: Unexpected argument 'chose'; did you mean 'choose'?\n"
          + "Usage: acctl output <subcommand>\n"
          + "  See 'acctl output --help' for more information.\n"
      ),
      (
        ["update", "Studio Buds", "--placment", "inEar"],
        "Error: Unknown option '--placment'; did you mean '--placement'?\n"
          + updateUsage
      ),
      (
        ["update"],
        "Error: Missing expected argument '<accessory>'\n" + updateUsage
      ),
      (
        ["update", "Studio Buds", "--placement", "inTheAir"],
        "Error: The value 'inTheAir' is invalid for '--placement': expected "
          + "one of inEar, onHead, overTheEar, offHead, none\n" + updateUsage
      ),
      (
        ["update", "Studio Buds", "--primary-source", "12:34:56"],
        "Error: The value '12:34:56' is invalid for '--primary-source': "
          + "expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF', or "
          + "none\n" + updateUsage
      ),
      (
        ["update", "Studio Buds"],
        "Error: Please provide at least one of '--placement', "
          + "'--primary-source' or '--secondary-source'.\n" + updateUsage
      ),
      (
        ["update", "Studio Buds", "--placement"],
        "Error: Missing value for '--placement <placement>'\n" + updateUsage
      ),
      (
        ["update", "Studio Buds", "extra", "--placement", "inEar"],
        "Error: Unexpected argument 'extra'\n" + updateUsage
      ),
      (
        ["pair", "AA:BB:CC:DD:EE:GG"],
        """
        Error: The value 'AA:BB:CC:DD:EE:GG' is invalid for '<address>': \
        expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF'
        Usage: acctl pair [<address>] [--select <address>] [--name <name>] [--migrate]
               [--service-uuid <uuid>] [--company-id <id>] [--name-substring <text>]
               [--manufacturer-data <hex>] [--manufacturer-mask <hex>]
               [--service-data <hex>] [--service-data-mask <hex>] [--range <range>]
               [--descriptor <file>] [--json] [--socket <path>]
          See 'acctl pair --help' for more information.

        """
      ),
      (
        ["register", "Studio Buds", "--capabilities", "audioSwitching,fly"],
        """
        Error: The value 'audioSwitching,fly' is invalid for \
        '--capabilities': 'fly' is not a capability; expected a \
        comma-separated list of audioSwitching, placement
        Usage: acctl register <accessory> --capabilities <capabilities>
               [--placement <placement>] [--primary-source <address>]
               [--secondary-source <address>] [--placement-source <source>] [--json]
               [--socket <path>]
          See 'acctl register --help' for more information.

        """
      ),
      (
        ["register", "Studio Buds", "--placement", "none"],
        """
        Error: The value 'none' is invalid for '--placement': expected one \
        of inEar, onHead, overTheEar, offHead
        Usage: acctl register <accessory> --capabilities <capabilities>
               [--placement <placement>] [--primary-source <address>]
               [--secondary-source <address>] [--placement-source <source>] [--json]
               [--socket <path>]
          See 'acctl register --help' for more information.

        """
      ),
      (
        ["frobnicate"],
        """
        Error: Unexpected argument 'frobnicate'
        Usage: acctl <subcommand> [--json] [--socket <path>]
          See 'acctl --help' for more information.

        """
      ),
      (
        ["list", "--json=yes"],
        """
        Error: The option '--json' does not take any value, but 'yes' was \
        specified.
        Usage: acctl list [--all] [--json] [--socket <path>]
          See 'acctl list --help' for more information.

        """
      ),
    ])
  func usageError(arguments: [String], message: String) async throws {
    // The socket does not exist: a usage error must stop acctl before it
    // tries to connect.
    #expect(
      try await acctl(arguments + ["--socket", "/nonexistent/x.sock"])
        == Transcript(output: "", error: message, status: 64))
  }

  @Test func daemonUnreachable() async throws {
    let expected = Transcript(
      output: "",
      error: """
        Error: accessoryd is not running: cannot connect to \
        '/nonexistent/x.sock' (No such file or directory); start it with \
        'accessoryd' or 'systemctl --user start accessoryd', or point to its \
        socket with --socket or ACCESSORYD_SOCKET

        """,
      status: 69)
    #expect(
      try await acctl("status", "--socket", "/nonexistent/x.sock") == expected)
    #expect(
      try await acctl("list", "--socket=/nonexistent/x.sock", "--json")
        == expected)
    #expect(
      try await acctl(
        ["status"], environment: ["ACCESSORYD_SOCKET": "/nonexistent/x.sock"])
        == expected)
  }
}
