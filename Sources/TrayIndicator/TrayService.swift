// The tray indicator: a StatusNotifierItem with a dbusmenu menu on the
// session bus, registered with the desktop's StatusNotifierWatcher (again
// each time a panel starts one), showing accessoryd's state as its session
// D-Bus API gives it. Every change the daemon signals brings one new
// reading, 50 ms later for a burst; the menu's clicks are the API's
// methods.

import ConcurrencyHelpers
import DBus
import Glibc
import Logging
import SessionBusInterfaces

/// The tray indicator on one session bus.
package actor TrayService {
  /// What the tray follows.
  enum Event: Sendable {
    /// accessoryd signalled a change, came or went.
    case daemonChanged
    /// A panel's watcher came: the item registers with it.
    case watcherAppeared
    /// Quit was clicked.
    case quit
    /// The session bus connection ended.
    case ended
  }

  /// How the tray ended.
  package enum Ending: Sendable, Equatable {
    /// Quit was clicked.
    case quit
    /// The session bus went away.
    case busLost
    /// The session bus could not be used: why.
    case unusable(String)
    /// Another accessoryd-tray runs in the session.
    case alreadyRunning
  }

  /// The name one tray of a session owns, so that a second one (started
  /// by hand beside the autostarted one) ends rather than show a second
  /// icon.
  package static let instanceName = "io.github.accessoryd.Tray"

  private let address: String
  private let iconThemePath: String
  private let logger: Logger
  private let events: AsyncStream<Event>
  private let eventSink: AsyncStream<Event>.Continuation
  private var driver: DBusConnectionDriver?
  private var tree: DBusObjectTree?
  private var layout = DBusMenuLayout()
  private var view: TrayView?
  /// Whether a reading is waiting or runs; one at a time.
  private var isReading = false
  /// Whether something changed since the running reading began.
  private var isStale = false
  /// The well-known name the item owns.
  package nonisolated let busName: String

  /// Creates the tray for a session bus.
  ///
  /// - Parameters:
  ///   - address: The session bus's address.
  ///   - iconThemePath: Where else hosts look for the icons, or empty for
  ///     the icon theme alone.
  package init(address: String, iconThemePath: String, logger: Logger) {
    self.address = address
    self.iconThemePath = iconThemePath
    self.logger = logger
    (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    busName = StatusNotifierItem.busName(processID: getpid())
  }

  /// Serves the item until Quit is clicked or the bus goes.
  package func run() async -> Ending {
    let sink = eventSink
    let daemonName = AccessorydBus.busName
    let watcherName = StatusNotifierItem.watcherName
    let opened = await DBusConnectionDriver.open(
      address: address,
      matchRules: [
        "type='signal',sender='\(daemonName)'",
        Self.ownerChangeRule(daemonName), Self.ownerChangeRule(watcherName),
      ],
      signalHandler: { signal, _ in
        if signal.member == "NameOwnerChanged",
          signal.interface == "org.freedesktop.DBus"
        {
          let name = signal.arguments.first?.string ?? ""
          let owner =
            signal.arguments.count > 2 ? signal.arguments[2].string : nil
          if name == watcherName {
            if owner?.isEmpty == false { sink.yield(.watcherAppeared) }
            return
          }
        }
        sink.yield(.daemonChanged)
      },
      onEnd: { sink.yield(.ended) })
    let driver: DBusConnectionDriver
    switch opened {
    case .success(let opened): driver = opened
    case .failure(let failure): return .unusable(failure.message)
    }
    self.driver = driver
    defer { driver.close() }
    switch await driver.requestName(Self.instanceName) {
    case .success(.owned): break
    case .success(.taken): return .alreadyRunning
    case .failure(let failure): return .unusable(failure.message)
    }
    switch await driver.requestName(busName) {
    case .success(.owned): break
    case .success(.taken): return .unusable("\(busName) is taken")
    case .failure(let failure): return .unusable(failure.message)
    }
    guard let tree = await DBusObjectTree.serve(on: driver) else {
      return .busLost
    }
    self.tree = tree
    let initial = TrayPresentation.view(of: await read())
    layout.replace(with: initial.menu)
    await tree.add(
      StatusNotifierItem.interface, at: StatusNotifierItem.path,
      values: itemValues(initial),
      implementation: { call in
        // Activate and ContextMenu unanswered: a host that does not read
        // ItemIsMenu shows the menu when they fail, as for
        // libappindicator's items.
        call.member == "Scroll"
          ? .success([])
          : .failure(
            DBusFailure(
              name: "org.freedesktop.DBus.Error.UnknownMethod",
              message: "\(call.member): the item is its menu (ItemIsMenu)"))
      })
    await tree.add(
      DBusMenuProtocol.interface, at: DBusMenuProtocol.path,
      values: [
        "Version": .uint32(DBusMenuProtocol.version),
        "TextDirection": .string("ltr"), "Status": .string("normal"),
        "IconThemePath": .typed(
          signature: "as",
          .array(iconThemePath.isEmpty ? [] : [.string(iconThemePath)])),
      ],
      implementation: { [weak self] call in
        guard let self else { return .success([]) }
        return await self.answerMenu(call)
      })
    view = initial
    await register()
    for await event in events {
      switch event {
      case .daemonChanged: scheduleRefresh()
      case .watcherAppeared: await register()
      case .quit:
        // The click's reply goes out before the connection closes.
        try? await Task.sleep(for: .milliseconds(200))
        return .quit
      case .ended: return .busLost
      }
    }
    return .busLost
  }

  private static func ownerChangeRule(_ name: String) -> String {
    "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
      + "member='NameOwnerChanged',arg0='\(name)'"
  }

  // MARK: - The watcher

  /// Registers the item with the desktop's watcher, when there is one.
  private func register() async {
    guard let driver else { return }
    let result = await driver.call(
      DBusMethodCall(
        destination: StatusNotifierItem.watcherName,
        path: StatusNotifierItem.watcherPath,
        interface: StatusNotifierItem.watcherName,
        member: "RegisterStatusNotifierItem", arguments: [.string(busName)]),
      timeout: .seconds(5))
    switch result {
    case .success:
      logger.info(
        "Registered with the panel's StatusNotifierWatcher",
        metadata: ["tray.name": "\(busName)"])
    case .failure(let failure):
      logger.notice(
        "No panel shows tray items yet (no StatusNotifierWatcher); the "
          + "icon appears once one starts",
        metadata: ["dbus.error": "\(failure.message)"])
    }
  }

  // MARK: - Reading accessoryd

  /// Reads accessoryd again 50 ms from now, one reading for a burst of
  /// changes; while one runs, another follows it, so the newest is what
  /// stays shown.
  private func scheduleRefresh() {
    isStale = true
    guard !isReading else { return }
    isReading = true
    Task {
      try? await Task.sleep(for: .milliseconds(50))
      await self.readWhileStale()
    }
  }

  private func readWhileStale() async {
    defer { isReading = false }
    while isStale {
      isStale = false
      await show(TrayPresentation.view(of: await read()))
    }
  }

  /// Reads accessoryd's state through its API, without starting it: a
  /// tray must not bring back a daemon the person stopped, so no call
  /// lets the bus activate it.
  private func read() async -> TrayReading {
    guard let driver else { return .daemonNotRunning }
    let name = AccessorydBus.busName
    func call(
      _ path: String, _ interface: String, _ member: String,
      _ arguments: [DBusValue] = []
    ) async -> [DBusValue]? {
      let result = await driver.call(
        DBusMethodCall(
          destination: name, path: path, interface: interface, member: member,
          arguments: arguments, startsService: false),
        timeout: .seconds(5))
      guard case .success(let reply) = result else { return nil }
      return reply.arguments
    }
    guard
      let managed = await call(
        AccessorydBus.daemonPath, "org.freedesktop.DBus.ObjectManager",
        "GetManagedObjects"),
      let objects = managed.first?.dictionary
    else { return .daemonNotRunning }
    var reading = TrayReading()
    for (path, interfaces) in objects {
      let interfaces = interfaces.stringKeyedDictionary ?? [:]
      if path.string == AccessorydBus.routePath,
        let route = interfaces[AccessorydBus.route.name]?
          .stringKeyedDictionary
      {
        reading.output = route["Output"]?.string ?? ""
        reading.outputDescription = route["OutputDescription"]?.string ?? ""
      }
      if let properties = interfaces[AccessorydBus.accessory.name]?
        .stringKeyedDictionary,
        let accessory = TrayReading.Accessory(properties: properties)
      {
        reading.accessories.append(accessory)
      }
    }
    reading.accessories.sort { $0.address < $1.address }
    let daemon = await call(
      AccessorydBus.daemonPath, "org.freedesktop.DBus.Properties", "GetAll",
      [.string(AccessorydBus.daemon.name)])
    reading.pausesWhenTakenOff =
      daemon?.first?.stringKeyedDictionary?["PauseWhenTakenOff"]?.bool ?? true
    let outputs = await call(
      AccessorydBus.daemonPath, AccessorydBus.daemon.name, "ListOutputs")
    reading.outputs = (outputs?.first?.array ?? []).compactMap(
      TrayReading.Output.init(busValue:))
    let explained = await call(
      AccessorydBus.routePath, AccessorydBus.route.name, "Explain")
    reading.explanation = (explained?.first?.string ?? "")
      .split(separator: "\n", omittingEmptySubsequences: true)
      .map { String($0) }
    return reading
  }

  // MARK: - Showing

  private func itemValues(_ view: TrayView) -> [String: DBusValue] {
    let noPixmaps = DBusValue.typed(signature: "a(iiay)", .array([]))
    return [
      "Category": .string("Hardware"), "Id": .string("accessoryd"),
      "Title": .string("accessoryd"), "Status": .string("Active"),
      "WindowId": .int32(0), "IconName": .string(view.icon.rawValue),
      "IconPixmap": noPixmaps, "IconThemePath": .string(iconThemePath),
      "OverlayIconName": .string(""), "OverlayIconPixmap": noPixmaps,
      "AttentionIconName": .string(""), "AttentionIconPixmap": noPixmaps,
      "AttentionMovieName": .string(""),
      "ToolTip": .structure([
        .string(view.icon.rawValue), noPixmaps, .string(view.tooltipTitle),
        .string(view.tooltipText),
      ]),
      "ItemIsMenu": .boolean(true),
      "Menu": .objectPath(DBusMenuProtocol.path),
    ]
  }

  /// Shows a view: the item's properties and the menu.
  ///
  /// The protocol's signals go for the properties that changed, and
  /// `LayoutUpdated` when the menu did. Every change is made before the
  /// first wait, so that views shown one after the other never mix.
  private func show(_ next: TrayView) async {
    guard let tree, next != view else { return }
    view = next
    let isNewLayout = layout.replace(with: next.menu)
    let revision = layout.revision
    let changed = await tree.update(
      itemValues(next), of: StatusNotifierItem.interface.name,
      at: StatusNotifierItem.path)
    let item = StatusNotifierItem.interface
    if changed.contains("IconName") {
      await tree.emit(
        "NewIcon", of: item, at: StatusNotifierItem.path, arguments: [])
    }
    if changed.contains("ToolTip") {
      await tree.emit(
        "NewToolTip", of: item, at: StatusNotifierItem.path, arguments: [])
    }
    if isNewLayout {
      await tree.emit(
        "LayoutUpdated", of: DBusMenuProtocol.interface,
        at: DBusMenuProtocol.path,
        arguments: [.uint32(revision), .int32(DBusMenuLayout.rootID)])
    }
  }

  // MARK: - The menu

  private func answerMenu(
    _ call: DBusIncomingCall
  ) async -> Result<[DBusValue], DBusFailure> {
    let arguments = call.arguments.map(\.unwrapped)
    func id(_ index: Int) -> Int32 {
      Int32(
        clamping: arguments.count > index ? arguments[index].integer ?? -1 : -1)
    }
    func names(_ index: Int) -> [String] {
      (arguments.count > index ? arguments[index].array ?? [] : []).compactMap(
        \.string)
    }
    switch call.member {
    case "GetLayout":
      guard layout.contains(id(0)) else { return .failure(Self.noItem(id(0))) }
      return .success([
        .uint32(layout.revision),
        layout.layout(of: id(0), depth: id(1), names: names(2)),
      ])
    case "GetGroupProperties":
      var ids = (arguments.first?.array ?? []).compactMap(\.integer).map {
        Int32(clamping: $0)
      }
      if ids.isEmpty { ids = layout.items.keys.sorted() }
      let wanted = names(1)
      return .success([
        .typed(
          signature: "a(ia{sv})",
          .array(
            ids.filter(layout.contains).map { id in
              .structure([
                .int32(id),
                Self.propertyMap(layout.properties(of: id, named: wanted)),
              ])
            }))
      ])
    case "GetProperty":
      let name = arguments.count > 1 ? arguments[1].string ?? "" : ""
      guard layout.contains(id(0)) else { return .failure(Self.noItem(id(0))) }
      guard let value = layout.properties(of: id(0))[name] else {
        return .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "the item \(id(0)) has no property '\(name)'"))
      }
      return .success([.variant(value)])
    case "Event":
      let event = arguments.count > 1 ? arguments[1].string ?? "" : ""
      guard layout.contains(id(0)) else { return .failure(Self.noItem(id(0))) }
      // Answered at once; the click is carried out after.
      if event == "clicked", let action = layout.items[id(0)]?.action {
        Task { await self.perform(action) }
      }
      return .success([])
    case "EventGroup":
      var unknown: [DBusValue] = []
      for element in arguments.first?.array ?? [] {
        guard case .structure(let fields) = element.unwrapped,
          fields.count == 4,
          let itemID = fields[0].integer.map({ Int32(clamping: $0) })
        else { continue }
        guard layout.contains(itemID) else {
          unknown.append(.int32(itemID))
          continue
        }
        if fields[1].string == "clicked",
          let action = layout.items[itemID]?.action
        {
          Task { await self.perform(action) }
        }
      }
      return .success([.typed(signature: "ai", .array(unknown))])
    case "AboutToShow":
      guard layout.contains(id(0)) else { return .failure(Self.noItem(id(0))) }
      return .success([.boolean(false)])
    case "AboutToShowGroup":
      let unknown = (arguments.first?.array ?? []).compactMap(\.integer)
        .map { Int32(clamping: $0) }.filter { !layout.contains($0) }
      return .success([
        .typed(signature: "ai", .array([])),
        .typed(signature: "ai", .array(unknown.map { .int32($0) })),
      ])
    default:
      return .failure(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.UnknownMethod",
          message: "no method \(call.member)"))
    }
  }

  private static func propertyMap(
    _ properties: [String: DBusValue]
  ) -> DBusValue {
    .typed(
      signature: "a{sv}",
      .dictionary(
        Dictionary(
          uniqueKeysWithValues: properties.map {
            (DBusValue.string($0.key), DBusValue.variant($0.value))
          })))
  }

  private static func noItem(_ id: Int32) -> DBusFailure {
    DBusFailure(
      name: "org.freedesktop.DBus.Error.InvalidArgs",
      message: "the menu has no item \(id)")
  }

  /// Carries out a click: the API's method, then a reading.
  private func perform(_ action: TrayAction) async {
    guard let driver else { return }
    let name = AccessorydBus.busName
    let daemon = AccessorydBus.daemonPath
    let call: DBusMethodCall
    switch action {
    case .quit:
      eventSink.yield(.quit)
      return
    case .chooseOutput(let output):
      call = DBusMethodCall(
        destination: name, path: daemon, interface: AccessorydBus.daemon.name,
        member: "ChooseOutput", arguments: [.string(output)],
        startsService: false)
    case .forgetOutputChoices:
      call = DBusMethodCall(
        destination: name, path: daemon, interface: AccessorydBus.daemon.name,
        member: "ForgetOutputChoices", startsService: false)
    case .setPauseWhenTakenOff(let on):
      call = DBusMethodCall(
        destination: name, path: daemon,
        interface: "org.freedesktop.DBus.Properties", member: "Set",
        arguments: [
          .string(AccessorydBus.daemon.name), .string("PauseWhenTakenOff"),
          .variant(.boolean(on)),
        ], startsService: false)
    }
    if case .failure(let failure) = await driver.call(
      call, timeout: .seconds(10))
    {
      logger.warning(
        "accessoryd refused what was clicked",
        metadata: ["dbus.error": "\(failure.name): \(failure.message)"])
    }
    scheduleRefresh()
  }
}
