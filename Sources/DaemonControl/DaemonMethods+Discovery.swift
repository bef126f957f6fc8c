// The control socket's discovery methods: listing and following the
// devices BlueZ and the sound server see, renaming, and migrating the
// Bluetooth audio devices paired before accessoryd.

import AccessoryControl
import AccessoryEngine
import AccessorySetupKit
import AudioAccessoryKit
import CoreBluetooth
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders

extension DaemonMethods {
  /// `discovery.list`: the devices seen now, each with whether it matches
  /// the descriptor (or any of the descriptors) and, if not, why.
  func discoveryList(_ request: DiscoveryListRequest) async -> DiscoveryList {
    let filter = DeviceFilter(request.descriptors)
    let registry = engine.registry
    var devices: [DiscoveredDeviceRecord] = []
    for device in await discovery.devices {
      devices.append(
        Self.deviceRecord(
          device, matching: filter,
          authorized: registry.accessories[device.address] != nil))
    }
    return DiscoveryList(devices: devices)
  }

  /// `discovery.subscribe`: from the answer on, `event` notifications with
  /// `kind: "discovery"` for each device that is added, changes or goes
  /// away; with a descriptor (or several, any of which may match), only
  /// devices that match (a device that stops matching is reported
  /// removed).
  func discoverySubscribe(
    _ request: DiscoverySubscribeRequest, _ connection: ControlConnection
  ) async throws -> EmptyReply {
    let filter = DeviceFilter(request.descriptors)
    let changes = discovery.changes()
    let (notifications, continuation) = AsyncStream.makeStream(
      of: JSONValue.self, bufferingPolicy: .bufferingNewest(1000))
    guard connection.subscribe(to: notifications) else {
      throw ControlError.invalidRequest(
        "this connection already follows events; open another one")
    }
    // The devices the client can list now; it hears when each goes away.
    let listed = Set(
      await discovery.devices.filter { filter?.matches($0) ?? true }
        .map(\.address))
    let engine = self.engine
    let task = Task {
      var shown = listed
      for await change in changes {
        let event: JSONValue?
        switch change {
        case .added(let device), .changed(let device):
          let matches = filter?.matches(device) ?? true
          let authorized = engine.registry.accessories[device.address] != nil
          if matches {
            let isNew = shown.insert(device.address).inserted
            event = Self.discoveryEvent(
              isNew ? .added : .changed,
              (try? JSONValue(
                encoding: Self.deviceRecord(
                  device, matching: filter, authorized: authorized))) ?? .null)
          } else if shown.remove(device.address) != nil {
            event = Self.discoveryEvent(
              .removed, .object(["address": .string("\(device.address)")]))
          } else {
            event = nil
          }
        case .removed(let address):
          event =
            shown.remove(address) == nil
            ? nil
            : Self.discoveryEvent(
              .removed, .object(["address": .string("\(address)")]))
        }
        if let event { continuation.yield(event) }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return EmptyReply()
  }

  /// `accessory.rename`: gives a paired accessory a new display name
  /// (`accessoryChanged`).
  func rename(
    _ request: DaemonAccessoryRenameRequest
  ) async throws
    -> DaemonAccessory
  {
    let address = try engine.registry.resolve(request.accessory)
    let name = request.name
    guard let paired = engine.registry.accessories[address] else {
      throw AccessoryControlFailure.invalidRequest(
        reason: "\(address) is not paired; pair it before renaming it")
    }
    // Names select accessories, as addresses do: two of one name could
    // only be reached by address.
    if let other = engine.registry.addresses(named: name).first(where: {
      $0 != address
    }) {
      throw AccessoryControlFailure.invalidRequest(
        reason: "'\(name)' is the name of \(other) already; choose a name "
          + "no other accessory has")
    }
    let methods = self
    _ = try await router.change(
      because: .accessoryRenamed,
      whenUndone: {
        // Under its old name again.
        methods.publishAccessory(.renamed, address)
      }
    ) { _ throws(AccessoryControlFailure) in
      let staged = try methods.engine.stagePairing(
        address, displayName: name, formFactor: paired.formFactor,
        descriptor: paired.accessory.descriptor)
      methods.publishAccessory(.renamed, address)
      return ((), staged.generation)
    }
    return await accessoryRecord(address)
  }

  /// `accessory.migrate`: authorizes every Bluetooth audio device the host
  /// paired before accessoryd (BlueZ says paired, or the sound server has
  /// an output for it) that is not authorized yet and matches the
  /// descriptor if one is given; then `migrationComplete`.
  func migrate(
    _ request: AccessoryMigrateRequest<AccessoryControlDevice.Configuration>
  ) async throws -> MigrationResult<AccessoryControlDevice.Configuration> {
    let filter = request.descriptor.map { DeviceFilter(descriptors: [$0]) }
    let migrated = try await migrateDevices(matching: filter)
    return MigrationResult(migrated: migrated)
  }

  /// Authorizes the devices paired with the host before accessoryd, that
  /// play audio, are not authorized yet and match the filter, if any; then
  /// publishes `migrationComplete`.
  ///
  /// - Returns: The accessories it authorized.
  @discardableResult
  func migrateDevices(
    matching filter: DeviceFilter?
  ) async throws -> [DaemonAccessory] {
    var migrated: [DaemonAccessory] = []
    for device in await discovery.devices
    where device.isPaired && device.isAudio
      && engine.registry.accessories[device.address] == nil
      && filter?.matches(device) ?? true
    {
      try await authorize(
        device, name: device.displayName,
        descriptor: filter?.descriptors.first { $0.matches(device) },
        because: .accessoriesMigrated)
      migrated.append(await accessoryRecord(device.address))
    }
    events.publish(.session(SessionEvent(migrated: migrated.count)))
    return migrated
  }

  /// A `discovery` event.
  static func discoveryEvent(
    _ change: DiscoveryEvent.Change, _ device: JSONValue
  ) -> JSONValue {
    DaemonEvent.discovery(DiscoveryEvent(change: change, device: device)).json
  }

  /// A device as the control socket shows it.
  static func deviceRecord(
    _ device: DiscoveredDevice, matching filter: DeviceFilter?,
    authorized: Bool
  ) -> DiscoveredDeviceRecord {
    var record = DiscoveredDeviceRecord(device, authorized: authorized)
    if let filter {
      let mismatch = filter.mismatch(with: device)
      record.matches = mismatch == nil
      record.mismatch = mismatch.map { "\($0)" }
    }
    return record
  }
}

extension DiscoveredDevice {
  /// Whether the device plays audio: it has an output on the sound server,
  /// an audio form factor or icon, or advertises an audio sink service
  /// (A2DP sink 0x110B, headset 0x1108, hands-free 0x111E, LE audio
  /// 0x184E).
  var isAudio: Bool {
    audioOutput != nil || formFactor != nil
      || icon?.hasPrefix("audio-") == true
      || serviceUUIDs.contains { Self.audioServices.contains($0) }
  }

  /// The services of devices that play audio.
  private static let audioServices = Set(
    ["110B", "1108", "111E", "184E"].map { CBUUID(string: $0) })
}

/// The descriptors a device must match one of; `discovery.list` and
/// `discovery.subscribe` take one descriptor or several (a picker with
/// several items).
package struct DeviceFilter: Sendable {
  /// The descriptors, at least one.
  let descriptors: [ASDiscoveryDescriptor]

  /// A filter of some descriptors, at least one.
  init(descriptors: [ASDiscoveryDescriptor]) {
    self.descriptors = descriptors
  }

  /// A filter of some descriptors; nil, which lets every device through,
  /// for none.
  init?(_ descriptors: [ASDiscoveryDescriptor]) {
    guard !descriptors.isEmpty else { return nil }
    self.descriptors = descriptors
  }

  /// Whether the device matches any descriptor.
  func matches(_ device: DiscoveredDevice) -> Bool {
    descriptors.contains { $0.matches(device) }
  }

  /// Nil if the device matches a descriptor, else why it does not match
  /// the first one.
  func mismatch(with device: DiscoveredDevice) -> DescriptorMismatch? {
    guard !matches(device) else { return nil }
    return descriptors.first?.mismatch(with: device)
  }
}
