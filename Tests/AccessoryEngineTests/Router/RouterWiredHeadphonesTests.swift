// Wired headphones in the sound card's jack are guarded as Bluetooth
// headphones are (media.guardUnregisteredHeadphones): when the jack is
// pulled, the card's output stays and switches to its speakers; what plays
// there is muted, and the players are paused unless the jack is plugged
// back within the reappear grace time. (The same on a real card, in the VM,
// is the end-to-end test's.)

import AccessoryEngine
import DaemonInputs
import SoundServerModel
import Testing

private typealias Rig = RouterRig

@Suite("The engine guards wired headphones", .timeLimit(.minutes(1)))
struct RouterWiredHeadphonesTests {
  /// The speaker output's card with its headphone jack in use, mpv
  /// playing stream 1 and stream 2 playing without a player.
  private func headphonesPlaying(_ rig: Rig) async throws -> ScriptedPlayers {
    let players = try #require(rig.players)
    players.add("mpv", playing: [1])
    await plug(rig, in: true)
    await rig.router.reconcile(because: "a test asked")
    return players
  }

  /// The headphones' jack plugged in (the card's output plays on them) or
  /// pulled (on its speakers).
  private func plug(
    _ rig: Rig, in plugged: Bool, on output: String = Rig.speaker
  ) async {
    await rig.server.change { state in
      state.sinks = state.sinks.map { sink in
        guard sink.name == output else { return sink }
        var sink = sink
        sink.ports = [
          SinkPort(
            name: "analog-output-speaker", description: "Speakers",
            priority: 10000, availability: .unknown, kind: .speaker),
          SinkPort(
            name: "analog-output-headphones", description: "Headphones",
            priority: 9900, availability: plugged ? .available : .unavailable,
            kind: .headphones),
        ]
        sink.activePortName =
          plugged ? "analog-output-headphones" : "analog-output-speaker"
        return sink
      }
    }
  }

  @Test(
    "Pulled: muted on the speakers, then paused at once; what no player pauses stays muted"
  )
  func pulled() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await headphonesPlaying(rig)
      await plug(rig, in: false)
      _ = await rig.events.nextMedia("streamMuted")
      #expect(await rig.server.isMuted(1))
      #expect(await rig.server.isMuted(2))
      // A jack has no profile switch: no grace time, only the tenth of a
      // second the rules give the server's state and the link's mutes.
      rig.clock.advance(by: 0.1)
      _ = await rig.events.nextMedia("mediaPaused")
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(players.status("mpv") == .paused)
      #expect(!(await rig.server.isMuted(1)))
      #expect(await rig.server.isMuted(2))
    }
  }

  @Test(
    "Plugged back: unmuted; what the pull paused stays paused, as for a disconnect"
  )
  func pluggedBack() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await headphonesPlaying(rig)
      await plug(rig, in: false)
      _ = await rig.events.nextMedia("streamMuted")
      rig.clock.advance(by: 0.1)
      _ = await rig.events.nextMedia("mediaPaused")
      _ = await rig.events.nextMedia("streamUnmuted")
      await plug(rig, in: true)
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(!(await rig.server.isMuted(1)))
      #expect(!(await rig.server.isMuted(2)))
      rig.clock.advance(by: 5.5)
      await rig.router.reconcile(because: "a test asked")
      #expect(players.calls == ["pause org.mpris.MediaPlayer2.mpv"])
      #expect(players.status("mpv") == .paused)
    }
  }

  @Test(
    "Plugged into another card: the output follows the headphones, and back to the speaker once pulled for good"
  )
  func pluggedIntoAnotherCard() async throws {
    try await Rig.run { rig in
      await rig.server.addSink("laptop", address: nil)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.router.report(explaining: false).output == Rig.speaker)
      await plug(rig, in: true, on: "laptop")
      await rig.router.reconcile(because: "a test asked")
      let report = await rig.router.report(explaining: true)
      #expect(report.output == "laptop")
      #expect(report.text?.contains("jack:laptop") == true)
      #expect(await rig.server.sinkOf(1) == "laptop")
      #expect(await rig.server.sinkOf(2) == "laptop")
    }
  }
}
