import SoundServerModel

/// An error reported by libpulse or by the sound server.
///
/// A struct over libpulse's error code rather than an enum, so that a code
/// this version does not name survives unchanged. The text comes from
/// libpulse itself.
public struct PulseError: Error, RawRepresentable, Hashable, Sendable,
  CustomStringConvertible
{
  /// The libpulse error code, a `PA_ERR_*` value.
  public let rawValue: Int32

  /// Creates an error from a libpulse error code.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The text libpulse gives for the code.
  ///
  /// The corresponding C function is `pa_strerror`.
  public var description: String {
    pulseErrorText(rawValue)
  }

  /// Access failure.
  ///
  /// The corresponding C error is `PA_ERR_ACCESS`.
  public static var accessDenied: PulseError { .init(rawValue: _PA_ERR_ACCESS) }

  /// Unknown command.
  ///
  /// The corresponding C error is `PA_ERR_COMMAND`.
  public static var unknownCommand: PulseError {
    .init(rawValue: _PA_ERR_COMMAND)
  }

  /// Invalid argument.
  ///
  /// The corresponding C error is `PA_ERR_INVALID`.
  public static var invalidArgument: PulseError {
    .init(rawValue: _PA_ERR_INVALID)
  }

  /// Entity exists.
  ///
  /// The corresponding C error is `PA_ERR_EXIST`.
  public static var entityExists: PulseError { .init(rawValue: _PA_ERR_EXIST) }

  /// No such entity.
  ///
  /// The corresponding C error is `PA_ERR_NOENTITY`.
  public static var noSuchEntity: PulseError {
    .init(rawValue: _PA_ERR_NOENTITY)
  }

  /// Connection refused.
  ///
  /// The corresponding C error is `PA_ERR_CONNECTIONREFUSED`.
  public static var connectionRefused: PulseError {
    .init(rawValue: _PA_ERR_CONNECTIONREFUSED)
  }

  /// Protocol error.
  ///
  /// The corresponding C error is `PA_ERR_PROTOCOL`.
  public static var protocolError: PulseError {
    .init(rawValue: _PA_ERR_PROTOCOL)
  }

  /// Timeout.
  ///
  /// The corresponding C error is `PA_ERR_TIMEOUT`.
  public static var timeout: PulseError { .init(rawValue: _PA_ERR_TIMEOUT) }

  /// No authentication key.
  ///
  /// The corresponding C error is `PA_ERR_AUTHKEY`.
  public static var noAuthenticationKey: PulseError {
    .init(rawValue: _PA_ERR_AUTHKEY)
  }

  /// Internal error.
  ///
  /// The corresponding C error is `PA_ERR_INTERNAL`.
  public static var internalError: PulseError {
    .init(rawValue: _PA_ERR_INTERNAL)
  }

  /// Connection terminated.
  ///
  /// The corresponding C error is `PA_ERR_CONNECTIONTERMINATED`.
  public static var connectionTerminated: PulseError {
    .init(rawValue: _PA_ERR_CONNECTIONTERMINATED)
  }

  /// Entity killed.
  ///
  /// The corresponding C error is `PA_ERR_KILLED`.
  public static var entityKilled: PulseError { .init(rawValue: _PA_ERR_KILLED) }

  /// Invalid server.
  ///
  /// The corresponding C error is `PA_ERR_INVALIDSERVER`.
  public static var invalidServer: PulseError {
    .init(rawValue: _PA_ERR_INVALIDSERVER)
  }

  /// Module initialization failed.
  ///
  /// The corresponding C error is `PA_ERR_MODINITFAILED`.
  public static var moduleInitializationFailed: PulseError {
    .init(rawValue: _PA_ERR_MODINITFAILED)
  }

  /// Bad state.
  ///
  /// The corresponding C error is `PA_ERR_BADSTATE`.
  public static var badState: PulseError { .init(rawValue: _PA_ERR_BADSTATE) }

  /// No data.
  ///
  /// The corresponding C error is `PA_ERR_NODATA`.
  public static var noData: PulseError { .init(rawValue: _PA_ERR_NODATA) }

  /// Incompatible protocol version.
  ///
  /// The corresponding C error is `PA_ERR_VERSION`.
  public static var incompatibleVersion: PulseError {
    .init(rawValue: _PA_ERR_VERSION)
  }

  /// Data too large.
  ///
  /// The corresponding C error is `PA_ERR_TOOLARGE`.
  public static var tooLarge: PulseError { .init(rawValue: _PA_ERR_TOOLARGE) }

  /// Operation not supported.
  ///
  /// The corresponding C error is `PA_ERR_NOTSUPPORTED`.
  public static var notSupported: PulseError {
    .init(rawValue: _PA_ERR_NOTSUPPORTED)
  }

  /// The error code was unknown to the client.
  ///
  /// The corresponding C error is `PA_ERR_UNKNOWN`.
  public static var unknown: PulseError { .init(rawValue: _PA_ERR_UNKNOWN) }

  /// Extension does not exist.
  ///
  /// The corresponding C error is `PA_ERR_NOEXTENSION`.
  public static var noExtension: PulseError {
    .init(rawValue: _PA_ERR_NOEXTENSION)
  }

  /// Obsolete functionality.
  ///
  /// The corresponding C error is `PA_ERR_OBSOLETE`.
  public static var obsolete: PulseError { .init(rawValue: _PA_ERR_OBSOLETE) }

  /// Missing implementation.
  ///
  /// The corresponding C error is `PA_ERR_NOTIMPLEMENTED`.
  public static var notImplemented: PulseError {
    .init(rawValue: _PA_ERR_NOTIMPLEMENTED)
  }

  /// The caller forked and reused the context.
  ///
  /// The corresponding C error is `PA_ERR_FORKED`.
  public static var forked: PulseError { .init(rawValue: _PA_ERR_FORKED) }

  /// An input or output error.
  ///
  /// The corresponding C error is `PA_ERR_IO`.
  public static var inputOutput: PulseError { .init(rawValue: _PA_ERR_IO) }

  /// Device or resource busy.
  ///
  /// The corresponding C error is `PA_ERR_BUSY`.
  public static var busy: PulseError { .init(rawValue: _PA_ERR_BUSY) }

  /// Every error code libpulse defines, in code order.
  public static var allKnown: [PulseError] {
    [
      .accessDenied, .unknownCommand, .invalidArgument, .entityExists,
      .noSuchEntity, .connectionRefused, .protocolError, .timeout,
      .noAuthenticationKey, .internalError, .connectionTerminated,
      .entityKilled, .invalidServer, .moduleInitializationFailed, .badState,
      .noData, .incompatibleVersion, .tooLarge, .notSupported, .unknown,
      .noExtension, .obsolete, .notImplemented, .forked, .inputOutput, .busy,
    ]
  }

  /// Whether the error means the connection to the server is gone, so that
  /// only a new connection can continue.
  public var meansConnectionLost: Bool {
    self == .connectionTerminated || self == .connectionRefused
      || self == .invalidServer || self == .entityKilled
  }
}

extension SoundServerError {
  /// The error libpulse reported, with libpulse's text for it.
  ///
  /// - Parameter error: The libpulse error.
  public init(_ error: PulseError) {
    self.init(code: error.rawValue, description: error.description)
  }
}
