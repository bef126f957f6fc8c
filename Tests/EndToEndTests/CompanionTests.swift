// Companion code written with Apple's AudioAccessoryKit API, unchanged,
// running against the daemon through the default engine.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import TestSupport
import Testing

@Suite("Companion code, end to end")
struct CompanionTests {
  @Test(
    "Apple's register, current and update drive the daemon",
    arguments: SoundServerKind.allCases)
  func appleAPIDrivesTheDaemon(_ kind: SoundServerKind) async throws {
    // The default engine is the daemon's; it reads ACCESSORYD_SOCKET once,
    // so each test gives its own daemon's environment to an engine of the
    // same kind for its task.
    #expect(AccessoryControlEngines.default is DaemonAccessoryEngine)
    try await withRig(kind, phones: true) { rig in
      // AccessorySetupKit's part: the person pairs the buds.
      try await rig.ok(["pair", budsAddress])
      let engine = DaemonAccessoryEngine(
        socketPath: ControlSocketPath.resolve(
          environment: rig.daemon.environment))
      let accessory = ASAccessory(
        displayName: "Studio Buds",
        bluetoothAddress: try #require(BluetoothAddress(budsAddress)),
        formFactor: .headphone)

      try await AccessoryControlEngines.withEngine(engine) {
        // The companion's code, as Apple documents it.
        try await AccessoryControlDevice.register(
          accessory, [.audioSwitching, .placement])
        let device = try AccessoryControlDevice.current(for: accessory)
        #expect(
          device.configuration.deviceCapabilities == [
            .audioSwitching, .placement,
          ])
        #expect(device.configuration.devicePlacement == nil)

        var config = device.configuration
        config.devicePlacement = .inEar
        try await device.update(config)
        #expect(device.configuration.devicePlacement == .inEar)
        try await rig.eventuallyRouted(to: "buds")

        config.devicePlacement = .offHead
        config.primaryAudioSourceDeviceIdentifier = Data([
          0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
        ])
        try await device.update(config)
        #expect(device.configuration == config)
        try await rig.eventuallyRouted(to: "speaker")
        #expect(
          try AccessoryControlDevice.current(for: accessory).configuration
            == config)

        // The daemon's refusals arrive as Apple's errors.
        var worn = config
        worn.deviceCapabilities = [.audioSwitching]
        worn.devicePlacement = .inEar
        let notCapable = await error { try await device.update(worn) }
        #expect(
          notCapable?.name == "accessoryNotCapable", "\(notCapable as Any)")
        #expect(device.configuration == config)

        let phones = ASAccessory(
          displayName: "Travel Phones",
          bluetoothAddress: try #require(BluetoothAddress(phonesAddress)))
        let unpaired = await error {
          try await AccessoryControlDevice.register(phones, [.audioSwitching])
        }
        #expect(unpaired?.name == "invalidRequest", "\(unpaired as Any)")
        let unregistered = await error {
          _ = try AccessoryControlDevice.current(for: phones)
        }
        #expect(
          unregistered?.name == "invalidRequest", "\(unregistered as Any)")
      }

      // acctl sees what the companion did.
      let current = try await rig.json(["current", budsAddress])
      let configuration = current["registration"]?["configuration"]
      #expect(configuration?["devicePlacement"] == "offHead")
      #expect(
        configuration?["primaryAudioSourceDeviceIdentifier"]
          == .string(thisHost))
    }
  }
}

/// Returns the AudioAccessoryKit error an operation throws, or nil.
private func error(
  _ operation: () async throws -> Void
) async -> AccessoryControlDevice.Error? {
  do {
    try await operation()
    return nil
  } catch let error as AccessoryControlDevice.Error {
    return error
  } catch {
    return .unknown(reason: "not an AccessoryControlDevice.Error: \(error)")
  }
}
