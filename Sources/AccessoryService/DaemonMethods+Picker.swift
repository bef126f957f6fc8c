// The control socket's picker methods: an app's ASAccessorySession shows a
// picker, a person answers it with `acctl pair`, and the app hears
// AccessorySetupKit's picker events in Apple's order.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit

extension DaemonMethods {
  /// `picker.show`: opens the picker for an app's items; with migration
  /// items only, migrates at once (Apple's informational page) and closes
  /// it.
  func showPicker(_ params: Parameters) async throws -> JSONValue {
    try params.allow(["items", "session"])
    let items = try params.pickerItems("items")
    guard
      let request = pickers.open(
        items: items, session: try params.string("session"))
    else {
      throw ControlError(
        code: Self.pickerAlreadyActive,
        message: "a picker is already shown; answer or cancel it first "
          + "(acctl pair)",
        data: .object(["case": "pickerAlreadyActive"]))
    }
    publishPicker("pickerDidPresent", request)
    if request.items.isEmpty {
      _ = pickers.close(request.id)
      try await migrateDevices(
        matching: DeviceFilter(
          descriptors: request.migrationItems.map(\.descriptor)))
      publishPicker("pickerDidDismiss", request)
    }
    return .object([
      "pickerID": .string(request.id),
      "open": .bool(pickers.current?.id == request.id),
    ])
  }

  /// `picker.choose`: authorizes a device for the open picker, with the
  /// events an app hears: `pickerSetupPairing`, `pickerSetupRename` if the
  /// person renamed it, `accessoryAdded`, then the migration of the
  /// picker's migration items, and `pickerDidDismiss`.
  func choose(_ params: Parameters) async throws -> JSONValue {
    try params.allow(["pickerID", "address", "name"])
    let id = try params.string("pickerID", required: true)!
    let address = try params.address("address")
    let name = try params.string("name")
    // Taken while it is answered, so that two answers cannot both pair.
    guard let request = pickers.close(id) else { throw Self.noSuchPicker(id) }
    let device: DiscoveredDevice
    let item: PickerItem
    do {
      guard let seen = await discovery.device(at: address) else {
        throw Self.unknownDevice(address)
      }
      guard
        let matching = request.items.first(where: {
          $0.descriptor.matches(seen)
        })
      else {
        throw AccessoryControlDevice.Error.invalidRequest(
          reason: "\(seen.displayName) (\(address)) matches none of the "
            + "picker's items (\(request.items.map(\.name).joined(separator: ", ")))"
        )
      }
      (device, item) = (seen, matching)
    } catch {
      pickers.restore(request)
      throw error
    }
    publishPicker("pickerSetupPairing", request)
    if let name, name != device.displayName {
      publishPicker("pickerSetupRename", request)
    }
    do {
      try authorize(
        device, name: name ?? device.displayName, descriptor: item.descriptor)
    } catch {
      publishPicker("pickerSetupFailed", request, error: "\(error)")
      pickers.restore(request)
      throw error
    }
    if !request.migrationItems.isEmpty {
      try await migrateDevices(
        matching: DeviceFilter(
          descriptors: request.migrationItems.map(\.descriptor)))
    }
    publishPicker("pickerDidDismiss", request)
    await router.reconcile(because: "an accessory was paired")
    return await accessoryJSON(address)
  }

  /// `picker.cancel`: closes the open picker, named by its `pickerID` or
  /// by the `session` that showed it, without an accessory; the app hears
  /// `pickerDidDismiss` with the reason.
  func cancelPicker(_ params: Parameters) throws -> JSONValue {
    try params.allow(["pickerID", "session", "reason"])
    let reason = try params.string("reason") ?? "userCancelled"
    guard ["userCancelled", "invalidated"].contains(reason) else {
      throw ControlError.invalidParams(
        "'reason' must be 'userCancelled' or 'invalidated', not '\(reason)'")
    }
    let id: String
    if let session = try params.string("session") {
      guard let open = pickers.current, open.session == session else {
        throw Self.noSuchPicker("of session \(session)")
      }
      id = open.id
    } else {
      id = try params.string("pickerID", required: true)!
    }
    guard let request = pickers.close(id) else { throw Self.noSuchPicker(id) }
    publishPicker("pickerDidDismiss", request, error: reason)
    return .object([:])
  }

  /// The open picker as `picker.pending` shows it.
  static func pickerJSON(_ request: PickerRequests.Request) -> JSONValue {
    .object([
      "pickerID": .string(request.id),
      "items": .array(request.items.map(\.json)),
      "migrationItems": .array(request.migrationItems.map(\.json)),
    ])
  }

  /// The JSON-RPC error code for a picker shown while another is open.
  static let pickerAlreadyActive = -32010
  /// The JSON-RPC error code for an answer to a picker that is not open.
  static let noPicker = -32011

  /// The error for an answer to a picker that is not open.
  static func noSuchPicker(_ id: String) -> ControlError {
    ControlError(
      code: noPicker,
      message: "no picker '\(id)' is open: it was answered, cancelled or "
        + "never shown",
      data: .object(["case": "invalidated"]))
  }

  /// Publishes a picker event for the app that showed the picker.
  func publishPicker(
    _ eventType: String, _ request: PickerRequests.Request,
    error: String? = nil
  ) {
    var event: [String: JSONValue] = [
      "kind": "session", "eventType": .string(eventType),
      "pickerID": .string(request.id),
      "session": request.session.map(JSONValue.string) ?? .null,
    ]
    if let error { event["error"] = .string(error) }
    events.publish(.object(event))
  }
}

extension Parameters {
  /// Reads picker items: objects with `name`, `descriptor`, and optionally
  /// `setupOptions`, `productImage` and `migration`.
  func pickerItems(_ key: String) throws(ControlError) -> [PickerItem] {
    guard case .array(let values)? = fields[key], !values.isEmpty else {
      throw .invalidParams("'\(key)' must be a non-empty array of items")
    }
    var items: [PickerItem] = []
    for (index, value) in values.enumerated() {
      let path = "\(key)[\(index)]"
      let item = Parameters(value)
      try item.allow(
        ["name", "descriptor", "setupOptions", "productImage", "migration"])
      guard let name = try item.string("name"), !name.isEmpty else {
        throw .invalidParams("\(path).name must be a name that is not empty")
      }
      guard let descriptorValue = item.fields["descriptor"] else {
        throw .invalidParams("\(path).descriptor is missing")
      }
      let descriptor = try Parameters.descriptor(
        from: descriptorValue, named: "\(path).descriptor")
      var options: [String] = []
      if case .array(let texts)? = item.fields["setupOptions"] {
        for text in texts {
          guard case .string(let option) = text,
            ["rename", "confirmAuthorization", "finishInApp"].contains(option)
          else {
            throw .invalidParams(
              "\(path).setupOptions holds \(text); expected 'rename', "
                + "'confirmAuthorization' or 'finishInApp'")
          }
          options.append(option)
        }
      }
      items.append(
        PickerItem(
          name: name, descriptor: descriptor, setupOptions: options,
          productImage: try item.string("productImage"),
          isMigration: try item.bool("migration") ?? false))
    }
    return items
  }

  /// Reads a Bluetooth address.
  func address(_ key: String) throws -> BluetoothAddress {
    let text = try string(key, required: true)!
    do {
      return try BluetoothAddress(parsing: text)
    } catch {
      throw AccessoryControlDevice.Error.invalidRequest(
        reason: error.description)
    }
  }
}
