// Every rule of the registry store, each with the exact error it throws.

import AccessoryBackend
import AudioAccessoryKit
import ConcurrencyHelpers
import Foundation
import Testing

@Suite("Registration rules")
struct RegistrationRulesTests {
  typealias Configuration = AccessoryControlDevice.Configuration

  @Test func registeringAnUnpairedAccessoryNamesIt() async throws {
    let (engine, _) = try await makeEngineWithHeadphones()
    let stranger = ASAccessory(
      displayName: "Stranger",
      bluetoothAddress: BluetoothAddress(
        "11:22:33:44:55:66")!)
    let error = await accessoryError {
      try await engine.register(
        stranger, Configuration(deviceCapabilities: [.audioSwitching]))
    }
    #expect(
      error
        == .invalidRequest(
          reason: "accessory 'Stranger' (11:22:33:44:55:66) is not paired; "
            + "pair it first (AccessorySetupKit's picker, or 'acctl pair') "
            + "before registering it"))
  }

  @Test func registeringAnAccessoryWithoutIdentityIsRefused() async throws {
    let (engine, _) = try await makeEngineWithHeadphones()
    let error = await accessoryError {
      try await engine.register(
        ASAccessory(), Configuration(deviceCapabilities: [.audioSwitching]))
    }
    #expect(
      error
        == .invalidRequest(
          reason: "accessory '' has no Bluetooth identity; pair it with "
            + "AccessorySetupKit before registering it"))
  }

  @Test func emptyCapabilitiesAreRefused() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let error = await accessoryError {
      try await engine.register(
        accessory, Configuration(deviceCapabilities: []))
    }
    #expect(
      error
        == .invalidRequest(
          reason: "no capabilities for 'Studio Buds' (AA:BB:CC:DD:EE:01); "
            + "register with audioSwitching, placement or both"))
  }

  @Test func placementWithoutThePlacementCapabilityAtRegister() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let error = await accessoryError {
      try await engine.register(
        accessory,
        Configuration(
          devicePlacement: .inEar, deviceCapabilities: [.audioSwitching]))
    }
    #expect(
      error
        == .accessoryNotCapable(
          reason: "placement 'inEar' reported for 'Studio Buds' "
            + "(AA:BB:CC:DD:EE:01) without the placement capability"))
  }

  @Test func placementWithoutThePlacementCapabilityAtUpdate() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await engine.register(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    let error = await accessoryError {
      _ = try await engine.update(
        accessory,
        Configuration(
          devicePlacement: .onHead, deviceCapabilities: [.audioSwitching]))
    }
    #expect(
      error
        == .accessoryNotCapable(
          reason: "placement 'onHead' reported for 'Studio Buds' "
            + "(AA:BB:CC:DD:EE:01) without the placement capability"))
  }

  @Test(arguments: [true, false])
  func sourcesWithoutAudioSwitching(atRegister: Bool) async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let sources = Configuration(
      deviceCapabilities: [.placement],
      primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6]))
    let error = await accessoryError {
      if atRegister {
        try await engine.register(accessory, sources)
      } else {
        try await engine.register(
          accessory, Configuration(deviceCapabilities: [.placement]))
        _ = try await engine.update(accessory, sources)
      }
    }
    #expect(
      error
        == .accessoryNotCapable(
          reason: "audio source identifiers reported for 'Studio Buds' "
            + "(AA:BB:CC:DD:EE:01) without the audioSwitching capability"))
  }

  @Test func updateCannotAddACapability() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await engine.register(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    let error = await accessoryError {
      _ = try await engine.update(
        accessory,
        Configuration(deviceCapabilities: [.audioSwitching, .placement]))
    }
    #expect(
      error
        == .accessoryNotCapable(
          reason: "'placement' was not registered for 'Studio Buds' "
            + "(AA:BB:CC:DD:EE:01); register a capability before updating it"
        ))
  }

  @Test func updateMayDropACapability() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    try await engine.register(
      accessory,
      Configuration(deviceCapabilities: [.audioSwitching, .placement]))
    let applied = try await engine.update(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    #expect(applied.deviceCapabilities == [.audioSwitching])
  }

  @Test func placementOnASpeakerIsNotCapable() async throws {
    let (engine, speaker) = try await makeEngineWithHeadphones(
      name: "Kitchen Speaker", formFactor: .speaker)
    let error = await accessoryError {
      try await engine.register(
        speaker, Configuration(deviceCapabilities: [.placement]))
    }
    #expect(
      error
        == .accessoryNotCapable(
          reason: "'Kitchen Speaker' (AA:BB:CC:DD:EE:01) is a 'speaker', "
            + "which cannot be worn, so it cannot have the placement "
            + "capability"))
    // Audio switching alone is fine for a speaker.
    try await engine.register(
      speaker, Configuration(deviceCapabilities: [.audioSwitching]))
  }

  struct BadIdentifier: Sendable, CustomTestStringConvertible {
    var primary: Data?
    var secondary: Data?
    var reason: String
    var testDescription: String { reason }
  }

  static let badIdentifiers: [BadIdentifier] = [
    BadIdentifier(
      primary: Data([1, 2, 3, 4, 5]), secondary: nil,
      reason: "the primary audio source identifier '01:02:03:04:05' has 5 "
        + "bytes; expected a 6-byte Bluetooth address"),
    BadIdentifier(
      primary: Data([1, 2, 3, 4, 5, 6, 7]), secondary: nil,
      reason: "the primary audio source identifier '01:02:03:04:05:06:07' "
        + "has 7 bytes; expected a 6-byte Bluetooth address"),
    BadIdentifier(
      primary: Data(), secondary: nil,
      reason: "the primary audio source identifier '' has 0 bytes; "
        + "expected a 6-byte Bluetooth address"),
    BadIdentifier(
      primary: Data([1, 2, 3, 4, 5, 6]), secondary: Data([9, 9]),
      reason: "the secondary audio source identifier '09:09' has 2 bytes; "
        + "expected a 6-byte Bluetooth address"),
    BadIdentifier(
      primary: Data(repeating: 0, count: 6), secondary: nil,
      reason: "the primary audio source identifier '00:00:00:00:00:00' is "
        + "all zeros; expected a device's Bluetooth address"),
    BadIdentifier(
      primary: Data([1, 2, 3, 4, 5, 6]),
      secondary: Data(repeating: 0, count: 6),
      reason: "the secondary audio source identifier '00:00:00:00:00:00' is "
        + "all zeros; expected a device's Bluetooth address"),
    BadIdentifier(
      primary: Data([0xAB, 2, 3, 4, 5, 6]),
      secondary: Data([0xAB, 2, 3, 4, 5, 6]),
      reason: "the primary and secondary audio sources are both "
        + "'AB:02:03:04:05:06'; expected two different hosts"),
  ]

  @Test(arguments: badIdentifiers)
  func malformedSourceIdentifiers(_ bad: BadIdentifier) async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let configuration = Configuration(
      deviceCapabilities: [.audioSwitching],
      primaryAudioSourceDeviceIdentifier: bad.primary,
      secondaryAudioSourceDeviceIdentifier: bad.secondary)
    let atRegister = await accessoryError {
      try await engine.register(accessory, configuration)
    }
    #expect(atRegister == .invalidRequest(reason: bad.reason))

    try await engine.register(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    let atUpdate = await accessoryError {
      _ = try await engine.update(accessory, configuration)
    }
    #expect(atUpdate == .invalidRequest(reason: bad.reason))
  }

  @Test(
    "A secondary source without a primary is valid: the primary host dropped off"
  )
  func aSecondaryWithoutAPrimary() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let both = Configuration(
      deviceCapabilities: [.audioSwitching],
      primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6]),
      secondaryAudioSourceDeviceIdentifier: Data([6, 5, 4, 3, 2, 1]))
    try await engine.register(accessory, both)
    var dropped = both
    dropped.primaryAudioSourceDeviceIdentifier = nil
    _ = try await engine.update(accessory, dropped)
    #expect(try engine.configuration(for: accessory) == dropped)
  }

  @Test func anAccessoryNeitherPairedNorRegisteredSaysToPairFirst() {
    let engine = RegistryStore()
    let stranger = ASAccessory(
      displayName: "11:22:33:44:55:66",
      bluetoothAddress: BluetoothAddress("11:22:33:44:55:66")!)
    #expect(
      throws: AccessoryControlFailure.invalidRequest(
        reason: "accessory 11:22:33:44:55:66 is neither paired nor "
          + "registered; pair it first (AccessorySetupKit's picker, or "
          + "'acctl pair'), then register it")
    ) {
      try engine.configuration(for: stranger)
    }
  }

  @Test func currentAndUpdateOfAnAccessoryNeverRegistered() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let expected = AccessoryControlFailure.invalidRequest(
      reason: "accessory 'Studio Buds' (AA:BB:CC:DD:EE:01) is not "
        + "registered; register it first")
    #expect(throws: expected) {
      try engine.configuration(for: accessory)
    }
    let error = await accessoryError {
      _ = try await engine.update(
        accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    }
    #expect(error == expected)
    // Apple's entry point throws Apple's plain case, and keeps the reason.
    await AccessoryControlEngines.withEngine(engine) {
      #expect(throws: AccessoryControlDevice.Error.invalidRequest) {
        try AccessoryControlDevice.current(for: accessory)
      }
      #expect(AccessoryControlDevice.lastFailure(for: accessory) == expected)
    }
  }

  @Test func unpairingInvalidatesAndRegisteringAgainRestores() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let address = try #require(accessory.bluetoothAddress)
    let configuration = Configuration(
      devicePlacement: .inEar,
      deviceCapabilities: [.audioSwitching, .placement])
    try await engine.register(accessory, configuration)
    try await engine.unpair(address)

    let invalidated = AccessoryControlFailure.invalidated(
      reason: "the registration of 'Studio Buds' (AA:BB:CC:DD:EE:01) was "
        + "invalidated because the accessory was unpaired; pair and register "
        + "it again")
    let updateError = await accessoryError {
      _ = try await engine.update(accessory, configuration)
    }
    #expect(updateError == invalidated)
    #expect(throws: invalidated) { try engine.configuration(for: accessory) }

    // Unpaired, it cannot be registered again.
    let registerError = await accessoryError {
      try await engine.register(accessory, configuration)
    }
    #expect(
      registerError
        == .invalidRequest(
          reason: "accessory 'Studio Buds' (AA:BB:CC:DD:EE:01) is not "
            + "paired; pair it first (AccessorySetupKit's picker, or "
            + "'acctl pair') before registering it"))

    // Pairing alone leaves the registration invalidated, and the error
    // then asks only for what is missing.
    try await engine.pair(
      address, displayName: "Studio Buds", formFactor: .headphone)
    let stillInvalidated = await accessoryError {
      _ = try await engine.update(accessory, configuration)
    }
    #expect(
      stillInvalidated
        == .invalidated(
          reason: "the registration of 'Studio Buds' (AA:BB:CC:DD:EE:01) "
            + "was invalidated because the accessory was unpaired; it is "
            + "paired again: register it again"))

    // Registering again restores it.
    try await engine.register(accessory, configuration)
    #expect(try engine.configuration(for: accessory) == configuration)
    let moved = Configuration(
      devicePlacement: .offHead,
      deviceCapabilities: [.audioSwitching, .placement])
    #expect(try await engine.update(accessory, moved) == moved)
  }

  @Test func anInvalidatedRegistrationKeepsTheAccessorysName() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let address = try #require(accessory.bluetoothAddress)
    try await engine.register(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    try await engine.unpair(address)
    let registry = engine.registry
    #expect(registry.accessory(at: address).displayName == "Studio Buds")
    #expect(try registry.resolve("studio buds") == address)
    #expect(
      throws: AccessoryControlFailure.invalidated(
        reason: "the registration of 'Studio Buds' (AA:BB:CC:DD:EE:01) was "
          + "invalidated because the accessory was unpaired; pair and "
          + "register it again")
    ) {
      try engine.configuration(for: registry.accessory(at: address))
    }
  }

  @Test(
    "A name selects as resolve does: the paired name over the registration's, case and outer spaces aside"
  )
  func addressesNamed() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let address = try #require(accessory.bluetoothAddress)
    try await engine.register(
      accessory, Configuration(deviceCapabilities: [.audioSwitching]))
    try await engine.pair(
      address, displayName: "Gym Buds", formFactor: .headphone)
    let registry = engine.registry
    #expect(registry.addresses(named: "Studio Buds").isEmpty)
    #expect(registry.addresses(named: "  gym BUDS ") == [address])
  }

  @Test func registeringAgainReplacesTheConfiguration() async throws {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let first = Configuration(
      devicePlacement: .inEar,
      deviceCapabilities: [.audioSwitching, .placement],
      primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6]))
    let second = Configuration(deviceCapabilities: [.audioSwitching])
    try await engine.register(accessory, first)
    try await engine.register(accessory, first)
    #expect(try engine.configuration(for: accessory) == first)
    try await engine.register(accessory, second)
    #expect(try engine.configuration(for: accessory) == second)
    #expect(engine.registry.registrations.count == 1)
  }

  @Test func unpairingAnUnknownAccessoryIsRefused() async throws {
    let (engine, _) = try await makeEngineWithHeadphones()
    await #expect(
      throws: AccessoryControlFailure.invalidRequest(
        reason: "11:22:33:44:55:66 is not paired")
    ) {
      try await engine.unpair(BluetoothAddress("11:22:33:44:55:66")!)
    }
  }

  @Test func pairingRefusesTheZeroAddressAndAnEmptyName() async throws {
    let engine = RegistryStore()
    await #expect(
      throws: AccessoryControlFailure.invalidRequest(
        reason: "'00:00:00:00:00:00' is not a device address; a Bluetooth "
          + "address is never all zeros")
    ) {
      try await engine.pair(
        BluetoothAddress("00:00:00:00:00:00")!, displayName: "X")
    }
    await #expect(
      throws: AccessoryControlFailure.invalidRequest(
        reason: "the display name of 11:22:33:44:55:66 is empty; give it a "
          + "name")
    ) {
      try await engine.pair(
        BluetoothAddress("11:22:33:44:55:66")!, displayName: " ")
    }
  }

  @Test func updatesRecordWhenPlacementAndSourcesChanged() async throws {
    let times = TestClock()
    let engine = RegistryStore(clock: { times.now })
    let accessory = try await engine.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "Buds")
    try await engine.register(
      accessory,
      Configuration(deviceCapabilities: [.audioSwitching, .placement]))
    times.advance(10)
    _ = try await engine.update(
      accessory,
      Configuration(
        devicePlacement: .inEar,
        deviceCapabilities: [.audioSwitching, .placement]))
    times.advance(10)
    _ = try await engine.update(
      accessory,
      Configuration(
        devicePlacement: .inEar,
        deviceCapabilities: [.audioSwitching, .placement],
        primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6])))
    let registration = try #require(
      engine.registry.registrations[accessory.bluetoothAddress!])
    #expect(registration.registeredAt == testInstant)
    #expect(registration.placementChangedAt == testInstant + 10)
    #expect(registration.sourcesChangedAt == testInstant + 20)
  }
}

/// A clock that tests advance by hand.
final class TestClock: Sendable {
  private let offset = Mutex<TimeInterval>(0)
  var now: Date { testInstant + offset.withLock { $0 } }
  func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
