// acctl current: shows one accessory and its registration, as
// AccessoryControlDevice.current(for:) sees it.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Shows an accessory's registration and configuration.
  struct Current: Command {
    static let configuration = CommandConfiguration(
      abstract: "Show an accessory's registration and configuration.",
      discussion: """
        Fails with exit code 3 when the accessory is not registered and 4 \
        when its registration was invalidated.
        """)

    static let signature: [ArgumentDefinition] = [
      Shared.accessory,
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory", parseAccessory)
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let request = DaemonAccessoryCurrentRequest(
        accessory: Acctl.selector(accessory))
      let result = try Daemon(path: socket).call(request)
      try Daemon.show(
        result, of: DaemonAccessoryCurrentRequest.method, json: json,
        Rendering.accessory)
    }
  }
}
