// BlueZ's devices as discovered devices: advertisements, signal, pairing
// state; and BlueZ's adapters, whose addresses are this host's identities.

import AccessorySetupKit
import BlueZ

/// Discovers the devices BlueZ knows over D-Bus, and reports the host's
/// adapters.
///
/// The source follows `org.bluez` going away and coming back (its devices
/// are then gone, then read again). It ends with an error only if the bus
/// itself cannot be reached.
public struct BlueZDevices: DeviceDiscoverySource {
  /// Always ``DiscoveredDevice/Source/bluez``.
  public let kind = DiscoveredDevice.Source.bluez
  private let busAddress: String?
  private let adaptersChanged: @Sendable ([BlueZAdapter]) async -> Void

  /// Creates the source.
  ///
  /// - Parameters:
  ///   - busAddress: The D-Bus bus BlueZ is on; nil for the system bus
  ///     (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
  ///   - adaptersChanged: Receives the host's adapters whenever they
  ///     change.
  public init(
    busAddress: String? = nil,
    adaptersChanged: @escaping @Sendable ([BlueZAdapter]) async -> Void
  ) {
    self.busAddress = busAddress
    self.adaptersChanged = adaptersChanged
  }

  /// Reports BlueZ's devices now and on every change, until cancelled.
  ///
  /// - Throws: ``BlueZError`` if the bus cannot be reached.
  public func follow(
    _ report: @escaping @Sendable ([DiscoveredDevice]) async -> Void
  ) async throws {
    let client = try await BlueZClient.connect(busAddress: busAddress)
    defer { client.close() }
    // Subscribe before reading, so that nothing falls between the two.
    let changes = client.changes()
    var adapters: [String: BlueZAdapter] = [:]
    var devices: [BluetoothAddress: DiscoveredDevice] = [:]
    for adapter in (try? await client.adapters()) ?? [] {
      adapters[adapter.objectPath] = adapter
    }
    for device in (try? await client.devices()) ?? [] {
      devices[device.address] = device
    }
    func sorted() -> [BlueZAdapter] {
      adapters.values.sorted { $0.address < $1.address }
    }
    await adaptersChanged(sorted())
    await report(Array(devices.values))
    for await change in changes {
      switch change {
      case .adapterAdded(let adapter), .adapterChanged(let adapter):
        adapters[adapter.objectPath] = adapter
        await adaptersChanged(sorted())
      case .adapterRemoved(let adapter):
        adapters[adapter.objectPath] = nil
        await adaptersChanged(sorted())
      case .deviceAdded(let device), .deviceChanged(let device):
        devices[device.address] = device
        await report(Array(devices.values))
      case .deviceRemoved(let address):
        devices[address] = nil
        await report(Array(devices.values))
      }
    }
  }
}
