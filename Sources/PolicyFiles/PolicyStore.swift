// The policy in force, and where it came from; SIGHUP reloads it.

import AccessoryBackend
import AccessoryControl
import ConcurrencyHelpers
import FoundationEssentials
import Logging
import RoutingCore
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

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
    /// The switches changed while the daemon runs (`acctl policy set`),
    /// by key path, which ``policy`` has over the file's values.
    public var settings: [String: Bool] = [:]
    /// The policy as the file (or the built-in default) says, before
    /// ``settings``.
    public var fileSays: Policy

    init(policy: Policy, path: String?, text: String) {
      self.policy = policy
      self.path = path
      self.text = text
      self.fileSays = policy
    }

    /// Puts the settings over what the file says.
    mutating func applySettings() {
      policy = fileSays
      for (key, value) in settings {
        _ = PolicySchema.setting(key)?.assign(value, to: &policy)
      }
    }
  }

  /// The settings file, its keys that are not switches of this version
  /// (kept as they are when it is written), and why it was not read.
  private struct SettingsFile {
    var unknown: [String: Bool] = [:]
    var problem: String?
  }

  private let current: Mutex<Loaded>
  private let reloads = Broadcast<Policy>(bufferingPolicy: .bufferingNewest(1))
  /// Held through a reload.
  private let reloading = Mutex(0)
  /// Where a policy file is looked for afresh at each reload, when none
  /// was named: the configuration directory's `policy.json5`.
  public let searchPath: String?
  /// Where the switches changed while the daemon runs are kept.
  ///
  /// The state directory's `settings.json`, so that they outlast the
  /// daemon; nil keeps them in memory only.
  public let settingsPath: String?
  private let settingsFile: Mutex<SettingsFile>

  /// Why the settings file was not read at the start, when it was not
  /// and has not been written since.
  public var settingsProblem: String? { settingsFile.withLock(\.problem) }

  /// Why the last reload was refused, while the policy read before it
  /// stays in force; nil once a reload succeeds.
  public var lastRefusal: String? { refusal.withLock { $0 } }
  private let refusal = Mutex<String?>(nil)

  /// Loads the policy file, or the built-in default policy without one.
  ///
  /// - Parameters:
  ///   - path: The policy file, or nil for the built-in default.
  ///   - searchPath: When no file was named, where one is looked for at
  ///     each reload: the file there is used once it exists, and the
  ///     built-in default once it is gone. Nil when a file was named.
  ///   - settingsPath: Where the switches changed while the daemon runs
  ///     are kept; they are read from there now. A file that cannot be
  ///     read is left as it is and ``settingsProblem`` says why; it is
  ///     kept aside before the first change is written.
  /// - Throws: ``PolicyError`` naming the file, the key path and what is
  ///   allowed.
  public init(
    path: String?, searchPath: String? = nil, settingsPath: String? = nil
  ) throws(PolicyError) {
    var loaded = try Self.load(path)
    var file = SettingsFile()
    if let settingsPath {
      do {
        let read = try Self.readSettings(settingsPath)
        loaded.settings = read.filter {
          PolicySchema.setting($0.key)?.isSwitch == true
        }
        file.unknown = read.filter {
          PolicySchema.setting($0.key)?.isSwitch != true
        }
      } catch {
        file.problem = error.description
      }
    }
    loaded.applySettings()
    current = Mutex(loaded)
    settingsFile = Mutex(file)
    self.searchPath = searchPath
    self.settingsPath = settingsPath
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
      var loaded: Loaded
      do throws(PolicyError) {
        loaded = try Self.load(path)
      } catch {
        refusal.withLock { $0 = error.description }
        throw error
      }
      refusal.withLock { $0 = nil }
      loaded.settings = current.withLock { $0.settings }
      loaded.applySettings()
      current.withLock { $0 = loaded }
      reloads.publish(loaded.policy)
      return loaded
    }
  }

  /// Changes a switch (a boolean setting) while the daemon runs.
  ///
  /// The value holds over what the policy file says until it is set
  /// again; nil, or the file's own value, goes back to following the
  /// file. The change is written to ``settingsPath`` first (a damaged
  /// file there is kept aside as `settings.json.corrupt-<time>`): when
  /// that fails nothing changes.
  ///
  /// - Returns: The policy now in force.
  /// - Throws: ``PolicySettingError``: the key is not a switch, or the
  ///   file cannot be written.
  @discardableResult
  public func set(
    _ key: String, to value: Bool?
  ) throws(PolicySettingError) -> Loaded {
    guard let setting = PolicySchema.setting(key), setting.isSwitch else {
      throw .notASwitch(key, isSetting: PolicySchema.setting(key) != nil)
    }
    return try reloading.withLock { _ throws(PolicySettingError) -> Loaded in
      var next = current.withLock { $0 }
      next.settings[key] =
        value == setting.value(in: next.fileSays) ? nil : value
      next.applySettings()
      if let settingsPath {
        try settingsFile.withLock { file throws(PolicySettingError) in
          let url = URL(fileURLWithPath: settingsPath)
          let durable = DurableFile(url: url)
          if file.problem != nil {
            // Kept, never written over: the person may want it back.
            let aside = durable.asideName()
            guard rename(settingsPath, aside) == 0 || errno == ENOENT else {
              throw .cannotWrite(
                path: settingsPath,
                reason: "it is damaged and cannot be kept aside: "
                  + Errno.current.message)
            }
          }
          do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try durable.write(
              encoder.encode(
                next.settings.merging(file.unknown) { new, _ in new })
                + Data("\n".utf8))
          } catch let failure as DurableFile.WriteFailure {
            throw .cannotWrite(path: failure.path, reason: failure.reason)
          } catch {
            throw .cannotWrite(path: settingsPath, reason: systemReason(error))
          }
          file.problem = nil
        }
      }
      current.withLock { $0 = next }
      reloads.publish(next.policy)
      return next
    }
  }

  /// Reads the settings file: a JSON object of true or false by key path.
  ///
  /// A missing file is no settings.
  static func readSettings(_ path: String) throws(PolicyError) -> [String: Bool]
  {
    guard FileManager.default.fileExists(atPath: path) else { return [:] }
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      return try JSONDecoder().decode([String: Bool].self, from: data)
    } catch {
      throw PolicyError(
        keyPath: "",
        problem: "cannot be read as the settings changed while accessoryd "
          + "runs (a JSON object of true or false by key path): \(error)",
        file: path)
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

/// Why a switch could not be changed.
public enum PolicySettingError: Error, Hashable, Sendable,
  CustomStringConvertible
{
  /// The key is not a switch: no setting at all, or one that is not true
  /// or false.
  case notASwitch(String, isSetting: Bool)
  /// The settings file cannot be written; nothing changed.
  case cannotWrite(path: String, reason: String)

  /// The key or the file, what is wrong and what is expected.
  public var description: String {
    switch self {
    case .notASwitch(let key, let isSetting):
      let switches = PolicySchema.switches.map(\.key).joined(separator: ", ")
      return isSetting
        ? "\(key): is not a switch (true or false) and is set in the policy "
          + "file only; expected one of: \(switches)"
        : "\(key): is not a setting; expected one of the switches: \(switches)"
    case .cannotWrite(let path, let reason):
      return "\(path): cannot be written, so nothing changed: \(reason)"
    }
  }
}
