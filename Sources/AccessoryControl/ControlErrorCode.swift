// The one table of the JSON-RPC error codes accessoryd answers with and
// acctl reads (docs/control-protocol.md, "Errors"). A code is part of the
// wire: add one, never change or reuse a value.

/// A JSON-RPC 2.0 error code: JSON-RPC's own from -32768 to -32600, the
/// service's from -32099 to -32000.
///
/// Any code read from the wire is kept, even one this table does not name.
/// It encodes as a bare JSON number.
public struct ControlErrorCode: RawRepresentable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// The number on the wire.
  public var rawValue: Int

  /// Creates a code from the number on the wire.
  ///
  /// - Parameter rawValue: The number on the wire.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// The number, as it is on the wire.
  public var description: String { String(rawValue) }

  // MARK: JSON-RPC's own

  /// The request was not valid JSON: -32700.
  public static let parseError = ControlErrorCode(rawValue: -32700)
  /// The request was not a valid JSON-RPC request, or its line was too
  /// long or not finished in time: -32600.
  public static let invalidRequest = ControlErrorCode(rawValue: -32600)
  /// The method does not exist: -32601.
  public static let methodNotFound = ControlErrorCode(rawValue: -32601)
  /// The parameters do not fit the method; the message names the field:
  /// -32602.
  public static let invalidParams = ControlErrorCode(rawValue: -32602)
  /// An error inside the service: -32603.
  public static let internalError = ControlErrorCode(rawValue: -32603)

  // MARK: AccessoryControlDevice.Error, Apple's cases

  /// Apple's `unknown`: the accessory failed for another reason: -32000.
  public static let accessoryUnknown = ControlErrorCode(rawValue: -32000)
  /// Apple's `accessoryNotCapable`: the accessory lacks the capability the
  /// change needs: -32001.
  public static let accessoryNotCapable = ControlErrorCode(rawValue: -32001)
  /// Apple's `invalidRequest`: no such accessory, a bad value, a device no
  /// longer seen: -32002.
  public static let accessoryInvalidRequest = ControlErrorCode(
    rawValue: -32002)
  /// Apple's `invalidated`: the registration was invalidated: -32003.
  public static let accessoryInvalidated = ControlErrorCode(rawValue: -32003)

  // MARK: The service's own

  /// A picker was shown while another is open: -32010.
  public static let pickerAlreadyActive = ControlErrorCode(rawValue: -32010)
  /// An answer to a picker that is not open: -32011.
  public static let noPicker = ControlErrorCode(rawValue: -32011)
  /// The daemon serves as many connections as it takes; the client may try
  /// again once others close: -32075.
  public static let busy = ControlErrorCode(rawValue: -32075)
  /// The peer is another user: -32077.
  public static let permissionDenied = ControlErrorCode(rawValue: -32077)
  /// A policy or configuration is invalid: -32078.
  public static let invalidConfiguration = ControlErrorCode(rawValue: -32078)
}
