// The engine guards headphones nobody registered as it guards registered
// accessories (media.guardUnregisteredHeadphones): a Bluetooth headset the
// person made the default, disconnected or flipped, is never heard on the
// speaker; with the policy key false it is left to the server. (What the
// media rules decide when such headphones come back with their streams
// elsewhere is MediaScenarios 30 and 31.)

import AccessoryEngine
import DaemonInputs
import Testing

private typealias Rig = RouterRig

@Suite(
  "The engine guards headphones nobody registered", .timeLimit(.minutes(1)))
struct RouterUnregisteredHeadphonesTests {
  /// The headset, which nobody registered, made the default by the person,
  /// with mpv playing stream 1 and stream 2 playing without a player.
  private func headsetPlaying(_ rig: Rig) async throws -> ScriptedPlayers {
    let players = try #require(rig.players)
    players.add("mpv", playing: [1])
    await rig.server.personChoosesDefault(Rig.headset)
    _ = await rig.events.nextPersonsChoice()
    await rig.router.reconcile(because: "a test asked")
    #expect(await rig.server.sinkOf(1) == Rig.headset)
    #expect(await rig.server.sinkOf(2) == Rig.headset)
    return players
  }

  /// Both streams play unmuted on `output`.
  private func expectBothUnmuted(on output: String, _ rig: Rig) async {
    for stream: UInt32 in [1, 2] {
      #expect(await rig.server.sinkOf(stream) == output)
      #expect(!(await rig.server.isMuted(stream)))
    }
  }

  /// The headset playing goes, and its output comes back by `comeBack`
  /// but refuses the engine's route at first: the streams stay on the
  /// speaker, muted.
  private func headsetGoneAndRefused(
    _ rig: Rig, as output: String,
    comeBack: @Sendable (isolated ScriptedSoundServer) -> Void
  ) async throws -> ScriptedPlayers {
    let players = try await headsetPlaying(rig)
    await rig.server.removeSink(Rig.headset)
    _ = await rig.events.nextMedia("streamMuted")
    let before = await rig.batches.count
    await rig.server.behave(.refusesNewOutput)
    await rig.server.run(comeBack)
    await rig.server.waitForBatches(before + 1)
    // The refused route is concluded (its event comes once the loop has
    // set its check), and the streams stayed.
    _ = await rig.events.next {
      $0["kind"]?.stringValue == "route"
        && $0["chosenBy"]?.stringValue == "accessoryd"
        && $0["output"]?.stringValue == output
    }
    #expect(await rig.server.sinkOf(1) == Rig.speaker)
    return players
  }

  /// The grace time ends with the headset back: nothing was paused, and
  /// nothing is.
  private func expectNothingPausedAfterTheGraceTime(
    _ players: ScriptedPlayers, _ rig: Rig
  ) async {
    rig.clock.advance(by: 5.5)
    await rig.router.reconcile(because: "a test asked")
    #expect(players.calls.isEmpty)
    #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
  }

