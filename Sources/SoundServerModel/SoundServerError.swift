// What the sound server answers when it does not carry out an operation,
// or why a connection to it ended, independent of the library that spoke
// to it.

/// An operation the sound server refused or could not carry out, or the
/// reason a connection to it ended.
///
/// Two errors are equal when their codes are: the text is the client
/// library's wording of the code.
public struct SoundServerError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// The error's code in PulseAudio's protocol, which pipewire-pulse
  /// speaks too: a `PA_ERR_*` value.
  public let code: Int32
  /// What went wrong, in the client library's words.
  public let description: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The protocol's error code, a `PA_ERR_*` value.
  ///   - description: What went wrong, for people.
  public init(code: Int32, description: String) {
    self.code = code
    self.description = description
  }

  /// Whether two errors have the same code.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

  /// Hashes the code.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// The server refused the operation to this client (`PA_ERR_ACCESS`).
  public static let accessDenied = SoundServerError(
    code: 1, description: "Access denied")

  /// The operation names an object the server does not have, or cannot
  /// take it on yet (`PA_ERR_NOENTITY`).
  public static let noSuchEntity = SoundServerError(
    code: 5, description: "No such entity")

  /// The server did not answer in time (`PA_ERR_TIMEOUT`).
  public static let timeout = SoundServerError(
    code: 8, description: "Timeout")

  /// The connection to the server ended (`PA_ERR_CONNECTIONTERMINATED`).
  public static let connectionTerminated = SoundServerError(
    code: 11, description: "Connection terminated")
}
