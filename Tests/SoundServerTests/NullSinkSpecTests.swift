import Testing

@testable import TestSupport

@Suite("Null sink module arguments and pactl output")
struct NullSinkSpecTests {
  @Test("All properties go into one quoted sink_properties argument")
  func propertiesAreOneArgument() throws {
    let spec = NullSinkSpec.bluetoothHeadphones(
      name: "buds", address: "AA:BB:CC:DD:EE:FF", description: "Test Buds Pro")
    let expected =
      "sink_name=buds rate=48000 channels=2 sink_properties='"
      + "api.bluez5.address=\"AA:BB:CC:DD:EE:FF\" device.api=\"bluez\" "
      + "device.bus=\"bluetooth\" device.description=\"Test Buds Pro\" "
      + "device.form_factor=\"headphone\" device.string=\"AA:BB:CC:DD:EE:FF\"'"
    #expect(try spec.moduleArguments() == expected)
  }

  @Test("The description wins over a device.description property")
  func descriptionWins() throws {
    let spec = NullSinkSpec(
      name: "a", description: "Mine", properties: ["device.description": "No"])
    #expect(try spec.moduleArguments().contains("device.description=\"Mine\""))
    #expect(!(try spec.moduleArguments().contains("No")))
  }

  @Test(
    "Names and values that cannot be quoted portably are refused",
    arguments: [
      NullSinkSpec(name: "has space", description: "x"),
      NullSinkSpec(name: "", description: "x"),
      NullSinkSpec(name: "a", description: "It's"),
      NullSinkSpec(name: "a", description: "say \"hi\""),
      NullSinkSpec(name: "a", description: "back\\slash"),
      NullSinkSpec(name: "a", description: "two\nlines"),
      NullSinkSpec(name: "a", description: "x", properties: ["k k": "v"]),
    ])
  func unquotableSpecsAreRefused(spec: NullSinkSpec) {
    #expect(throws: FixtureError.self) { try spec.moduleArguments() }
  }

  @Test("pactl list output splits into fields and unquoted properties")
  func listOutputParses() {
    let text = """
      Sink #1
      \tState: SUSPENDED
      \tName: lab_a
      \tDescription: Lab: A
      \tOwner Module: 536870913
      \tVolume: front-left: 65536 / 100% / 0.00 dB
      \t        balance 0.00
      \tProperties:
      \t\tdevice.description = "Lab: A"
      \t\tdevice.quoted = "say \\"hi\\""
      \t\taudio.adapt.follower = ""
      \tFormats:
      \t\tpcm

      Sink #7
      \tName: lab_b
      \tProperties:
      \t\tdevice.bus = "bluetooth"
      \tPorts:
      \t\tanalog-output: Analog Output (type: Analog, priority: 9900)
      """
    let entries = PactlOutput.entries(in: text, heading: "Sink")
    #expect(entries.map(\.index) == [1, 7])
    #expect(entries[0].fields["Name"] == "lab_a")
    #expect(entries[0].fields["Description"] == "Lab: A")
    #expect(entries[0].fields["Owner Module"] == "536870913")
    #expect(
      entries[0].properties == [
        "device.description": "Lab: A",
        "device.quoted": "say \"hi\"",
        "audio.adapt.follower": "",
      ])
    #expect(entries[1].properties == ["device.bus": "bluetooth"])
  }

  @Test("pactl info fields are found by key")
  func infoFieldParses() {
    let text = "Server Name: pulseaudio\nDefault Sink: lab_a\n"
    #expect(PactlOutput.infoField("Default Sink", in: text) == "lab_a")
    #expect(PactlOutput.infoField("Default Source", in: text) == nil)
  }
}
