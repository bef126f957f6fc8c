// The two protocols a tray item speaks, as KDE, XFCE, waybar and GNOME's
// AppIndicator extension read them: StatusNotifierItem (the icon, its
// tooltip, and where its menu is), registered with the desktop's
// StatusNotifierWatcher, and com.canonical.dbusmenu (the menu).

import DBus

/// The names and interfaces of the StatusNotifierItem protocol.
package enum StatusNotifierItem {
  /// The object path an item is served at.
  package static let path = "/StatusNotifierItem"
  /// The desktop's watcher, which hosts (panels) ask for the items.
  package static let watcherName = "org.kde.StatusNotifierWatcher"
  /// The watcher's object.
  package static let watcherPath = "/StatusNotifierWatcher"

  /// The well-known name an item owns: `org.kde.StatusNotifierItem-PID-ID`.
  package static func busName(processID: Int32, instance: Int = 1) -> String {
    "org.kde.StatusNotifierItem-\(processID)-\(instance)"
  }

  /// The item's interface.
  package static let interface = DBusInterface(
    name: "org.kde.StatusNotifierItem",
    methods: [
      .init(
        "ContextMenu", inputs: [.init("x", "i"), .init("y", "i")],
        summary: "The host asks for the menu at a place on the screen."),
      .init(
        "Activate", inputs: [.init("x", "i"), .init("y", "i")],
        summary: "A click on the icon."),
      .init(
        "SecondaryActivate", inputs: [.init("x", "i"), .init("y", "i")],
        summary: "A middle click on the icon."),
      .init(
        "Scroll", inputs: [.init("delta", "i"), .init("orientation", "s")],
        summary: "A scroll over the icon."),
    ],
    properties: [
      .init("Category", "s", summary: "Hardware."),
      .init("Id", "s", summary: "accessoryd."),
      .init("Title", "s", summary: "The item's name."),
      .init("Status", "s", summary: "Active, Passive or NeedsAttention."),
      .init("WindowId", "i", summary: "No window: 0."),
      .init("IconName", "s", summary: "The icon, by its name in the theme."),
      .init("IconPixmap", "a(iiay)", summary: "None: the icon is named."),
      .init("IconThemePath", "s", summary: "Where else to look for icons."),
      .init("OverlayIconName", "s", summary: "None."),
      .init("OverlayIconPixmap", "a(iiay)", summary: "None."),
      .init("AttentionIconName", "s", summary: "None."),
      .init("AttentionIconPixmap", "a(iiay)", summary: "None."),
      .init("AttentionMovieName", "s", summary: "None."),
      .init(
        "ToolTip", "(sa(iiay)ss)",
        summary: "The tooltip: icon name, pixmaps, title and text."),
      .init("ItemIsMenu", "b", summary: "A click shows the menu."),
      .init("Menu", "o", summary: "The menu's object (dbusmenu)."),
    ],
    signals: [
      .init("NewTitle", arguments: [], summary: "The title changed."),
      .init("NewIcon", arguments: [], summary: "The icon changed."),
      .init(
        "NewAttentionIcon", arguments: [],
        summary: "The attention icon changed."),
      .init(
        "NewOverlayIcon", arguments: [], summary: "The overlay icon changed."),
      .init("NewToolTip", arguments: [], summary: "The tooltip changed."),
      .init(
        "NewStatus", arguments: [.init("status", "s")],
        summary: "The status changed."),
      .init(
        "NewIconThemePath", arguments: [.init("icon_theme_path", "s")],
        summary: "The icon theme path changed."),
      .init("NewMenu", arguments: [], summary: "The menu changed."),
    ])
}

/// The names and interface of the dbusmenu protocol.
package enum DBusMenuProtocol {
  /// The object path the menu is served at.
  package static let path = "/MenuBar"
  /// The version of the protocol spoken.
  package static let version: UInt32 = 3

  /// The menu's interface.
  package static let interface = DBusInterface(
    name: "com.canonical.dbusmenu",
    methods: [
      .init(
        "GetLayout",
        inputs: [
          .init("parentId", "i"), .init("recursionDepth", "i"),
          .init("propertyNames", "as"),
        ],
        outputs: [.init("revision", "u"), .init("layout", "(ia{sv}av)")],
        summary: "The menu below an item, to a depth (-1: all)."),
      .init(
        "GetGroupProperties",
        inputs: [.init("ids", "ai"), .init("propertyNames", "as")],
        outputs: [.init("properties", "a(ia{sv})")],
        summary: "The properties of these items."),
      .init(
        "GetProperty", inputs: [.init("id", "i"), .init("name", "s")],
        outputs: [.init("value", "v")], summary: "One item's property."),
      .init(
        "Event",
        inputs: [
          .init("id", "i"), .init("eventId", "s"), .init("data", "v"),
          .init("timestamp", "u"),
        ],
        summary: "Something happened to an item: clicked, opened, closed."),
      .init(
        "EventGroup", inputs: [.init("events", "a(isvu)")],
        outputs: [.init("idErrors", "ai")], summary: "Several events."),
      .init(
        "AboutToShow", inputs: [.init("id", "i")],
        outputs: [.init("needUpdate", "b")],
        summary: "A submenu is about to be shown."),
      .init(
        "AboutToShowGroup", inputs: [.init("ids", "ai")],
        outputs: [.init("updatesNeeded", "ai"), .init("idErrors", "ai")],
        summary: "Several submenus are about to be shown."),
    ],
    properties: [
      .init("Version", "u", summary: "The protocol's version: 3."),
      .init("TextDirection", "s", summary: "ltr."),
      .init("Status", "s", summary: "normal."),
      .init("IconThemePath", "as", summary: "Where else to look for icons."),
    ],
    signals: [
      .init(
        "ItemsPropertiesUpdated",
        arguments: [
          .init("updatedProps", "a(ia{sv})"), .init("removedProps", "a(ias)"),
        ],
        summary: "Items' properties changed."),
      .init(
        "LayoutUpdated",
        arguments: [.init("revision", "u"), .init("parent", "i")],
        summary: "The menu below an item changed."),
      .init(
        "ItemActivationRequested",
        arguments: [.init("id", "i"), .init("timestamp", "u")],
        summary: "The item asks to be shown."),
    ])
}
