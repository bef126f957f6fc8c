// acctl list: shows every paired accessory, sorted by address; with --all,
// also those registered but no longer paired.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit

extension Acctl {
  /// Lists the paired accessories.
  struct List: Command {
    static let configuration = CommandConfiguration(
      abstract: "List the paired accessories.",
      discussion: """
        An accessory that was unpaired while registered keeps its \
        invalidated registration until it is registered again; --all lists \
        those too.
        """)

    static let signature: [ArgumentDefinition] = [
      .flag(
        "all",
        abstract: "Also list accessories that are registered but no longer "
          + "paired."),
      Shared.json("the accessories"),
      Shared.socket,
    ]

    /// Whether to list the unpaired ones too.
    let all: Bool
    /// Whether to print JSON.
    let json: Bool
    /// The daemon's socket.
    let socket: String

    init(arguments: inout ArgumentCursor) throws {
      all = arguments.flag("all")
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      var result = try Daemon(path: socket).call(
        DaemonAccessoryListRequest(includesHeadphones: true))
      var hidden = 0
      if !all, case .array(let accessories)? = result["accessories"] {
        let shown = accessories.filter {
          $0["state"] == .string(DaemonAccessory.State.authorized.rawValue)
            || $0["state"]
              == .string(DaemonAccessory.State.headphones.rawValue)
        }
        hidden = accessories.count - shown.count
        result = .object(["accessories": .array(shown)])
      }
      try Daemon.show(result, of: DaemonAccessoryListRequest.method, json: json)
      {
        (answer: DaemonAccessoryList) in
        Rendering.accessoryList(answer.accessories)
          + (hidden == 0
            ? ""
            : "\n\(hidden) unpaired with a registration that was "
              + "invalidated: acctl list --all shows "
              + (hidden == 1 ? "it." : "them."))
      }
    }
  }
}
