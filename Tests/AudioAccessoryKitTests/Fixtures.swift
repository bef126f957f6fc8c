import AccessoryBackend
import AudioAccessoryKit
import Foundation

/// A fixed instant, so that tests do not read the clock.
let testInstant = Date(timeIntervalSince1970: 1_800_000_000)

/// Returns an in-memory engine with one paired headphone accessory.
func makeEngineWithHeadphones(
  address: String = "AA:BB:CC:DD:EE:01",
  name: String = "Studio Buds",
  formFactor: AudioFormFactor? = .headphone
) async throws -> (RegistryStore, ASAccessory) {
  let engine = RegistryStore(clock: { testInstant })
  let accessory = try await engine.pair(
    BluetoothAddress(address)!, displayName: name, formFactor: formFactor)
  return (engine, accessory)
}

/// Returns the failure, with its reason, that an engine's operation
/// throws, or nil.
func accessoryError(
  _ operation: () async throws -> Void
) async -> AccessoryControlFailure? {
  do {
    try await operation()
    return nil
  } catch let error as AccessoryControlFailure {
    return error
  } catch {
    return .unknown(reason: "unexpected error type: \(error)")
  }
}

/// A fresh, private temporary directory.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("aak-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(
    at: url, withIntermediateDirectories: true)
  return url
}
