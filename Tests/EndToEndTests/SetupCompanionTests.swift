// A companion app written as Apple's AccessorySetupKit documentation shows
// it (a session, a picker item, an event switch, the accessory's Bluetooth
// identifier, then AccessoryControlDevice.register), running unchanged
// against accessoryd. The person's side of the picker is `acctl pair`.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import CoreBluetooth
import Foundation
import Synchronization
import TestSupport
import Testing

// MARK: - The companion, as Apple's documentation writes it

/// The companion's accessory manager, in the shape of Apple's examples.
final class AccessoryManager: @unchecked Sendable {
  private let session = ASAccessorySession()
  private var pendingAccessory: ASAccessory?
  private let queue: DispatchQueue
  /// What the manager saw, for the test: event names, in order.
  let log = Mutex<[String]>([])
  /// The accessory set up after the picker was dismissed.
  let setUp = Mutex<ASAccessory?>(nil)

  init(queue: DispatchQueue) {
    self.queue = queue
  }

  func start() {
    session.activate(on: queue) { [weak self] event in
      self?.handleEvent(event)
    }
  }

  private func handleEvent(_ event: ASAccessoryEvent) {
    log.withLock { $0.append("\(event.eventType)") }
    switch event.eventType {
    case .activated:
      // Session ready; earlier accessories are in session.accessories.
      break
    case .accessoryAdded:
      pendingAccessory = event.accessory
    case .pickerDidDismiss:
      if let accessory = pendingAccessory {
        pendingAccessory = nil
        beginCustomSetup(accessory)
      }
    case .accessoryChanged, .accessoryRemoved, .invalidated:
      break
    default:
      break
    }
  }

  func showAccessoryPicker(
    completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(string: "110B")
    guard let image = UIImage(named: "studio-buds") else { return }
    let item = ASPickerDisplayItem(
      name: "Studio Buds", productImage: image, descriptor: descriptor)
    item.setupOptions = [.rename]
    session.showPicker(for: [item]) { error in
      if let error {
        print("Picker failed: \(error.localizedDescription)")
      }
      completion(error)
    }
  }

  func migrateExistingAccessories(
    completion: @escaping @Sendable ((any Error)?) -> Void
  ) {
    guard let image = UIImage(named: "my-accessory") else { return }
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(string: "110B")
    let migrationItem = ASMigrationDisplayItem(
      name: "My Accessory", productImage: image, descriptor: descriptor)
    migrationItem.peripheralIdentifier = UUID()
    session.showPicker(for: [migrationItem]) { error in
      if let error {
        print("Migration failed: \(error.localizedDescription)")
      }
      completion(error)
    }
  }

  private func beginCustomSetup(_ accessory: ASAccessory) {
    guard accessory.bluetoothIdentifier != nil else { return }
    setUp.withLock { $0 = accessory }
  }

  func remove(_ accessory: ASAccessory) async throws {
    try await session.removeAccessory(accessory)
  }

  func stop() {
    session.invalidate()
  }

  var accessories: [ASAccessory] { session.accessories }
}

// MARK: - The test

