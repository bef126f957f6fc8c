// The API's objects and what they hold: read from the daemon's own
// answers to `daemon.overview` and `route.get`, so that the bus shows what
// acctl shows, and updated in one pass after events.

import AccessoryControl
import AudioAccessoryKit
import DBus
import DaemonControl
import FoundationEssentials
import RoutingCore
import SessionBusInterfaces

/// The daemon's, the route's and the accessories' objects on one
/// connection.
actor SessionBusObjects {
  let tree: DBusObjectTree
  let methods: DaemonMethods
  let feed: DesktopFeed
  /// The accessories served, by object path.
  private var accessories: Set<String> = []
  private var isPublished = false
  /// The reading to publish next, while one is being published.
  private var pending: DesktopState?
  private var isPublishing = false

  init(tree: DBusObjectTree, feed: DesktopFeed) {
    self.tree = tree
    self.methods = feed.methods
    self.feed = feed
  }

  /// Publishes the latest reading of the daemon's state, or one made
  /// now.
  func publishCurrent() async {
    if let state = await feed.current() { await publish(state) }
  }

  // MARK: - Properties

  /// Brings every object up to the daemon's state: adds and removes
  /// accessories, and sets properties (PropertiesChanged for those that
  /// changed).
  ///
  /// One reading is published at a time; while one is, only the latest
  /// that comes is kept, and published next.
  func publish(_ state: DesktopState) async {
    pending = state
    guard !isPublishing else { return }
    isPublishing = true
    defer { isPublishing = false }
    while let next = pending {
      pending = nil
      await apply(next)
    }
  }

  private func apply(_ state: DesktopState) async {
    let overview = state.overview
    let route = state.route
    let daemonValues = Self.values(of: overview.status)
    let routeValues = Self.values(of: route)
    if !isPublished {
      isPublished = true
      // The policy's switches come with the object, then from show(_:)
      // alone, so that an older reading never sets them back.
      await tree.add(
        AccessorydBus.daemon, at: AccessorydBus.daemonPath,
        values: daemonValues.merging(Self.values(of: feed.policies.policy)) {
          _, new in new
        }, implementation: daemonMethod, setter: daemonSetter)
      await tree.add(
        AccessorydBus.route, at: AccessorydBus.routePath, values: routeValues,
        implementation: routeMethod)
    } else {
      await tree.update(
        daemonValues, of: AccessorydBus.daemon.name,
        at: AccessorydBus.daemonPath)
      await tree.update(
        routeValues, of: AccessorydBus.route.name, at: AccessorydBus.routePath)
    }
    var seen: Set<String> = []
    for record in overview.accessories {
      let path = AccessorydBus.accessoryPath(record.address)
      seen.insert(path)
      let values = Self.values(of: record)
      if accessories.contains(path) {
        await tree.update(values, of: AccessorydBus.accessory.name, at: path)
      } else {
        accessories.insert(path)
        await tree.add(
          AccessorydBus.accessory, at: path, values: values,
          implementation: accessoryMethod(record.address))
      }
    }
    for path in accessories.subtracting(seen).sorted() {
      accessories.remove(path)
      await tree.remove(path)
    }
  }

  /// Shows a policy the daemon put in force: its switches that the
  /// daemon's object has.
  func show(_ policy: Policy) async {
    guard isPublished else { return }
    await tree.update(
      Self.values(of: policy), of: AccessorydBus.daemon.name,
      at: AccessorydBus.daemonPath)
  }

  static func values(of policy: Policy) -> [String: DBusValue] {
    ["PauseWhenTakenOff": .boolean(policy.pauseWhenTakenOff)]
  }

  static func values(of status: DaemonStatus) -> [String: DBusValue] {
    let server = [status.soundServer.name, status.soundServer.version]
      .compactMap { $0 }.joined(separator: " ")
    return [
      "Version": .string(status.version),
      "SoundServer": .string(server),
      "SoundServerState": .string(status.soundServer.state.rawValue),
      "PolicyPath": .string(status.policyPath),
      "FollowsMediaPlayers": .boolean(status.media?.following ?? false),
      "ReadsHeadphones": .boolean(status.headphones?.reading ?? false),
    ]
  }

  static func values(of route: RouteReport) -> [String: DBusValue] {
    let decidedAt = route.decidedAt.map {
      Int64(($0.timeIntervalSince1970 * 1_000_000).rounded())
    }
    return [
      "Output": .string(route.output ?? ""),
      "OutputDescription": .string(route.description ?? ""),
      "Input": .string(route.input ?? ""),
      "InputDescription": .string(route.inputDescription ?? ""),
      "Summary": .string(route.summary),
      "Trigger": .string(route.trigger ?? ""),
      "Pending": .boolean(route.pending),
      "DecidedAt": .int64(decidedAt ?? 0),
    ]
  }

  static func values(
    of record: AccessoryRecord<AccessoryControlDevice.Configuration>
  ) -> [String: DBusValue] {
    let configuration = record.registration?.configuration
    let capabilities =
      configuration?.json["deviceCapabilities"]?.arrayValue?
      .compactMap(\.stringValue) ?? []
    let placement = configuration?.json["devicePlacement"]?.stringValue ?? ""
    let link = record.headphones
    return [
      "Address": .string(record.address),
      "Name": .string(record.displayName),
      "FormFactor": .string(record.formFactor ?? ""),
      "State": .string(record.state.rawValue),
      "Registered": .boolean(record.registration != nil),
      "Capabilities": .typed(
        signature: "as", .array(capabilities.map { .string($0) })),
      "Placement": .string(placement),
      "Output": .string(record.output ?? ""),
      "Link": .string(link?.state.rawValue ?? ""),
      "Buds": .typed(
        signature: "as", .array((link?.buds ?? []).map { .string($0) })),
      "Battery": .typed(
        signature: "a(sib)",
        .array(
          (link?.battery ?? []).map {
            .structure([
              .string($0.part), .int32(Int32(clamping: $0.percent)),
              .boolean($0.charging ?? false),
            ])
          })),
    ]
  }

  // MARK: - Signals

  /// Sends the signal an event of the daemon stands for, if any.
  func signal(_ event: DaemonEvent) async {
    switch event {
    case .route(let route):
      await tree.emit(
        "Changed", of: AccessorydBus.route, at: AccessorydBus.routePath,
        arguments: [
          .string(route.output ?? ""), .string(route.summary),
          .string(route.chosenBy.rawValue),
          .uint32(UInt32(clamping: route.moves)),
          .boolean(route.defaultChanged),
        ])
    case .media(let media):
      await tree.emit(
        "MediaEvent", of: AccessorydBus.daemon, at: AccessorydBus.daemonPath,
        arguments: [
          .string(media.eventType.rawValue), .string(media.accessory),
          .typed(
            signature: "as", .array(media.players.map { .string($0.busName) })),
          .typed(signature: "au", .array(media.streams.map { .uint32($0) })),
          .string(media.reason),
        ])
    default:
      return
    }
  }

  // MARK: - Methods

  /// The answer of a call that comes as the API stops.
  static let gone = DBusFailure(
    name: "org.freedesktop.DBus.Error.Failed",
    message: "accessoryd stops serving the API")

  /// Calls a control method and decodes its answer, as a D-Bus result.
  private nonisolated func request<Reply: Decodable>(
    _ method: String, _ params: JSONValue?, as type: Reply.Type
  ) async -> Result<Reply, DBusFailure> {
    do {
      return .success(
        try await methods.call(method: method, params: params).decode(as: type))
    } catch let error as ControlError {
      return .failure(DBusFailure(error))
    } catch {
      return .failure(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.Failed", message: "\(error)"))
    }
  }

  nonisolated var daemonMethod: DBusMethodImplementation {
    // Weak: the tree keeps the implementations, and this object the tree.
    { [weak self] call in
      guard let self else { return .failure(Self.gone) }
      switch call.member {
      case "ListOutputs":
        return await request(
          OutputListRequest.method, nil, as: AudioDevices.self
        )
        .map { devices in
          [
            .typed(
              signature: "a(ssbbbss)",
              .array(
                devices.outputs.map { device in
                  .structure([
                    .string(device.name), .string(device.description),
                    .boolean(device.isDefault),
                    .boolean(device.isPersonsChoice),
                    .boolean(device.isAvailable),
                    .string(device.accessory ?? ""), .string(device.why),
                  ])
                }))
          ]
        }
      case "ChooseOutput":
        let device = call.arguments.first?.string ?? ""
        return await request(
          OutputChooseRequest.method, .object(["device": .string(device)]),
          as: OutputChoiceReply.self
        ).map { [.string($0.chosen ?? ""), .string($0.route.summary)] }
      case "ForgetOutputChoices":
        return await request(
          OutputForgetRequest.method, nil, as: OutputChoiceReply.self
        ).map {
          [.typed(signature: "as", .array($0.forgotten.map { .string($0) }))]
        }
      case "ReloadPolicy":
        return await request(
          PolicyReloadRequest.method, nil, as: PolicyDocument.self
        ).map { [.string($0.path ?? "built-in default")] }
      default:
        return .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.UnknownMethod",
            message: "no method \(call.member)"))
      }
    }
  }

  /// Sets the daemon's writable properties: its policy's switches, as
  /// `policy.set` does.
  nonisolated var daemonSetter: DBusPropertySetter {
    { [weak self] name, value in
      guard let self else { return .failure(Self.gone) }
      guard name == "PauseWhenTakenOff", case .boolean(let on) = value else {
        return .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "\(name) cannot be set to \(value)"))
      }
      let result = await request(
        PolicySetRequest.method,
        PolicySetRequest(key: "media.pauseWhenTakenOff", value: on).params,
        as: PolicyDocument.self)
      switch result {
      case .success:
        await show(feed.policies.policy)
        return .success(())
      case .failure(let failure):
        return .failure(failure)
      }
    }
  }

  nonisolated var routeMethod: DBusMethodImplementation {
    { [weak self] _ in
      guard let self else { return .failure(Self.gone) }
      return await request(
        RouteGetRequest.method, .object(["explain": .bool(true)]),
        as: RouteReport.self
      ).map { [.string($0.text ?? $0.summary)] }
    }
  }

  nonisolated func accessoryMethod(
    _ address: String
  ) -> DBusMethodImplementation {
    { [weak self] call in
      guard let self else { return .failure(Self.gone) }
      guard let argument = call.arguments.first,
        case .object(let members)? = JSONValue(busValue: argument)
      else {
        return .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "\(call.member) takes an a{sv} of configuration fields"))
      }
      let params: JSONValue =
        call.member == "Register"
        ? .object([
          "accessory": .string(address), "configuration": .object(members),
        ])
        : .object(["accessory": .string(address), "changes": .object(members)])
      let method =
        call.member == "Register"
        ? AccessoryRegisterRequest.method : AccessoryUpdateRequest.method
      // The daemon's event for the change brings a new reading.
      return await request(method, params, as: JSONValue.self).map { _ in [] }
    }
  }
}
