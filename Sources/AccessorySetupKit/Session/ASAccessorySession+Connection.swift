// The session's connection to accessoryd: connecting, following its
// events, and the requests it sends on an app's behalf.

import AccessoryControl
import ConcurrencyHelpers
import CoreBluetooth
import Dispatch
import FoundationEssentials

extension ASAccessorySession {
  // MARK: - Connection

  /// Connects, subscribes, loads the accessories, then reads events until
  /// the session is invalidated or the connection ends.
  func connect() {
    let events: ControlClient
    let calls: ControlClient
    let accessories: [ASAccessory]
    do {
      events = try ControlClient(path: socketPath)
      _ = try events.call(EventsSubscribeRequest())
      calls = try ControlClient(path: socketPath)
      accessories = try calls.call(AccessoryListRequest<JSONValue>())
        .accessories.compactMap(ASAccessory.init(record:))
        .sorted { $0.displayName < $1.displayName }
    } catch {
      // Unless invalidate() came first and said so already.
      let deliver = state.withLock { state in
        guard state.phase == .activating else {
          return nil as ((@Sendable (ASAccessoryEvent) -> Void)?)
        }
        state.phase = .invalidated
        return state.deliver
      }
      deliver?(
        ASAccessoryEvent(
          eventType: .invalidated,
          error: ASError(
            .activationFailed, "cannot reach accessoryd: \(error)")))
      return
    }
    let deliver = state.withLock {
      state -> (@Sendable (ASAccessoryEvent) -> Void)? in
      guard state.phase == .activating else { return nil }
      state.phase = .active
      state.events = events
      state.calls = calls
      state.accessories = accessories
      return state.deliver
    }
    guard let deliver else {
      events.close()
      calls.close()
      return
    }
    deliver(ASAccessoryEvent(eventType: .activated))
    while let notification = try? events.nextNotification() {
      guard notification.method == "event", let event = notification.params
      else { continue }
      handle(event, deliver)
    }
    events.close()
    // The daemon went away while the session was active.
    let lost = state.withLock { state -> (@Sendable ((any Error)?) -> Void)?? in
      guard state.phase == .active else { return nil }
      state.phase = .invalidated
      defer { state.pickerCompletion = nil }
      return .some(state.pickerCompletion)
    }
    if let lost {
      lost?(ASError(.connectionFailed, "the connection to accessoryd ended"))
      deliver(
        ASAccessoryEvent(
          eventType: .invalidated,
          error: ASError(
            .connectionFailed, "the connection to accessoryd ended")))
    }
  }

  /// Turns one daemon event into the session's events.
  func handle(
    _ json: JSONValue,
    _ deliver: @escaping @Sendable (ASAccessoryEvent) -> Void
  ) {
    guard let event = try? json.decode(as: ControlEvent<JSONValue>.self)
    else { return }
    switch event {
    case .accessory(let event):
      guard let name = event.change.eventType,
        let eventType = ASAccessoryEventType(name: name),
        let accessory = ASAccessory(event: event.accessory)
      else { return }
      state.withLock { state in
        state.accessories.removeAll {
          $0.bluetoothAddress == accessory.bluetoothAddress
        }
        if eventType != .accessoryRemoved {
          state.accessories.append(accessory)
          state.accessories.sort { $0.displayName < $1.displayName }
        }
      }
      deliver(ASAccessoryEvent(eventType: eventType, accessory: accessory))
    case .session(let event):
      guard let eventType = ASAccessoryEventType(name: event.eventType) else {
        return
      }
      handle(event, as: eventType, deliver)
    case .route, .soundServer, .discovery, .media, .headphones, .other:
      return
    }
  }

  /// Turns one session event of the daemon into the session's event.
  func handle(
    _ event: SessionEvent, as eventType: ASAccessoryEventType,
    _ deliver: @escaping @Sendable (ASAccessoryEvent) -> Void
  ) {
    switch eventType {
    case .migrationComplete:
      deliver(ASAccessoryEvent(eventType: .migrationComplete))
    case .pickerDidPresent, .pickerSetupPairing, .pickerSetupRename,
      .pickerSetupBridging, .pickerSetupFailed, .pickerDidDismiss:
      guard event.session == token else { return }
      let error: ASError? =
        switch event.error {
        case "userCancelled"?:
          ASError(.userCancelled, "the person cancelled the picker")
        case "invalidated"?:
          ASError(.invalidated, "the session was invalidated")
        case "discoveryTimeout"?:
          ASError(
            .discoveryTimeout, "discovery ended and the app offered nothing")
        case let reason?: ASError(.unknown, reason)
        case nil: nil
        }
      deliver(ASAccessoryEvent(eventType: eventType, error: error))
      if eventType == .pickerDidPresent { followDiscovery(deliver) }
      if eventType == .pickerDidDismiss {
        let follower = state.withLock { state in
          defer { state.filtering = nil }
          return state.filtering?.client
        }
        follower?.interrupt()
        let completion = state.withLock { state in
          defer { state.pickerCompletion = nil }
          return state.pickerCompletion
        }
        completion?(error)
      }
    case .unknown, .activated, .invalidated, .accessoryDiscovered,
      .accessoryAdded, .accessoryChanged, .accessoryRemoved:
      return
    }
  }

