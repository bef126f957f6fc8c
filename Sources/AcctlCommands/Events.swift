// acctl events: prints the daemon's events as they arrive, until
// interrupted. When the daemon ends the stream (it stops, or this reader
// fell too far behind), acctl says so and exits 1, or with --reconnect
// connects again and carries on.

import AccessoryControl
import CommandLineKit
import Glibc
import SystemCalls

extension Acctl {
  /// Follows the daemon's events.
  struct Events: Command {
    static let configuration = CommandConfiguration(
      abstract: "Print events as they happen, until interrupted.",
      discussion: """
        Each event is one line: text, or with --json one JSON object. The \
        daemon ends the stream when it stops, or when this reader falls \
        more than 256 KiB of events behind (a paused terminal); acctl then \
        says so on standard error and exits 1. With --reconnect it connects \
        again, with a note on standard error, and carries on; events sent \
        meanwhile are missed.
        """)

    static let signature: [ArgumentDefinition] = [
      .flag("json", abstract: "Print each event as a JSON object."),
      .flag(
        "reconnect",
        abstract: "When the daemon ends the stream, connect again and go on."),
      Shared.socket,
    ]

    /// What acctl says when the daemon ends the stream.
    static let streamEnded =
      "accessoryd ended the event stream: it stopped, or this reader fell "
      + "more than 256 KiB of events behind"

    /// Whether to print JSON.
    var json: Bool
    /// Whether to connect again when the stream ends.
    var reconnect: Bool
    /// The daemon's socket.
    var socket: String

    init(arguments: inout ArgumentCursor) throws {
      json = arguments.flag("json")
      reconnect = arguments.flag("reconnect")
      socket = Acctl.socketPath(arguments)
    }

    func run() async throws {
      var hasFollowed = false
      var delay = 0.1
      while true {
        let client: ControlClient
        do {
          client = try ControlClient(path: socket)
          _ = try client.call(EventsSubscribeRequest())
        } catch {
          // The first connection must work; later ones are retried.
          guard hasFollowed else {
            Output.error("Error: \(error.description)")
            throw Daemon.exitCode(for: error, answered: false)
          }
          usleep(useconds_t(delay * 1_000_000))
          delay = min(delay * 2, 2)
          continue
        }
        if hasFollowed {
          Output.error(
            "acctl: connected again; events sent meanwhile were missed")
        }
        hasFollowed = true
        delay = 0.1
        follow(client)
        client.close()
        guard reconnect else {
          Output.error("Error: \(Self.streamEnded)")
          throw ExitCode.failure
        }
        Output.error("acctl: \(Self.streamEnded); connecting again")
      }
    }

    /// Prints events until the stream ends.
    private func follow(_ client: ControlClient) {
      while let notification = try? client.nextNotification() {
        guard notification.method == "event", let event = notification.params
        else { continue }
        // As text, each line starts with when it came, as a log's do.
        Output.print(
          json
            ? Rendering.compactJSON(event)
            : LocalTime.now() + " " + Rendering.event(event))
      }
    }
  }
}
