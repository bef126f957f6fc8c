// acctl update: changes some fields of a registered accessory's
// configuration, the way a companion calls AccessoryControlDevice.update.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

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
          + "none."),
      .option(
        "secondary-source", valueName: "address",
        abstract: "The Bluetooth address of the secondary audio source, or "
          + "none."),
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// The new placement: nil to keep it, `.some(nil)` to clear it.
    var placement: AccessoryControlDevice.Placement??
    /// The new primary source: nil to keep it, `.some(nil)` to clear it.
    var primarySource: BluetoothAddress??
    /// The new secondary source: nil to keep it, `.some(nil)` to clear it.
    var secondarySource: BluetoothAddress??
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory")
      placement = arguments.value("placement").map {
        AccessoryControlDevice.Placement(rawValue: $0)
      }
      primarySource = try arguments.value("primary-source", parseAddressOrNone)
      secondarySource = try arguments.value(
        "secondary-source", parseAddressOrNone)
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func validate() throws {
      if placement == nil, primarySource == nil, secondarySource == nil {
        throw ValidationError(
          "Please provide at least one of '--placement', '--primary-source' "
            + "or '--secondary-source'.")
      }
    }

    /// The `changes` parameter: only the given fields, `null` to clear.
    var changes: [String: JSONValue] {
      var changes: [String: JSONValue] = [:]
      if let placement {
        changes["devicePlacement"] =
          placement.map { .string($0.rawValue) }
          ?? .null
      }
      if let primarySource {
        changes["primaryAudioSourceDeviceIdentifier"] =
          primarySource.map { .string("\($0)") } ?? .null
      }
      if let secondarySource {
        changes["secondaryAudioSourceDeviceIdentifier"] =
          secondarySource.map { .string("\($0)") } ?? .null
      }
      return changes
    }

    func run() async throws {
      let params: JSONValue = .object([
        "accessory": .string(Acctl.selector(accessory)),
        "changes": .object(changes),
      ])
      let result = try Daemon(path: socket).call("accessory.update", params)
      Output.print(json ? Rendering.json(result) : Rendering.accessory(result))
    }
  }
}
