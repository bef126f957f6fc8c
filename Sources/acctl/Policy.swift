// acctl policy: checks a policy file and shows the policy in use.

import AccessoryControl
import CommandLineKit
import Foundation

extension Acctl {
  /// Groups the policy subcommands.
  struct Policy: Command {
    static let configuration = CommandConfiguration(
      abstract: "Check a policy file or show the policy in use.",
      subcommands: [Check.self, Show.self])

    init(arguments: inout ArgumentCursor) throws {}
  }
}

extension Acctl.Policy {
  /// Asks the daemon to load a policy file without using it.
  struct Check: Command {
    static let configuration = CommandConfiguration(
      abstract: "Check a policy file without using it.",
      discussion: """
        The daemon reads the file, so acctl sends its absolute path. Fails \
        with exit code 78 when the policy is not valid.
        """)

    static let signature: [ArgumentDefinition] = [
      .argument("file", abstract: "The policy file to check."),
      .flag("json", abstract: "Print the result as JSON."),
      Acctl.Shared.socket,
    ]

    /// The policy file, absolute.
    var path: String
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      let file = try arguments.required("file")
      path = URL(fileURLWithPath: file).standardizedFileURL.path
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: socket).call(
        "policy.check", .object(["path": .string(path)]))
      if json {
        Output.print(Rendering.json(result))
        return
      }
      let checked = result["path"]?.stringValue ?? path
      let description = result["description"]?.stringValue ?? ""
      Output.print(
        description.isEmpty
          ? "'\(checked)' is a valid policy."
          : "'\(checked)' is a valid policy: \(description)")
    }
  }

  /// Prints the policy the daemon uses.
  struct Show: Command {
    static let configuration = CommandConfiguration(
      abstract: "Print the policy in use, as the daemon loaded it.")

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print the path, description and text as JSON."),
      Acctl.Shared.socket,
    ]

    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: socket).call("policy.show")
      Output.print(
        json
          ? Rendering.json(result)
          : Rendering.trimmingTrailingNewlines(
            result["text"]?.stringValue ?? ""))
    }
  }
}
