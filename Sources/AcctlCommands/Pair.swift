// acctl pair: authorizes a discovered accessory, AccessorySetupKit's
// picker on Linux.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import FoundationEssentials
import Glibc

extension Acctl {
  /// Pairs an accessory, the step AccessorySetupKit's picker does on
  /// Apple's platforms.
  struct Pair: Command {
    static let configuration = CommandConfiguration(
      abstract: "Authorize a Bluetooth accessory for accessoryd.",
      discussion: """
        Pairing here is accessoryd's authorization, AccessorySetupKit's \
        step: the device must already be paired in Bluetooth (bluetoothctl, \
        or the desktop's settings). An authorized accessory that nobody \
        registered is guarded as any headphones are; AirPods and Galaxy \
        Buds register themselves once connected; other headphones follow \
        where they are worn once registered (acctl register).

        Give the address (or --select ADDRESS) to authorize that device; \
        with descriptor options it must match them. BlueZ or the sound \
        server must see the device. Without --name, the accessory takes the \
        name the host shows for it.

        Without an address, in a terminal, acctl pair shows \
        AccessorySetupKit's picker: the devices that match, numbered, kept \
        up to date as they come, change and go. Type a number and Enter, \
        then a name (Enter keeps the one offered), then Enter or y to set it \
        up; n or Escape goes back to the list, as does a device that went \
        away. q, \
        Ctrl-C or Ctrl-D cancels: acctl prints 'Cancelled.' and exits with \
        1, and nothing is authorized.

        When an app waits on a picker (ASAccessorySession.showPicker) and no \
        descriptor options are given, acctl pair answers it: the picker \
        offers the devices that match the app's items and asks for a name \
        only if an item allows renaming; a cancel tells the app. With an \
        address, acctl answers it without asking. When the app filters \
        discovery results itself, the picker lists only the devices the app \
        offers, under the names it gives them, and follows the app's \
        changes; if the app ends discovery offering none, acctl says so and \
        exits with 1.

        --migrate authorizes every Bluetooth audio device the host paired \
        before accessoryd, as AccessorySetupKit's migration does.
        """)

    static let signature: [ArgumentDefinition] =
      [
        .argument(
          "address", abstract: "The accessory's Bluetooth address.",
          isOptional: true
        ).completing(.custom(CompletionSource.devices)),
        .option(
          "select", valueName: "address",
          abstract: "The device to authorize, for scripts."
        ).completing(.custom(CompletionSource.devices)),
        .option("name", abstract: "The name to show for the accessory."),
        .flag(
          "migrate",
          abstract: "Authorize the audio devices paired before accessoryd."),
      ] + DescriptorOptions.definitions + [
        Shared.json("the accessory"),
        Shared.socket,
      ]

    /// The device to authorize; nil with --migrate, or to choose one in
    /// the picker.
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
      if !migrate, address == nil, isatty(0) != 1 {
        throw ValidationError(
          "Give the device's address (or --select ADDRESS), or run acctl pair "
            + "in a terminal to choose one; 'acctl discover' lists the devices")
      }
    }

    func run() async throws {
      let daemon = Daemon(path: socket)
      if migrate {
        let request = AccessoryMigrateRequest<
          AccessoryControlDevice.Configuration
        >(descriptor: descriptor)
        let result = try daemon.call(request)
        if json {
          Output.print(Rendering.json(result))
          return
        }
        let migrated = try Daemon.decode(
          result,
          as: MigrationResult<AccessoryControlDevice.Configuration>.self,
          of: type(of: request).method
        ).migrated
        // The devices the host paired are BlueZ's: without it, say so
        // rather than report nothing to migrate.
        if migrated.isEmpty, let notAsked = try daemon.blueZNotAsked() {
          Output.error(
            "Error: \(notAsked), and the devices this host paired are "
              + "BlueZ's; nothing was migrated (acctl doctor says why)")
          throw ExitCode(.unavailable)
        }
        for accessory in migrated {
          Output.print("Migrated: " + Rendering.accessory(accessory))
        }
        Output.print(
          "Migration complete: \(migrated.count) "
            + (migrated.count == 1 ? "accessory" : "accessories")
            + " authorized.")
        return
      }
      // An app's picker waits for an answer only without descriptor
      // options, which ask for acctl's own.
      let pending =
        descriptor == nil ? try Picker.pendingRequest(socket: socket) : nil
      let request = pending ?? PickerRequest(descriptor: descriptor)
      let result: JSONValue
      if let address {
        result = try daemon.call(
          request.answer(address: "\(address)", name: name))
      } else {
        result = try await Picker(
          request: request, socket: socket, presetName: name
        ).run()
      }
      try Daemon.show(
        result, of: "accessory.pair", json: json, Rendering.paired)
    }
  }
}
