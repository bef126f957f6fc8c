// acctl register: registers an accessory with a whole configuration, as
// Apple's AccessoryControlDevice.register(_:_:) does.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Registers an accessory's capabilities and its first configuration.
  struct Register: Command {
    static let configuration = CommandConfiguration(
      abstract: "Register an accessory with its capabilities.",
      discussion: """
        Sends the whole configuration, as AccessoryControlDevice.register \
        does; the daemon applies the route before it answers.
        """)

    static let signature: [ArgumentDefinition] = [
      Shared.accessory,
      .option(
        "capabilities",
        abstract: "The capabilities, separated by commas: audioSwitching, "
          + "placement.",
        isOptional: false
      ).completing(
        .list(AccessoryControlDevice.Capabilities.names.map(\.name))),
      .option(
        "placement", abstract: "Where the accessory is now.",
        allValues: Shared.placements),
      .option(
        "primary-source", valueName: "address",
        abstract: "The Bluetooth address of the primary audio source."),
      .option(
        "secondary-source", valueName: "address",
        abstract: "The Bluetooth address of the secondary audio source."),
      .option(
        "placement-source", valueName: "source",
        abstract: "Whether accessoryd reads the placement from the "
          + "headphones themselves when it knows their protocol (AirPods): "
          + "auto (the default) or none, for a companion that reports it.",
        allValues: ["auto", "none"]),
      Shared.json("the accessory"),
      Shared.socket,
    ]

    /// The accessory, by address or name.
    var accessory: String
    /// The configuration to register.
    var configuration: AccessoryControlDevice.Configuration
    /// `auto` or `none`, if given.
    var placementSource: String?
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      accessory = try arguments.required("accessory", parseAccessory)
      configuration = AccessoryControlDevice.Configuration(
        devicePlacement: arguments.value("placement").flatMap {
          AccessoryControlDevice.Placement(rawValue: $0)
        },
        deviceCapabilities: try arguments.required(
          "capabilities", parseCapabilities),
        primaryAudioSourceDeviceIdentifier: try arguments.value(
          "primary-source", parseAddress)?.data,
        secondaryAudioSourceDeviceIdentifier: try arguments.value(
          "secondary-source", parseAddress)?.data)
      placementSource = arguments.value("placement-source")
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      var params: [String: JSONValue] = [
        "accessory": .string(Acctl.selector(accessory)),
        "configuration": try JSONValue(encoding: configuration),
      ]
      if let placementSource {
        params["placementSource"] = .string(placementSource)
      }
      let result = try Daemon(path: socket).call(
        "accessory.register", .object(params))
      try Daemon.show(
        result, of: "accessory.register", json: json, Rendering.accessory)
    }
  }
}
