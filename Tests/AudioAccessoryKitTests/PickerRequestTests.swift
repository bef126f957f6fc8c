// The picker's typed requests and replies, and `discovery.list`'s reply:
// what a client sends is what the daemon reads back, the wire keeps the
// members it had, and a bad member is refused by its path.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import CoreBluetooth
import Foundation
import Testing

@Suite("Typed picker requests")
struct PickerRequestTests {
  /// A descriptor that follows Apple's rules.
  private let buds = ASDiscoveryDescriptor(
    bluetoothServiceUUID: CBUUID(string: "FD2D"),
    bluetoothNameSubstring: "Buds")

  /// Reads params as the daemon does.
  private func read<Request: DaemonRequest>(
    _ type: Request.Type, _ params: JSONValue?
  ) throws(ControlError) -> Request {
    try Request(params: RequestParameters(params))
  }

  /// A picker item's params as an app sends them.
  private func itemParams(
    _ members: [String: JSONValue] = [:]
  ) throws -> JSONValue {
    var fields: [String: JSONValue] = [
      "name": "My Buds", "descriptor": try JSONValue(encoding: buds),
    ]
    fields.merge(members) { _, new in new }
    return .object(fields)
  }

  @Test("Each picker request reads back exactly what it sends")
  func roundTrips() throws {
    let item = PickerItem(
      name: "My Buds", descriptor: buds,
      setupOptions: [.rename, .finishInApp], productImage: "buds.png")
    let migration = PickerItem(
      name: "Old Buds", descriptor: buds, isMigration: true)
    let show = PickerShowRequest(
      items: [item, migration], session: "token",
      filtersDiscoveryResults: true)
    #expect(try roundTrip(show) == show)
    let bare = PickerShowRequest(items: [item])
    #expect(try roundTrip(bare) == bare)
    #expect(try roundTrip(PickerPendingRequest()) == PickerPendingRequest())
    let choose = PickerChooseRequest<AccessoryControlDevice.Configuration>(
      pickerID: "7", address: "AA:BB:CC:DD:EE:01", name: "Kitchen")
    #expect(try roundTrip(choose) == choose)
    let byID = PickerCancelRequest(.pickerID("7"))
    #expect(try roundTrip(byID) == byID)
    let bySession = PickerCancelRequest(.session("token"), reason: .invalidated)
    #expect(try roundTrip(bySession) == bySession)
    let update = PickerUpdateRequest(
      session: "token",
      items: [
        OfferedDevice(
          address: "AA:BB:CC:DD:EE:01", name: "Buds", productImage: "b.png"),
        OfferedDevice(address: "AA:BB:CC:DD:EE:02", name: "Phones"),
      ])
    #expect(try roundTrip(update) == update)
    let nothingOffered = PickerUpdateRequest(session: "token", items: [])
    #expect(try roundTrip(nothingOffered) == nothingOffered)
    let finish = PickerFinishDiscoveryRequest(session: "token")
    #expect(try roundTrip(finish) == finish)
  }

