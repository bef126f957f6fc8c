// A real desktop panel for the tray's tests: Xvfb, Xfce's configuration
// daemon and xfce4-panel with only its status tray, whose
// StatusNotifierWatcher and host the tray registers with, all on a
// private bus; and what a person would do to it: look (a screenshot) and
// click (xdotool).

import Foundation

/// xfce4-panel with its status tray on Xvfb, on a private bus.
public struct PanelSession: Sendable {
  /// The bus the panel and the tray use.
  public let bus: PrivateBus
  /// The X display, such as `:99`.
  public let display: String
  /// The screen's size in pixels.
  public let width: Int
  /// The screen's height in pixels.
  public let height: Int
  /// The panel's height in pixels, at the top of the screen.
  public static let panelHeight = 32

  /// Starts Xvfb, xfconfd and xfce4-panel, and returns once the panel's
  /// status tray owns `org.kde.StatusNotifierWatcher`.
  public static func start(
    on bus: PrivateBus, width: Int = 360, height: Int = 300
  ) async throws -> PanelSession {
    let display = try await startXvfb(on: bus, width: width, height: height)
    // One panel along the top, holding only the status tray; without a
    // configuration the panel would ask which one to use.
    let configurationHome = "\(bus.directory)/xdg-config"
    let channels = "\(configurationHome)/xfce4/xfconf/xfce-perchannel-xml"
    try FileManager.default.createDirectory(
      atPath: channels, withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <channel name="xfce4-panel" version="1.0">
      <property name="configver" type="int" value="2"/>
      <property name="panels" type="array">
        <value type="int" value="1"/>
        <property name="panel-1" type="empty">
          <property name="position" type="string" value="p=6;x=0;y=0"/>
          <property name="length" type="uint" value="100"/>
          <property name="position-locked" type="bool" value="true"/>
          <property name="size" type="uint" value="\(panelHeight)"/>
          <property name="plugin-ids" type="array">
            <value type="int" value="1"/>
          </property>
        </property>
      </property>
      <property name="plugins" type="empty">
        <property name="plugin-1" type="string" value="systray"/>
      </property>
    </channel>

    """.write(
      toFile: "\(channels)/xfce4-panel.xml", atomically: true, encoding: .utf8)
    let environment = Self.environment(
      display: display, directory: bus.directory)
    try writeXfconfdActivation(on: bus, environment: environment)
    try await startXfconfd(on: bus, environment: environment)
    _ = try await bus.startClient(
      "xfce4-panel", ["--disable-wm-check"], environment: environment)
    try await waitUntil(
      "xfce4-panel's status tray to own org.kde.StatusNotifierWatcher",
      within: .seconds(60)
    ) {
      try await bus.nameHasOwner("org.kde.StatusNotifierWatcher")
    }
    return PanelSession(
      bus: bus, display: display, width: width, height: height)
  }

  /// Lets the bus start Xfce's configuration daemon when a panel asks for
  /// it, as a desktop session's bus does (Debian installs the same
  /// activation file): xfconfd ends with its last client, and a panel
  /// started after that must still find its configuration.
  static func writeXfconfdActivation(
    on bus: PrivateBus, environment: [String: String]
  ) throws {
    let variables = environment.merging(
      ["DBUS_SESSION_BUS_ADDRESS": bus.address]
    ) { $1 }
    .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    try """
    [D-BUS Service]
    Name=org.xfce.Xfconf
    Exec=/usr/bin/env \(variables.joined(separator: " ")) \(try xfconfd())

    """.write(
      toFile: "\(bus.directory)/services/org.xfce.Xfconf.service",
      atomically: true, encoding: .utf8)
  }

  /// Starts Xfce's configuration daemon unless it runs, and returns once
  /// it owns its name, before a panel asks it for the configuration.
  static func startXfconfd(
    on bus: PrivateBus, environment: [String: String]
  ) async throws {
    guard try await !bus.nameHasOwner("org.xfce.Xfconf") else { return }
    _ = try await bus.startClient(try xfconfd(), [], environment: environment)
    try await waitUntil("xfconfd to own org.xfce.Xfconf", within: .seconds(30))
    {
      try await bus.nameHasOwner("org.xfce.Xfconf")
    }
  }

  /// Xfce's configuration daemon, which Debian keeps outside the search
  /// path.
  static func xfconfd() throws -> String {
    let candidates = [
      "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd",
      "/usr/lib/aarch64-linux-gnu/xfce4/xfconf/xfconfd",
      "/usr/lib/xfce4/xfconf/xfconfd",
    ]
    guard
      let path = candidates.first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      throw BlueZMockError(
        "xfconfd is not installed (Debian's xfconf, which xfce4-panel "
          + "depends on): scripts/install-dependencies test installs it")
    }
    return path
  }

  /// Ends the panel (`xfce4-panel --quit`) and starts a new one, and
  /// returns once the new one's status tray owns the watcher's name.
  public func restart() async throws {
    let before = try await watcherOwner()
    _ = try await bus.runClient(
      "xfce4-panel", ["--quit"], environment: environment)
    try await waitUntil(
      "the old panel to let the watcher go", within: .seconds(60)
    ) {
      try await !bus.nameHasOwner("org.kde.StatusNotifierWatcher")
    }
    // The old panel was xfconfd's last client: it may have ended.
    try await Self.startXfconfd(on: bus, environment: environment)
    _ = try await bus.startClient(
      "xfce4-panel", ["--disable-wm-check"], environment: environment)
    try await waitUntil(
      "a new status tray to own the watcher", within: .seconds(60)
    ) {
      let now = try? await watcherOwner()
      return now != nil && now != before
    }
  }

  /// The unique name of the watcher's owner.
  func watcherOwner() async throws -> String {
    try await bus.gdbus([
      "call", "--dest", "org.freedesktop.DBus", "--object-path",
      "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetNameOwner",
      "org.kde.StatusNotifierWatcher",
    ])
  }

  /// The environment the panel runs in.
  var environment: [String: String] {
    Self.environment(display: display, directory: bus.directory)
  }

  static func environment(
    display: String, directory: String
  ) -> [String: String] {
    [
      "DISPLAY": display, "XDG_CONFIG_HOME": "\(directory)/xdg-config",
      "XDG_CACHE_HOME": "\(directory)/xdg-cache",
      "XDG_DATA_HOME": "\(directory)/xdg-data",
      "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
    ]
  }

  /// The items the watcher has registered: `NAME/PATH` each.
  public func registeredItems() async throws -> [String] {
    let text = try await bus.gdbus([
      "call", "--dest", "org.kde.StatusNotifierWatcher", "--object-path",
      "/StatusNotifierWatcher", "--method",
      "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierWatcher",
      "RegisteredStatusNotifierItems",
    ])
    return text.split(separator: "'").enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  /// What the screen shows now.
  public func screenshot() async throws -> Pixmap {
    let file = "\(bus.directory)/screen-\(UUID().uuidString).ppm"
    defer { try? FileManager.default.removeItem(atPath: file) }
    _ = try await bus.runClient(
      "sh",
      [
        "-c",
        "xwd -root -silent -display \"$1\" | xwdtopnm 2>/dev/null "
          + "| pamdepth 255 >\"$2\"",
        "sh", display, file,
      ])
    return try Pixmap(ppm: try Data(contentsOf: URL(fileURLWithPath: file)))
  }

  /// Writes a part of the screen as a PNG file.
  public func saveScreenshot(
    to path: String, width: Int, height: Int
  ) async throws {
    _ = try await bus.runClient(
      "sh",
      [
        "-c",
        "xwd -root -silent -display \"$1\" | xwdtopnm 2>/dev/null "
          + "| pamdepth 255 | pamcut -left 0 -top 0 -width \"$2\" -height \"$3\" "
          + "| pnmtopng -compression 9 >\"$4\"",
        "sh", display, String(width), String(height), path,
      ])
  }

  /// Clicks a mouse button at a place on the screen.
  public func click(x: Int, y: Int, button: Int = 1) async throws {
    _ = try await bus.runClient(
      "xdotool",
      ["mousemove", String(x), String(y), "click", String(button)],
      environment: ["DISPLAY": display])
  }

  /// Moves the mouse to a place on the screen.
  public func move(x: Int, y: Int) async throws {
    _ = try await bus.runClient(
      "xdotool", ["mousemove", String(x), String(y)],
      environment: ["DISPLAY": display])
  }

  /// Presses a key, such as `Escape`.
  public func press(_ key: String) async throws {
    _ = try await bus.runClient(
      "xdotool", ["key", key], environment: ["DISPLAY": display])
  }
}

/// A picture of the screen: rows of RGB pixels, read from a binary PPM.
public struct Pixmap: Sendable {
  /// Its width in pixels.
  public let width: Int
  /// Its height in pixels.
  public let height: Int
  /// Red, green and blue of each pixel, row by row.
  public let bytes: [UInt8]

  /// Reads a binary PPM (`P6`, 8 bits a channel).
  public init(ppm data: Data) throws {
    let bytes = [UInt8](data)
    var fields: [Int] = []
    var index = 2
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"),
      bytes[1] == UInt8(ascii: "6")
    else { throw BlueZMockError("the screenshot is not a binary PPM") }
    while fields.count < 3, index < bytes.count {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A {
        index += 1
      }
      var value = 0
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
      }
      fields.append(value)
    }
    index += 1
    guard fields.count == 3, fields[2] == 255,
      bytes.count - index >= fields[0] * fields[1] * 3
    else {
      throw BlueZMockError(
        "the screenshot's PPM header is not one of 8-bit RGB")
    }
    width = fields[0]
    height = fields[1]
    self.bytes = Array(bytes[index..<(index + width * height * 3)])
  }

  /// The pixel at a place, as red, green and blue.
  public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
    let offset = (y * width + x) * 3
    return (bytes[offset], bytes[offset + 1], bytes[offset + 2])
  }

  /// The places in a rectangle whose pixel is near a colour (each channel
  /// within `tolerance`).
  public func places(
    near color: (red: Int, green: Int, blue: Int), tolerance: Int = 40,
    in rows: Range<Int>, columns: Range<Int>
  ) -> [(x: Int, y: Int)] {
    var found: [(x: Int, y: Int)] = []
    for y in rows where y < height {
      for x in columns where x < width {
        let pixel = pixel(x: x, y: y)
        if abs(Int(pixel.red) - color.red) <= tolerance,
          abs(Int(pixel.green) - color.green) <= tolerance,
          abs(Int(pixel.blue) - color.blue) <= tolerance
        {
          found.append((x, y))
        }
      }
    }
    return found
  }

  /// How many pixels of a rectangle differ from the colour of its top
  /// left corner.
  public func changedPixels(in rows: Range<Int>, columns: Range<Int>) -> Int {
    let corner = pixel(x: columns.lowerBound, y: rows.lowerBound)
    var count = 0
    for y in rows where y < height {
      for x in columns where x < width {
        let pixel = pixel(x: x, y: y)
        if pixel != corner { count += 1 }
      }
    }
    return count
  }
}
