// The engine's media part over the scripted server, scripted players and
// the manual clock: every media behaviour the end-to-end suites check,
// and the overlaps they cannot stage on purpose (an update while a pause
// is in flight, a request meanwhile, a player that never answers, the
// server lost mid-batch).

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import DaemonInputs
import DaemonLifecycle
import Foundation
import Testing

private typealias Rig = RouterRig

/// The bus name of a scripted player.
private func bus(_ name: String) -> String { "org.mpris.MediaPlayer2.\(name)" }

extension RouterEvents {
  /// Returns the next media event of a type.
  func nextMedia(_ type: String) async -> JSONValue? {
    await next {
      $0["kind"]?.stringValue == "media" && $0["eventType"]?.stringValue == type
    }
  }
}

@Suite(
  "The engine's media part, over scripted players", .timeLimit(.minutes(1)))
struct RouterMediaTests {
  /// Registers the buds worn, with mpv playing stream 1 and stream 2
  /// playing without a player, both on the buds.
  private func budsPlaying(_ rig: Rig) async throws -> ScriptedPlayers {
    let players = try #require(rig.players)
    players.add("mpv", playing: [1])
    try await rig.register(Rig.budsAddress, placement: .inEar)
    #expect(await rig.server.sinkOf(1) == Rig.buds)
    #expect(await rig.server.sinkOf(2) == Rig.buds)
    return players
  }

