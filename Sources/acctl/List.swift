// acctl list: shows every paired accessory, sorted by address.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Lists the paired accessories.
  struct List: Command {
    static let configuration = CommandConfiguration(
      abstract: "List the paired accessories.")

    static let signature: [ArgumentDefinition] = [
      Shared.json("the accessories"),
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
      let result = try Daemon(path: socket).call("accessory.list")
      try Daemon.show(result, of: "accessory.list", json: json) {
        (list: DaemonAccessoryList) in
        Rendering.accessoryList(list.accessories)
      }
    }
  }
}
