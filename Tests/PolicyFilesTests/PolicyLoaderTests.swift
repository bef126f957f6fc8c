import Foundation
import PolicyFiles
import RoutingCore
import Testing

/// The repository's policies/ folder.
let policiesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("policies")

@Suite("Policies")
struct PolicyLoaderTests {
  @Test(arguments: [
    "default", "manual-first", "placement-only", "multipoint-shared",
  ])
  func everyShippedPolicyLoads(_ name: String) throws {
    let policy = try PolicyLoader.load(
      contentsOf: policiesDirectory.appendingPathComponent(name + ".json5"))
    #expect(policy.version == 1)
    #expect(!policy.description.isEmpty)
  }

  @Test func theShippedFilesAreTheOnesTested() throws {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: policiesDirectory.path
    ).filter { $0.hasSuffix(".json5") }.sorted()
    #expect(
      names == [
        "default.json5", "manual-first.json5", "multipoint-shared.json5",
        "placement-only.json5",
      ])
  }

  @Test func theDefaultFileSaysWhatTheDocumentationSays() throws {
    let policy = try PolicyLoader.load(
      contentsOf: policiesDirectory.appendingPathComponent("default.json5"))
    #expect(policy.eligibleWhenPlacementUnknown)
    #expect(policy.offHeadGraceSeconds == 3)
    #expect(policy.reappearGraceSeconds == 5)
    #expect(!policy.takeWhenSecondarySource)
    #expect(policy.manualChoiceRespect == .untilAccessoryChange)
    #expect(policy.manualChoiceHoldSeconds == 0)
    #expect(policy.whenTakenOff == .previous)
    #expect(policy.streamsFollow)
    #expect(policy.roleRoutes.map(\.role) == ["phone"])
    #expect(policy.excludes(Output(name: "alsa_output.pci.hdmi-stereo")))
    #expect(
      policy.excludes(
        Output(
          name: "out", ports: [.init(name: "[Out] HDMI1")],
          activePort: "[Out] HDMI1")))
    #expect(!policy.excludes(Output(name: "alsa_output.pci.analog-stereo")))
    #expect(
      policy.priority(of: Output(name: "x", properties: ["device.bus": "usb"]))
        == 60)
  }

  @Test func theSmallestPolicyIsJustAVersion() throws {
    #expect(try PolicyLoader.parse(Data("{ version: 1 }".utf8)) == Policy())
  }

  struct BadPolicy: Sendable, CustomTestStringConvertible {
    var kind: String
    var text: String
    var message: String
    var testDescription: String { kind }
  }

  static let badPolicies: [BadPolicy] = [
    BadPolicy(
      kind: "not JSON5", text: "{ version: 1, ",
      message:
        "line 1, column 15: expected a key or '}', found the end of the file"),
    BadPolicy(
      kind: "not an object", text: "[1, 2]",
      message: "is an array; expected an object"),
    BadPolicy(
      kind: "missing version", text: "{ description: 'x' }",
      message: "version: is missing; expected a whole number from 1 to 1"),
    BadPolicy(
      kind: "unsupported version", text: "{ version: 2 }",
      message: "version: is the number 2; expected a whole number from 1 to 1"
    ),
    BadPolicy(
      kind: "unknown top-level key", text: "{ version: 1, colour: 'red' }",
      message:
        "colour: is not a known setting; expected one of 'version', "
        + "'description', 'placement', 'connection', 'multipoint', "
        + "'manualChoice', 'accessories', 'streams', 'outputs', 'profiles', "
        + "'media', 'calls', 'desktop', 'notifications'"),
    BadPolicy(
      kind: "unknown nested key",
      text: "{ version: 1, placement: { offHeadGrace: 3 } }",
      message:
        "placement.offHeadGrace: is not a known setting; expected one of "
        + "'eligibleWhenUnknown', 'offHeadGraceSeconds', 'earbudsWorn'"),
    BadPolicy(
      kind: "wrong type",
      text: "{ version: 1, placement: { offHeadGraceSeconds: 'three' } }",
      message:
        "placement.offHeadGraceSeconds: is the text 'three'; expected a "
        + "number of seconds from 0 to 600"),
    BadPolicy(
      kind: "out of range",
      text: "{ version: 1, placement: { offHeadGraceSeconds: -1 } }",
      message:
        "placement.offHeadGraceSeconds: is the number -1; expected a number "
        + "of seconds from 0 to 600"),
    BadPolicy(
      kind: "placement: an earbuds rule that is not one of the two",
      text: "{ version: 1, placement: { earbudsWorn: 'one' } }",
      message:
        "placement.earbudsWorn: is the text 'one'; expected one of "
        + "'either', 'both'"),
    BadPolicy(
      kind: "media: a pause that is not a boolean",
      text: "{ version: 1, media: { pauseWhenTakenOff: 'yes' } }",
      message:
        "media.pauseWhenTakenOff: is the text 'yes'; expected true or false"),
    BadPolicy(
      kind: "media: a resume window out of range",
      text: "{ version: 1, media: { resumeWhenPutBackWithinSeconds: -5 } }",
      message:
        "media.resumeWhenPutBackWithinSeconds: is the number -5; expected a "
        + "number of seconds from 0 to 86400"),
    BadPolicy(
      kind: "media: an unknown key",
      text: "{ version: 1, media: { pauseOnDisconnect: true } }",
      message:
        "media.pauseOnDisconnect: is not a known setting; expected one of "
        + "'pauseWhenTakenOff', 'resumeWhenPutBackWithinSeconds', "
        + "'whenUnpausable', 'pauseWhenDisconnected', 'resumeOnReconnect', "
        + "'reconnectSettleSeconds', 'guardUnregisteredHeadphones'"),
    BadPolicy(
      kind: "media: a reconnect resume that is not a boolean",
      text: "{ version: 1, media: { resumeOnReconnect: 1 } }",
      message:
        "media.resumeOnReconnect: is the number 1; expected true or false"),
    BadPolicy(
      kind: "out of range, long hold",
      text: "{ version: 1, manualChoice: { holdSeconds: 100000 } }",
      message:
        "manualChoice.holdSeconds: is the number 100000; expected a number "
        + "of seconds from 0 to 86400"),
    BadPolicy(
      kind: "not a flag",
      text: "{ version: 1, multipoint: { takeWhenSecondary: 1 } }",
      message:
        "multipoint.takeWhenSecondary: is the number 1; expected true or "
        + "false"),
    BadPolicy(
      kind: "not one of the choices",
      text: "{ version: 1, manualChoice: { respect: 'sometimes' } }",
      message:
        "manualChoice.respect: is the text 'sometimes'; expected one of "
        + "'untilAccessoryChange', 'always', 'never'"),
    BadPolicy(
      kind: "section of the wrong type", text: "{ version: 1, streams: true }",
      message: "streams: is true; expected an object"),
    BadPolicy(
      kind: "list of the wrong type",
      text: "{ version: 1, outputs: { exclude: { name: 'x' } } }",
      message: "outputs.exclude: is an object; expected an array"),
    BadPolicy(
      kind: "unknown key in a list element",
      text:
        "{ version: 1, outputs: { exclude: [ { name: 'a' }, { nmae: 'b' } ] } }",
      message:
        "outputs.exclude[1].nmae: is not a known setting; expected one of "
        + "'name', 'description', 'activePort', 'properties'"),
    BadPolicy(
      kind: "a match that matches everything",
      text: "{ version: 1, outputs: { exclude: [ {} ] } }",
      message:
        "outputs.exclude[0]: matches every output; expected at least one of "
        + "'name', 'description', 'activePort', 'properties'"),
    BadPolicy(
      kind: "a property pattern that is not text",
      text:
        "{ version: 1, outputs: { exclude: [ { properties: { 'device.bus': 3 } } ] } }",
      message:
        "outputs.exclude[0].properties.device.bus: is the number 3; expected "
        + "a text pattern"),
    BadPolicy(
      kind: "a priority out of range",
      text:
        "{ version: 1, outputs: { priorities: [ { match: { name: 'x' }, priority: 5000 } ] } }",
      message:
        "outputs.priorities[0].priority: is the number 5000; expected a "
        + "whole number from -1000 to 1000"),
    BadPolicy(
      kind: "a priority without a match",
      text: "{ version: 1, outputs: { priorities: [ { priority: 5 } ] } }",
      message:
        "outputs.priorities[0].match: is missing; expected an output match"),
    BadPolicy(
      kind: "a role route without a role",
      text: "{ version: 1, streams: { roles: [ { outputs: [] } ] } }",
      message: "streams.roles[0].role: is missing; expected text"),
  ]

  @Test(arguments: badPolicies)
  func eachKindOfErrorNamesTheKeyAndWhatIsAllowed(_ bad: BadPolicy) {
    do {
      _ = try PolicyLoader.parse(Data(bad.text.utf8))
      Issue.record("\(bad.kind) was accepted")
    } catch {
      #expect(error.description == bad.message)
    }
  }

  @Test func aFileErrorNamesTheFile() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("policy-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("strict.json5")
    try Data("{ version: 1, placement: { offHeadGraceSeconds: 900 } }".utf8)
      .write(to: file)
    #expect(
      throws: PolicyError(
        keyPath: "placement.offHeadGraceSeconds",
        problem: "is the number 900; expected a number of seconds from 0 to "
          + "600",
        file: file.path)
    ) {
      try PolicyLoader.load(contentsOf: file)
    }
    #expect {
      try PolicyLoader.load(
        contentsOf: directory.appendingPathComponent("missing.json5"))
    } throws: { error in
      "\(error)".hasPrefix(directory.path + "/missing.json5: cannot be read")
    }
  }

  @Test func globsIgnoreCaseAndMatchRuns() {
    let hdmi = Policy.OutputMatch(name: "*HDMI*")
    #expect(hdmi.matches(Output(name: "alsa_output.pci-0000.hdmi-stereo")))
    #expect(!hdmi.matches(Output(name: "alsa_output.analog")))
    #expect(Policy.OutputMatch(name: "bud?").matches(Output(name: "buds")))
    #expect(!Policy.OutputMatch(name: "bud?").matches(Output(name: "budss")))
    #expect(
      Policy.OutputMatch(properties: ["device.bus": "blue*"]).matches(
        Output(name: "x", properties: ["device.bus": "bluetooth"])))
    #expect(
      !Policy.OutputMatch(properties: ["device.bus": "blue*"]).matches(
        Output(name: "x")))
  }
}

@Suite("The built-in default policy")
struct BuiltInDefaultPolicyTests {
  @Test func itIsTheShippedFileByteForByte() throws {
    let file = try String(
      contentsOf: policiesDirectory.appendingPathComponent("default.json5"),
      encoding: .utf8)
    #expect(Policy.defaultPolicyText == file)
    _ = try PolicyLoader.parse(Data(Policy.defaultPolicyText.utf8))
  }
}
