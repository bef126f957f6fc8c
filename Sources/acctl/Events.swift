// acctl events: prints the daemon's events as they arrive, until
// interrupted.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Follows the daemon's events.
  struct Events: Command {
    static let configuration = CommandConfiguration(
      abstract: "Print events as they happen, until interrupted.",
      discussion: """
        Each event is one line: text, or with --json one JSON object.
        """)

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print each event as a JSON object."),
      Shared.socket,
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
      let daemon = Daemon(path: socket)
      _ = try daemon.call("events.subscribe")
      while true {
        let notification = try daemon.nextNotification()
        guard notification.method == "event", let event = notification.params
        else { continue }
        Output.print(
          json ? Rendering.compactJSON(event) : Rendering.event(event))
      }
    }
  }
}
