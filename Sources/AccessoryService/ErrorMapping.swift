// The one table that turns sound-server failures into the errors companion
// code sees. README.md ("Error mapping") shows the same table for people.

import AudioAccessoryKit
import PulseAudio

extension AccessoryControlDevice.Error {
  /// The AudioAccessoryKit case that a libpulse error becomes.
  public enum Category: String, Sendable, CaseIterable {
    /// The accessory's output is gone from the sound server.
    case invalidated
    /// The request named something the server refuses as malformed.
    case invalidRequest
    /// The server cannot do what the accessory's capability needs.
    case accessoryNotCapable
    /// Anything else: the server is unreachable, busy or failing.
    case unknown
  }

  /// Returns the category of a libpulse error.
  ///
  /// | libpulse error | category |
  /// | --- | --- |
  /// | `noSuchEntity` (the output vanished) | `invalidated` |
  /// | `invalidArgument`, `tooLarge` | `invalidRequest` |
  /// | `notSupported`, `notImplemented`, `noExtension`, `obsolete` | `accessoryNotCapable` |
  /// | every other code, known or not (unreachable, timeout, access, …) | `unknown` |
  ///
  /// - Parameter error: The error an operation on the accessory's output
  ///   failed with.
  public static func category(of error: PulseError) -> Category {
    switch error {
    case .noSuchEntity: .invalidated
    case .invalidArgument, .tooLarge: .invalidRequest
    case .notSupported, .notImplemented, .noExtension, .obsolete:
      .accessoryNotCapable
    default: .unknown
    }
  }

  /// Creates the error for a libpulse failure while acting on an
  /// accessory's output.
  ///
  /// The reason names what was being done and carries libpulse's own text,
  /// for example `cannot move audio to 'Studio Buds': the sound server
  /// answered "No such entity" (libpulse error 5)`.
  ///
  /// - Parameters:
  ///   - error: The libpulse error.
  ///   - action: What was being done, such as `move audio to 'Studio Buds'`.
  public init(_ error: PulseError, while action: String) {
    let reason =
      "cannot \(action): the sound server answered \"\(error)\" "
      + "(libpulse error \(error.rawValue))"
    switch Self.category(of: error) {
    case .invalidated: self = .invalidated(reason: reason)
    case .invalidRequest: self = .invalidRequest(reason: reason)
    case .accessoryNotCapable: self = .accessoryNotCapable(reason: reason)
    case .unknown: self = .unknown(reason: reason)
    }
  }
}
