// The JSON form of a configuration read and built directly, without Codable:
// it must match the Codable form both ways, and its errors must name the
// member and what it expects.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import Testing

/// A JSON form that is not a configuration, with the exact error.
struct ConfigurationJSONErrorCase: Sendable, CustomTestStringConvertible {
  var label: String
  var text: String
  var kind: String
  var codingPath: [String]
  var debugDescription: String

  var testDescription: String { label }
}

/// A value holding a configuration, to see the coding path of a nested one.
private struct Holder: Decodable {
  var configuration: AccessoryControlDevice.Configuration
}

/// The case of a decoding error, its coding path and its description.
private func parts(
  of error: DecodingError
) -> (kind: String, codingPath: [String], debugDescription: String) {
  let kind: String
  let context: DecodingError.Context
  switch error {
  case .typeMismatch(let type, let found):
    kind = "typeMismatch(\(type))"
    context = found
  case .valueNotFound(let type, let found):
    kind = "valueNotFound(\(type))"
    context = found
  case .keyNotFound(let key, let found):
    kind = "keyNotFound(\(key.stringValue))"
    context = found
  case .dataCorrupted(let found):
    kind = "dataCorrupted"
    context = found
  @unknown default:
    return ("unknown", [], "\(error)")
  }
  return (
    kind, context.codingPath.map(\.stringValue), context.debugDescription
  )
}

/// A coding key for a member name.
private struct Key: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

@Suite("Configuration JSON")
struct ConfigurationJSONTests {
  typealias Configuration = AccessoryControlDevice.Configuration

