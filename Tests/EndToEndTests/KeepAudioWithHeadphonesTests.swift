// Keep audio with the headphones you wear (connection.keepAudioWithHeadphones),
// end to end: while headphones nobody registered play, a Bluetooth speaker
// that connects does not take the output, whether the sound server makes it
// the default by itself (module-switch-on-connect, which PulseAudio and
// pipewire-pulse both have, and distributions load) or it is an accessory
// registered to switch audio.

import TestSupport
import Testing

private let speakerAddress = "AA:BB:CC:DD:EE:07"

@Suite("Keep audio with headphones, end to end", .serialized)
struct KeepAudioWithHeadphonesTests {
  @Test(
    "A speaker that connects while headphones play does not take the output",
    arguments: SoundServerKind.allCases)
  func speakerConnects(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind, registered: false) { rig in
      // Started while the headphones play: their output is the default, not
      // a choice the daemon saw the person make.
      try await rig.daemon.restart()
      try await waitUntil(
        "the daemon on the sound server", within: .seconds(30)
      ) {
        try await rig.acctl(["route"]).stdout.contains(
          "sound server: connected")
      }
      if kind == .pulseAudio {
        // What distributions load; pipewire-pulse's acts only on a card's
        // devices, and WirePlumber keeps the configured default.
        _ = try await rig.server.pactl([
          "load-module", "module-switch-on-connect", "ignore_virtual=no",
        ])
      }
      let defaults = try await DefaultTrace.start(rig.server)
      defer { defaults.stop() }
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "boombox", address: speakerAddress, description: "Boom Box",
          formFactor: "speaker", deviceAPI: kind.bluetoothDeviceAPI))
      if kind == .pulseAudio {
        // The server gives the speaker the default as it comes (a trace's
        // query may come too late to see it: accessoryd gives the default
        // back at once); accessoryd's decision names the switch, and gives
        // the output back to the headphones, the players' streams with it.
        try await waitUntil("the decision on the switch", within: .seconds(30))
        {
          try await rig.acctl(["route", "--explain"]).stdout.contains(
            "came, and the sound server made it the default by itself")
        }
        try await rig.waitForDefault("buds")
        try await rig.waitForThePlayers(on: "buds")
        let explained = try await rig.acctl(["route", "--explain"]).stdout
        #expect(
          explained.contains(
            "the output stays with the worn headphones buds (Studio Buds); "
              + "boombox does not take it"), "\(explained)")
      } else {
        // A sink made after the speaker: once the trace has seen it, it has
        // seen every default change before it.
        _ = try await rig.server.loadNullSink(
          .speaker(name: "marker", description: "Marker"))
        try await waitUntil(
          "the trace to reach the marker", within: .seconds(30)
        ) { defaults.hasMark }
        #expect(!defaults.seen.contains("boombox"), "\(defaults.seen)")
      }

      // Registered to switch audio, the connected speaker would be the most
      // recent accessory: it still does not take the output. The answer
      // comes once the decision is applied.
      _ = try await rig.acctl(["pair", speakerAddress])
      _ = try await rig.acctl([
        "register", speakerAddress, "--capabilities", "audioSwitching",
      ])
      try await waitUntil(
        "the speaker's first-report wait over", within: .seconds(30)
      ) {
        try await rig.acctl(["route", "--explain"]).stdout.contains(
          "connected, and is not reported worn")
      }
      #expect(try await rig.server.defaultSinkName() == "buds")
      #expect(rig.status(of: rig.playing[0]) == .playing)
      #expect(rig.status(of: rig.playing[1]) == .playing)
    }
  }
}
