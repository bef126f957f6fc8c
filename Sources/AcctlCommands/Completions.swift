// What acctl's completion scripts offer that only the daemon knows: the
// paired accessories' addresses and names, and the devices it discovers.

import AccessoryControl
import AccessorySetupKit
import CommandLineKit

extension Acctl {
  /// The values acctl asks the daemon for when a shell completes.
  enum CompletionSource {
    /// The paired accessories' addresses and display names.
    static let accessories = "accessories"
    /// The addresses of the devices the daemon discovers, for `pair`.
    static let devices = "devices"
    /// The names of the sound server's outputs and inputs, for
    /// `output choose`.
    static let devicesOfTheServer = "outputs"
  }

  /// Asks the daemon, briefly, for the accessories or devices to offer;
  /// offers nothing when it is not running.
  public static func completionCandidates(
    for source: String, context: CompletionContext
  ) async -> [String] {
    let path = context.optionValues["socket"] ?? ControlSocketPath.resolve()
    guard let client = try? ControlClient(path: path, timeout: 2) else {
      return []
    }
    defer { client.close() }
    switch source {
    case CompletionSource.accessories:
      guard
        case .array(let accessories)? = try? client.callForJSON(
          AccessoryListRequest<JSONValue>())["accessories"]
      else { return [] }
      return accessories.flatMap { accessory in
        ["address", "displayName"].compactMap { key -> String? in
          guard case .string(let text)? = accessory[key] else { return nil }
          return key == "address" ? Acctl.selector(text) : text
        }
      }
    case CompletionSource.devices:
      guard
        case .array(let devices)? = try? client.callForJSON(
          DiscoveryListRequest())["devices"]
      else { return [] }
      return devices.compactMap { device in
        guard case .string(let text)? = device["address"] else { return nil }
        return Acctl.selector(text)
      }
    case CompletionSource.devicesOfTheServer:
      guard let devices = try? client.call(OutputListRequest()) else {
        return []
      }
      return (devices.outputs + devices.inputs).map(\.name)
    default:
      return []
    }
  }
}
