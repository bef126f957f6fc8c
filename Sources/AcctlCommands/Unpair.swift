// acctl unpair: removes an accessory and invalidates its registration.

import AccessoryControl
import CommandLineKit

extension Acctl {
  /// Unpairs an accessory.
  struct Unpair: Command {
    static let configuration = CommandConfiguration(
      abstract: "Unpair an accessory and invalidate its registration.")

    static let signature: [ArgumentDefinition] = [
      Shared.accessory,
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory", parseAccessory)
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      _ = try Daemon(path: socket).call(
        AccessoryUnpairRequest(accessory: Acctl.selector(accessory)))
      Output.print("Unpaired '\(accessory)'.")
    }
  }
}
