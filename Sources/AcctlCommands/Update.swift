// acctl update: changes some fields of a registered accessory's
// configuration, the way a companion calls AccessoryControlDevice.update.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import FoundationEssentials

extension Acctl {
  /// Changes an accessory's placement or audio sources.
  struct Update: Command {
    static let configuration = CommandConfiguration(
      abstract: "Change an accessory's placement or audio sources.",
      discussion: """
        Only the given fields change; 'none' clears one. The daemon checks \
        the change against the registration and applies the route before it \
        answers.
        """)

    static let signature: [ArgumentDefinition] = [
      Shared.accessory,
      .option(
        "placement", abstract: "Where the accessory is now.",
        allValues: Shared.placements + ["none"]),
      .option(
        "primary-source", valueName: "address",
        abstract: "The Bluetooth address of the primary audio source, or "
          + "none."
      ).completing(.values(["none"])),
      .option(
        "secondary-source", valueName: "address",
        abstract: "The Bluetooth address of the secondary audio source, or "
          + "none."
      ).completing(.values(["none"])),
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// What changes.
    var changes: AccessoryConfigurationChanges
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory", parseAccessory)
      let placement = arguments.value("placement").map {
        FieldChange(setting: AccessoryControlDevice.Placement(rawValue: $0))
      }
      let primary = try arguments.value("primary-source", parseAddressOrNone)
      let secondary = try arguments.value(
        "secondary-source", parseAddressOrNone)
      changes = AccessoryConfigurationChanges(
        placement: placement ?? .unchanged,
        primaryAudioSource: primary.map {
          FieldChange(setting: $0?.data)
        } ?? .unchanged,
        secondaryAudioSource: secondary.map {
          FieldChange(setting: $0?.data)
        } ?? .unchanged)
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func validate() throws {
      if changes.isEmpty {
        throw ValidationError(
          "Please provide at least one of '--placement', '--primary-source' "
            + "or '--secondary-source'.")
      }
    }

    func run() async throws {
      let request = AccessoryUpdateRequest(
        accessory: Acctl.selector(accessory), .changes(changes))
      let result = try Daemon(path: socket).call(request)
      try Daemon.show(
        result, of: AccessoryUpdateRequest.method, json: json,
        Rendering.accessory)
    }
  }
}
