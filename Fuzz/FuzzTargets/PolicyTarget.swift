// The policy file: the JSON5 reader and the policy's schema.

import FoundationEssentials
import PolicyFiles
import RoutingCore

extension FuzzTarget {
  /// A policy file.
  static let policy = FuzzTarget(
    name: "policy",
    summary: "a policy file: JSON5 and the policy schema"
  ) { bytes in
    let data = Data(bytes)
    do throws(PolicyError) {
      _ = try PolicyLoader.parse(data)
    } catch {
      // Every refusal names where: a key path, or the text's position.
      guard !error.description.isEmpty else {
        return "a refusal without a message"
      }
    }
    return nil
  }
}