@Suite("AccessorySetupKit companion, end to end")
struct SetupCompanionTests {
  @Test(
    "Apple's session, picker and events drive accessoryd; acctl answers",
    .timeLimit(.minutes(2)))
  func companionSetsUpAndRegisters() async throws {
    let mock = try await BlueZMock.start()
    defer { mock.stop() }
    try await mock.addAdapter("hci0", systemName: "laptop")
    try await mock.addDevice(address: budsAddress, name: "Studio Buds")
    try await mock.setDeviceProperty(
      budsAddress, "UUIDs",
      .strings(["0000110b-0000-1000-8000-00805f9b34fb"]))
    try await mock.setDeviceProperty(budsAddress, "Connected", .bool(true))
    // Headphones the host paired before accessoryd, for the migration.
    try await mock.addDevice(address: phonesAddress, name: "Travel Phones")
    try await mock.setDeviceProperty(
      phonesAddress, "UUIDs",
      .strings(["0000110b-0000-1000-8000-00805f9b34fb"]))
    try await mock.setDeviceProperty(phonesAddress, "Paired", .bool(true))
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(
      on: server, systemBusAddress: mock.busAddress)
    defer { daemon.shutDown() }
    let rig = Rig(server: server, daemon: daemon)
    _ = try await rig.eventuallyDiscovered(budsAddress) {
      $0["sources"] == ["bluez", "soundServer"]
    }

    try await ASAccessorySession.$defaultSocketPath.withValue(
      daemon.socketPath
    ) {
      let manager = AccessoryManager(
        queue: DispatchQueue(label: "companion"))
      // The picker before activation is an error, never nothing.
      let early = await showPicker(manager)
      #expect((early as? ASError)?.code == .invalidRequest)

      manager.start()
      try await until("the session is activated") {
        manager.log.withLock { $0.contains("activated") }
      }
      let dismissed = Task { await showPicker(manager) }
      _ = try await pendingPicker(daemon.socketPath)
      // The person's side, from a script: choose the buds, rename them.
      let chosen = try await rig.json(
        ["pair", "--select", budsAddress, "--name", "My Buds"])
      #expect(chosen["displayName"] == "My Buds")
      #expect(await dismissed.value == nil)
      try await until("the companion set the accessory up") {
        manager.setUp.withLock { $0 != nil }
      }
      #expect(
        manager.log.withLock { $0 } == [
          "activated", "pickerDidPresent", "pickerSetupPairing",
          "pickerSetupRename", "accessoryAdded", "pickerDidDismiss",
        ])
      let accessory = try #require(manager.setUp.withLock { $0 })
      #expect(accessory.displayName == "My Buds")
      #expect(manager.accessories.map(\.displayName) == ["My Buds"])

      // Then AudioAccessoryKit, as Apple documents it.
      let engine = DaemonAccessoryEngine(socketPath: daemon.socketPath)
      try await AccessoryControlEngines.withEngine(engine) {
        try await AccessoryControlDevice.register(
          accessory,
          AccessoryControlDevice.Configuration(
            devicePlacement: .offHead,
            deviceCapabilities: [.audioSwitching, .placement]))
        var configuration = try AccessoryControlDevice.current(
          for: accessory
        ).configuration
        configuration.devicePlacement = .inEar
        try await AccessoryControlDevice.current(for: accessory).update(
          configuration)
      }
      try await rig.eventuallyRouted(to: "buds", streams: 0)

      // A migration picker: the paired headphones are authorized at once.
      manager.log.withLock { $0 = [] }
      let migrated = await withCheckedContinuation { continuation in
        manager.migrateExistingAccessories {
          continuation.resume(returning: $0)
        }
      }
      #expect(migrated == nil)
      try await until("the migration's events arrive") {
        manager.log.withLock { $0.last == "pickerDidDismiss" }
      }
      #expect(
        manager.log.withLock { $0 } == [
          "pickerDidPresent", "accessoryAdded", "migrationComplete",
          "pickerDidDismiss",
        ])
      #expect(
        manager.accessories.map(\.displayName) == ["My Buds", "Travel Phones"])

      // A cancelled picker ends with userCancelled.
      let cancelled = Task { await showPicker(manager) }
      let second = try await pendingPicker(daemon.socketPath)
      _ = try ControlClient(path: daemon.socketPath).call(
        "picker.cancel", params: .object(["pickerID": .string(second)]))
      #expect((await cancelled.value as? ASError)?.code == .userCancelled)

      // Removing the accessory: accessoryRemoved, and the list is empty.
      try await manager.remove(accessory)
      try await until("accessoryRemoved arrives") {
        manager.log.withLock { $0.last == "accessoryRemoved" }
      }
      #expect(manager.accessories.map(\.displayName) == ["Travel Phones"])

      // An invalidated session cannot be reused.
      manager.stop()
      let late = await showPicker(manager)
      #expect((late as? ASError)?.code == .invalidated)
      #expect(manager.log.withLock { $0.last } == "invalidated")
    }
    #expect(daemon.stop() == 0)
  }
}

/// Shows the companion's picker and returns its completion's error.
private func showPicker(_ manager: AccessoryManager) async -> (any Error)? {
  await withCheckedContinuation { continuation in
    manager.showAccessoryPicker { continuation.resume(returning: $0) }
  }
}

/// Waits until the daemon has an open picker, and returns its identifier.
private func pendingPicker(_ socketPath: String) async throws -> String {
  let client = try ControlClient(path: socketPath)
  var id: String?
  try await until("the picker is shown") {
    id = try client.call("picker.pending")["picker"]?["pickerID"]?.stringValue
    return id != nil
  }
  return id!
}

/// Polls a condition every 20 ms for up to 20 seconds.
private func until(
  _ what: String, _ condition: () throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + .seconds(20)
  while try !condition() {
    guard ContinuousClock.now < deadline else {
      throw RigFailure("timed out waiting until \(what)", details: "")
    }
    try await Task.sleep(for: .milliseconds(20))
  }
}
