// A companion app written as Apple's AccessorySetupKit documentation shows
// it (a session, a picker item, an event switch, the accessory's Bluetooth
// identifier, then AccessoryControlDevice.register), running unchanged
// against accessoryd. The person's side of the picker is `acctl pair`.

import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import ConcurrencyHelpers
import CoreBluetooth
import Foundation
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

  func rename(_ accessory: ASAccessory, to name: String) async throws {
    try await session.renameAccessory(accessory, to: name)
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
    .timeLimit(.minutes(4)))
  func companionSetsUpAndRegisters() async throws {
    let devices = [
      MockDevice(
        address: budsAddress, name: "Studio Buds",
        properties: [
          ("UUIDs", .strings([a2dpSinkUUID])), ("Connected", .bool(true)),
        ]),
      // Headphones the host paired before accessoryd, for the migration.
      MockDevice(
        address: phonesAddress, name: "Travel Phones",
        properties: [
          ("UUIDs", .strings([a2dpSinkUUID])), ("Paired", .bool(true)),
        ]),
    ]
    try await withBlueZRig(devices: devices) { rig, _ in
      let daemon = rig.daemon
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
        let pickerID = try await pendingPicker(daemon.socketPath)
        // A setup that fails (a name of spaces only): pickerSetupFailed, and
        // the picker stays open.
        await #expect(throws: ControlClientError.self) {
          try await ControlClient(path: daemon.socketPath).request(
            "picker.choose",
            params: .object([
              "pickerID": .string(pickerID), "address": .string(budsAddress),
              "name": "   ",
            ]))
        }
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
            "pickerSetupRename", "pickerSetupFailed", "pickerSetupPairing",
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
          manager.accessories.map(\.displayName) == [
            "My Buds", "Travel Phones",
          ])

        // A cancelled picker ends with userCancelled.
        let cancelled = Task { await showPicker(manager) }
        let second = try await pendingPicker(daemon.socketPath)
        // An accessory set up already is not set up again.
        let again = try await daemon.acctl(["pair", "--select", budsAddress])
        #expect(again.status == 3)
        #expect(again.stderr.contains("is set up already"))
        _ = try await ControlClient(path: daemon.socketPath).request(
          "picker.cancel", params: .object(["pickerID": .string(second)]))
        #expect((await cancelled.value as? ASError)?.code == .userCancelled)

        // Renaming: accessoryChanged, and the list follows.
        try await manager.rename(accessory, to: "Work Buds")
        try await until("accessoryChanged arrives") {
          manager.log.withLock { $0.last == "accessoryChanged" }
        }
        #expect(
          manager.accessories.map(\.displayName) == [
            "Travel Phones", "Work Buds",
          ])

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
    }
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
    id = try await client.request("picker.pending")["picker"]?["pickerID"]?
      .stringValue
    return id != nil
  }
  return id!
}

/// Polls a condition for up to 20 seconds.
private func until(
  _ what: String, _ condition: () async throws -> Bool
) async throws {
  try await waitUntil(what, within: .seconds(20), condition)
}

// MARK: - A companion that filters discovery results

/// A companion that picks which discovered accessories the picker offers,
/// as Apple's `filterDiscoveryResults` documentation shows.
final class FilteringManager: @unchecked Sendable {
  private let session = ASAccessorySession()
  private let queue = DispatchQueue(label: "filtering-companion")
  /// Whether to offer what discovery finds (else nothing is offered).
  let offers: Bool
  /// The events, with the discovered accessories' names.
  let log = Mutex<[String]>([])

  init(offers: Bool) {
    self.offers = offers
  }

  func start() {
    session.activate(on: queue) { [weak self] event in
      self?.handleEvent(event)
    }
  }

  private func handleEvent(_ event: ASAccessoryEvent) {
    switch event.eventType {
    case .accessoryDiscovered:
      guard let discovered = event.accessory as? ASDiscoveredAccessory else {
        return
      }
      log.withLock {
        $0.append("accessoryDiscovered \(discovered.displayName)")
      }
      // Only the buds, under a name of the app's choosing.
      guard offers, discovered.displayName == "Studio Buds",
        (discovered.bluetoothRSSI ?? -100) > -90,
        let image = UIImage(named: "buds-pro")
      else { return }
      let item = ASDiscoveredDisplayItem(
        name: "Studio Buds Pro", productImage: image, accessory: discovered)
      session.updatePicker(showing: [item]) { error in
        if let error { print("Update failed: \(error)") }
      }
    default:
      log.withLock { $0.append("\(event.eventType)") }
    }
  }

