// The tray indicator end to end, hosted by a real panel: xfce4-panel's
// status tray (its StatusNotifierWatcher and host) on Xvfb, on a private
// session bus, beside accessoryd serving its session D-Bus API. What the
// panel draws is looked at in screenshots; the menu is clicked as the
// panel clicks it (dbusmenu's Event) and opened with the mouse.

import Foundation
import TestSupport
import Testing

@Suite("The tray indicator in xfce4-panel", .serialized)
struct TrayTests {
  static let itemInterface = "org.kde.StatusNotifierItem"
  /// The worn icon's ear cups, as the panel draws them.
  static let wornGreen = (red: 0x2e, green: 0x9e, blue: 0x6e)
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test("Icon, tooltip and menu follow the headphones; the menu's clicks work")
  func tray() async throws {
    try await withSessionBus(.pulseAudio) { bus, server, daemon in
      let panel = try await PanelSession.start(on: bus)
      // The bus could start accessoryd on a call of its name, as the
      // package's activation file lets the session bus do; here that
      // leaves a mark, which the tray must never make.
      let activated = "\(bus.directory)/activated"
      try """
      [D-BUS Service]
      Name=io.github.accessoryd
      Exec=/bin/sh -c 'touch \(activated)'

      """.write(
        toFile: "\(bus.directory)/services/io.github.accessoryd.service",
        atomically: true, encoding: .utf8)
      _ = try await daemon.acctl(["pair", budsAddress])
      _ = try await daemon.acctl([
        "register", budsAddress, "--capabilities", "audioSwitching,placement",
        "--placement", "inEar",
      ])
      try await waitForDefault(server, "buds")

      // The tray, as the package installs it: accessoryd under the name
      // accessoryd-tray; icons from the source tree.
      let tray = "\(bus.directory)/accessoryd-tray"
      try FileManager.default.createSymbolicLink(
        atPath: tray, withDestinationPath: try builtProduct("accessoryd").path)
      _ = try await bus.startClient(
        tray, [],
        environment: [
          "ACCESSORYD_ICON_THEME_PATH": Self.repository.path + "/contrib/icons"
        ])
      var items: [String] = []
      try await waitUntil(
        "the watcher to register the tray", within: .seconds(30)
      ) {
        items = try await panel.registeredItems()
        return items.contains { $0.hasPrefix("org.kde.StatusNotifierItem-") }
      }
      let service = try #require(
        items.first?.split(separator: "/").first.map(String.init))
      // A second tray in the session ends at once: one icon.
      _ = try await bus.runClient(tray, [])
      #expect(try await panel.registeredItems() == items)
      func property(_ name: String) async throws -> String {
        try await bus.gdbus([
          "call", "--dest", service, "--object-path", "/StatusNotifierItem",
          "--method", "org.freedesktop.DBus.Properties.Get",
          Self.itemInterface, name,
        ])
      }
      func icon() async throws -> String { try await property("IconName") }

      // Worn: the icon, the tooltip with the output, the menu.
      try await waitUntil("the worn icon", within: .seconds(30)) {
        try await icon().contains("'accessoryd-headphones'")
      }
      var tooltip = ""
      try await waitUntil("the tooltip to show the buds", within: .seconds(30))
      {
        tooltip = try await property("ToolTip")
        return tooltip.contains("Audio on Studio Buds")
          && tooltip.contains("Studio Buds: in ear")
      }
      #expect(tooltip.contains("'Studio Buds'"), "\(tooltip)")
      #expect(try await property("Menu").contains("/MenuBar"))
      var menu = try await Self.menu(bus, service)
      #expect(menu.label("Studio Buds: in ear") != nil, "\(menu.text)")
      #expect(
        menu.label("Pause when taken off")?.contains("'toggle-state': <1>")
          == true)
      let explained = try await bus.gdbus([
        "call", "--dest", "io.github.accessoryd", "--object-path",
        "/io/github/accessoryd/route", "--method",
        "io.github.accessoryd.Route1.Explain",
      ])
      // Its first line up to the colon: the rest says how long ago.
      let firstLine = try #require(
        explained.split(separator: "\\n").first.flatMap {
          $0.dropFirst(2).split(separator: ":").first.map(String.init)  // ('
        })
      #expect(menu.text.contains(firstLine), "\(firstLine) in \(menu.text)")

      // The panel draws the worn icon: its green ear cups are in the panel.
      var screen = try await panel.screenshot()
      let green = screen.places(
        near: Self.wornGreen, in: 0..<PanelSession.panelHeight,
        columns: 0..<panel.width)
      #expect(!green.isEmpty, "no green of the worn icon in the panel")

      // A click on the icon opens the menu the panel read over dbusmenu.
      let iconX = green.isEmpty ? 12 : green.map(\.x).reduce(0, +) / green.count
      try await panel.click(x: iconX, y: PanelSession.panelHeight / 2)
      let below =
        (PanelSession.panelHeight + 2)..<(PanelSession.panelHeight + 60)
      try await waitUntil(
        "the menu to open under the panel", within: .seconds(30)
      ) {
        screen = try await panel.screenshot()
        return screen.changedPixels(in: below, columns: 0..<200) > 500
      }
      if ProcessInfo.processInfo.environment["ACCESSORYD_WRITE_README"] != nil {
        // The manual's picture, with the Output submenu open.
        try await panel.move(x: 60, y: 74)
        try await Task.sleep(for: .seconds(1))
        try await panel.saveScreenshot(
          to: Self.repository.path + "/docs/images/tray.png",
          width: panel.width, height: 176)
      }
      try await panel.press("Escape")

      // The panel ends and another starts: the tray registers with its new
      // watcher.
      try await panel.restart()
      try await waitUntil(
        "the new watcher to register the tray", within: .seconds(30)
      ) {
        try await panel.registeredItems().contains {
          $0.hasPrefix(service + "/")
        }
      }

      // Pause when taken off, clicked off: the daemon's setting changes,
      // is kept in its state directory, and the menu shows it.
      try await Self.click(
        bus, service, try #require(menu.id("Pause when taken off")))
      try await waitUntil("PauseWhenTakenOff to be false", within: .seconds(30))
      {
        try await bus.busctl([
          "get-property", "io.github.accessoryd", "/io/github/accessoryd",
          "io.github.accessoryd.Daemon1", "PauseWhenTakenOff",
        ]) == "b false\n"
      }
      let shown = try await daemon.acctl(["policy", "show", "--json"])
      #expect(
        try decodeJSON(shown.stdout)["settings"]?["media.pauseWhenTakenOff"]
          == .bool(false), "\(shown)")
      let settings = try decodeJSON(
        String(
          contentsOfFile: daemon.stateDirectory + "/settings.json",
          encoding: .utf8))
      #expect(settings == .object(["media.pauseWhenTakenOff": .bool(false)]))
      try await waitUntil("the menu's tick to go", within: .seconds(30)) {
        menu = try await Self.menu(bus, service)
        return menu.label("Pause when taken off")?.contains(
          "'toggle-state': <0>") == true
      }

      // Choose the speaker in the Output submenu, then Automatic again.
      try await Self.click(
        bus, service, try #require(menu.id("Built-in Speaker")))
      try await waitForDefault(server, "speaker")
      try await waitUntil("the speaker's radio ticked", within: .seconds(30)) {
        menu = try await Self.menu(bus, service)
        return menu.label("Built-in Speaker")?.contains("'toggle-state': <1>")
          == true
      }
      let automatic = try #require(menu.id(startingWith: "Automatic"))
      try await Self.click(bus, service, automatic)
      try await waitForDefault(server, "buds")

      // Taken off: the off icon (and nothing paused: the switch is off).
      _ = try await daemon.acctl([
        "update", budsAddress, "--placement", "offHead",
      ])
      try await waitUntil("the off icon", within: .seconds(30)) {
        try await icon().contains("'accessoryd-headphones-off'")
      }
      #expect(try await property("ToolTip").contains("Studio Buds: taken off"))

      // Gone: no headphones.
      try await server.unloadModule(try await Self.module(server, of: "buds"))
      try await waitUntil("the no-headphones icon", within: .seconds(30)) {
        try await icon().contains("'accessoryd-headphones-none'")
      }

      // accessoryd stops: the tray says so, and does not start it again.
      daemon.shutDown()
      try await waitUntil(
        "the tray to say accessoryd is not running", within: .seconds(30)
      ) {
        try await property("ToolTip").contains("accessoryd is not running")
      }
      #expect(try await !bus.nameHasOwner("io.github.accessoryd"))

      // Quit: the tray ends, and the panel's watcher lets the item go.
      menu = try await Self.menu(bus, service)
      try await Self.click(bus, service, try #require(menu.id("Quit")))
      try await waitUntil("the watcher to drop the item", within: .seconds(30))
      {
        try await panel.registeredItems().isEmpty
      }
    }
  }

  /// The menu as `GetLayout` gives it, whole.
  struct Menu {
    /// gdbus's text of the layout.
    let text: String
    /// Each item's id and its properties' text.
    let items: [(id: Int, properties: String)]

    /// The properties of the item with this label.
    func label(_ label: String) -> String? {
      items.first { $0.properties.contains("'label': <'\(label)'>") }?
        .properties
    }

    /// The id of the item with this label.
    func id(_ label: String) -> Int? {
      items.first { $0.properties.contains("'label': <'\(label)'>") }?.id
    }

    /// The id of the item whose label starts so.
    func id(startingWith prefix: String) -> Int? {
      items.first { $0.properties.contains("'label': <'\(prefix)") }?.id
    }
  }

  static func menu(_ bus: PrivateBus, _ service: String) async throws -> Menu {
    let text = try await bus.gdbus([
      "call", "--dest", service, "--object-path", "/MenuBar", "--method",
      "com.canonical.dbusmenu.GetLayout", "--", "0", "-1", "[]",
    ])
    let pattern = try Regex(#"\((\d+), \{([^{}]*)\}"#)
    let items = text.matches(of: pattern).compactMap {
      match -> (Int, String)? in
      guard let id = match.output[1].substring.flatMap({ Int($0) }),
        let properties = match.output[2].substring
      else { return nil }
      return (id, String(properties))
    }
    return Menu(text: text, items: items)
  }

  /// Clicks an item as a panel does: dbusmenu's `Event` with `clicked`.
  static func click(
    _ bus: PrivateBus, _ service: String, _ id: Int
  ) async throws {
    _ = try await bus.gdbus([
      "call", "--dest", service, "--object-path", "/MenuBar", "--method",
      "com.canonical.dbusmenu.Event", "--", String(id), "clicked", "<0>", "0",
    ])
  }

  static func module(_ server: SoundServer, of sink: String) async throws -> Int
  {
    guard
      let module = try await server.sinks().first(where: { $0.name == sink })?
        .ownerModule
    else { throw FixtureError("no module owns the sink \(sink)") }
    return module
  }
}
