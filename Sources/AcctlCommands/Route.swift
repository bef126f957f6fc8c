// acctl route: shows the output accessoryd chose and, with --explain, why;
// with --history, the last decisions that changed the route.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Shows the current route.
  struct Route: Command {
    static let configuration = CommandConfiguration(
      abstract: "Show the output accessoryd chose and why.")

    static let signature: [ArgumentDefinition] = [
      .argument(
        "count", abstract: "With --history, how many decisions (1 to 100).",
        isOptional: true),
      .flag(
        "explain",
        abstract: "Explain the decision that last moved the output, rule by "
          + "rule."),
      .flag(
        "history",
        abstract: "List the last decisions that changed the route, newest "
          + "first (10 unless <count> says)."),
      Shared.json("the route"),
      Shared.socket,
    ]

    /// Whether to ask for the explanation.
    var explain: Bool
    /// Whether to list the history.
    var history: Bool
    /// How many decisions of the history.
    var count: Int
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      explain = arguments.flag("explain")
      history = arguments.flag("history")
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
      let countText = arguments.value("count")
      count = 10
      if let countText {
        guard history else {
          throw ValidationError(
            "'\(countText)' is a count of decisions; it goes with --history")
        }
        guard let number = Int(countText), (1...100).contains(number) else {
          throw ValidationError(
            "The value '\(countText)' is invalid for '<count>': expected a "
              + "whole number from 1 to 100")
        }
        count = number
      }
      if history, explain {
        throw ValidationError("Give --explain or --history, not both")
      }
    }

    func run() async throws {
      let daemon = Daemon(path: socket)
      if history {
        let result = try daemon.call(RouteHistoryRequest(limit: count))
        try Daemon.show(
          result, of: RouteHistoryRequest.method, json: json,
          Rendering.routeHistory)
        return
      }
      let result = try daemon.call(RouteGetRequest(explain: explain))
      try Daemon.show(result, of: RouteGetRequest.method, json: json) {
        (route: RouteReport) in
        Rendering.route(route, explain: explain)
      }
    }
  }
}
