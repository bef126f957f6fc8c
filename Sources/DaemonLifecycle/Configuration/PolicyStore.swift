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
  private let reloads = Broadcast<Policy>(bufferingPolicy: .bufferingNewest(1))
  /// Held through a reload.
  private let reloading = Mutex(0)
  /// Where a policy file is looked for afresh at each reload, when none
  /// was named: the configuration directory's `policy.json5`.
  public let searchPath: String?

  /// Loads the policy file, or the built-in default policy without one.
  ///
  /// - Parameters:
  ///   - path: The policy file, or nil for the built-in default.
  ///   - searchPath: When no file was named, where one is looked for at
  ///     each reload: the file there is used once it exists, and the
  ///     built-in default once it is gone. Nil when a file was named.
  /// - Throws: ``PolicyError`` naming the file, the key path and what is
  ///   allowed.
  public init(path: String?, searchPath: String? = nil) throws(PolicyError) {
    current = Mutex(try Self.load(path))
    self.searchPath = searchPath
  }

  /// The policy in force and its origin.
  public var loaded: Loaded { current.withLock { $0 } }

  /// The policy in force.
  public var policy: Policy { current.withLock { $0.policy } }

  /// The policy in force now, then each policy a reload puts in force.
  ///
  /// A subscriber that falls behind sees the latest policy only.
  public func policies() -> AsyncStream<Policy> {
    // Under the reload lock, so that no reload falls between the two.
    reloading.withLock { _ in reloads.subscribe(startingWith: policy) }
  }

  /// Reads the policy again.
  ///
  /// It reads the file named, or, when none was, the file at
  /// ``searchPath`` if one exists there now, else the built-in default. A
  /// bad file is refused and the old policy stays.
  ///
  /// - Returns: The policy now in force, with where it came from.
  /// - Throws: ``PolicyError``; the policy in force is then unchanged.
  @discardableResult
  public func reload() throws(PolicyError) -> Loaded {
    // One reload at a time (SIGHUP and acctl may come together): an older
    // read never replaces a newer one.
    try reloading.withLock { _ throws(PolicyError) -> Loaded in
      let path: String?
      if let searchPath {
        path =
          FileManager.default.fileExists(atPath: searchPath) ? searchPath : nil
      } else {
        path = current.withLock { $0.path }
      }
      let loaded = try Self.load(path)
      current.withLock { $0 = loaded }
      reloads.publish(loaded.policy)
      return loaded
    }
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