  func showPicker(completion: @escaping @Sendable ((any Error)?) -> Void) {
    let settings = ASPickerDisplaySettings.default
    settings.discoveryTimeout = .unbounded
    settings.options.insert(.filterDiscoveryResults)
    session.pickerDisplaySettings = settings
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(string: "110B")
    let item = ASPickerDisplayItem(
      name: "Headphones", productImage: UIImage(named: "headphones")!,
      descriptor: descriptor)
    session.showPicker(for: [item]) { completion($0) }
  }

  func finishDiscovery() async throws {
    try await session.finishPickerDiscovery()
  }
}

extension SetupCompanionTests {
  @Test(
    "filterDiscoveryResults: the app sees accessoryDiscovered and offers",
    .timeLimit(.minutes(4)))
  func companionFiltersDiscoveryResults() async throws {
    let devices = [
      MockDevice(
        address: budsAddress, name: "Studio Buds",
        properties: [("UUIDs", .strings([a2dpSinkUUID]))]),
      MockDevice(
        address: phonesAddress, name: "Travel Phones",
        properties: [("UUIDs", .strings([a2dpSinkUUID]))]),
    ]
    try await withBlueZRig(devices: devices) { rig, _ in
      let daemon = rig.daemon
      _ = try await rig.eventuallyDiscovered(phonesAddress) { _ in true }
      _ = try await rig.eventuallyDiscovered(budsAddress) {
        $0["sources"] == ["bluez", "soundServer"]
      }

      try await ASAccessorySession.$defaultSocketPath.withValue(
        daemon.socketPath
      ) {
        let manager = FilteringManager(offers: true)
        manager.start()
        try await until("the session is activated") {
          manager.log.withLock { $0.contains("activated") }
        }
        let dismissed = Task {
          await withCheckedContinuation { continuation in
            manager.showPicker { continuation.resume(returning: $0) }
          }
        }
        // The app offers the buds; the person picks what is offered.
        let client = try ControlClient(path: daemon.socketPath)
        try await until("the app offers the buds") {
          let picker = try await client.request("picker.pending")["picker"]
          return picker?["offered"]?[0]?["name"] == "Studio Buds Pro"
        }
        let refused = try await daemon.acctl([
          "pair", "--select", phonesAddress,
        ])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("the app does not offer"))
        let chosen = try await rig.json(["pair", "--select", budsAddress])
        #expect(chosen["displayName"] == "Studio Buds Pro")
        #expect(await dismissed.value == nil)
        let log = manager.log.withLock { $0 }
        #expect(
          Set(log.filter { $0.hasPrefix("accessoryDiscovered") }) == [
            "accessoryDiscovered Studio Buds",
            "accessoryDiscovered Travel Phones",
          ])
        #expect(
          log.filter { !$0.hasPrefix("accessoryDiscovered") } == [
            "activated", "pickerDidPresent", "pickerSetupPairing",
            "accessoryAdded", "pickerDidDismiss",
          ])

        // An app that offers nothing and ends discovery: discoveryTimeout.
        let idle = FilteringManager(offers: false)
        idle.start()
        try await until("the second session is activated") {
          idle.log.withLock { $0.contains("activated") }
        }
        let timedOut = Task {
          await withCheckedContinuation { continuation in
            idle.showPicker { continuation.resume(returning: $0) }
          }
        }
        try await until("the phones are discovered") {
          idle.log.withLock {
            $0.contains("accessoryDiscovered Travel Phones")
          }
        }
        try await idle.finishDiscovery()
        #expect((await timedOut.value as? ASError)?.code == .discoveryTimeout)
      }
    }
  }
}

extension JSONValue {
  /// The item at an index of an array, or nil.
  fileprivate subscript(index: Int) -> JSONValue? {
    if case .array(let items) = self, items.indices.contains(index) {
      return items[index]
    }
    return nil
  }
}
