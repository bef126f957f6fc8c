// acctl pair: pairs an accessory by its Bluetooth address.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Pairs an accessory, the step AccessorySetupKit's picker does on
  /// Apple's platforms.
  struct Pair: Command {
    static let configuration = CommandConfiguration(
      abstract: "Pair an accessory by its Bluetooth address.",
      discussion: """
        The sound server must have an output that carries the address. \
        Without --name, the accessory takes the output's description as its \
        name.
        """)

    static let signature: [ArgumentDefinition] = [
      .argument("address", abstract: "The accessory's Bluetooth address."),
      .option("name", abstract: "The name to show for the accessory."),
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory's address.
    var address: BluetoothAddress
    /// The display name, or nil for the output's description.
    var name: String?
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      address = try arguments.required("address", parseAddress)
      name = try arguments.value("name") { text in
        guard !text.isEmpty else {
          throw InvalidValue(description: "expected a name that is not empty")
        }
        return text
      }
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      var params: [String: JSONValue] = ["address": .string("\(address)")]
      if let name { params["name"] = .string(name) }
      let result = try Daemon(path: socket).call(
        "accessory.pair", .object(params))
      Output.print(json ? Rendering.json(result) : Rendering.accessory(result))
    }
  }
}