  @Test(
    "Disconnected: muted as the server moves them, then paused; what no player pauses stays muted"
  )
  func disconnected() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await headsetPlaying(rig)
      await rig.server.removeSink(Rig.headset)
      _ = await rig.events.nextMedia("streamMuted")
      #expect(await rig.server.isMuted(1))
      #expect(await rig.server.isMuted(2))
      rig.clock.advance(by: 5.5)
      _ = await rig.events.nextMedia("mediaPaused")
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(players.status("mpv") == .paused)
      #expect(!(await rig.server.isMuted(1)))
      #expect(await rig.server.isMuted(2))
      let report = rig.router.board.pausedMedia(resumingWithin: 60)
      #expect(report.map(\.accessory) == [Rig.headsetAddress])
    }
  }

  @Test(
    "A flip: muted through it, back on the headset the person chose, unmuted there, nothing paused"
  )
  func flip() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await headsetPlaying(rig)
      await rig.server.removeSink(Rig.headset)
      _ = await rig.events.nextMedia("streamMuted")
      // Back at once, under another index: the person's default comes
      // back, the streams follow it, and they play unmuted there.
      await rig.server.addSink(Rig.headset, address: Rig.headsetAddress)
      _ = await rig.events.nextMedia("streamUnmuted")
      await expectBothUnmuted(on: Rig.headset, rig)
      // The grace time ends with the headset back: nothing to pause.
      rig.clock.advance(by: 5.5)
      await rig.router.reconcile(because: "a test asked")
      #expect(players.calls.isEmpty)
      #expect(players.status("mpv") == .playing)
    }
  }

  @Test(
    "A flip under another name: the person's choice follows the headset to its new output"
  )
  func flipUnderAnotherName() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await headsetPlaying(rig)
      await rig.server.removeSink(Rig.headset)
      _ = await rig.events.nextMedia("streamMuted")
      // The headset profile's output: the same address, another name.
      await rig.server.addSink("headset-hfp", address: Rig.headsetAddress)
      _ = await rig.events.nextMedia("streamUnmuted")
      await expectBothUnmuted(on: "headset-hfp", rig)
      await expectNothingPausedAfterTheGraceTime(players, rig)
    }
  }

  @Test(
    "A flip whose new output first refuses the streams: sent again, back on the headset, nothing paused"
  )
  func flipRefusedAtFirst() async throws {
    try await Rig.run(isPipeWire: true, withPlayers: true) { rig in
      let players = try await headsetGoneAndRefused(rig, as: "headset-hfp") {
        $0.addSink("headset-hfp", address: Rig.headsetAddress)
      }
      // Ready now: the engine's own check sends the route again.
      await rig.server.behave(.applies)
      rig.clock.advance(by: EngineLoop.confirmationDelay + 0.1)
      _ = await rig.events.nextMedia("streamUnmuted")
      await expectBothUnmuted(on: "headset-hfp", rig)
      await expectNothingPausedAfterTheGraceTime(players, rig)
    }
  }

  @Test(
    "A flip the server makes the default but first refuses: the next state of the server sends it again"
  )
  func flipRefusedThenServerChanges() async throws {
    try await Rig.run(isPipeWire: true, withPlayers: true) { rig in
      let players = try await headsetGoneAndRefused(rig, as: "headset-a2dp") {
        server in
        server.change { state in
          let index = (state.sinks.map(\.index).max() ?? 0) + 1
          state.sinks.append(
            ScriptedSoundServer.sink(
              index, "headset-a2dp", address: Rig.headsetAddress))
          state.serverInfo.defaultSinkName = "headset-a2dp"
        }
      }
      await rig.server.behave(.applies)
      await rig.server.startStream(3, on: Rig.speaker)
      _ = await rig.events.nextMedia("streamUnmuted")
      await expectBothUnmuted(on: "headset-a2dp", rig)
      #expect(players.calls.isEmpty)
    }
  }

  @Test(
    "A flip of a headset that was the default before the engine started follows it too"
  )
  func flipOfTheDefaultFromBefore() async throws {
    try await Rig.run(defaultSink: Rig.headset, withPlayers: true) { rig in
      let players = try #require(rig.players)
      players.add("mpv", playing: [1])
      await rig.server.removeSink(Rig.headset)
      _ = await rig.events.nextMedia("streamMuted")
      await rig.server.addSink("headset-hfp", address: Rig.headsetAddress)
      _ = await rig.events.nextMedia("streamUnmuted")
      let report = await rig.router.report(explaining: false)
      #expect(report.output == "headset-hfp")
      await expectBothUnmuted(on: "headset-hfp", rig)
      rig.clock.advance(by: 5.5)
      await rig.router.reconcile(because: "a test asked")
      #expect(players.calls.isEmpty)
    }
  }

  @Test("With media.guardUnregisteredHeadphones false: left to the server")
  func notGuarded() async throws {
    try await Rig.run(
      policy: "{ version: 1, media: { guardUnregisteredHeadphones: false } }",
      withPlayers: true
    ) { rig in
      let players = try await headsetPlaying(rig)
      await rig.server.removeSink(Rig.headset)
      await rig.router.reconcile(because: "a test asked")
      #expect(!(await rig.server.isMuted(1)))
      #expect(!(await rig.server.isMuted(2)))
      #expect(players.status("mpv") == .playing)
    }
  }

  @Test(
    "A headset nobody registered that connects takes the output; with followUnregisteredHeadphones false it does not"
  )
  func connecting() async throws {
    for follows in [true, false] {
      try await Rig.run(
        policy: follows
          ? nil
          : "{ version: 1, connection: { followUnregisteredHeadphones: false } }"
      ) { rig in
        // The buds and the headset were there before the engine looked:
        // they do not take the output from the speaker.
        await rig.router.reconcile(because: "a test asked")
        #expect(
          await rig.router.report(explaining: false).output == Rig.speaker)
        await rig.server.addSink("headset-2", address: "AA:BB:CC:DD:EE:03")
        await rig.router.reconcile(because: "a test asked")
        let expected = follows ? "headset-2" : Rig.speaker
        #expect(await rig.router.report(explaining: false).output == expected)
        #expect(await rig.server.sinkOf(1) == expected)
      }
    }
  }
}
