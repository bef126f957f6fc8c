// acctl status: one screen on the daemon, its sound server and files,
// the outputs and inputs, the streams, the accessories and the players.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Shows the one-screen overview.
  struct Status: Command {
    static let configuration = CommandConfiguration(
      abstract: "Show the daemon, outputs, streams, accessories and players.")

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print the status as JSON."),
      Shared.socket,
    ]

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    init(arguments: inout ArgumentCursor) throws {
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    /// Asks for the overview; a daemon older than acctl, which has only
    /// `daemon.status`, gets its status shown and a word on restarting it.
    func run() async throws {
      let daemon = Daemon(path: socket)
      if let overview = try daemon.callIfKnown(DaemonOverviewRequest()) {
        try Daemon.show(
          overview, of: DaemonOverviewRequest.method, json: json,
          Rendering.overview)
        return
      }
      let status = try daemon.call(DaemonStatusRequest())
      try Daemon.show(
        status, of: DaemonStatusRequest.method, json: json, Rendering.status)
      Output.error(Daemon.olderDaemon)
    }
  }
}
