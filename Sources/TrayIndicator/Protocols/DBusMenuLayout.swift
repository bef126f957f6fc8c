// The tray's menu as dbusmenu carries it: every item has an id that stays
// the same across readings (from its key), and the layout has a revision
// that grows each time it changes.

import DBus

/// The menu being served, with its ids and revision.
package struct DBusMenuLayout: Sendable {
  /// The root's id, which dbusmenu fixes at 0.
  package static let rootID: Int32 = 0

  /// The layout's revision: it grows with each change.
  package private(set) var revision: UInt32 = 1
  /// The items, by id.
  package private(set) var items: [Int32: TrayMenuItem] = [:]
  /// The root's children's ids, and each submenu's.
  private var children: [Int32: [Int32]] = [rootID: []]
  /// Ids by key, kept for keys that come back.
  private var ids: [String: Int32] = [:]
  private var nextID: Int32 = 1
  private var menu: [TrayMenuItem] = []

  /// Creates an empty menu.
  package init() {}

  /// Serves a menu in place of the one served.
  ///
  /// - Returns: Whether it changed, and so the revision grew.
  @discardableResult
  package mutating func replace(with menu: [TrayMenuItem]) -> Bool {
    guard menu != self.menu else { return false }
    self.menu = menu
    items = [:]
    children = [:]
    children[Self.rootID] = add(menu)
    revision += 1
    return true
  }

  private mutating func add(_ menu: [TrayMenuItem]) -> [Int32] {
    menu.map { item in
      let id = id(for: item.key)
      items[id] = item
      if !item.children.isEmpty { children[id] = add(item.children) }
      return id
    }
  }

  /// The id of an item's key: the same each time the key comes.
  package mutating func id(for key: String) -> Int32 {
    if let id = ids[key] { return id }
    let id = nextID
    nextID += 1
    ids[key] = id
    return id
  }

  /// The id an item has now, by its key.
  package func currentID(of key: String) -> Int32? {
    ids[key].flatMap { items[$0] == nil ? nil : $0 }
  }

  /// An item's properties, as dbusmenu names them; only those named when
  /// names are given.
  package func properties(
    of id: Int32, named names: [String] = []
  ) -> [String: DBusValue] {
    var properties: [String: DBusValue] = [:]
    if id == Self.rootID {
      properties["children-display"] = .string("submenu")
    } else if let item = items[id] {
      if item.isSeparator {
        properties["type"] = .string("separator")
      } else {
        properties["label"] = .string(Self.escapingMnemonics(item.label))
        properties["enabled"] = .boolean(item.isEnabled)
        switch item.toggle {
        case .none: break
        case .checkmark(let on):
          properties["toggle-type"] = .string("checkmark")
          properties["toggle-state"] = .int32(on ? 1 : 0)
        case .radio(let on):
          properties["toggle-type"] = .string("radio")
          properties["toggle-state"] = .int32(on ? 1 : 0)
        }
        if !item.children.isEmpty {
          properties["children-display"] = .string("submenu")
        }
      }
    }
    guard !names.isEmpty else { return properties }
    return properties.filter { names.contains($0.key) }
  }

  /// Whether an id is the root's or an item's.
  package func contains(_ id: Int32) -> Bool {
    id == Self.rootID || items[id] != nil
  }

  /// The layout below an item, `(ia{sv}av)`, to a depth: -1 for all of
  /// it, 0 for the item alone.
  package func layout(
    of id: Int32, depth: Int32, names: [String] = []
  ) -> DBusValue {
    let below =
      depth == 0
      ? []
      : (children[id] ?? []).map { child in
        DBusValue.variant(
          layout(of: child, depth: depth < 0 ? -1 : depth - 1, names: names))
      }
    return .typed(
      signature: "(ia{sv}av)",
      .structure([
        .int32(id),
        .typed(
          signature: "a{sv}",
          .dictionary(
            Dictionary(
              uniqueKeysWithValues: properties(of: id, named: names).map {
                (DBusValue.string($0.key), DBusValue.variant($0.value))
              }))),
        .typed(signature: "av", .array(below)),
      ]))
  }

  /// A label with its underscores doubled: dbusmenu reads one as the
  /// mark of the access key.
  static func escapingMnemonics(_ label: String) -> String {
    String(label.flatMap { $0 == "_" ? ["_", "_"] : [$0] })
  }
}