  static let primary = Data([0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
  static let secondary = Data([0x11, 0x22, 0x33, 0x44, 0x55, 0x0A])

  static let full = Configuration(
    devicePlacement: .inEar,
    deviceCapabilities: [.audioSwitching, .placement],
    primaryAudioSourceDeviceIdentifier: primary,
    secondaryAudioSourceDeviceIdentifier: secondary)

  static let minimal = Configuration(deviceCapabilities: [])

  static let configurations: [Configuration] = [
    full,
    minimal,
    Configuration(devicePlacement: .offHead, deviceCapabilities: [.placement]),
    Configuration(devicePlacement: .onHead, deviceCapabilities: [.placement]),
    Configuration(
      devicePlacement: .overTheEar, deviceCapabilities: [.placement]),
    Configuration(
      deviceCapabilities: [.audioSwitching],
      primaryAudioSourceDeviceIdentifier: primary),
    Configuration(
      deviceCapabilities: [.audioSwitching],
      secondaryAudioSourceDeviceIdentifier: secondary),
    Configuration(
      deviceCapabilities: [.audioSwitching],
      primaryAudioSourceDeviceIdentifier: Data()),
  ]

  @Test(
    "The JSON form is exact",
    arguments: [
      (
        full,
        #"{"deviceCapabilities":["audioSwitching","placement"],"#
          + #""devicePlacement":"inEar","#
          + #""primaryAudioSourceDeviceIdentifier":"AA:BB:CC:DD:EE:FF","#
          + #""secondaryAudioSourceDeviceIdentifier":"11:22:33:44:55:0A"}"#
      ),
      (minimal, #"{"deviceCapabilities":[]}"#),
      (
        Configuration(
          devicePlacement: .offHead, deviceCapabilities: [.placement]),
        #"{"deviceCapabilities":["placement"],"devicePlacement":"offHead"}"#
      ),
    ])
  func exactJSON(configuration: Configuration, text: String) {
    #expect(configuration.json.jsonText == text)
  }

  @Test(
    "The JSON form reads back as the same configuration",
    arguments: configurations)
  func roundTrip(configuration: Configuration) throws {
    #expect(try Configuration(json: configuration.json) == configuration)
    let text = configuration.json.serialized()
    #expect(try Configuration(json: JSONValue(parsing: text)) == configuration)
  }

  @Test(
    "The direct JSON form is the Codable form",
    arguments: configurations)
  func matchesCodable(configuration: Configuration) throws {
    #expect(try JSONValue(encoding: configuration) == configuration.json)
  }

  @Test("JSONDecoder reads the same configuration", arguments: configurations)
  func decoderAgrees(configuration: Configuration) throws {
    let data = Data(configuration.json.serialized())
    let decoded = try JSONDecoder().decode(Configuration.self, from: data)
    #expect(decoded == configuration)
    #expect(try Configuration(json: JSONValue(parsing: data)) == decoded)
    #expect(try configuration.json.decode(as: Configuration.self) == decoded)
  }

  @Test(
    "Optional members may be null or absent, and unknown members are ignored",
    arguments: [
      (
        #"{"deviceCapabilities":["placement"],"devicePlacement":null,"#
          + #""primaryAudioSourceDeviceIdentifier":null,"other":[1,2]}"#,
        Configuration(deviceCapabilities: [.placement])
      ),
      (
        #"{"deviceCapabilities":["placement","audioSwitching","placement"]}"#,
        Configuration(deviceCapabilities: [.audioSwitching, .placement])
      ),
      (
        #"{"deviceCapabilities":["audioSwitching"],"#
          + #""primaryAudioSourceDeviceIdentifier":"aa-bb-cc-dd-ee-ff"}"#,
        Configuration(
          deviceCapabilities: [.audioSwitching],
          primaryAudioSourceDeviceIdentifier: primary)
      ),
    ])
  func tolerantReading(text: String, expected: Configuration) throws {
    let json = try JSONValue(parsing: Array(text.utf8))
    #expect(try Configuration(json: json) == expected)
    #expect(
      try JSONDecoder().decode(Configuration.self, from: Data(text.utf8))
        == expected)
  }

  static let placements =
    "expected one of 'inEar', 'onHead', 'overTheEar', 'offHead'"
  static let identifierHint =
    "expected hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF'"
  static let capabilityHint =
    "holds an unknown capability; expected 'audioSwitching' or 'placement'"

  static let errors: [ConfigurationJSONErrorCase] = [
    ConfigurationJSONErrorCase(
      label: "not an object", text: #"["audioSwitching"]"#,
      kind: "typeMismatch(Dictionary<String, JSONValue>)", codingPath: [],
      debugDescription: "expected an object"),
    ConfigurationJSONErrorCase(
      label: "a string, not an object", text: #""placement""#,
      kind: "typeMismatch(Dictionary<String, JSONValue>)", codingPath: [],
      debugDescription: "expected an object"),
    ConfigurationJSONErrorCase(
      label: "missing deviceCapabilities",
      text: #"{"devicePlacement":"inEar"}"#,
      kind: "keyNotFound(deviceCapabilities)",
      codingPath: ["deviceCapabilities"],
      debugDescription: "expected an array of capability names"),
    ConfigurationJSONErrorCase(
      label: "deviceCapabilities not an array",
      text: #"{"deviceCapabilities":"placement"}"#,
      kind: "typeMismatch(Array<String>)",
      codingPath: ["deviceCapabilities"],
      debugDescription: "expected an array of capability names"),
    ConfigurationJSONErrorCase(
      label: "an unknown capability name",
      text: #"{"deviceCapabilities":["audioSwitching","teleport"]}"#,
      kind: "dataCorrupted", codingPath: ["deviceCapabilities"],
      debugDescription: #"["audioSwitching", "teleport"] "# + capabilityHint),
    ConfigurationJSONErrorCase(
      label: "a capability that is not a string",
      text: #"{"deviceCapabilities":[1,"placement"]}"#,
      kind: "dataCorrupted", codingPath: ["deviceCapabilities"],
      debugDescription: #"[1, "placement"] "# + capabilityHint),
    ConfigurationJSONErrorCase(
      label: "a non-string placement",
      text: #"{"deviceCapabilities":["placement"],"devicePlacement":1}"#,
      kind: "typeMismatch(String)", codingPath: ["devicePlacement"],
      debugDescription: "expected a string"),
    ConfigurationJSONErrorCase(
      label: "an unknown placement",
      text: #"{"deviceCapabilities":["placement"],"devicePlacement":"onNose"}"#,
      kind: "dataCorrupted", codingPath: ["devicePlacement"],
      debugDescription: "'onNose' is not a placement; " + placements),
    ConfigurationJSONErrorCase(
      label: "a bad primary identifier",
      text:
        #"{"deviceCapabilities":[],"primaryAudioSourceDeviceIdentifier":"zz"}"#,
      kind: "dataCorrupted", codingPath: ["primaryAudioSourceDeviceIdentifier"],
      debugDescription: "'zz' is not a device identifier; " + identifierHint),
    ConfigurationJSONErrorCase(
      label: "a bad secondary identifier",
      text: #"{"deviceCapabilities":[],"#
        + #""secondaryAudioSourceDeviceIdentifier":"AA:BB:C"}"#,
      kind: "dataCorrupted",
      codingPath: ["secondaryAudioSourceDeviceIdentifier"],
      debugDescription: "'AA:BB:C' is not a device identifier; "
        + identifierHint),
    ConfigurationJSONErrorCase(
      label: "an identifier that is not a string",
      text:
        #"{"deviceCapabilities":[],"primaryAudioSourceDeviceIdentifier":7}"#,
      kind: "typeMismatch(String)",
      codingPath: ["primaryAudioSourceDeviceIdentifier"],
      debugDescription: "expected a string"),
  ]

  @Test(
    "A JSON form that is not a configuration names what is wrong",
    arguments: errors)
  func readingError(_ example: ConfigurationJSONErrorCase) throws {
    let json = try JSONValue(parsing: Array(example.text.utf8))
    let error = try #require(throws: DecodingError.self) {
      try Configuration(json: json)
    }
    let found = parts(of: error)
    #expect(found.kind == example.kind)
    #expect(found.codingPath == example.codingPath)
    #expect(found.debugDescription == example.debugDescription)
  }

  @Test(
    "The coding path given is put before the member's",
    arguments: errors)
  func codingPathIsPrefixed(_ example: ConfigurationJSONErrorCase) throws {
    let json = try JSONValue(parsing: Array(example.text.utf8))
    let prefix = [
      Key(stringValue: "params"), Key(stringValue: "configuration"),
    ]
    let error = try #require(throws: DecodingError.self) {
      try Configuration(json: json, codingPath: prefix)
    }
    let found = parts(of: error)
    #expect(found.kind == example.kind)
    #expect(
      found.codingPath == ["params", "configuration"] + example.codingPath)
    #expect(found.debugDescription == example.debugDescription)
  }

  @Test("JSONDecoder throws the same errors", arguments: errors)
  func decoderErrors(_ example: ConfigurationJSONErrorCase) throws {
    let error = try #require(throws: DecodingError.self) {
      try JSONDecoder().decode(
        Configuration.self, from: Data(example.text.utf8))
    }
    let found = parts(of: error)
    #expect(found.kind == example.kind)
    #expect(found.codingPath == example.codingPath)
    #expect(found.debugDescription == example.debugDescription)
  }

  @Test(
    "JSONDecoder gives the path of a nested configuration",
    arguments: errors)
  func nestedDecoderErrors(_ example: ConfigurationJSONErrorCase) throws {
    let text = #"{"configuration":"# + example.text + "}"
    let error = try #require(throws: DecodingError.self) {
      try JSONDecoder().decode(Holder.self, from: Data(text.utf8))
    }
    let found = parts(of: error)
    #expect(found.kind == example.kind)
    #expect(found.codingPath == ["configuration"] + example.codingPath)
    #expect(found.debugDescription == example.debugDescription)
  }
}
