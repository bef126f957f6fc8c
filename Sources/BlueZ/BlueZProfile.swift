// A profile this program serves to BlueZ (org.bluez.Profile1): registered
// with ProfileManager1 for a service UUID in the client role, BlueZ hands
// it each connection it makes to that service of a device, as a connected
// socket. Galaxy Buds' RFCOMM link comes this way.

import DBus
import Glibc

/// A connection BlueZ made for a profile and handed over.
public struct BlueZProfileConnection: Sendable {
  /// The device's address, such as `AA:BB:CC:DD:EE:01`.
  public var deviceAddress: String
  /// The connected socket: RFCOMM for the serial port and similar
  /// services; the receiver owns it and must close it.
  public var descriptor: Int32
}

/// A client profile registered with BlueZ.
///
/// Its ``connections`` deliver the sockets BlueZ hands over through
/// `org.bluez.Profile1.NewConnection`, after
/// ``BlueZClient/connectProfile(_:onDeviceAt:)`` or when the device
/// connects the service itself.
public final class BlueZProfile: Sendable {
  /// The service UUID, 128-bit, lower case.
  public let uuid: String
  /// The object path it is served at.
  public let objectPath: String
  /// The connections BlueZ hands over; the stream ends when BlueZ
  /// releases the profile or the client closes.
  public let connections: AsyncStream<BlueZProfileConnection>
  private let continuation: AsyncStream<BlueZProfileConnection>.Continuation

  init(uuid: String, objectPath: String) {
    self.uuid = uuid
    self.objectPath = objectPath
    (connections, continuation) = AsyncStream.makeStream(
      of: BlueZProfileConnection.self, bufferingPolicy: .unbounded)
  }

  /// Dispatch thread: answers one call of `org.bluez.Profile1`.
  func answer(
    _ call: DBusIncomingCall, addressOf path: (String) -> String?
  ) -> Result<[DBusValue], DBusFailure> {
    switch call.member {
    case "NewConnection":
      guard call.arguments.count >= 2,
        case .objectPath(let device) = call.arguments[0],
        case .unixFileDescriptor(let descriptor) = call.arguments[1],
        descriptor >= 0
      else {
        return .failure(
          DBusFailure(
            name: "org.bluez.Error.InvalidArguments",
            message: "expected (o device, h fd, a{sv} properties)"))
      }
      guard let address = path(device) else {
        Self.close(descriptor)
        return .failure(
          DBusFailure(
            name: "org.bluez.Error.Rejected",
            message: "\(device) is not a device BlueZ reported"))
      }
      if case .terminated = continuation.yield(
        BlueZProfileConnection(deviceAddress: address, descriptor: descriptor))
      {
        Self.close(descriptor)
        return .failure(
          DBusFailure(
            name: "org.bluez.Error.Rejected", message: "the profile is closed"))
      }
      return .success([])
    case "RequestDisconnection":
      // The link's reader sees the socket close when BlueZ closes it.
      return .success([])
    case "Release":
      continuation.finish()
      return .success([])
    default:
      return .failure(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.UnknownMethod",
          message: "org.bluez.Profile1 has no method \(call.member)"))
    }
  }

  /// Ends the stream of connections.
  func finish() {
    continuation.finish()
  }

  private static func close(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
  }
}

extension BlueZClient {
  /// Serves a client profile for a service UUID and registers it with
  /// BlueZ.
  ///
  /// The corresponding D-Bus method is
  /// `org.bluez.ProfileManager1.RegisterProfile`, with `Role` `client`.
  ///
  /// - Parameters:
  ///   - uuid: The service, 128-bit, such as the serial port's.
  ///   - name: A name for BlueZ's logs.
  /// - Returns: The profile, whose ``BlueZProfile/connections`` deliver
  ///   the sockets.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/alreadyExists`` if another program
  ///   registered the UUID.
  public func registerProfile(
    uuid: String, name: String
  ) async throws(BlueZError) -> BlueZProfile {
    let path =
      "/org/accessoryd/profile/"
      + uuid.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
    let profile = BlueZProfile(uuid: uuid.lowercased(), objectPath: path)
    let tracker = self.tracker
    guard
      await driver.export(
        path,
        handler: { call in
          profile.answer(call) { tracker.deviceAddress(at: $0) }
        })
    else {
      throw BlueZError(
        name: .disconnected, message: "the bus connection is closed",
        operation: "registering a profile for \(uuid)")
    }
    let call = DBusMethodCall(
      destination: BlueZNames.service, path: "/org/bluez",
      interface: BlueZNames.profileManager, member: "RegisterProfile",
      arguments: [
        .objectPath(path), .string(uuid.lowercased()),
        .dictionary([
          .string("Role"): .variant(.string("client")),
          .string("Name"): .variant(.string(name)),
          .string("AutoConnect"): .variant(.boolean(false)),
        ]),
      ])
    if case .failure(let failure) = await driver.call(
      call, timeout: callTimeout)
    {
      driver.unexport(path)
      profile.finish()
      throw BlueZError(
        failure,
        operation: "registering a profile for \(uuid) "
          + "(\(call.summary))")
    }
    return profile
  }

  /// Asks BlueZ to connect a device's service; BlueZ hands the socket to
  /// the profile registered for it.
  ///
  /// The corresponding D-Bus method is `org.bluez.Device1.ConnectProfile`.
  ///
  /// - Parameters:
  ///   - uuid: The service, as registered with ``registerProfile(uuid:name:)``.
  ///   - address: The device's address.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/notAvailable`` when the device does
  ///   not offer the service.
  public func connectProfile(
    _ uuid: String, onDeviceAt address: String
  ) async throws(BlueZError) {
    let operation = "connecting \(uuid) of \(address)"
    guard let path = tracker.devicePath(of: address.uppercased()) else {
      throw BlueZError(
        name: .doesNotExist, message: "BlueZ has no device \(address)",
        operation: operation)
    }
    let call = DBusMethodCall(
      destination: BlueZNames.service, path: path,
      interface: BlueZNames.deviceInterface, member: "ConnectProfile",
      arguments: [.string(uuid.lowercased())])
    if case .failure(let failure) = await driver.call(
      call, timeout: callTimeout)
    {
      throw BlueZError(failure, operation: "\(operation) (\(call.summary))")
    }
  }
}
