// acctl status: one screen on the daemon, its sound server and files,
// the outputs and inputs, the streams, the accessories and the players.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Shows the daemon's status.
  struct Status: DaemonQuery {
    static let configuration = CommandConfiguration(
      abstract: "Show the daemon, outputs, streams, accessories and players.")

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print the status as JSON."),
      Shared.socket,
    ]

    static let request = DaemonOverviewRequest()

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    static func render(_ answer: DaemonOverview) -> String {
      Rendering.overview(answer)
    }
  }
}