  /// For a picker that filters discovery results: follows the devices
  /// that match its items on a connection of its own, and delivers
  /// ``ASAccessoryEventType/accessoryDiscovered`` for each one found, until
  /// the picker is dismissed.
  func followDiscovery(
    _ deliver: @escaping @Sendable (ASAccessoryEvent) -> Void
  ) {
    guard let descriptors = state.withLock({ $0.filtering?.descriptors }),
      let client = try? ControlClient(path: socketPath)
    else { return }
    let started = state.withLock { state -> Bool in
      guard state.filtering != nil else { return false }
      state.filtering?.client = client
      return true
    }
    guard started else {
      client.close()
      return
    }
    startThread {
      defer { client.close() }
      let subscribed = try? client.call(
        DiscoverySubscribeRequest(descriptors: descriptors))
      guard subscribed != nil else { return }
      var delivered = Set<BluetoothAddress>()
      func discovered(_ record: DiscoveredDeviceRecord?) {
        // Nothing after the picker was dismissed.
        guard self.state.withLock({ $0.filtering?.client === client }),
          let record, let device = DiscoveredDevice(record: record),
          let descriptor = descriptors.first(where: { $0.matches(device) }),
          delivered.insert(device.address).inserted
        else { return }
        deliver(
          ASAccessoryEvent(
            eventType: .accessoryDiscovered,
            accessory: ASDiscoveredAccessory(
              device: device, descriptor: descriptor)))
      }
      // The devices found before the picker, then each new one.
      let listed = try? client.call(
        DiscoveryListRequest(descriptors: descriptors))
      listed?.devices.forEach(discovered)
      while let notification = try? client.nextNotification() {
        if case .discovery(let event)? = try? notification.params?.decode(
          as: ControlEvent<JSONValue>.self),
          event.change == .added
        {
          discovered(
            try? event.device.decode(as: DiscoveredDeviceRecord.self))
        }
      }
    }
  }

  // MARK: - Helpers

  /// Sends a request on a thread of its own and reports the outcome to
  /// the completion handler.
  func call<Request: DaemonRequest>(
    _ request: Request, _ completion: UncheckedCompletion
  ) {
    let client = state.withLock { state -> Result<ControlClient, ASError> in
      guard state.phase == .active, let calls = state.calls else {
        return .failure(
          ASError(
            state.phase == .invalidated ? .invalidated : .invalidRequest,
            state.phase == .invalidated
              ? "the session was invalidated; create a new one"
              : "activate the session first"))
      }
      return .success(calls)
    }
    startThread {
      switch client {
      case .failure(let error): self.finish(completion, error)
      case .success(let client):
        do {
          _ = try client.call(request)
          self.finish(completion, nil)
        } catch {
          self.finish(completion, Self.sessionError(error))
        }
      }
    }
  }

  /// Reports an outcome to a completion handler on the app's queue.
  func finish(_ completion: UncheckedCompletion, _ error: (any Error)?) {
    let queue = state.withLock { $0.queue } ?? .global()
    queue.async { completion.call(error) }
  }

  /// One picker item as the daemon takes it; checks its descriptor.
  func pickerItem(_ item: ASPickerDisplayItem) throws -> PickerItem {
    do {
      try item.descriptor.validate(against: setupConfiguration)
    } catch {
      throw ASError(.invalidRequest, "picker item '\(item.name)': \(error)")
    }
    return PickerItem(
      name: item.name, descriptor: item.descriptor,
      setupOptions: item.setupOptions,
      productImage: item.productImage.reference,
      isMigration: item.isMigration)
  }

  func addressJSON(_ accessory: ASAccessory) -> JSONValue {
    .string(selector(accessory))
  }

  /// How the daemon finds an accessory: its address, else its name.
  func selector(_ accessory: ASAccessory) -> String {
    accessory.bluetoothAddress?.description ?? accessory.displayName
  }

  /// The ASError for a failed control call.
  static func sessionError(_ error: any Error) -> ASError {
    guard let error = error as? ControlClientError else {
      return ASError(.unknown, "\(error)")
    }
    switch error {
    case .remote(let remote):
      if case .string("pickerAlreadyActive")? = remote.data?["case"] {
        return ASError(.pickerAlreadyActive, remote.message)
      }
      return ASError(.invalidRequest, remote.message)
    case .unreachable, .connectionLost, .permissionDenied, .timedOut,
      .servedByAnotherUser:
      return ASError(.connectionFailed, error.description)
    case .unexpectedAnswer:
      return ASError(.unknown, error.description)
    }
  }
}
