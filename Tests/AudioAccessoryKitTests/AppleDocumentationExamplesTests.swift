// Apple's documented AudioAccessoryKit examples, written as Apple's
// documentation shows them. That this file compiles is the test that
// companion code ports unchanged; running it checks the behaviour.

import AccessorySetupKit
import AudioAccessoryKit
import Foundation
import Testing

@Suite("Apple's documented examples")
struct AppleDocumentationExamplesTests {
  /// Registering with capabilities, then reading the configuration back.
  @Test func registerWithCapabilitiesAndReadCurrent() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await AccessoryControlEngines.withEngine(engine) {
      let capabilities: AccessoryControlDevice.Capabilities = [
        .audioSwitching, .placement,
      ]
      try await AccessoryControlDevice.register(accessory, capabilities)

      let device = try AccessoryControlDevice.current(for: accessory)
      let currentConfig = device.configuration
      #expect(
        currentConfig.deviceCapabilities == [.audioSwitching, .placement])
      #expect(device.accessory == accessory)
    }
  }

  /// Registering with a `Configuration`, Apple's current form.
  @Test func registerWithConfiguration() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await AccessoryControlEngines.withEngine(engine) {
      let configuration = AccessoryControlDevice.Configuration(
        devicePlacement: .offHead,
        deviceCapabilities: [.audioSwitching, .placement])
      try await AccessoryControlDevice.register(accessory, configuration)
      let device = try AccessoryControlDevice.current(for: accessory)
      #expect(device.configuration == configuration)
    }
  }

  /// Copy, modify and update the placement and both audio sources.
  @Test func copyModifyUpdate() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await AccessoryControlEngines.withEngine(engine) {
      try await AccessoryControlDevice.register(
        accessory, [.audioSwitching, .placement])

      let device = try AccessoryControlDevice.current(for: accessory)
      var config = device.configuration
      config.devicePlacement = .onHead
      try await device.update(config)

      let primaryBTAddress = Data([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC])
      config.primaryAudioSourceDeviceIdentifier = primaryBTAddress
      let secondaryBTAddress = Data([0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45])
      config.secondaryAudioSourceDeviceIdentifier = secondaryBTAddress
      try await device.update(config)

      #expect(device.configuration == config)
      let reread = try AccessoryControlDevice.current(for: accessory)
      #expect(reread.configuration.devicePlacement == .onHead)
      #expect(
        reread.configuration.primaryAudioSourceDeviceIdentifier
          == primaryBTAddress)
      #expect(
        reread.configuration.secondaryAudioSourceDeviceIdentifier
          == secondaryBTAddress)
    }
  }

  /// Catching the error type and switching over all four cases.
  @Test func catchAndSwitchOverEveryErrorCase() async throws {
    let (engine, _) = try await makeEngineWithHeadphones()
    let rawAccessory = ASAccessory()
    let capabilities: AccessoryControlDevice.Capabilities = [.audioSwitching]
    var handled = ""
    await AccessoryControlEngines.withEngine(engine) {
      do {
        try await AccessoryControlDevice.register(rawAccessory, capabilities)
      } catch let error as AccessoryControlDevice.Error {
        switch error {
        case .accessoryNotCapable:
          handled = "accessoryNotCapable"
        case .invalidRequest:
          handled = "invalidRequest"
        case .invalidated:
          handled = "invalidated"
        case .unknown:
          handled = "unknown"
        }
      } catch {
        handled = "other"
      }
    }
    #expect(handled == "invalidRequest")
  }

  /// Catching `invalidated` by pattern and registering again.
  @Test func catchInvalidatedAndRegisterAgain() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let capabilities: AccessoryControlDevice.Capabilities = [.audioSwitching]
    try await AccessoryControlEngines.withEngine(engine) {
      try await AccessoryControlDevice.register(accessory, capabilities)
      let device = try AccessoryControlDevice.current(for: accessory)
      let config = device.configuration
      try await engine.unpair(accessory.bluetoothAddress!)
      try await engine.pair(
        accessory.bluetoothAddress!, displayName: accessory.displayName)
      var reregistered = false
      do {
        try await device.update(config)
      } catch AccessoryControlDevice.Error.invalidated {
        try await AccessoryControlDevice.register(accessory, capabilities)
        reregistered = true
      }
      #expect(reregistered)
      try await device.update(config)
    }
  }

  /// Querying capabilities and switching over every placement.
  @Test func queryCapabilitiesAndPlacement() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await AccessoryControlEngines.withEngine(engine) {
      try await AccessoryControlDevice.register(
        accessory,
        AccessoryControlDevice.Configuration(
          devicePlacement: .overTheEar,
          deviceCapabilities: [.audioSwitching, .placement]))

      let device = try AccessoryControlDevice.current(for: accessory)
      let caps = device.configuration.deviceCapabilities
      var supports: [String] = []
      if caps.contains(.audioSwitching) {
        supports.append("audioSwitching")
      }
      if caps.contains(.placement) {
        supports.append("placement")
      }
      #expect(supports == ["audioSwitching", "placement"])

      var worn: Bool?
      if let placement = device.configuration.devicePlacement {
        switch placement {
        case .inEar, .onHead, .overTheEar:
          worn = true
        case .offHead:
          worn = false
        }
      }
      #expect(worn == true)
      #expect(AccessoryControlDevice.Placement.allCases.count == 4)
    }
  }
}
