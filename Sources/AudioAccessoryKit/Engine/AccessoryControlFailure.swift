// Linux addition: why a request failed, in words a person can act on.
//
// Apple's AccessoryControlDevice.Error is four plain cases. The engines, the
// registry and the daemon throw this richer value instead; the Apple-shaped
// entry points throw its plain case and keep the reason for
// AccessoryControlDevice.lastFailure(for:).

import ConcurrencyHelpers

/// A refused or failed request, with the reason: which value was refused
/// and what is expected instead.
///
/// The Linux-only entry points (``AccessoryControlEngine``,
/// `RegistryStore`, ``DaemonAccessoryEngine``,
/// `AccessoryRegistry`) throw it. ``AccessoryControlDevice``'s own methods
/// throw ``code``, Apple's ``AccessoryControlDevice/Error``, and keep the
/// whole failure for ``AccessoryControlDevice/lastFailure(for:)``.
public struct AccessoryControlFailure: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// Apple's case for the failure.
  public var code: AccessoryControlDevice.Error
  /// Why the request failed, for example `accessory 'Buds'
  /// (AA:BB:CC:DD:EE:01) is not paired; pair it with AccessorySetupKit
  /// before registering it`.
  public var reason: String

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - code: Apple's case.
  ///   - reason: Why, naming the refused value and what is expected.
  public init(_ code: AccessoryControlDevice.Error, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The accessory does not support the requested capability.
  public static func accessoryNotCapable(reason: String) -> Self {
    Self(.accessoryNotCapable, reason: reason)
  }

  /// The request is malformed or refers to something that does not exist.
  public static func invalidRequest(reason: String) -> Self {
    Self(.invalidRequest, reason: reason)
  }

  /// The registration was invalidated; register the accessory again.
  public static func invalidated(reason: String) -> Self {
    Self(.invalidated, reason: reason)
  }

  /// The request failed for a reason outside the request itself.
  public static func unknown(reason: String) -> Self {
    Self(.unknown, reason: reason)
  }

  /// The name of Apple's case, such as `invalidRequest`.
  public var name: String {
    switch code {
    case .accessoryNotCapable: "accessoryNotCapable"
    case .invalidRequest: "invalidRequest"
    case .invalidated: "invalidated"
    case .unknown: "unknown"
    }
  }

  /// The case name and the reason, for example
  /// `invalidRequest: accessory 'Buds' (AA:…) is not paired`.
  public var description: String { "\(name): \(reason)" }
}

extension AccessoryControlDevice {
  /// The latest failure of an Apple-shaped call, by accessory address.
  private static let failures = Mutex<[String: AccessoryControlFailure]>([:])

  /// Linux addition: the latest failure of a call of
  /// ``register(_:_:)-(_,Configuration)``, ``current(for:)`` or
  /// ``update(_:)`` for an accessory, or nil if none has failed.
  ///
  /// Those methods throw Apple's plain ``Error`` cases; this holds the
  /// reason that goes with the case, for a log or a message. A later
  /// success keeps it, so a call made meanwhile elsewhere in the process
  /// cannot take the reason away before it is read:
  ///
  /// ```swift
  /// do {
  ///   try await device.update(configuration)
  /// } catch AccessoryControlDevice.Error.invalidated {
  ///   log(AccessoryControlDevice.lastFailure(for: accessory)?.reason ?? "")
  /// }
  /// ```
  ///
  /// - Parameter accessory: The accessory of the call.
  /// - Returns: The failure with its reason.
  public static func lastFailure(
    for accessory: ASAccessory
  ) -> AccessoryControlFailure? {
    failures.withLock { $0[key(of: accessory)] }
  }

  /// Runs one Apple-shaped call: on failure keeps the reason and throws
  /// Apple's case.
  static func recordingFailure<T>(
    of accessory: ASAccessory,
    _ body: () async throws(AccessoryControlFailure) -> T
  ) async throws(Error) -> T {
    do {
      return try await body()
    } catch {
      remember(error, for: accessory)
      throw error.code
    }
  }

  /// The synchronous form of ``recordingFailure(of:_:)-(_,() async throws(AccessoryControlFailure) -> T)``.
  static func recordingFailure<T>(
    of accessory: ASAccessory,
    _ body: () throws(AccessoryControlFailure) -> T
  ) throws(Error) -> T {
    do {
      return try body()
    } catch {
      remember(error, for: accessory)
      throw error.code
    }
  }

  /// Keeps the latest failure for an accessory.
  private static func remember(
    _ failure: AccessoryControlFailure, for accessory: ASAccessory
  ) {
    failures.withLock { $0[key(of: accessory)] = failure }
  }

  private static func key(of accessory: ASAccessory) -> String {
    accessory.bluetoothAddress?.description ?? accessory.displayName
  }
}
