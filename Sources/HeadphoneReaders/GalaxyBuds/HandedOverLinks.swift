// The Galaxy Buds' RFCOMM links: BlueZ opens them and hands the socket to
// a profile this program registers (org.bluez.Profile1.NewConnection).
// One client of BlueZ on the system bus, one profile per service UUID,
// registered when first needed and again after BlueZ restarts.

import AccessoryControl
import AccessorySetupKit
import BlueZ
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import HeadphoneLinks
import Logging

/// Asks BlueZ for RFCOMM links and takes the sockets it hands over.
actor HandedOverLinks {
  private let logger: Logger
  private var client: BlueZClient?
  /// The profiles registered, by service UUID, and the task that takes
  /// their connections.
  private var profiles: [String: (BlueZProfile, Task<Void, Never>)] = [:]
  /// Sockets handed over that no one waits for yet, by device.
  private var arrived: [BluetoothAddress: HeadphoneSocket] = [:]
  /// The reader waiting for each device's socket.
  private var waiting:
    [BluetoothAddress: CheckedContinuation<HeadphoneSocket?, Never>] = [:]

  /// How long BlueZ may take to hand the socket over after ConnectProfile.
  static let handOverTimeout = Duration.seconds(15)

  init(logger: Logger) {
    self.logger = logger
  }

  /// Asks BlueZ to connect a device's service and waits for the socket.
  ///
  /// - Throws: ``LinkError/bluez(_:)`` naming why BlueZ did not.
  func connect(
    _ service: String, of address: BluetoothAddress
  ) async throws(LinkError) -> HeadphoneSocket {
    let client: BlueZClient
    do {
      client = try await bluezClient()
      try await register(service, with: client)
      try await client.connectProfile(service, onDeviceAt: address.description)
    } catch {
      // BlueZ may have restarted and forgotten the profile.
      dropProfile(service)
      throw .bluez("BlueZ did not connect \(service): \(error)")
    }
    if let socket = arrived.removeValue(forKey: address) { return socket }
    let timeout = Task { [weak self] in
      try? await Task.sleep(for: Self.handOverTimeout)
      await self?.deliver(nil, to: address)
    }
    defer { timeout.cancel() }
    let socket = await withCheckedContinuation { continuation in
      waiting[address]?.resume(returning: nil)
      waiting[address] = continuation
    }
    guard let socket else {
      throw .bluez(
        "BlueZ connected \(service) but handed over no socket within "
          + "\(Self.handOverTimeout)")
    }
    return socket
  }

  /// Unregisters nothing (BlueZ forgets a profile when its owner leaves the
  /// bus) and closes the client; waiting readers get nothing.
  func close() {
    for (_, task) in profiles.values { task.cancel() }
    profiles = [:]
    for continuation in waiting.values { continuation.resume(returning: nil) }
    waiting = [:]
    arrived = [:]
    if let client {
      // Closing joins the client's D-Bus thread: not on a shared one.
      Task {
        await BlockingPool.shared.run(named: "bluez.close") { client.close() }
      }
    }
    client = nil
  }

  private func bluezClient() async throws -> BlueZClient {
    if let client { return client }
    let client = try await BlueZClient.connect()
    self.client = client
    return client
  }

  private func register(
    _ service: String, with client: BlueZClient
  ) async throws {
    guard profiles[service] == nil else { return }
    let profile = try await client.registerProfile(
      uuid: service, name: "accessoryd headphones")
    let task = Task { [weak self] in
      for await connection in profile.connections {
        guard let address = BluetoothAddress(connection.deviceAddress) else {
          _ = HeadphoneSocket(adopting: connection.descriptor)
          continue
        }
        await self?.deliver(
          HeadphoneSocket(adopting: connection.descriptor), to: address)
      }
    }
    profiles[service] = (profile, task)
    logger.info(
      "Registered a profile with BlueZ", metadata: ["uuid": "\(service)"])
  }

  private func dropProfile(_ service: String) {
    profiles.removeValue(forKey: service)?.1.cancel()
  }

  /// Gives a handed-over socket to the reader waiting for it, or keeps it
  /// for the next; nil ends a wait.
  private func deliver(_ socket: HeadphoneSocket?, to address: BluetoothAddress)
  {
    if let continuation = waiting.removeValue(forKey: address) {
      continuation.resume(returning: socket)
    } else if let socket {
      arrived[address] = socket
    }
  }
}
