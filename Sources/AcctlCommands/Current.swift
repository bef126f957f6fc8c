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
        Shows any accessory acctl list shows: a registered one with its \
        configuration, a paired one and headphones nobody paired with what \
        accessoryd knows of them. Fails with exit code 3 when no accessory \
        has that address or name, and 4 when its registration was \
        invalidated.
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
      let daemon = Daemon(path: socket)
      let request = DaemonAccessoryCurrentRequest(
        accessory: Acctl.selector(accessory))
      switch try daemon.call(
        request, answering: [.accessoryInvalidRequest, .accessoryUnknown])
      {
      case .success(let result):
        try Daemon.show(
          result, of: DaemonAccessoryCurrentRequest.method, json: json,
          Rendering.accessory)
      case .failure(let refusal):
        // Not registered: what `acctl list` shows of it, paired or
        // guarded headphones nobody paired, is shown the same way.
        let listed = try daemon.call(
          DaemonAccessoryListRequest(includesHeadphones: true))
        // Only one: a name two accessories share stays the daemon's
        // refusal, which says so.
        let entries = Self.entries(named: accessory, in: listed)
        guard entries.count == 1, let entry = entries.first else {
          throw daemon.fail(refusal)
        }
        try Daemon.show(
          entry, of: DaemonAccessoryCurrentRequest.method, json: json,
          Rendering.accessory)
      }
    }

    /// Returns the entries of `acctl list` that an address or a name
    /// selects: the address as any case or separator writes it, the name
    /// in any case and without its outer spaces, as the daemon matches
    /// names.
    static func entries(
      named selector: String, in list: JSONValue
    ) -> [JSONValue] {
      guard case .array(let accessories)? = list["accessories"] else {
        return []
      }
      let address = BluetoothAddress(selector)?.description
      let name = selector.trimmingSpaces.lowercased()
      return accessories.filter { entry in
        if let address, case .string(let listed)? = entry["address"],
          BluetoothAddress(listed)?.description == address
        {
          return true
        }
        if case .string(let listed)? = entry["displayName"] {
          return listed.trimmingSpaces.lowercased() == name
        }
        return false
      }
    }
  }
}
