// What a new user types that acctl takes as meant: --socket before the
// subcommand, placements and capabilities in any letter case with spaces
// after commas, a malformed address named as such, unpaired accessories
// listed only with --all, and durations in the unit a person reads.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import Testing

@testable import AcctlCommands

/// A registered accessory that is no longer paired.
private let unpairedBuds = FakeDaemon.text(
  DaemonAccessory(
    address: "AA:BB:CC:DD:EE:03", displayName: "Old Buds",
    formFactor: "headset", state: .unauthorized,
    registration: .init(
      configuration: .init(deviceCapabilities: [.audioSwitching]),
      invalidated: true)))

/// A paired accessory without a registration.
private let deskSpeaker = FakeDaemon.text(
  DaemonAccessory(
    address: "AA:BB:CC:DD:EE:02", displayName: "Desk Speaker",
    formFactor: "speaker"))

@Suite struct AcctlForgivingInputTests {
  @Test func socketBeforeTheSubcommand() async throws {
    let daemon = try FakeDaemon(results: [
      "accessory.list": #"{"accessories":[\#(deskSpeaker)]}"#
    ])
    defer { daemon.stop() }
    for arguments in [
      ["--socket", daemon.path, "list"], ["--socket=\(daemon.path)", "list"],
      ["list", "--socket", daemon.path],
    ] {
      let transcript = try await acctl(arguments)
      #expect(transcript.status == 0, "\(arguments): \(transcript)")
      #expect(transcript.output.contains("Desk Speaker"), "\(arguments)")
    }
    // An option no subcommand has is still unknown.
    let refused = try await acctl(["--bogus", "list"])
    #expect(refused.status == 64)
    #expect(
      refused.error.hasPrefix("Error: Unknown option '--bogus'"), "\(refused)")
    let missing = try await acctl(["--socket"])
    #expect(missing.status == 64)
    #expect(
      missing.error.hasPrefix("Error: Missing value for '--socket <path>'"),
      "\(missing)")
  }

  @Test func placementsAndCapabilitiesInAnyCase() async throws {
    let daemon = try FakeDaemon(results: [
      "accessory.register": deskSpeaker, "accessory.update": deskSpeaker,
    ])
    defer { daemon.stop() }
    let register = try await acctl([
      "register", "Desk Speaker", "--capabilities", "AudioSwitching, PLACEMENT",
      "--placement", "ONHEAD", "--socket", daemon.path,
    ])
    #expect(register.status == 0, "\(register)")
    let update = try await acctl([
      "update", "Desk Speaker", "--placement=inear", "--socket", daemon.path,
    ])
    #expect(update.status == 0, "\(update)")
    #expect(
      daemon.requests.map(\.params) == [
        .object([
          "accessory": .string("Desk Speaker"),
          "configuration": .object([
            "deviceCapabilities": .array([
              .string("audioSwitching"), .string("placement"),
            ]),
            "devicePlacement": .string("onHead"),
          ]),
        ]),
        .object([
          "accessory": .string("Desk Speaker"),
          "changes": .object(["devicePlacement": .string("inEar")]),
        ]),
      ])
  }

  @Test func aBadCapabilityIsQuoted() async throws {
    let transcript = try await acctl([
      "register", "X", "--capabilities", "audioSwitching, plcement",
    ])
    #expect(transcript.status == 64)
    #expect(
      transcript.error.hasPrefix(
        "Error: The value 'audioSwitching, plcement' is invalid for "
          + "'--capabilities': 'plcement' is not a capability; "
          + "expected a comma-separated list of audioSwitching, placement\n"),
      "\(transcript)")
  }

  @Test(arguments: [
    "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FG", "aa-bb-cc-dd-ee-ff-00",
  ])
  func aMalformedAddressIsNotAName(text: String) async throws {
    // No daemon is asked: the address is refused before.
    let transcript = try await acctl([
      "current", text, "--socket", "/nonexistent",
    ])
    #expect(transcript.status == 64, "\(transcript)")
    #expect(
      transcript.error.hasPrefix(
        "Error: The value '\(text)' is invalid for '<accessory>': not a "
          + "Bluetooth address; expected six hexadecimal bytes such as "
          + "'AA:BB:CC:DD:EE:FF', or a display name\n"), "\(transcript)")
  }

  @Test func unpairedAccessoriesOnlyWithAll() async throws {
    let daemon = try FakeDaemon(results: [
      "accessory.list": #"{"accessories":[\#(deskSpeaker),\#(unpairedBuds)]}"#
    ])
    defer { daemon.stop() }
    let paired = try await acctl(["list", "--socket", daemon.path])
    #expect(paired.output.contains("Desk Speaker"))
    #expect(!paired.output.contains("Old Buds"), "\(paired)")
    // What is left out is counted, with how to see it.
    #expect(
      paired.output.contains(
        "1 unpaired with a registration that was invalidated: acctl list "
          + "--all shows it."), "\(paired)")
    let json = try await acctl(["list", "--json", "--socket", daemon.path])
    #expect(!json.output.contains("Old Buds"), "\(json)")
    let all = try await acctl(["list", "--all", "--socket", daemon.path])
    #expect(all.output.contains("Old Buds"), "\(all)")
    #expect(all.output.contains("Desk Speaker"))
  }

  @Test func durationsReadAsAPersonSaysThem() {
    #expect(Rendering.span(0) == "0 s")
    #expect(Rendering.span(45) == "45 s")
    #expect(Rendering.span(125) == "2 min")
    #expect(Rendering.span(3 * 3600 + 100) == "3 h")
    #expect(Rendering.ago(Date().addingTimeInterval(-130)) == "2 min ago")
    // A clock a little behind the daemon's is never "in 0 s".
    #expect(Rendering.ago(Date().addingTimeInterval(5)) == "just now")
    // Under 10 s in tenths, as route --explain says it.
    #expect(Rendering.ago(Date().addingTimeInterval(-5.1)).hasPrefix("5."))
  }

  @Test func aMutedStreamIsNotShownAsPlaying() {
    let table = Rendering.streamTable([
      .init(
        index: 7, application: "mpv", output: "buds", isPinned: false,
        isMuted: true),
      .init(index: 8, application: "music", output: "speaker", isPinned: true),
      .init(index: 9, application: "old", output: "speaker", isPinned: false),
    ])
    #expect(table.contains("buds (muted: not heard)"), "\(table)")
    #expect(table.contains("speaker (kept there)"), "\(table)")
    #expect(!table.contains("#9     old          speaker ("), "\(table)")
  }
}
