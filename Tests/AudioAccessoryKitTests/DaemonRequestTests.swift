// The typed requests of the control protocol: what a client sends is what
// the daemon reads back, the wire keeps its names, and a bad member is
// refused by name.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import CoreBluetooth
import Foundation
import Testing

/// Sends a request's params through the wire's text and reads them back
/// as the daemon does.
func roundTrip<Request: DaemonRequest>(_ request: Request) throws -> Request {
  let text = request.params.map { $0.serialized() } ?? Array("null".utf8)
  let value = try JSONDecoder().decode(JSONValue.self, from: Data(text))
  return try Request(params: RequestParameters(value))
}

@Suite("Typed requests")
struct DaemonRequestTests {
  @Test("Each request reads back exactly what it sends")
  func roundTrips() throws {
    let configuration = AccessoryControlDevice.Configuration(
      devicePlacement: .inEar,
      deviceCapabilities: [.audioSwitching, .placement],
      primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6]))
    #expect(try roundTrip(RouteGetRequest(explain: true)).explain)
    #expect(try roundTrip(RouteHistoryRequest(limit: 7)).limit == 7)
    #expect(try roundTrip(RouteHistoryRequest()).limit == nil)
    #expect(try roundTrip(DaemonStatusRequest()) == DaemonStatusRequest())
    #expect(
      try roundTrip(PolicyCheckRequest(path: "/p.json5")).path == "/p.json5")
    #expect(
      try roundTrip(AccessoryUnpairRequest(accessory: "Buds")).accessory
        == "Buds")
    let rename = DaemonAccessoryRenameRequest(
      accessory: "AA:BB:CC:DD:EE:01", name: "Kitchen")
    #expect(try roundTrip(rename) == rename)
    let register = AccessoryRegisterRequest(
      accessory: "AA:BB:CC:DD:EE:01", configuration: configuration,
      placementSource: .companionOnly)
    #expect(try roundTrip(register) == register)
    let whole = AccessoryUpdateRequest(
      accessory: "AA:BB:CC:DD:EE:01", .configuration(configuration))
    #expect(try roundTrip(whole) == whole)
    var changes = AccessoryConfigurationChanges()
    changes.placement = .set(.offHead)
    let partial = AccessoryUpdateRequest(
      accessory: "AA:BB:CC:DD:EE:01", .changes(changes))
    #expect(try roundTrip(partial) == partial)
  }

  @Test("Requests with descriptors read back what they send, one or several")
  func descriptorRequests() throws {
    let buds = ASDiscoveryDescriptor(
      bluetoothServiceUUID: CBUUID(string: "FD2D"),
      bluetoothNameSubstring: "Buds")
    let headset = ASDiscoveryDescriptor(bluetoothCompanyIdentifier: 0x004C)
    let one = DiscoveryListRequest(descriptors: [buds])
    #expect(try roundTrip(one) == one)
    #expect(one.params?["descriptor"] != nil)
    let two = DiscoverySubscribeRequest(descriptors: [buds, headset])
    #expect(try roundTrip(two) == two)
    #expect(two.params?["descriptors"] != nil)
    #expect(try roundTrip(DiscoveryListRequest()).descriptors.isEmpty)
    let pair = AccessoryPairRequest<AccessoryControlDevice.Configuration>(
      address: "AA:BB:CC:DD:EE:01", name: "Kitchen", descriptor: buds)
    #expect(try roundTrip(pair) == pair)
    let migrate = AccessoryMigrateRequest<AccessoryControlDevice.Configuration>(
      descriptor: headset)
    #expect(try roundTrip(migrate) == migrate)
  }

  @Test(
    "A descriptor that breaks Apple's rules is refused by the daemon's reading")
  func invalidDescriptor() {
    // A name substring needs a service UUID or a company identifier.
    #expect(throws: ControlError.self) {
      try DiscoveryListRequest(
        params: RequestParameters(
          .object([
            "descriptor": .object(["bluetoothNameSubstring": .string("Buds")])
          ])))
    }
    #expect(
      throws: ControlError.invalidParams(
        "give 'descriptor' or 'descriptors', not both")
    ) {
      try DiscoveryListRequest(
        params: RequestParameters(
          .object([
            "descriptor": .object(["bluetoothServiceUUID": .string("FD2D")]),
            "descriptors": .array([]),
          ])))
    }
  }

  @Test("The wire keeps its method names and member names")
  func wireNames() {
    #expect(AccessoryUpdateRequest.method == "accessory.update")
    #expect(DaemonAccessoryListRequest.method == "accessory.list")
    #expect(RouteGetRequest.method == "route.get")
    #expect(
      RouteGetRequest(explain: true).params == .object(["explain": .bool(true)])
    )
    #expect(
      AccessoryRegisterRequest(
        accessory: "x", configuration: .init(deviceCapabilities: []),
        placementSource: .auto
      ).params?["placementSource"] == .string("auto"))
  }

  @Test("A member the method does not take, or of the wrong type, is named")
  func badMembers() {
    #expect(
      throws: ControlError.invalidParams(
        "unknown parameter 'explian'; expected 'explain'")
    ) {
      try RouteGetRequest(
        params: RequestParameters(.object(["explian": .bool(true)])))
    }
    #expect(
      throws: ControlError.invalidParams("'explain' must be true or false")
    ) {
      try RouteGetRequest(
        params: RequestParameters(.object(["explain": .string("yes")])))
    }
    #expect(
      throws: ControlError.invalidParams(
        "'limit' is 0.0; expected a whole number from 1 to 100")
    ) {
      try RouteHistoryRequest(
        params: RequestParameters(.object(["limit": .number(0)])))
    }
    #expect(
      throws: ControlError.invalidParams(
        "give 'configuration' or 'changes', not both")
    ) {
      try AccessoryUpdateRequest(
        params: RequestParameters(
          .object([
            "accessory": .string("x"), "configuration": .object([:]),
            "changes": .object([:]),
          ])))
    }
    #expect(throws: ControlError.invalidParams("'accessory' is missing")) {
      try AccessoryUnpairRequest(params: RequestParameters(nil))
    }
  }

  @Test("Requests of one shape share its codec and keep their own methods")
  func sharedShapes() throws {
    let current = DaemonAccessoryCurrentRequest(accessory: "Buds")
    let unpair = AccessoryUnpairRequest(accessory: "Buds")
    #expect(current.params == unpair.params)
    #expect(try roundTrip(current) == current)
    #expect(DaemonAccessoryCurrentRequest.method == "accessory.current")
    #expect(AccessoryUnpairRequest.method == "accessory.unpair")
    #expect(
      throws: ControlError.invalidParams(
        "unknown parameter 'name'; expected 'accessory'")
    ) {
      try DaemonAccessoryCurrentRequest(
        params: RequestParameters(
          .object(["accessory": .string("Buds"), "name": .string("x")])))
    }
    let list = DiscoveryListRequest(descriptors: [])
    let subscribe = DiscoverySubscribeRequest(descriptors: [])
    #expect(list.params == .object([:]))
    #expect(list.params == subscribe.params)
    #expect(DiscoveryListRequest.method == "discovery.list")
    #expect(DiscoverySubscribeRequest.method == "discovery.subscribe")
  }
}
