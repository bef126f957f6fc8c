// acctl policy: checks a policy file, shows the policy in use, and has the
// daemon read it again.

import AccessoryControl
import CommandLineKit
import FoundationEssentials
import PolicyFiles
import RoutingCore

extension Acctl {
  /// Groups the policy subcommands.
  struct Policy: Command {
    static let configuration = CommandConfiguration(
      abstract:
        "Check a policy file, show the policy in use, reload it, or change "
        + "a switch while the daemon runs.",
      subcommands: [Check.self, Show.self, Reload.self, Set.self])

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
            result["text"]?.stringValue ?? "")
            + Acctl.Policy.settingsNote(result))
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
          + (description.isEmpty ? "." : ": \(description)")
          + Acctl.Policy.settingsNote(result))
    }
  }
}

extension Acctl.Policy {
  /// The switches changed while the daemon runs, as comment lines after
  /// the policy, or nothing when there are none.
  static func settingsNote(_ result: JSONValue) -> String {
    guard case .object(let settings)? = result["settings"], !settings.isEmpty
    else { return "" }
    var lines = [
      "",
      "// Changed while accessoryd runs (acctl policy set KEY default undoes "
        + "one), over the file:",
    ]
    for key in settings.keys.sorted() {
      let value: String
      if case .bool(let flag)? = settings[key] {
        value = flag ? "true" : "false"
      } else {
        value = "?"
      }
      lines.append("//   \(key): \(value)")
    }
    return lines.joined(separator: "\n")
  }
}

extension Acctl.Policy {
  /// Changes a switch of the policy while the daemon runs, as the tray's
  /// "Pause when taken off" does.
  struct Set: Command {
    static let configuration = CommandConfiguration(
      abstract: "Turn a switch of the policy on or off while the daemon runs.",
      discussion: """
        Changes a true-or-false setting, such as media.pauseWhenTakenOff, \
        over what the policy file says. The change is kept in the state \
        directory's settings.json: it outlasts restarts and reloads until \
        it is set again; 'default' goes back to the policy file's value. \
        acctl policy show --json lists the settings changed this way. A \
        key that is not a switch is refused with exit code 3.
        """)

    static let signature: [ArgumentDefinition] =
      [
        .argument(
          "key", abstract: "The setting, such as media.pauseWhenTakenOff."
        )
        .completing(.values(PolicySchema.switches.map(\.key))),
        .argument("value", abstract: "on, off or default (also true, false).")
          .completing(.values(["on", "off", "default"])),
      ] + Acctl.JSONAndSocket.signature(printing: "the policy and its settings")

    /// The key path.
    var key: String
    /// The value; nil for the policy file's.
    var value: Bool?
    /// Whether to print JSON, and the daemon's socket.
    var options: Acctl.JSONAndSocket

    init(arguments: inout ArgumentCursor) throws {
      key = try arguments.required("key")
      value = try arguments.required("value") { text -> Bool? in
        switch text.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        case "default": return nil
        default:
          throw InvalidValue(description: "expected on, off or default")
        }
      }
      options = Acctl.JSONAndSocket(arguments)
    }

    func run() async throws {
      let daemon = Daemon(path: options.socket)
      let answer = try daemon.call(
        PolicySetRequest(key: key, value: value), answering: [.invalidParams])
      guard case .success(let result) = answer else {
        // A mistyped key: the switch it most likely means, first.
        if case .failure(let refusal) = answer,
          PolicySchema.setting(key) == nil,
          let meant = suggestion(
            for: key, among: PolicySchema.switches.map(\.key))
        {
          Output.error(
            "Error: \(key): is not a setting; did you mean \(meant)?")
          throw Daemon.exitCode(forCode: refusal.code)
        }
        if case .failure(let refusal) = answer { throw daemon.fail(refusal) }
        return
      }
      if options.json {
        Output.print(Rendering.json(result))
        return
      }
      Output.print(
        value.map { "\(key) is \($0 ? "on" : "off") until it is set again." }
          ?? "\(key) follows the policy file again.")
    }
  }
}
