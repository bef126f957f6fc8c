// The control socket's path up to a method's parameters: the line's JSON,
// the JSON-RPC envelope, then every parameter reader on every member.

import AccessoryControl
import AccessoryEngine
import AccessorySetupKit
import AudioAccessoryKit
import DaemonControl
import DaemonInputs
import DaemonLifecycle
import HeadphoneReaders

extension FuzzTarget {
  /// A control socket line.
  static let controlRequest = FuzzTarget(
    name: "control-request",
    summary: "a control socket line: JSON, the JSON-RPC envelope and the "
      + "readers of every method's parameters"
  ) { bytes in
    if let value = try? JSONValue(parsing: bytes) {
      // What the daemon writes back must read as what it holds.
      let text = value.serialized()
      guard let again = try? JSONValue(parsing: text) else {
        return "the serialized value does not parse: "
          + String(decoding: text, as: UTF8.self)
      }
      guard again == value else {
        return "the serialized value parses as another: "
          + String(decoding: text, as: UTF8.self)
      }
    }
    let request: ControlRequest
    do throws(ControlRequestRejection) {
      request = try ControlRequest(line: bytes)
    } catch {
      return answerFails(id: error.id, error.error)
    }
    let params = Parameters(request.params)
    for key in params.fields.keys {
      _ = try? params.string(key)
      _ = try? params.number(key)
      _ = try? params.bool(key)
      _ = try? params.address(key)
      _ = try? params.configuration(key)
      _ = try? params.descriptor(key)
      _ = try? params.changes(key)
      _ = try? params.pickerItems(key)
    }
    _ = try? params.descriptors()
    // Every typed request reads the same params, as the daemon would.
    for type in typedRequests { _ = try? type.init(params: params) }
    return answerFails(id: request.id, .invalidParams("checked"))
  }

  /// Every typed request of the protocol.
  private static let typedRequests: [any DaemonRequest.Type] = [
    RouteGetRequest.self, RouteHistoryRequest.self, DaemonStatusRequest.self,
    PolicyShowRequest.self, PolicyCheckRequest.self, MediaPlayersRequest.self,
    BluetoothStatusRequest.self, EventsSubscribeRequest.self,
    DaemonAccessoryListRequest.self, DaemonAccessoryCurrentRequest.self,
    AccessoryUnpairRequest.self, DaemonAccessoryRenameRequest.self,
    AccessoryRegisterRequest.self, AccessoryUpdateRequest.self,
    DiscoveryListRequest.self, DiscoverySubscribeRequest.self,
    AccessoryPairRequest<AccessoryControlDevice.Configuration>.self,
    AccessoryMigrateRequest<AccessoryControlDevice.Configuration>.self,
    PickerShowRequest.self, PickerPendingRequest.self,
    PickerChooseRequest<AccessoryControlDevice.Configuration>.self,
    PickerCancelRequest.self, PickerUpdateRequest.self,
    PickerFinishDiscoveryRequest.self,
  ]

  /// Whether the answer to a request fails to read back as itself.
  private static func answerFails(
    id: JSONValue?, _ error: ControlError
  ) -> String? {
    let response = ControlResponse.failure(id: id, error)
    let line = response.line()
    guard let value = try? JSONValue(parsing: line.dropLast()),
      ControlResponse(json: value) == response
    else {
      return "the answer does not read back: "
        + String(decoding: line, as: UTF8.self)
    }
    return nil
  }
}
