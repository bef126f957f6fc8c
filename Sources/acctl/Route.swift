// acctl route: shows the output accessoryd chose and, with --explain, why.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Shows the current route.
  struct Route: Command {
    static let configuration = CommandConfiguration(
      abstract: "Show the output accessoryd chose and why.")

    static let signature: [ArgumentDefinition] = [
      .flag("explain", abstract: "Explain the decision, rule by rule."),
      Shared.json("the route"),
      Shared.socket,
    ]

    /// Whether to ask for the explanation.
    var explain: Bool
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      explain = arguments.flag("explain")
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let result = try Daemon(path: socket).call(
        "route.get", .object(["explain": .bool(explain)]))
      Output.print(
        json
          ? Rendering.json(result)
          : Rendering.route(result, explain: explain))
    }
  }
}
