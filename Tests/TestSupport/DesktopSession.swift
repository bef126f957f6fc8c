// A desktop for one test, on a private bus: an X server of its own (Xvfb)
// and, on it, a real notification server (dunst), whose history says what
// it received. Everything runs in the bus's process group and stops with
// it.

import Foundation

/// A notification the server received.
public struct ReceivedNotification: Sendable, Hashable {
  /// The sending application's name.
  public var application: String
  /// The title.
  public var summary: String
  /// The text.
  public var body: String
}

/// Xvfb and dunst on a private bus.
public struct DesktopSession: Sendable {
  /// The bus the session's programs use.
  public let bus: PrivateBus
  /// The X display, such as `:99`.
  public let display: String

  /// Starts Xvfb on a display it picks itself, and dunst on it, and
  /// returns once dunst owns `org.freedesktop.Notifications`.
  public static func start(on bus: PrivateBus) async throws -> DesktopSession {
    let display = try await startXvfb(on: bus, width: 1024, height: 600)
    let configuration = "\(bus.directory)/dunstrc"
    try """
    [global]
        geometry = "400x5-10+10"
        history_length = 100
    [urgency_low]
        timeout = 0
    [urgency_normal]
        timeout = 0

    """.write(toFile: configuration, atomically: true, encoding: .utf8)
    _ = try await bus.startClient(
      "dunst", ["-conf", configuration], environment: ["DISPLAY": display])
    try await waitUntil("dunst to serve notifications", within: .seconds(30)) {
      try await bus.nameHasOwner("org.freedesktop.Notifications")
    }
    return DesktopSession(bus: bus, display: display)
  }

  /// The server's name, vendor and version, as it reports them.
  public func serverInformation() async throws -> String {
    try await bus.gdbus([
      "call", "--dest", "org.freedesktop.Notifications", "--object-path",
      "/org/freedesktop/Notifications", "--method",
      "org.freedesktop.Notifications.GetServerInformation",
    ]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Every notification dunst received, oldest first: those shown are
  /// closed into its history, which `dunstctl history` prints.
  public func received() async throws -> [ReceivedNotification] {
    _ = try await bus.runClient("dunstctl", ["close-all"])
    let text = try await bus.runClient("dunstctl", ["history"])
    let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let groups = ((json as? [String: Any])?["data"] as? [[Any]]) ?? []
    func field(_ entry: [String: Any], _ name: String) -> String {
      (entry[name] as? [String: Any])?["data"] as? String ?? ""
    }
    func id(_ entry: [String: Any]) -> Int {
      (entry["id"] as? [String: Any])?["data"] as? Int ?? 0
    }
    let entries = groups.flatMap { $0.compactMap { $0 as? [String: Any] } }
    return entries.sorted { id($0) < id($1) }.map {
      ReceivedNotification(
        application: field($0, "appname"), summary: field($0, "summary"),
        body: field($0, "body"))
    }
  }
}

/// Starts Xvfb on a display it picks itself, in the bus's process group,
/// and returns the display, such as `:99`, once it accepts clients.
func startXvfb(
  on bus: PrivateBus, width: Int, height: Int
) async throws -> String {
  // -displayfd: Xvfb picks a free display and prints its number once it
  // accepts clients.
  let displayFile = try await bus.startClient(
    "Xvfb",
    [
      "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24",
      "-nolisten", "tcp",
    ])
  var number = ""
  try await waitUntil("Xvfb to print its display", within: .seconds(30)) {
    number = SoundServer.readFile(displayFile)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return !number.isEmpty
  }
  return ":\(number)"
}
