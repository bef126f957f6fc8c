// acctl policy: checks a policy file, shows the policy in use, and has the
// daemon read it again.

import AccessoryControl
import CommandLineKit
import FoundationEssentials
import RoutingCore

extension Acctl {
  /// Groups the policy subcommands.
  struct Policy: Command {
    static let configuration = CommandConfiguration(
      abstract: "Check a policy file, show the policy in use, or reload it.",
      subcommands: [Check.self, Show.self, Reload.self])

    init(arguments: inout ArgumentCursor) throws {}
  }
}

extension Acctl.Policy {
  /// Loads a policy file as the daemon would, without using it.
  struct Check: Command {
    static let configuration = CommandConfiguration(
      abstract: "Check a policy file without using it.",
      discussion: """
        Reads the file with the daemon's own policy loader, so the daemon \
        need not run, and names its absolute path. Fails with exit code 78 \
        when the policy is not valid, with the message the daemon would \
        give (the key path of the bad value and what is allowed).
        """)

    static let signature: [ArgumentDefinition] = [
      .argument("file", abstract: "The policy file to check.")
        .completing(.file),
      .flag("json", abstract: "Print the path and description as JSON."),
      // Accepted like on every command, so wrappers can always pass it;
      // the check itself does not need the daemon.
      Acctl.Shared.socket,
    ]

    /// The policy file, absolute.
    var path: String
    /// Whether to print JSON.
    var json: Bool

    init(arguments: inout ArgumentCursor) throws {
      let file = try arguments.required("file")
      path = URL(fileURLWithPath: file).standardizedFileURL.path
      json = arguments.flag("json")
      _ = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let policy: RoutingCore.Policy
      do {
        policy = try PolicyLoader.load(contentsOf: URL(fileURLWithPath: path))
      } catch {
        Output.error("Error: \(error.description)")
        throw ExitCode(.configuration)
      }
      if json {
        Output.print(
          Rendering.json(
            .object([
              "path": .string(path),
              "description": .string(policy.description),
            ])))
        return
      }
      Output.print(
        policy.description.isEmpty
          ? "'\(path)' is a valid policy."
          : "'\(path)' is a valid policy: \(policy.description)")
    }
  }

  /// Prints the policy the daemon uses.
  struct Show: Command {
    static let configuration = CommandConfiguration(
      abstract: "Print the policy in use, as the daemon loaded it.")

    static let signature = Acctl.JSONAndSocket.signature(
      printing: "the path, description and text")

    /// Whether to print JSON, and the daemon's socket.
    var options: Acctl.JSONAndSocket
    var json: Bool { options.json }

    init(arguments: inout ArgumentCursor) throws {
      options = Acctl.JSONAndSocket(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: options.socket).call(PolicyShowRequest())
      Output.print(
        json
          ? Rendering.json(result)
          : Rendering.trimmingTrailingNewlines(
            result["text"]?.stringValue ?? ""))
    }
  }

  /// Has the daemon read its policy again, as SIGHUP does.
  struct Reload: Command {
    static let configuration = CommandConfiguration(
      abstract: "Have the daemon read its policy again, and say which file.",
      discussion: """
        The same as SIGHUP (systemctl --user reload accessoryd). Without a \
        --policy of its own, the daemon looks afresh for \
        $XDG_CONFIG_HOME/accessoryd/policy.json5: a file made there since \
        it started is read, and without one it uses the built-in default. \
        A policy that is not valid is refused with exit code 78 and the \
        daemon keeps the one it has.
        """)

    static let signature = Acctl.JSONAndSocket.signature(
      printing: "the path and description")

    /// Whether to print JSON, and the daemon's socket.
    var options: Acctl.JSONAndSocket

    init(arguments: inout ArgumentCursor) throws {
      options = Acctl.JSONAndSocket(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: options.socket).call(PolicyReloadRequest())
      if options.json {
        Output.print(Rendering.json(result))
        return
      }
      let description = result["description"]?.stringValue ?? ""
      let source =
        result["path"]?.stringValue.map { "'\($0)'" }
        ?? "the built-in default policy"
      Output.print(
        "Policy reloaded: the daemon uses \(source)"
          + (description.isEmpty ? "." : ": \(description)"))
    }
  }
}
