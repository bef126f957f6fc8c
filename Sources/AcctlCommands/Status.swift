// acctl status: shows the daemon's version, the sound server and the
// paths in use.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Shows the daemon's status.
  struct Status: DaemonQuery {
    static let configuration = CommandConfiguration(
      abstract: "Show the daemon, its sound server and its files.")

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print the status as JSON."),
      Shared.socket,
    ]

    static let request = DaemonStatusRequest()

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    static func render(_ answer: DaemonStatus) -> String {
      Rendering.status(answer)
    }
  }
}
