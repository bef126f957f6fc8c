// acctl output and the overview of acctl status, end to end on both
// servers: a device chosen with acctl is the person's own choice, as one
// chosen in the desktop's settings is (it stands until headphones that
// want the output change), forgetting it gives the decision back, and
// status shows the outputs, streams, accessories and players on one
// screen.

import AccessoryControl
import TestSupport
import Testing

@Suite("acctl output and status, end to end", .serialized)
struct OutputCommandTests {
  @Test(
    "A device chosen with acctl is the person's choice until the headphones change",
    arguments: SoundServerKind.allCases)
  func choose(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")

      let listed = try await rig.json(["output"])
      let outputs = try #require(listed["outputs"]?.arrayValue)
      let buds = try #require(outputs.first { $0["name"] == "buds" })
      #expect(buds["isDefault"] == .bool(true), "\(listed)")
      #expect(buds["accessoryName"] == "Studio Buds", "\(listed)")
      #expect(
        buds["why"]?.stringValue?.hasPrefix("default: ") == true, "\(listed)")
      #expect(
        outputs.contains {
          $0["name"] == "speaker" && $0["isDefault"] == .bool(false)
        }, "\(listed)")
      #expect(listed["streams"]?.arrayValue?.count == 3, "\(listed)")

      // By its description, as the desktop shows it.
      let chose = try await rig.ok(["output", "choose", "Built-in Speaker"])
      #expect(
        chose.stdout.hasPrefix("Chose speaker as your output.\n"),
        "\(chose)")
      try await rig.eventuallyRouted(to: "speaker")
      try await rig.staysRouted(to: "speaker")
      let table = try await rig.ok(["output"]).stdout
      #expect(
        table.split(separator: "\n").contains {
          $0.hasPrefix("*") && $0.contains("speaker")
            && $0.contains("your choice")
        }, "\(table)")

      // Headphones put back on after the choice set it aside (taken off,
      // they do not want the output), as they do a choice made in the
      // desktop's settings; the listing says so until then.
      try await rig.place(budsAddress, "offHead")
      try await rig.place(budsAddress, "inEar")
      try await rig.eventuallyRouted(to: "buds")

      // Chosen again, then forgotten: the worn buds have it back.
      try await rig.ok(["output", "choose", "speaker"])
      try await rig.eventuallyRouted(to: "speaker")
      let forgot = try await rig.ok(["output", "forget"])
      #expect(
        forgot.stdout.hasPrefix("Forgot your choice of speaker"), "\(forgot)")
      try await rig.eventuallyRouted(to: "buds")
      let after = try await rig.json(["output", "list"])
      #expect(
        after["outputs"]?.arrayValue?.contains {
          $0["isPersonsChoice"] == .bool(true)
        } == false, "\(after)")

      // An input by its description too, a monitor's as pavucontrol shows
      // it.
      let input = try await rig.ok([
        "output", "choose", "monitor of built-in speaker",
      ])
      #expect(
        input.stdout.hasPrefix("Chose speaker.monitor as your input.\n"),
        "\(input)")
    }
  }

  @Test(
    "acctl status shows the outputs, streams, accessories and players on one screen",
    arguments: SoundServerKind.allCases)
  func overview(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")
      let text = try await rig.ok(["status"]).stdout
      let lines = text.split(separator: "\n").map(String.init)
      #expect(lines.contains { $0.hasPrefix("  sound server:") }, "\(text)")
      #expect(
        lines.contains {
          $0.hasPrefix("*") && $0.contains("buds") && $0.contains("Studio Buds")
        }, "\(text)")
      #expect(
        lines.filter { $0.hasPrefix("#") && $0.hasSuffix(" buds") }.count == 3,
        "\(text)")
      #expect(
        lines.contains {
          $0.hasPrefix(budsAddress) && $0.contains("inEar")
        }, "\(text)")
      #expect(lines.contains { $0.hasPrefix("ADDRESS") }, "\(text)")
      #expect(lines.count <= 40, "not one screen:\n\(text)")

      let json = try await rig.json(["status"])
      // The status's members stay at the top, as daemon.status has them.
      #expect(json["soundServer"]?["state"] == "connected", "\(json)")
      #expect(json["outputs"]?.arrayValue?.count == 2, "\(json)")
      #expect(json["streams"]?.arrayValue?.count == 3, "\(json)")
      #expect(
        json["accessories"]?.arrayValue?.first?["address"]
          == .string(budsAddress), "\(json)")
      #expect(json["players"]?["media"] != nil, "\(json)")
    }
  }
}
