// The changes of accessory.update: FieldChange's three states, and the one
// codec acctl writes and the daemon reads.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import Testing

@Suite("Configuration changes")
struct ConfigurationChangesTests {
  @Test("A field is left, set or cleared")
  func fieldChange() {
    var field: String? = "old"
    FieldChange<String>.unchanged.apply(to: &field)
    #expect(field == "old")
    FieldChange.set("new").apply(to: &field)
    #expect(field == "new")
    FieldChange<String>.cleared.apply(to: &field)
    #expect(field == nil)
    #expect(FieldChange(setting: nil as String?) == .cleared)
    #expect(FieldChange(setting: "x") == .set("x"))
    #expect(FieldChange.set(2).map { $0 * 2 } == .set(4))
  }

  @Test("Only the changed fields go on the wire, null for a cleared one")
  func wireFormat() throws {
    let changes = AccessoryConfigurationChanges(
      placement: .set(.inEar),
      primaryAudioSource: .cleared)
    #expect(
      changes.json
        == .object([
          "devicePlacement": .string("inEar"),
          "primaryAudioSourceDeviceIdentifier": .null,
        ]))
    guard case .object(let object) = changes.json else {
      Issue.record("not an object")
      return
    }
    #expect(try AccessoryConfigurationChanges(json: object) == changes)
    let address = AccessoryConfigurationChanges(
      secondaryAudioSource: .set(Data([0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x01])))
    #expect(
      address.json
        == .object([
          "secondaryAudioSourceDeviceIdentifier": .string("AA:BB:CC:DD:EE:01")
        ]))
  }

  @Test("Applied, the changes leave the other fields alone")
  func apply() {
    var configuration = AccessoryControlDevice.Configuration(
      devicePlacement: .offHead, deviceCapabilities: [.audioSwitching],
      primaryAudioSourceDeviceIdentifier: Data([1, 2, 3, 4, 5, 6]))
    AccessoryConfigurationChanges(placement: .set(.onHead)).apply(
      to: &configuration)
    #expect(configuration.devicePlacement == .onHead)
    #expect(
      configuration.primaryAudioSourceDeviceIdentifier
        == Data([1, 2, 3, 4, 5, 6]))
    #expect(AccessoryConfigurationChanges().isEmpty)
  }

  @Test(
    "Bad changes are named",
    arguments: [
      (
        ["sideways": JSONValue.bool(true)],
        "unknown change 'sideways'; expected 'devicePlacement', "
          + "'primaryAudioSourceDeviceIdentifier', "
          + "'secondaryAudioSourceDeviceIdentifier'"
      ),
      (
        ["devicePlacement": .string("onShelf")],
        "'devicePlacement' is 'onShelf'; expected one of 'inEar', 'onHead', "
          + "'overTheEar', 'offHead' or null"
      ),
      (
        ["devicePlacement": .number(1)],
        "'devicePlacement' must be a string or null"
      ),
      (
        ["primaryAudioSourceDeviceIdentifier": .string("12:3")],
        "'primaryAudioSourceDeviceIdentifier' is '12:3'; expected hexadecimal "
          + "bytes such as 'AA:BB:CC:DD:EE:FF' or null"
      ),
    ])
  func badChanges(object: [String: JSONValue], message: String) {
    #expect {
      try AccessoryConfigurationChanges(json: object)
    } throws: { error in
      "\(error)" == message
    }
  }
}
