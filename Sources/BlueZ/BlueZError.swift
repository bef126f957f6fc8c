// The error of every BlueZ client operation: the D-Bus error, and what was
// being attempted when it came.

import DBus

/// An error from talking to BlueZ over D-Bus.
///
/// It carries the D-Bus error name and message, from BlueZ, from the bus or
/// from libdbus, and says what was being attempted:
///
/// ```text
/// listing BlueZ adapters (org.freedesktop.DBus.ObjectManager.GetManagedObjects
/// on org.bluez at /) failed: org.freedesktop.DBus.Error.ServiceUnknown: The
/// name org.bluez was not provided by any .service files
/// ```
///
/// Failures that happen on this side of the bus use the names libdbus
/// itself uses for them: ``Name-swift.struct/noReply`` for a call that timed
/// out, ``Name-swift.struct/disconnected`` for a connection that was closed
/// or lost.
public struct BlueZError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A D-Bus error name, such as
  /// `org.freedesktop.DBus.Error.ServiceUnknown`.
  ///
  /// A struct rather than an enum, so that any name, BlueZ's own included,
  /// survives unchanged.
  public struct Name: RawRepresentable, Hashable, Sendable,
    CustomStringConvertible
  {
    /// The error name as D-Bus spells it.
    public let rawValue: String

    /// Creates an error name.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// The error name as D-Bus spells it.
    public var description: String { rawValue }

    /// No connection on the bus owns the name called, and none can be
    /// started for it: BlueZ is not running.
    public static let serviceUnknown = Name(
      rawValue: "org.freedesktop.DBus.Error.ServiceUnknown")
    /// The name called has no owner.
    public static let nameHasNoOwner = Name(
      rawValue: "org.freedesktop.DBus.Error.NameHasNoOwner")
    /// No reply came in time.
    public static let noReply = Name(
      rawValue: "org.freedesktop.DBus.Error.NoReply")
    /// The connection was closed, or the bus went away.
    public static let disconnected = Name(
      rawValue: "org.freedesktop.DBus.Error.Disconnected")
    /// No bus listens at the address.
    public static let noServer = Name(
      rawValue: "org.freedesktop.DBus.Error.NoServer")
    /// The bus's socket file does not exist.
    public static let fileNotFound = Name(
      rawValue: "org.freedesktop.DBus.Error.FileNotFound")
    /// The bus address is malformed.
    public static let badAddress = Name(
      rawValue: "org.freedesktop.DBus.Error.BadAddress")
    /// The bus or the peer refused the call.
    public static let accessDenied = Name(
      rawValue: "org.freedesktop.DBus.Error.AccessDenied")
    /// The object called does not exist.
    public static let unknownObject = Name(
      rawValue: "org.freedesktop.DBus.Error.UnknownObject")
    /// The object has no such method.
    public static let unknownMethod = Name(
      rawValue: "org.freedesktop.DBus.Error.UnknownMethod")
    /// The arguments were not acceptable.
    public static let invalidArguments = Name(
      rawValue: "org.freedesktop.DBus.Error.InvalidArgs")
    /// The reply did not have the expected type.
    public static let invalidSignature = Name(
      rawValue: "org.freedesktop.DBus.Error.InvalidSignature")
    /// libdbus ran out of memory.
    public static let noMemory = Name(
      rawValue: "org.freedesktop.DBus.Error.NoMemory")
    /// A failure that has no more specific name.
    public static let failed = Name(
      rawValue: "org.freedesktop.DBus.Error.Failed")
    /// BlueZ: the adapter is not ready, for example not powered.
    public static let notReady = Name(rawValue: "org.bluez.Error.NotReady")
    /// BlueZ: the operation is already under way.
    public static let inProgress = Name(rawValue: "org.bluez.Error.InProgress")
    /// BlueZ: the caller may not do this, for example stop a discovery it
    /// did not start.
    public static let notAuthorized = Name(
      rawValue: "org.bluez.Error.NotAuthorized")
    /// BlueZ: the operation failed.
    public static let bluezFailed = Name(rawValue: "org.bluez.Error.Failed")
    /// BlueZ: it is registered already, such as a profile for a UUID.
    public static let alreadyExists = Name(
      rawValue: "org.bluez.Error.AlreadyExists")
    /// BlueZ: no such object, such as a device it does not know.
    public static let doesNotExist = Name(
      rawValue: "org.bluez.Error.DoesNotExist")
    /// BlueZ: the device does not offer the service.
    public static let notAvailable = Name(
      rawValue: "org.bluez.Error.NotAvailable")
  }

  /// The D-Bus error name.
  public var name: Name
  /// The message that came with the error.
  public var message: String
  /// What was being attempted, such as "listing BlueZ adapters
  /// (org.freedesktop.DBus.ObjectManager.GetManagedObjects on org.bluez at
  /// /)".
  public var operation: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - name: The D-Bus error name.
  ///   - message: The message that came with it.
  ///   - operation: What was being attempted.
  public init(name: Name, message: String, operation: String) {
    self.name = name
    self.message = message
    self.operation = operation
  }

  /// The attempt, the error name and the message, such as "listing BlueZ
  /// adapters (…) failed: org.freedesktop.DBus.Error.ServiceUnknown: The
  /// name org.bluez was not provided by any .service files".
  public var description: String {
    let detail =
      message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)"
    return "\(operation) failed: \(detail)"
  }
}
