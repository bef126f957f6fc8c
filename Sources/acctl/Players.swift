// acctl players: the media players of the session that accessoryd follows,
// what each is doing, and the streams it plays where.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Lists the media players.
  struct Players: Command {
    static let configuration = CommandConfiguration(
      abstract: "List the media players of the session and what they play.")

    static let signature: [ArgumentDefinition] = [
      Shared.json("the players"),
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
      let result = try Daemon(path: socket).call("media.players")
      try Daemon.show(
        result, of: "media.players", json: json, Rendering.players)
    }
  }
}
