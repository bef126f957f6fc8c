// acctl list: shows every paired accessory, sorted by address.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Lists the paired accessories.
  struct List: DaemonQuery {
    static let configuration = CommandConfiguration(
      abstract: "List the paired accessories.")

    static let signature: [ArgumentDefinition] = [
      Shared.json("the accessories"),
      Shared.socket,
    ]

    static let method = "accessory.list"

    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    static func render(_ answer: DaemonAccessoryList) -> String {
      Rendering.accessoryList(answer.accessories)
    }
  }
}
