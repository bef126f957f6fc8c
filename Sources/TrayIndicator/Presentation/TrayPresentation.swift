// What the tray shows for a reading: the icon, the tooltip and the menu.
// Pure: the same reading always gives the same view, tested without a
// bus or a panel.

import SessionBusInterfaces

/// The tray's icon, one per state of the headphones.
package enum TrayIcon: String, Sendable, CaseIterable {
  /// Headphones connected and worn (or connected, where accessoryd cannot
  /// tell whether they are worn).
  case worn = "accessoryd-headphones"
  /// Headphones connected and taken off.
  case off = "accessoryd-headphones-off"
  /// Headphones connected, not worn, and charging (a bud, or a
  /// headset's battery; not the case alone).
  case charging = "accessoryd-headphones-charging"
  /// No headphones connected, or accessoryd not running.
  case none = "accessoryd-headphones-none"
}

/// What a menu item does when clicked.
package enum TrayAction: Sendable, Hashable {
  /// Takes an output as the person's choice (`ChooseOutput`).
  case chooseOutput(String)
  /// Lets accessoryd choose again (`ForgetOutputChoices`).
  case forgetOutputChoices
  /// Turns pause-on-removal on or off (`PauseWhenTakenOff`).
  case setPauseWhenTakenOff(Bool)
  /// Ends the tray.
  case quit
}

/// One item of the tray's menu.
package struct TrayMenuItem: Sendable, Hashable {
  /// How an item can be ticked.
  package enum Toggle: Sendable, Hashable {
    /// Not at all.
    case none
    /// A checkmark, on or off.
    case checkmark(Bool)
    /// One of a group, chosen or not.
    case radio(Bool)
  }

  /// What names the item across readings, such as `output buds`: its
  /// dbusmenu id follows from it.
  package var key: String
  /// Its text; empty for a separator.
  package var label: String
  /// Whether it can be clicked.
  package var isEnabled: Bool
  /// Whether it is a separator.
  package var isSeparator: Bool
  /// How it is ticked.
  package var toggle: Toggle
  /// What a click does.
  package var action: TrayAction?
  /// Its submenu's items; empty for none.
  package var children: [TrayMenuItem]

  /// Creates an item that does something, or, without an action, a line
  /// of text.
  package static func item(
    _ key: String, _ label: String, toggle: Toggle = .none,
    action: TrayAction? = nil
  ) -> TrayMenuItem {
    TrayMenuItem(
      key: key, label: label, isEnabled: action != nil, isSeparator: false,
      toggle: toggle, action: action, children: [])
  }

  /// Creates a submenu.
  package static func submenu(
    _ key: String, _ label: String, _ children: [TrayMenuItem]
  ) -> TrayMenuItem {
    TrayMenuItem(
      key: key, label: label, isEnabled: !children.isEmpty, isSeparator: false,
      toggle: .none, action: nil, children: children)
  }

  /// Creates a separator.
  package static func separator(_ key: String) -> TrayMenuItem {
    TrayMenuItem(
      key: key, label: "", isEnabled: true, isSeparator: true, toggle: .none,
      action: nil, children: [])
  }
}

/// Everything the tray shows.
package struct TrayView: Sendable, Hashable {
  /// The icon.
  package var icon: TrayIcon
  /// The tooltip's title.
  package var tooltipTitle: String
  /// The tooltip's text, a line each: the output, then each connected
  /// headphones' state and battery.
  package var tooltipText: String
  /// The menu.
  package var menu: [TrayMenuItem]
}

/// Makes the view from a reading.
package enum TrayPresentation {
  /// The view of a reading.
  package static func view(of reading: TrayReading) -> TrayView {
    guard reading.isDaemonRunning else {
      return TrayView(
        icon: .none, tooltipTitle: "accessoryd is not running",
        tooltipText: "Start it with: systemctl --user start accessoryd",
        menu: [
          .item("not-running", "accessoryd is not running"),
          .separator("separator-quit"), .item("quit", "Quit", action: .quit),
        ])
    }
    let connected = reading.accessories.filter(\.isConnected)
    let shown = mainHeadphones(reading)
    let output =
      reading.outputDescription.isEmpty
      ? (reading.output.isEmpty ? "none" : reading.output)
      : reading.outputDescription
    var lines = ["Audio on \(output)"]
    lines += connected.map(line)
    return TrayView(
      icon: icon(of: shown),
      tooltipTitle: shown?.name ?? "No headphones connected",
      tooltipText: lines.joined(separator: "\n"),
      menu: menu(reading, connected: connected, output: output))
  }

  /// The headphones the icon is about: those the audio is on, else the
  /// first registered ones connected, else the first connected.
  static func mainHeadphones(_ reading: TrayReading) -> TrayReading.Accessory? {
    let connected = reading.accessories.filter(\.isConnected)
    return connected.first { $0.output == reading.output }
      ?? connected.first(where: \.isRegistered) ?? connected.first
  }

  /// The icon for the headphones shown.
  static func icon(of headphones: TrayReading.Accessory?) -> TrayIcon {
    guard let headphones else { return .none }
    if headphones.isWorn { return .worn }
    // The headphones themselves (a bud, or a headset's one battery), not
    // the case alone.
    if headphones.battery.contains(where: { $0.isCharging && $0.part != "case" }
    ) {
      return .charging
    }
    return headphones.placement == "offHead" ? .off : .worn
  }

  /// Where headphones are, in words.
  static func placementText(_ placement: String) -> String {
    switch placement {
    case "inEar": "in ear"
    case "onHead": "on head"
    case "overTheEar": "over the ear"
    case "offHead": "taken off"
    default: "connected"
    }
  }

  /// One line for connected headphones: `Studio Buds: in ear · Left 80%
  /// · Right 75%`.
  static func line(_ headphones: TrayReading.Accessory) -> String {
    let battery = BatteryText.line(headphones.battery)
    return "\(headphones.name): \(placementText(headphones.placement))"
      + (battery.isEmpty ? "" : " · \(battery)")
  }

  static func menu(
    _ reading: TrayReading, connected: [TrayReading.Accessory], output: String
  ) -> [TrayMenuItem] {
    var items: [TrayMenuItem] = []
    if connected.isEmpty {
      items.append(.item("headphones", "No headphones connected"))
    }
    for headphones in connected {
      items.append(.item("headphones \(headphones.address)", line(headphones)))
    }
    items.append(.separator("separator-output"))
    let chosen = reading.outputs.contains(where: \.isPersonsChoice)
    var outputs: [TrayMenuItem] = [
      .item(
        "output-automatic", "Automatic (now \(output))",
        toggle: .radio(!chosen), action: .forgetOutputChoices)
    ]
    outputs += reading.outputs.filter(\.isAvailable).map { output in
      .item(
        "output \(output.name)", output.description,
        toggle: .radio(output.isPersonsChoice),
        action: .chooseOutput(output.name))
    }
    items.append(.submenu("outputs", "Output", outputs))
    items.append(
      .submenu(
        "why", "Why the audio is here",
        reading.explanation.enumerated().map { index, line in
          .item("why \(index)", line)
        }))
    items.append(.separator("separator-settings"))
    items.append(
      .item(
        "pause-when-taken-off", "Pause when taken off",
        toggle: .checkmark(reading.pausesWhenTakenOff),
        action: .setPauseWhenTakenOff(!reading.pausesWhenTakenOff)))
    items.append(.separator("separator-quit"))
    items.append(.item("quit", "Quit", action: .quit))
    return items
  }
}
