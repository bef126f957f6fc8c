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
      // AccessorySetupKit's part: the person pairs the buds, and acctl
      // says what that does and what registering adds.
      let paired = try await rig.ok(["pair", budsAddress]).stdout
      #expect(paired.contains("Authorized for accessoryd"), "\(paired)")
      #expect(
        paired.contains(
          "acctl register \(budsAddress) --capabilities "
            + "audioSwitching,placement --placement inEar"), "\(paired)")
      let (engine, accessory) = companionView(of: rig)

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

        // The daemon's refusals arrive as Apple's errors, their reasons
        // beside them.
        var worn = config
        worn.deviceCapabilities = [.audioSwitching]
        worn.devicePlacement = .inEar
        let notCapable = await error { try await device.update(worn) }
        #expect(notCapable == .accessoryNotCapable)
        #expect(
          AccessoryControlDevice.lastFailure(for: accessory)?.reason.contains(
            "placement") == true,
          "\(AccessoryControlDevice.lastFailure(for: accessory) as Any)")
        #expect(device.configuration == config)

        let phones = ASAccessory(
          displayName: "Travel Phones",
          bluetoothAddress: try #require(BluetoothAddress(phonesAddress)))
        let unpaired = await error {
          try await AccessoryControlDevice.register(phones, [.audioSwitching])
        }
        #expect(unpaired == .invalidRequest)
        let unregistered = await error {
          _ = try AccessoryControlDevice.current(for: phones)
        }
        #expect(unregistered == .invalidRequest)
        #expect(
          AccessoryControlDevice.lastFailure(for: phones)?.code
            == .invalidRequest)
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

extension CompanionTests {
  @Test(
    "Apple's errors from the daemon compare as values; acctl keeps the reasons",
    arguments: SoundServerKind.allCases)
  func appleErrorsFromTheDaemon(_ kind: SoundServerKind) async throws {
    try await withRig(kind, streams: 0) { rig in
      try await rig.ok(["pair", budsAddress])
      let (engine, accessory) = companionView(of: rig)
      let retryable: Set<AccessoryControlDevice.Error> = [
        .unknown, .invalidated,
      ]

      try await AccessoryControlEngines.withEngine(engine) {
        try await AccessoryControlDevice.register(accessory, [.audioSwitching])
        let device = try AccessoryControlDevice.current(for: accessory)

        // Placement without its capability: Apple's case, as a value.
        var worn = device.configuration
        worn.devicePlacement = .inEar
        await #expect(throws: AccessoryControlDevice.Error.accessoryNotCapable)
        {
          try await device.update(worn)
        }
        let reason = try #require(
          AccessoryControlDevice.lastFailure(for: accessory)?.reason)
        #expect(reason.contains("placement"), "\(reason)")

        // Unpaired elsewhere: the registration is invalidated; the app
        // pairs and registers again, as Apple's documentation shows.
        try await rig.ok(["unpair", budsAddress])
        do {
          try await device.update(device.configuration)
          Issue.record("an update of an invalidated registration succeeded")
        } catch let error as AccessoryControlDevice.Error {
          #expect(error == .invalidated)
          #expect(retryable.contains(error))
          switch error {
          case .invalidated:
            try await rig.ok(["pair", budsAddress])
            try await AccessoryControlDevice.register(
              accessory, [.audioSwitching])
          case .accessoryNotCapable, .invalidRequest, .unknown:
            Issue.record("unexpected \(error)")
          @unknown default:
            Issue.record("unexpected \(error)")
          }
        }
        try await AccessoryControlDevice.current(for: accessory).update(
          device.configuration)
      }

      // acctl still prints the daemon's reason, and exits with the case's
      // code.
      let refused = try await rig.daemon.acctl([
        "update", budsAddress, "--placement", "inEar",
      ])
      #expect(refused.status != 0)
      #expect(refused.stderr.contains("placement"), "\(refused)")
    }
  }
}

extension CompanionTests {
  @Test(
    "A host dropping off a multipoint headset: the primary cleared, the remaining host takes the buds",
    arguments: SoundServerKind.allCases)
  func primaryHostDropsOff(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.ok(["pair", budsAddress])
      let (engine, accessory) = companionView(of: rig)
      let otherHost = Data([0x11, 0x22, 0x33, 0x44, 0x55, 0x99])
      try await AccessoryControlEngines.withEngine(engine) {
        try await AccessoryControlDevice.register(
          accessory, [.audioSwitching, .placement])
        let device = try AccessoryControlDevice.current(for: accessory)
        // Worn, with another host primary and this one secondary: the
        // buds are the other host's.
        var config = device.configuration
        config.devicePlacement = .inEar
        config.primaryAudioSourceDeviceIdentifier = otherHost
        config.secondaryAudioSourceDeviceIdentifier = try #require(
          BluetoothAddress(thisHost)?.data)
        try await device.update(config)
        try await rig.staysRouted(to: "speaker", for: .seconds(1))
        // The other host drops off: the companion clears the primary, as
        // Apple's API lets it. Accepted, and this host is the one left.
        config.primaryAudioSourceDeviceIdentifier = nil
        try await device.update(config)
        #expect(device.configuration == config)
        try await rig.eventuallyRouted(to: "buds")
      }
    }
  }
}

/// What a companion holds for a rig's daemon: an engine that talks to it,
/// and the buds as AccessorySetupKit hands them over.
private func companionView(
  of rig: Rig
) -> (DaemonAccessoryEngine, ASAccessory) {
  let engine = DaemonAccessoryEngine(
    socketPath: ControlSocketPath.resolve(environment: rig.daemon.environment))
  let accessory = ASAccessory(
    displayName: "Studio Buds",
    bluetoothAddress: BluetoothAddress(budsAddress)!,
    formFactor: .headphone)
  return (engine, accessory)
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
    Issue.record("not an AccessoryControlDevice.Error: \(error)")
    return nil
  }
}
