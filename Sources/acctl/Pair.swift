// acctl pair: authorizes a discovered accessory, AccessorySetupKit's
// picker on Linux.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Pairs an accessory, the step AccessorySetupKit's picker does on
  /// Apple's platforms.
  struct Pair: Command {
    static let configuration = CommandConfiguration(
      abstract: "Authorize a discovered Bluetooth accessory.",
      discussion: """
        Give the address (or --select ADDRESS) to authorize that device; \
        with descriptor options it must match them. BlueZ or the sound \
        server must see the device. Without --name, the accessory takes the \
        name the host shows for it. --migrate authorizes every Bluetooth \
        audio device the host paired before accessoryd, as AccessorySetupKit's \
        migration does.
        """)

    static let signature: [ArgumentDefinition] =
      [
        .argument(
          "address", abstract: "The accessory's Bluetooth address.",
          isOptional: true),
        .option(
          "select", valueName: "address",
          abstract: "The device to authorize, for scripts."),
        .option("name", abstract: "The name to show for the accessory."),
        .flag(
          "migrate",
          abstract: "Authorize the audio devices paired before accessoryd."),
      ] + DescriptorOptions.definitions + [
        Shared.json("the accessory"),
        Shared.socket,
      ]

    /// The device to authorize; nil with --migrate.
    var address: BluetoothAddress?
    /// The display name, or nil for the device's own.
    var name: String?
    /// Whether to migrate instead.
    var migrate: Bool
    /// The descriptor the device must match, if any.
    var descriptor: ASDiscoveryDescriptor?
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      let positional = try arguments.value("address", parseAddress)
      let selected = try arguments.value("select", parseAddress)
      if let positional, let selected, positional != selected {
        throw ValidationError(
          "Give the address once: '\(positional)' and --select '\(selected)' "
            + "differ")
      }
      address = positional ?? selected
      name = try arguments.value("name") { text in
        guard !text.isEmpty else {
          throw InvalidValue(description: "expected a name that is not empty")
        }
        return text
      }
      migrate = arguments.flag("migrate")
      descriptor = try DescriptorOptions.parse(arguments)
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
      if migrate, address != nil || name != nil {
        throw ValidationError(
          "--migrate authorizes every earlier device; give no address or name")
      }
      if !migrate, address == nil {
        throw ValidationError(
          "Give the device's address (or --select ADDRESS); 'acctl discover' "
            + "lists the devices")
      }
    }

    func run() async throws {
      let daemon = Daemon(path: socket)
      let descriptorFields = DescriptorOptions.json(descriptor)
      if migrate {
        let result = try daemon.call(
          "accessory.migrate", .object(descriptorFields))
        if json {
          Output.print(Rendering.json(result))
          return
        }
        guard case .array(let migrated)? = result["migrated"] else { return }
        for accessory in migrated {
          Output.print("Migrated: " + Rendering.accessory(accessory))
        }
        Output.print(
          "Migration complete: \(migrated.count) "
            + (migrated.count == 1 ? "accessory" : "accessories")
            + " authorized.")
        return
      }
      var params = descriptorFields
      params["address"] = .string("\(address!)")
      if let name { params["name"] = .string(name) }
      let result = try daemon.call("accessory.pair", .object(params))
      Output.print(json ? Rendering.json(result) : Rendering.accessory(result))
    }
  }
}
