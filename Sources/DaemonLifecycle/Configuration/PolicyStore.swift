// The policy in force, and where it came from; SIGHUP reloads it.

import ConcurrencyHelpers
import FoundationEssentials
import Logging
import RoutingCore

/// The routing policy in force.
public final class PolicyStore: Sendable {
  /// A loaded policy with its origin.
  public struct Loaded: Sendable {
    /// The policy.
    public var policy: Policy
    /// The file it came from, or nil for the built-in default.
    public var path: String?
    /// The text it was read from.
    public var text: String
  }

  private let current: Mutex<Loaded>

  /// Loads the policy file, or the built-in default policy without one.
  ///
  /// - Parameter path: The policy file, or nil for the built-in default.
  /// - Throws: ``PolicyError`` naming the file, the key path and what is
  ///   allowed.
  public init(path: String?) throws(PolicyError) {
    current = Mutex(try Self.load(path))
  }

  /// The policy in force and its origin.
  public var loaded: Loaded { current.withLock { $0 } }

  /// The policy in force.
  public var policy: Policy { current.withLock { $0.policy } }

  /// Reads the policy file again; a bad file is refused and the old policy
  /// stays.
  ///
  /// - Throws: ``PolicyError``; the policy in force is then unchanged.
  public func reload() throws(PolicyError) {
    let path = current.withLock { $0.path }
    let loaded = try Self.load(path)
    current.withLock { $0 = loaded }
  }

  /// Reads a policy file without using it.
  ///
  /// - Throws: ``PolicyError`` naming the file, the key path and what is
  ///   allowed.
  public static func load(_ path: String?) throws(PolicyError) -> Loaded {
    guard let path else {
      return Loaded(
        policy: try PolicyLoader.parse(Data(Policy.defaultPolicyText.utf8)),
        path: nil, text: Policy.defaultPolicyText)
    }
    let url = URL(fileURLWithPath: path)
    let policy = try PolicyLoader.load(contentsOf: url)
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return Loaded(policy: policy, path: path, text: text)
  }
}