  @Test("The picker requests keep the wire's method and member names")
  func wireNames() throws {
    #expect(PickerShowRequest.method == "picker.show")
    #expect(PickerPendingRequest.method == "picker.pending")
    #expect(
      PickerChooseRequest<JSONValue>.method == "picker.choose")
    #expect(PickerCancelRequest.method == "picker.cancel")
    #expect(PickerUpdateRequest.method == "picker.update")
    #expect(PickerFinishDiscoveryRequest.method == "picker.finishDiscovery")
    let show = PickerShowRequest(
      items: [
        PickerItem(
          name: "My Buds", descriptor: buds, setupOptions: [.rename],
          productImage: "buds.png")
      ], session: "token")
    #expect(
      show.params
        == .object([
          "session": "token", "filterDiscoveryResults": false,
          "items": [
            .object([
              "name": "My Buds", "descriptor": try JSONValue(encoding: buds),
              "setupOptions": ["rename"], "productImage": "buds.png",
              "migration": false,
            ])
          ],
        ]))
    #expect(
      PickerCancelRequest(.pickerID("7")).params
        == .object(["pickerID": "7"]))
    #expect(
      PickerCancelRequest(.session("token"), reason: .invalidated).params
        == .object(["session": "token", "reason": "invalidated"]))
    #expect(
      PickerChooseRequest<JSONValue>(pickerID: "7", address: "AA").params
        == .object(["pickerID": "7", "address": "AA"]))
    #expect(
      PickerUpdateRequest(
        session: "token", items: [OfferedDevice(address: "AA", name: "Buds")]
      ).params
        == .object([
          "session": "token",
          "items": [.object(["address": "AA", "name": "Buds"])],
        ]))
  }

  @Test("A session names the picker to cancel before a pickerID")
  func cancelTarget() throws {
    let both = try read(
      PickerCancelRequest.self,
      .object(["pickerID": "7", "session": "token"]))
    #expect(both.target == .session("token"))
    #expect(both.reason == nil)
  }

  @Test("picker.show names the item and the member it refuses")
  func showErrors() throws {
    for params: JSONValue? in [nil, .object(["items": []])] {
      #expect(
        throws: ControlError.invalidParams(
          "'items' must be a non-empty array of items")
      ) { try read(PickerShowRequest.self, params) }
    }
    let cases: [(JSONValue, String)] = [
      (
        try itemParams(["name": ""]),
        "items[0].name must be a name that is not empty"
      ),
      (
        .object(["name": "My Buds"]), "items[0].descriptor is missing"
      ),
      (
        try itemParams(["setupOptions": ["rename", "dance"]]),
        "items[0].setupOptions holds \(JSONValue.string("dance")); expected "
          + "'rename', 'confirmAuthorization' or 'finishInApp'"
      ),
      (
        try itemParams(["setupOptions": "rename"]),
        "items[0].setupOptions must be an array of 'rename', "
          + "'confirmAuthorization' or 'finishInApp'"
      ),
      (
        try itemParams(["productImage": 3]),
        "items[0].productImage must be a string"
      ),
      (
        try itemParams(["migration": "yes"]),
        "items[0].migration must be true or false"
      ),
      (
        try itemParams(["colour": "red"]),
        "unknown parameter items[0].colour; expected 'name', 'descriptor', "
          + "'setupOptions', 'productImage', 'migration'"
      ),
    ]
    for (item, message) in cases {
      #expect(throws: ControlError.invalidParams(message)) {
        try read(PickerShowRequest.self, .object(["items": [item]]))
      }
    }
    // A descriptor that breaks Apple's rules is named by its path.
    let loose = try itemParams([
      "descriptor": .object(["bluetoothNameSubstring": "Buds"])
    ])
    let error = #expect(throws: ControlError.self) {
      try read(
        PickerShowRequest.self, .object(["items": [try itemParams(), loose]]))
    }
    #expect(
      error?.message.contains("items[1].descriptor is not a valid descriptor")
        == true)
    #expect(
      throws: ControlError.invalidParams(
        "'filterDiscoveryResults' must be true or false")
    ) {
      try read(
        PickerShowRequest.self,
        .object(["items": [try itemParams()], "filterDiscoveryResults": 1]))
    }
  }

  @Test("The other picker requests name the member they refuse")
  func otherErrors() throws {
    #expect(
      throws: ControlError.invalidParams(
        "unknown parameter 'pickerID'; this method takes none")
    ) { try read(PickerPendingRequest.self, .object(["pickerID": "7"])) }
    #expect(throws: ControlError.invalidParams("'pickerID' is missing")) {
      try read(
        PickerChooseRequest<JSONValue>.self, .object(["address": "AA"]))
    }
    #expect(throws: ControlError.invalidParams("'address' is missing")) {
      try read(PickerChooseRequest<JSONValue>.self, .object(["pickerID": "7"]))
    }
    #expect(throws: ControlError.invalidParams("'name' must be a string")) {
      try read(
        PickerChooseRequest<JSONValue>.self,
        .object(["pickerID": "7", "address": "AA", "name": 1]))
    }
    #expect(
      throws: ControlError.invalidParams(
        "'reason' must be 'userCancelled' or 'invalidated', not 'bored'")
    ) {
      try read(
        PickerCancelRequest.self, .object(["pickerID": "7", "reason": "bored"]))
    }
    #expect(throws: ControlError.invalidParams("'pickerID' is missing")) {
      try read(PickerCancelRequest.self, nil)
    }
    #expect(throws: ControlError.invalidParams("'session' is missing")) {
      try read(PickerUpdateRequest.self, .object(["items": []]))
    }
    #expect(
      throws: ControlError.invalidParams("'items' must be an array of devices")
    ) { try read(PickerUpdateRequest.self, .object(["session": "token"])) }
    let offers: [(JSONValue, String)] = [
      (
        .object(["address": "AA"]),
        "items[1].name must be a name that is not empty"
      ),
      (.object(["name": "Buds"]), "items[1].address is missing"),
      (
        .object(["address": "AA", "name": "Buds", "price": 3]),
        "unknown parameter items[1].price; expected 'address', 'name', "
          + "'productImage'"
      ),
    ]
    for (offer, message) in offers {
      #expect(throws: ControlError.invalidParams(message)) {
        try read(
          PickerUpdateRequest.self,
          .object([
            "session": "token",
            "items": [.object(["address": "AA", "name": "Buds"]), offer],
          ]))
      }
    }
    #expect(throws: ControlError.invalidParams("'session' is missing")) {
      try read(PickerFinishDiscoveryRequest.self, nil)
    }
    #expect(
      throws: ControlError.invalidParams(
        "unknown parameter 'pickerID'; expected 'session'")
    ) {
      try read(
        PickerFinishDiscoveryRequest.self,
        .object(["session": "token", "pickerID": "7"]))
    }
  }

  @Test("picker.pending's answer keeps its members, null for no picker")
  func pendingReply() throws {
    #expect(
      try JSONValue(encoding: PickerPendingReply(picker: nil))
        == .object(["picker": .null]))
    let picker = PendingPicker(
      pickerID: "3",
      items: [PickerItem(name: "My Buds", descriptor: buds)],
      migrationItems: [
        PickerItem(name: "Old", descriptor: buds, isMigration: true)
      ],
      filtersDiscoveryResults: true,
      offered: [OfferedDevice(address: "AA:BB:CC:DD:EE:01", name: "Buds")])
    let json = try JSONValue(encoding: PickerPendingReply(picker: picker))
    #expect(json["picker"]?["filterDiscoveryResults"] == true)
    #expect(json["picker"]?["items"]?[0]?["productImage"] == .null)
    #expect(json["picker"]?["items"]?[0]?["setupOptions"] == [])
    #expect(json["picker"]?["migrationItems"]?[0]?["migration"] == true)
    #expect(
      json["picker"]?["offered"]
        == [.object(["address": "AA:BB:CC:DD:EE:01", "name": "Buds"])])
    #expect(try json.decode(as: PickerPendingReply.self).picker == picker)
    // An answer with only the members an older daemon sent still reads.
    let minimal: JSONValue = .object([
      "pickerID": "7",
      "items": [
        .object([
          "name": "My Buds", "descriptor": try JSONValue(encoding: buds),
          "setupOptions": ["rename", "somethingNew"],
        ])
      ],
    ])
    let read = try minimal.decode(as: PendingPicker.self)
    #expect(read.items.first?.setupOptions == [.rename])
    #expect(read.migrationItems.isEmpty && read.offered.isEmpty)
    #expect(!read.filtersDiscoveryResults)
    #expect(
      try JSONValue(encoding: PickerShowReply(pickerID: "3", open: false))
        == .object(["pickerID": "3", "open": false]))
  }

  @Test("discovery.list's devices keep their members and read back")
  func discoveredDevices() throws {
    var device = DiscoveredDevice(
      address: try BluetoothAddress(parsing: "AA:BB:CC:DD:EE:01"),
      name: "Buds", serviceUUIDs: [CBUUID(string: "FD2D")],
      manufacturerData: [0x004C: Data([0x07, 0x19])],
      serviceData: [CBUUID(string: "FD2D"): Data([0x0A])], rssi: -40,
      isPaired: true, sources: [.soundServer, .bluez])
    device.audioProfiles = ["a2dp-sink"]
    var record = DiscoveredDeviceRecord(device, authorized: false)
    var json = try JSONValue(encoding: record)
    #expect(json["alias"] == .null)
    #expect(json["icon"] == .null)
    #expect(json["rssi"] == .number(-40))
    #expect(json["manufacturerData"] == .object(["76": "0719"]))
    #expect(json["sources"] == ["bluez", "soundServer"])
    #expect(json["matches"] == nil && json["mismatch"] == nil)
    #expect(try json.decode(as: DiscoveredDeviceRecord.self) == record)
    #expect(
      DiscoveredDevice(record: record)?.manufacturerData
        == device.manufacturerData)
    #expect(DiscoveredDevice(record: record)?.serviceData == device.serviceData)
    #expect(DiscoveredDevice(record: record)?.rssi == -40)
    record.matches = true
    json = try JSONValue(encoding: DiscoveryList(devices: [record]))
    #expect(json["devices"]?[0]?["matches"] == true)
    #expect(json["devices"]?[0]?["mismatch"] == .null)
  }
}

extension JSONValue {
  /// The item at an index of an array, or nil.
  fileprivate subscript(index: Int) -> JSONValue? {
    if case .array(let items) = self, items.indices.contains(index) {
      return items[index]
    }
    return nil
  }
}
