// The one table that turns sound-server failures into the errors companion
// code sees. README.md ("Error mapping") shows the same table for people.

import AudioAccessoryKit
import PulseAudio

extension AccessoryControlFailure {
  /// Returns Apple's case for a libpulse error.
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
  public static func category(
    of error: PulseError
  ) -> AccessoryControlDevice.Error {
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
    self.init(Self.category(of: error), reason: reason)
  }
}
