// The short tour of the Apple-shaped API on a registry store kept in the
// process: pair an accessory, register it, report placements and audio
// sources, and print the configuration the engine holds after each step,
// as JSON.

import AccessoryBackend
import AudioAccessoryKit
import Foundation
import Logging

@main
struct AccessoryDemo {
  static func main() async {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessory-demo-\(getpid())")
    let stateFile = StateFile(
      url: directory.appendingPathComponent("state.json"))
    defer { try? FileManager.default.removeItem(at: directory) }
    let logger = Logger(
      label: "accessory-demo", handler: StandardErrorLogHandler(),
      logLevel: .notice)
    let engine = RegistryStore(stateFile: stateFile, logger: logger)
    AccessoryControlEngines.default = engine

    do {
      try await tour(engine: engine, stateFile: stateFile)
    } catch {
      print("error: \(error)")
      exit(1)
    }
  }

  static func tour(
    engine: RegistryStore, stateFile: StateFile
  ) async throws {
    step("Pair a Bluetooth headphone (what AccessorySetupKit's picker does)")
    let accessory = try await engine.pair(
      BluetoothAddress("AA:BB:CC:DD:EE:01")!, displayName: "Studio Buds",
      formFactor: .headphone)
    print("  paired \(accessory)")

    step("Register it with audioSwitching and placement")
    try await AccessoryControlDevice.register(
      accessory, [.audioSwitching, .placement])
    try show(accessory)

    step("The companion reports that the buds are in the ears")
    let device = try AccessoryControlDevice.current(for: accessory)
    var configuration = device.configuration
    configuration.devicePlacement = .inEar
    configuration.primaryAudioSourceDeviceIdentifier = Data([
      0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC,
    ])
    try await device.update(configuration)
    try show(accessory)

    step("A refused update: an audio source that is not a Bluetooth address")
    configuration.secondaryAudioSourceDeviceIdentifier = Data([0x01, 0x02])
    do {
      try await device.update(configuration)
    } catch let error as AccessoryControlDevice.Error {
      let reason = AccessoryControlDevice.lastFailure(for: accessory)?.reason
      print("  refused: \(error): \(reason ?? "no reason recorded")")
    }

    step("The buds are taken off")
    configuration = device.configuration
    configuration.devicePlacement = .offHead
    try await device.update(configuration)
    try show(accessory)

    step("The state file, written atomically after every change")
    print(String(decoding: try Data(contentsOf: stateFile.url), as: UTF8.self))
  }

  static func step(_ title: String) {
    print("\n== \(title)")
  }

  static func show(_ accessory: ASAccessory) throws {
    let device = try AccessoryControlDevice.current(for: accessory)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = try encoder.encode(device.configuration)
    print("  configuration: \(String(decoding: json, as: UTF8.self))")
  }
}