  @Test(
    "Taken off: the players pause and the rest is muted before the route moves; back on: resumed and unmuted"
  )
  func takenOffAndPutBack() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      let sent = await rig.batches.count
      let staged = try await rig.report(Rig.budsAddress, .offHead)
      #expect(staged.pausedFirst)
      #expect(players.calls == ["pause \(bus("mpv"))"])
      #expect(players.status("mpv") == .paused)
      #expect(await rig.server.isMuted(2))
      #expect(!(await rig.server.isMuted(1)))
      // The mute went out before anything moved.
      let batches = Array(await rig.batches.dropFirst(sent))
      #expect(batches.first?.mutes.map(\.sinkInput) == [2])
      #expect(batches.first?.moves.isEmpty == true)
      // The off-head grace time passes: the output leaves the buds.
      rig.clock.advance(by: 5)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.server.sinkOf(1) == Rig.speaker)
      let report = rig.router.board.pausedMedia(resumingWithin: 60)
      #expect(report.map(\.mutedStreams) == [[2]])
      #expect(report.first?.players.map(\.busName) == [bus("mpv")])

      rig.clock.advance(by: 10)
      try await rig.report(Rig.budsAddress, .inEar)
      _ = await rig.events.nextMedia("mediaResumed")
      #expect(await rig.server.sinkOf(1) == Rig.buds)
      #expect(!(await rig.server.isMuted(2)))
      #expect(players.status("mpv") == .playing)
      #expect(players.calls.last == "play \(bus("mpv"))")
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
    }
  }

  @Test(
    "An update is one decision: the players' pause and the engine's mutes decide nothing"
  )
  func oneDecisionPerUpdate() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      await rig.caughtUp()
      let before = await rig.router.decisionCount
      // The pause corks mpv's stream and the mute changes stream 2: the
      // server tells of both, and the engine takes them in without a
      // decision. The off-head grace time holds the route: no echo.
      try await rig.report(Rig.budsAddress, .offHead)
      #expect(players.status("mpv") == .paused)
      await rig.caughtUp()
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.router.decisionCount - before == 2)
    }
  }

  @Test("Put back on after the window: unmuted, not resumed")
  func afterTheWindow() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      try await rig.report(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 61)
      try await rig.report(Rig.budsAddress, .inEar)
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(!(await rig.server.isMuted(2)))
      #expect(players.status("mpv") == .paused)
      #expect(players.calls == ["pause \(bus("mpv"))"])
    }
  }

  @Test(
    "A player the person plays meanwhile is theirs: not resumed, not paused again"
  )
  func personPlaysMeanwhile() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      try await rig.report(Rig.budsAddress, .offHead)
      await players.person(sets: "mpv", to: .playing)
      // The engine takes the change in: the record forgets mpv.
      while rig.router.board.pausedMedia(resumingWithin: 60).first?.players
        .isEmpty == false
      {
        await Task.yield()
      }
      await players.person(sets: "mpv", to: .paused)
      try await rig.report(Rig.budsAddress, .inEar)
      _ = await rig.events.nextMedia("streamUnmuted")
      // A request after the put-back is answered after its resume would
      // have been asked for.
      await rig.router.reconcile(because: "a test asked")
      #expect(players.calls == ["pause \(bus("mpv"))"])
    }
  }

  @Test("An update while the pause is in flight waits behind it, in order")
  func updateDuringThePause() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try #require(rig.players)
      // mpv never reports Paused: the pause waits its full second, on
      // the engine's clock.
      players.add("mpv", playing: [1], answer: .staysSilent)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      async let off = rig.report(Rig.budsAddress, .offHead)
      while players.calls.isEmpty { await Task.yield() }
      // Meanwhile: a request is answered at once, and the buds go back in,
      // behind the update that waits for the pause.
      await rig.router.reconcile(because: "a test asked")
      #expect(
        rig.engine.registry.registrations[.init(Rig.budsAddress)!]?
          .configuration.devicePlacement == .inEar)
      async let back = rig.report(Rig.budsAddress, .inEar)
      while await rig.router.updatesWaitingForAPause < 2 { await Task.yield() }
      rig.clock.advance(by: 1)
      let on = try await back
      let first = try await off
      #expect(first.generation < on.generation)
      #expect(
        rig.engine.registry.registrations[.init(Rig.budsAddress)!]?
          .configuration.devicePlacement == .inEar)
      #expect(await rig.server.sinkOf(1) == Rig.buds)
      #expect(!(await rig.server.isMuted(2)))
    }
  }

  @Test("A player that refuses to pause is muted with the rest")
  func refusingPlayer() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try #require(rig.players)
      players.add("mpv", playing: [1], answer: .refuses)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let staged = try await rig.report(Rig.budsAddress, .offHead)
      #expect(staged.pausedFirst)
      #expect(await rig.server.isMuted(1))
      #expect(await rig.server.isMuted(2))
    }
  }

  @Test(
    "The server lost mid-batch: the update is answered, pending, and what was paused is kept"
  )
  func serverLostMidBatch() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      try await rig.report(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 5)
      await rig.router.reconcile(because: "a test asked")
      // The server goes away while the route back to the buds is sent.
      await rig.server.behave(.goesAway)
      let staged = try await rig.report(Rig.budsAddress, .inEar)
      #expect(staged.pending)
      #expect(
        rig.engine.registry.registrations[.init(Rig.budsAddress)!]?
          .configuration.devicePlacement == .inEar)
      // Nothing can be resumed where it would be heard: kept for later.
      #expect(players.status("mpv") == .paused)
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).count == 1)
    }
  }

  @Test(
    "A profile switch: the moved streams stay muted until they are back on the buds"
  )
  func profileSwitch() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      await rig.server.removeSink(Rig.buds)
      _ = await rig.events.nextMedia("streamMuted")
      #expect(await rig.server.isMuted(1))
      #expect(await rig.server.isMuted(2))
      await rig.server.addSink(Rig.buds, address: Rig.budsAddress)
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(await rig.server.sinkOf(1) == Rig.buds)
      #expect(!(await rig.server.isMuted(1)))
      #expect(!(await rig.server.isMuted(2)))
      #expect(players.calls.isEmpty)
    }
  }

  @Test(
    "Gone for good: after the grace time the players pause; what sounds stays muted"
  )
  func goneForGood() async throws {
    try await Rig.run(withPlayers: true) { rig in
      let players = try await budsPlaying(rig)
      await rig.server.removeSink(Rig.buds)
      _ = await rig.events.nextMedia("streamMuted")
      rig.clock.advance(by: 5.5)
      _ = await rig.events.nextMedia("mediaPaused")
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(players.status("mpv") == .paused)
      #expect(!(await rig.server.isMuted(1)))
      #expect(await rig.server.isMuted(2))
      let report = rig.router.board.pausedMedia(resumingWithin: 60)
      #expect(report.map(\.cause) == [.disconnected])
    }
  }

  /// The loop waits for the server to show a default it sent (a phase)
  /// when the buds' output goes: the state that ends the wait carries the
  /// link's mute, which the loop takes after the wait.
  @Test(
    "An output gone while the loop waits for a default: the link's mutes are taken after the wait"
  )
  func goneDuringAPhase() async throws {
    try await Rig.run(withPlayers: true) { rig in
      _ = try await budsPlaying(rig)
      // Stream 3 stays on the buds when the default leaves them.
      await rig.server.startStream(3, on: Rig.buds, pinnedByApplication: true)
      await rig.caughtUp()
      rig.clock.advance(by: 1)
      let sent = await rig.batches.count
      // The headset's route goes out and the server tells nothing: the
      // loop waits for it to show the headset's default.
      await rig.server.behave(.appliesSilently)
      let registering = Task {
        try await rig.register(Rig.headsetAddress, placement: .onHead)
      }
      await rig.server.waitForBatches(sent + 1)
      #expect(await rig.server.defaultSink == Rig.headset)
      // The buds' output goes: the state that shows it ends the wait.
      await rig.server.behave(.applies)
      await rig.server.removeSink(Rig.buds)
      _ = try await registering.value
      await rig.router.reconcile(because: "a test asked")
      let away = rig.router.board.pausedMedia(resumingWithin: 60)
      #expect(away.map(\.accessory) == [Rig.budsAddress])
      #expect(away.map(\.mutedStreams) == [[3]])
      #expect(await rig.server.isMuted(3))
    }
  }

  @Test(
    "Gone for good and back, worn, with the output on it: resumed when the policy asks"
  )
  func backAfterGoneForGood() async throws {
    try await Rig.run(
      policy: "{ version: 1, media: { resumeOnReconnect: true } }",
      withPlayers: true
    ) { rig in
      let players = try await budsPlaying(rig)
      await rig.server.removeSink(Rig.buds)
      _ = await rig.events.nextMedia("streamMuted")
      rig.clock.advance(by: 5.5)
      _ = await rig.events.nextMedia("mediaPaused")
      #expect(players.status("mpv") == .paused)
      // The buds connect again and take the output back; once they have
      // been back for media.reconnectSettleSeconds, the player resumes.
      await rig.server.addSink(Rig.buds, address: Rig.budsAddress)
      await resumeIsDue(rig)
      #expect(players.status("mpv") == .paused)
      rig.clock.advance(by: 2)
      _ = await rig.events.nextMedia("mediaResumed")
      #expect(players.status("mpv") == .playing)
      #expect(await rig.server.sinkOf(1) == Rig.buds)
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
    }
  }

  @Test(
    "A link that drops three times in ten seconds: paused once, resumed once")
  func flappingLink() async throws {
    try await Rig.run(
      policy: "{ version: 1, media: { resumeOnReconnect: true } }",
      withPlayers: true
    ) { rig in
      let players = try await budsPlaying(rig)
      for drop in 1...3 {
        await rig.server.removeSink(Rig.buds)
        if drop == 1 {
          _ = await rig.events.nextMedia("streamMuted")
          // Past the profile switch's window: gone, paused.
          rig.clock.advance(by: 0.5)
          _ = await rig.events.nextMedia("mediaPaused")
        } else {
          // Dropped before the resume was due: it is not any more.
          while rig.router.board.pausedMedia(resumingWithin: 60).first?
            .resumesAt != nil
          {
            await Task.yield()
          }
          rig.clock.advance(by: 0.5)
        }
        // Back for a second, less than media.reconnectSettleSeconds.
        await rig.server.addSink(Rig.buds, address: Rig.budsAddress)
        await resumeIsDue(rig)
        rig.clock.advance(by: 1)
        await rig.router.reconcile(because: "a test asked")
        #expect(players.status("mpv") == .paused, "drop \(drop)")
      }
      rig.clock.advance(by: 1)
      _ = await rig.events.nextMedia("mediaResumed")
      #expect(players.status("mpv") == .playing)
      #expect(
        players.calls == ["pause \(bus("mpv"))", "play \(bus("mpv"))"],
        "\(players.calls)")
    }
  }

  /// Waits until the engine holds a resume due for the buds, back after a
  /// disconnect.
  private func resumeIsDue(_ rig: Rig) async {
    while rig.router.board.pausedMedia(resumingWithin: 60).first?.resumesAt
      == nil
    {
      await Task.yield()
    }
  }

  @Test(
    "A change the state file cannot save is undone, routed back, and what was paused for it resumed"
  )
  func notSaved() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("router-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = StateFile(url: directory.appendingPathComponent("state.json"))
    try await Rig.run(withPlayers: true, stateFile: file) { rig in
      let players = try await budsPlaying(rig)
      // A file where the state directory was: the next save fails, as
      // root too.
      try FileManager.default.removeItem(at: directory)
      try Data().write(to: directory)
      let failure = await #expect(throws: AccessoryControlFailure.self) {
        try await rig.report(Rig.budsAddress, .offHead)
      }
      #expect(failure?.reason.contains("state file") == true)
      // Undone: still worn, the output on the buds, and what was paused
      // and muted for the change given back.
      let address = BluetoothAddress(Rig.budsAddress)!
      #expect(
        rig.engine.registry.registrations[address]?.configuration
          .devicePlacement == .inEar)
      #expect(await rig.server.sinkOf(1) == Rig.buds)
      #expect(await rig.server.sinkOf(2) == Rig.buds)
      #expect(!(await rig.server.isMuted(2)))
      _ = await rig.events.nextMedia("mediaResumed")
      #expect(players.status("mpv") == .playing)
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
    }
  }

  @Test("A muted stream the person moves is theirs, unmuted where they put it")
  func personMovesAMutedStream() async throws {
    try await Rig.run(withPlayers: true) { rig in
      _ = try await budsPlaying(rig)
      try await rig.report(Rig.budsAddress, .offHead)
      await rig.server.personMoves(2, to: Rig.headset)
      _ = await rig.events.nextMedia("streamUnmuted")
      #expect(!(await rig.server.isMuted(2)))
      #expect(await rig.server.sinkOf(2) == Rig.headset)
    }
  }

  @Test("Unpairing unmutes what was muted for the accessory")
  func unpairing() async throws {
    try await Rig.run(withPlayers: true) { rig in
      _ = try await budsPlaying(rig)
      try await rig.report(Rig.budsAddress, .offHead)
      #expect(await rig.server.isMuted(2))
      // As accessory.unpair does: one change, in the loop.
      let address = BluetoothAddress(Rig.budsAddress)!
      let engine = rig.engine
      _ = try await rig.router.change(
        because: .accessoryUnpaired, forgettingMediaOf: address
      ) { _ throws(AccessoryControlFailure) in
        ((), try engine.stageUnpairing(address))
      }
      #expect(rig.engine.registry.accessories[address] == nil)
      #expect(!(await rig.server.isMuted(2)))
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
    }
  }
}
