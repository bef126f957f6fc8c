// acctl status: shows the daemon's version, the sound server and the
// paths in use.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Shows the daemon's status.
  struct Status: Command {
    static let configuration = CommandConfiguration(
      abstract: "Show the daemon, its sound server and its files.")

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print the status as JSON."),
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
      let result = try Daemon(path: socket).call("daemon.status")
      try Daemon.show(
        result, of: "daemon.status", json: json, Rendering.status)
    }
  }
}
