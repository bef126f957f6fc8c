// acctl rename: gives a paired accessory a new name.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Renames an accessory (AccessorySetupKit's `renameAccessory`).
  struct Rename: Command {
    static let configuration = CommandConfiguration(
      abstract: "Give a paired accessory a new display name.")

    static let signature: [ArgumentDefinition] = [
      Shared.accessory,
      .argument("name", abstract: "The new name."),
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// The new name.
    var name: String
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory", parseAccessory)
      name = try arguments.required("name") { text in
        guard !text.isEmpty else {
          throw InvalidValue(description: "expected a name that is not empty")
        }
        return text
      }
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let request = DaemonAccessoryRenameRequest(
        accessory: Acctl.selector(accessory), name: name)
      let result = try Daemon(path: socket).call(request)
      try Daemon.show(
        result, of: DaemonAccessoryRenameRequest.method, json: json,
        Rendering.accessory)
    }
  }
}
