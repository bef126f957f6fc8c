// acctl players: the media players of the session that accessoryd follows,
// what each is doing, and the streams it plays where.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Lists the media players.
  struct Players: DaemonQuery {
    static let configuration = CommandConfiguration(
      abstract: "List the media players of the session and what they play.")

    static let signature: [ArgumentDefinition] = [
      Shared.json("the players"),
      Shared.socket,
    ]

    static let request = MediaPlayersRequest()

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    static func render(_ answer: MediaPlayerList) -> String {
      Rendering.players(answer)
    }
  }
}
