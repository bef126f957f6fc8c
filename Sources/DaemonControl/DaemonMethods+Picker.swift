// The control socket's picker methods: an app's ASAccessorySession shows a
// picker, a person answers it with `acctl pair`, and the app hears
// AccessorySetupKit's picker events in Apple's order.

import AccessoryControl
import AccessoryEngine
import AccessorySetupKit
import AudioAccessoryKit
import DaemonInputs
import DaemonLifecycle
import HeadphoneReaders

extension DaemonMethods {
  /// `picker.show`: opens the picker for an app's items; with migration
  /// items only, migrates at once (Apple's informational page) and closes
  /// it.
  func showPicker(
    _ shown: PickerShowRequest, _ connection: ControlConnection
  ) async throws -> PickerShowReply {
    guard
      let request = pickers.open(
        items: shown.items, session: shown.session,
        filtersDiscovery: shown.filtersDiscoveryResults)
    else {
      throw ControlError(
        code: .pickerAlreadyActive,
        message: "a picker is already shown; answer or cancel it first "
          + "(acctl pair)",
        data: .object(["case": "pickerAlreadyActive"]))
    }
    publishPicker("pickerDidPresent", request)
    // An app that goes away takes its picker with it.
    connection.whenClosed { [self] in
      if let left = pickers.close(request.id) {
        publishPicker("pickerDidDismiss", left, error: "invalidated")
      }
    }
    if request.items.isEmpty {
      _ = pickers.close(request.id)
      try await finishPicker(request) {
        try await migrateDevices(
          matching: DeviceFilter(
            descriptors: request.migrationItems.map(\.descriptor)))
      }
    }
    return PickerShowReply(
      pickerID: request.id, open: pickers.current?.id == request.id)
  }

  /// `picker.choose`: authorizes a device for the open picker.
  ///
  /// The app hears `pickerSetupPairing`, `pickerSetupRename` if the person
  /// renamed it, `accessoryAdded`, then the migration of the picker's
  /// migration items, and `pickerDidDismiss`. A refused answer leaves the
  /// picker open.
  func choose(
    _ answer: PickerChooseRequest<AccessoryControlDevice.Configuration>
  ) async throws -> DaemonAccessory {
    let id = answer.pickerID
    let address = try Self.address(answer.address)
    let name = answer.name
    // Marked while it is answered: a second answer is refused, another
    // picker cannot show, and a cancel still closes it.
    guard let request = pickers.beginAnswer(id) else {
      throw Self.noSuchPicker(id)
    }
    var succeeded = false
    defer { _ = pickers.endAnswer(id, succeeded: succeeded) }
    let (device, item, shownName) = try await chosenDevice(
      address, for: request)
    publishPicker("pickerSetupPairing", request)
    let chosenName = name ?? shownName
    if chosenName != shownName {
      publishPicker("pickerSetupRename", request)
    }
    do {
      try await authorize(device, name: chosenName, descriptor: item.descriptor)
    } catch {
      publishPicker("pickerSetupFailed", request, error: "\(error)")
      throw error
    }
    succeeded = true
    // A cancel that came meanwhile has dismissed it already.
    let stillOpen = pickers.current?.id == request.id
    try await finishPicker(request, dismissing: stillOpen) {
      if !request.migrationItems.isEmpty {
        try await migrateDevices(
          matching: DeviceFilter(
            descriptors: request.migrationItems.map(\.descriptor)))
      }
    }
    return await accessoryRecord(address)
  }

  /// The device an answer chose, the item it matches and the name the
  /// picker shows for it (the app's, when it filters); refuses a device
  /// that is not seen, not offered, matches no item, or is set up already.
  private func chosenDevice(
    _ address: BluetoothAddress, for request: PickerRequests.Request
  ) async throws -> (DiscoveredDevice, PickerItem, String) {
    var offeredName: String?
    if request.filtersDiscovery {
      guard
        let offered = request.offered.first(where: { $0.address == address })
      else {
        throw AccessoryControlFailure.invalidRequest(
          reason: "the app does not offer \(address) in its picker; offered: "
            + (request.offered.isEmpty
              ? "none yet"
              : request.offered.map { "\($0.name) (\($0.address))" }
                .joined(separator: ", ")))
      }
      offeredName = offered.name
    }
    guard let device = await discovery.device(at: address) else {
      throw await unknownDevice(address)
    }
    if let paired = engine.registry.accessories[address] {
      throw AccessoryControlFailure.invalidRequest(
        reason: "\(paired.displayName) (\(address)) is set up already; "
          + "rename it with 'acctl rename' or remove it with 'acctl unpair'")
    }
    guard
      let item = request.items.first(where: { $0.descriptor.matches(device) })
    else {
      throw AccessoryControlFailure.invalidRequest(
        reason: "\(device.displayName) (\(address)) matches none of the "
          + "picker's items (\(request.items.map(\.name).joined(separator: ", ")))"
      )
    }
    return (device, item, offeredName ?? device.displayName)
  }

