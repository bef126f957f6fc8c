// acctl discover: lists the devices that match a discovery descriptor.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Lists discovered devices, as AccessorySetupKit's picker would offer
  /// them, without authorizing any.
  struct Discover: Command {
    static let configuration = CommandConfiguration(
      abstract: "List the Bluetooth devices that match a descriptor.",
      discussion: """
        Devices come from BlueZ (advertisements, signal, pairing state) \
        and from the sound server's Bluetooth outputs. Without descriptor \
        options every device is listed; with --all, devices that do not \
        match are listed too, each with the rule it fails.
        """)

    static let signature: [ArgumentDefinition] =
      DescriptorOptions.definitions + [
        .flag("all", abstract: "Also list devices that do not match, and why."),
        Shared.json("the devices"),
        Shared.socket,
      ]

    /// The descriptor, or nil to match every device.
    var descriptor: ASDiscoveryDescriptor?
    /// Whether to list devices that do not match.
    var all: Bool
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      descriptor = try DescriptorOptions.parse(arguments)
      all = arguments.flag("all")
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      let daemon = Daemon(path: socket)
      let result = try daemon.call(
        DiscoveryListRequest(descriptors: descriptor.map { [$0] } ?? []))
      // Only the sound server's outputs when BlueZ could not be asked:
      // said beside the list, which stays what it is.
      if let notAsked = try daemon.blueZNotAsked() {
        Output.error(
          "Note: \(notAsked) (acctl doctor says why); only the sound "
            + "server's outputs are listed")
      }
      guard case .array(let devices)? = result["devices"] else {
        Output.print(Rendering.json(result))
        return
      }
      let shown = devices.filter {
        all || Rendering.bool($0["matches"]) != false
      }
      if json {
        Output.print(Rendering.json(.array(shown)))
      } else {
        Output.print(
          Rendering.devices(shown, explainMismatches: all, header: true))
      }
    }
  }
}
