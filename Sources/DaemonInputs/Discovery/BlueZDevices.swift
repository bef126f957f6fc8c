// BlueZ's devices as discovered devices: advertisements, signal, pairing
// state; and BlueZ's adapters, whose addresses are this host's identities.

import AccessorySetupKit
import BlueZ
import CoreBluetooth
import DaemonLifecycle
import FoundationEssentials

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
  private let scanDemand: AsyncStream<Bool>?
  private let status: BlueZStatus?

  /// Creates the source.
  ///
  /// - Parameters:
  ///   - busAddress: The D-Bus bus BlueZ is on; nil for the system bus
  ///     (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
  ///   - scanDemand: Whether someone follows discovery now
  ///     (``DeviceDiscovery/scanDemand``): the powered adapters scan for
  ///     advertising devices only while it is true.
  ///   - status: Receives the source's connection, so that
  ///     `bluetooth.status` reads BlueZ through it, or why the bus cannot
  ///     be reached.
  ///   - adaptersChanged: Receives the host's adapters whenever they
  ///     change.
  public init(
    busAddress: String? = nil, scanDemand: AsyncStream<Bool>? = nil,
    status: BlueZStatus? = nil,
    adaptersChanged: @escaping @Sendable ([BlueZAdapter]) async -> Void
  ) {
    self.busAddress = busAddress
    self.scanDemand = scanDemand
    self.status = status
    self.adaptersChanged = adaptersChanged
  }

  /// Reports BlueZ's devices now and on every change, until cancelled.
  ///
  /// - Throws: ``BlueZError`` if the bus cannot be reached.
  public func follow(
    _ report: @escaping @Sendable ([DiscoveredDevice]) async -> Void
  ) async throws {
    let client: BlueZClient
    do {
      client = try await BlueZClient.connect(busAddress: busAddress)
    } catch {
      status?.use(.unreachable("\(error)"))
      throw error
    }
    status?.use(.connected(client))
    defer {
      status?.use(.ended)
      client.close()
    }
    let scanner = Scanner(client: client)
    let scanning = scanDemand.map { demand in
      Task {
        for await wanted in demand { await scanner.want(wanted) }
      }
    }
    defer { scanning?.cancel() }
    // Subscribe before reading, so that nothing falls between the two.
    let changes = client.changes()
    var adapters: [String: BlueZAdapter] = [:]
    var devices: [String: DiscoveredDevice] = [:]
    for adapter in (try? await client.adapters()) ?? [] {
      adapters[adapter.objectPath] = adapter
    }
    for device in (try? await client.devices()) ?? [] {
      devices[device.address] = DiscoveredDevice(device)
    }
    func sorted() -> [BlueZAdapter] {
      adapters.values.sorted { $0.address < $1.address }
    }
    await scanner.use(sorted())
    await adaptersChanged(sorted())
    await report(Array(devices.values))
    for await change in changes {
      switch change {
      case .adapterAdded(let adapter), .adapterChanged(let adapter):
        adapters[adapter.objectPath] = adapter
        await scanner.use(sorted())
        await adaptersChanged(sorted())
      case .adapterRemoved(let adapter):
        adapters[adapter.objectPath] = nil
        await scanner.use(sorted())
        await adaptersChanged(sorted())
      case .deviceAdded(let device), .deviceChanged(let device):
        devices[device.address] = DiscoveredDevice(device)
        await report(Array(devices.values))
      case .deviceRemoved(let address):
        devices[address] = nil
        await report(Array(devices.values))
      }
    }
  }
}

/// Starts and stops BlueZ's discovery on the powered adapters as the demand
/// and the adapters change.
private actor Scanner {
  private let client: BlueZClient
  private var adapters: [BlueZAdapter] = []
  private var wanted = false
  /// The adapters this scanner started, by object path.
  private var scanning: Set<String> = []

  init(client: BlueZClient) {
    self.client = client
  }

  /// Scans, or stops, as someone wants it.
  func want(_ wanted: Bool) async {
    self.wanted = wanted
    await settle()
  }

  /// Takes the current adapters.
  func use(_ adapters: [BlueZAdapter]) async {
    self.adapters = adapters
    await settle()
  }

  /// Starts discovery on each powered adapter while it is wanted, and stops
  /// what it started when it is not.
  private func settle() async {
    for adapter in adapters {
      let scans = scanning.contains(adapter.objectPath)
      if wanted && adapter.isPowered && !scans {
        if (try? await client.startDiscovery(on: adapter)) != nil {
          scanning.insert(adapter.objectPath)
        }
      } else if !wanted && scans {
        try? await client.stopDiscovery(on: adapter)
        scanning.remove(adapter.objectPath)
      }
    }
    let present = Set(adapters.map(\.objectPath))
    scanning.formIntersection(present)
  }
}

extension DiscoveredDevice {
  /// Creates the discovery record of a device BlueZ reports, or returns nil
  /// if its address is not a Bluetooth address.
  package init?(_ device: BlueZDevice) {
    guard let address = BluetoothAddress(device.address) else { return nil }
    var serviceData: [CBUUID: Data] = [:]
    for (text, data) in device.serviceData {
      if let uuid = CBUUID(validating: text) { serviceData[uuid] = data }
    }
    self.init(
      address: address,
      name: device.name,
      alias: device.alias,
      serviceUUIDs: device.uuids.compactMap { CBUUID(validating: $0) },
      manufacturerData: device.manufacturerData,
      serviceData: serviceData,
      rssi: device.rssi,
      formFactor: device.icon.flatMap(AudioFormFactor.init(bluezIcon:)),
      icon: device.icon,
      isPaired: device.isPaired,
      isConnected: device.isConnected,
      adapter: device.adapterAddress.flatMap(BluetoothAddress.init),
      sources: [.bluez])
    modalias = device.modalias
  }
}

extension AudioFormFactor {
  /// The form factor that a BlueZ icon name stands for, or nil for icons of
  /// devices that are not audio outputs.
  ///
  /// BlueZ derives the icon from the device's class: `audio-headphones` and
  /// `audio-headset` for worn devices, `audio-card` for the other audio
  /// classes (loudspeakers, portable, car and hi-fi audio), none of which
  /// can be worn, so they count as speakers. `audio-speakers` is the
  /// freedesktop icon name for speakers.
  init?(bluezIcon icon: String) {
    switch icon {
    case "audio-headphones": self = .headphone
    case "audio-headset": self = .headset
    case "audio-card", "audio-speakers": self = .speaker
    default: return nil
    }
  }
}