  /// Runs the last step of a picker and then dismisses it: with no error,
  /// or with the step's error if it fails; the picker is closed either way.
  private func finishPicker(
    _ request: PickerRequests.Request, dismissing: Bool = true,
    _ step: () async throws -> Void
  ) async throws {
    do {
      try await step()
    } catch {
      if dismissing {
        publishPicker("pickerDidDismiss", request, error: "\(error)")
      }
      throw error
    }
    if dismissing { publishPicker("pickerDidDismiss", request) }
  }

  /// `picker.cancel`: closes the open picker, named by its `pickerID` or
  /// by the `session` that showed it, without an accessory; the app hears
  /// `pickerDidDismiss` with the reason.
  func cancelPicker(_ cancel: PickerCancelRequest) throws -> EmptyReply {
    let id: String
    switch cancel.target {
    case .session(let session):
      guard let open = pickers.current, open.session == session else {
        throw Self.noSuchPicker("of session \(session)")
      }
      id = open.id
    case .pickerID(let pickerID):
      id = pickerID
    }
    guard let request = pickers.close(id) else { throw Self.noSuchPicker(id) }
    publishPicker(
      "pickerDidDismiss", request,
      error: (cancel.reason ?? .userCancelled).rawValue)
    return EmptyReply()
  }

  /// `picker.update`: in `filterDiscoveryResults` mode, replaces the
  /// devices the app's open picker offers, each with the name the app gave
  /// it; `acctl pair` hears `pickerUpdated`.
  func updatePicker(_ update: PickerUpdateRequest) throws -> EmptyReply {
    let session = update.session
    var offered: [(address: BluetoothAddress, name: String)] = []
    for item in update.items {
      offered.append((try Self.address(item.address), item.name))
    }
    guard let current = pickers.current, current.session == session else {
      throw Self.noSuchPicker("of session \(session)")
    }
    guard current.filtersDiscovery else {
      throw ControlError.invalidRequest(
        "the picker does not filter discovery results; show it with "
          + "'filterDiscoveryResults' to offer devices")
    }
    guard let request = pickers.offer(offered, session: session) else {
      throw Self.noSuchPicker("of session \(session)")
    }
    publishPicker("pickerUpdated", request)
    return EmptyReply()
  }

  /// `picker.finishDiscovery`: the app is done filtering; a picker that
  /// offers nothing ends with `discoveryTimeout`.
  func finishPickerDiscovery(
    _ finish: PickerFinishDiscoveryRequest
  ) throws -> EmptyReply {
    let session = finish.session
    guard let current = pickers.current, current.session == session else {
      throw Self.noSuchPicker("of session \(session)")
    }
    if current.offered.isEmpty, let request = pickers.close(current.id) {
      publishPicker("pickerDidDismiss", request, error: "discoveryTimeout")
    }
    return EmptyReply()
  }

  /// The open picker as `picker.pending` shows it.
  static func pendingPicker(_ request: PickerRequests.Request) -> PendingPicker
  {
    PendingPicker(
      pickerID: request.id, items: request.items,
      migrationItems: request.migrationItems,
      filtersDiscoveryResults: request.filtersDiscovery,
      offered: request.offered.map {
        OfferedDevice(address: "\($0.address)", name: $0.name)
      })
  }

  /// The error for an answer to a picker that is not open.
  static func noSuchPicker(_ id: String) -> ControlError {
    ControlError(
      code: .noPicker,
      message: "no picker '\(id)' is open: it was answered, cancelled or "
        + "never shown",
      data: .object(["case": "invalidated"]))
  }

  /// Publishes a picker event for the app that showed the picker.
  func publishPicker(
    _ eventType: String, _ request: PickerRequests.Request,
    error: String? = nil
  ) {
    events.publish(
      .session(
        SessionEvent(
          picker: eventType, pickerID: request.id, session: request.session,
          error: error)))
  }
}

extension Parameters {
  /// Reads a Bluetooth address.
  package func address(_ key: String) throws -> BluetoothAddress {
    try DaemonMethods.address(try requiredString(key))
  }
}

extension DaemonMethods {
  /// Reads a Bluetooth address a request gives.
  ///
  /// - Throws: `invalidRequest`, naming the text and the form expected.
  static func address(_ text: String) throws -> BluetoothAddress {
    do {
      return try BluetoothAddress(parsing: text)
    } catch {
      throw AccessoryControlFailure.invalidRequest(
        reason: error.description)
    }
  }
}
