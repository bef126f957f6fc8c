// Media follows the wearer, end to end: real mpv players on a private
// session bus playing to each sound server; the buds taken off pause
// exactly the players that play on them before the output changes, and
// nothing of theirs is ever audible on the speaker; put back on, exactly
// those resume. The rig is in MediaRig.swift, the independent observer of
// the speaker in AudibilityWatch.swift.

import AccessoryControl
import ConcurrencyHelpers
import Foundation
import MPRIS
import TestSupport
import Testing

// One at a time: each runs a sound server and three mpv players, and
// beside the other suites on two busy cores they would starve them.
@Suite(
  "Media follows the wearer, end to end", .serialized, .timeLimit(.minutes(3)))
struct MediaFollowsTheWearerTests {
  @Test(
    "Taken off: the players pause, unheard on the speaker; back on: they resume",
    arguments: SoundServerKind.allCases)
  func pauseAndResume(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind) { rig in
      // A stream no player owns: muted, not moved audibly.
      let tone = try #require(try await rig.server.startStreams(1).first)
      defer { tone.stop() }
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker",
        processes: Set(
          (rig.playing + [rig.paused]).map(\.processID)
            + [tone.processIdentifier]))
      try await rig.waitForTheTone(tone)
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      // The answer comes once the players reported Paused.
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.playing[1]) == .paused)
      #expect(rig.status(of: rig.paused) == .paused)
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy(
          \.isMuted)
      )
      try await waitForDefault(rig.server, "speaker")
      try await waitUntil("the streams on the speaker", within: .seconds(30)) {
        try await rig.server.sinkInputs().filter { $0.sinkName == "speaker" }
          .count >= 2
      }

      let explained = try await rig.acctl(["route", "--explain"]).stdout
      #expect(
        explained.contains(
          "when \(budsAddress) was taken off; put back on "
            + "within"), "\(explained)")
      let names = rig.watcher.players().filter {
        $0.processID == rig.playing[0].processID
      }.map(\.displayName)
      #expect(names.allSatisfy { explained.contains("Paused \($0)") })
      // acctl players marks the two it paused, not the one already paused.
      let players = try JSONDecoder().decode(
        MediaPlayerList.self,
        from: Data(try await rig.acctl(["players", "--json"]).stdout.utf8))
      let marked = Set(
        players.players.filter(\.pausedByAccessoryd).compactMap(\.processID))
      #expect(marked == Set(rig.playing.map(\.processID)), "\(players)")
      #expect(players.paused.first?.cause == .takenOff, "\(players)")
      let table = try await rig.acctl(["players"]).stdout
      #expect(
        table.contains("Paused (by accessoryd)")
          && table.contains("when \(budsAddress) was taken off"), "\(table)")

      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .playing), (rig.playing[1], .playing)],
        "the two paused players playing again")
      #expect(rig.status(of: rig.paused) == .paused)
      try await waitForDefault(rig.server, "buds")
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy {
          !$0.isMuted
        })
      let audible = watch.stop()
      #expect(
        audible.isEmpty,
        "audible on the speaker: \(audible)\n\(rig.daemon.logTail())")
      let log = rig.daemon.log
      #expect(log.contains("Paused media players"))
      #expect(log.contains("Resumed media players"))
      #expect(log.contains("Muted streams no player can pause"))
      #expect(log.contains("Unmuted streams"))
    }
  }

  @Test(
    "A player the person plays meanwhile, or one that quits, is left alone")
  func thePersonsOwnChoiceIsLeftAlone() async throws {
    try await withMediaRig(.pulseAudio) { rig in
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both paused")
      let first = try #require(rig.busName(of: rig.playing[0]))
      try await rig.playing[0].call("Play", busName: first)
      try await rig.waitForStatuses(
        [(rig.playing[0], .playing)], "the first played by the person")
      // The person pauses it again: still theirs, not accessoryd's.
      try await rig.playing[0].call("Pause", busName: first)
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused)], "the first paused by the person")
      // The second quits meanwhile.
      let second = try #require(rig.busName(of: rig.playing[1]))
      await rig.playing[1].stop()
      try await waitUntil("the second gone", within: .seconds(30)) {
        rig.watcher.players().allSatisfy { $0.busName != second }
      }
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      // Resuming is decided and done before the answer.
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.paused) == .paused)
      let log = rig.daemon.log
      #expect(!log.contains("Resumed media players"), "\(rig.daemon.logTail())")
      #expect(!log.contains("did not resume"), "\(rig.daemon.logTail())")
    }
  }

  @Test("Unpairing the accessory unmutes the streams it muted")
  func unpairingUnmutes() async throws {
    try await withTheToneTakenOff { rig, tone, watch in
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy(
          \.isMuted)
      )
      _ = try await rig.acctl(["unpair", budsAddress])
      try await waitUntil("the tone unmuted", within: .seconds(30)) {
        try await watch.streams(of: tone.processIdentifier).allSatisfy {
          !$0.isMuted
        }
      }
    }
  }

  @Test("A muted stream the person moves is theirs: unmuted where they put it")
  func aStreamThePersonMovesIsUnmuted() async throws {
    try await withTheToneTakenOff { rig, tone, watch in
      try await waitForDefault(rig.server, "speaker")
      try await waitUntil(
        "the tone muted on the speaker", within: .seconds(30)
      ) {
        try await watch.placements(of: [tone.processIdentifier]).contains {
          $0.sink == "speaker" && $0.muted
        }
      }
      let index = try #require(
        try await watch.streams(of: tone.processIdentifier).first?.index)
      _ = try await rig.server.pactl(["move-sink-input", "\(index)", "buds"])
      try await waitUntil(
        "the tone unmuted where the person put it", within: .seconds(30)
      ) {
        try await watch.placements(of: [tone.processIdentifier]).contains {
          $0.sink == "buds" && !$0.muted
        }
      }
      // The server shows the unmute before the daemon logs it.
      try await waitUntil("the log of why", within: .seconds(30)) {
        rig.daemon.log.contains("media.reason=the person moved it")
      }
    }
  }

  @Test("Put back on after the window: nothing resumes")
  func afterTheWindowNothingResumes() async throws {
    let policy = try DaemonFixture.policyText().replacingOccurrences(
      of: "resumeWhenPutBackWithinSeconds: 60,",
      with: "resumeWhenPutBackWithinSeconds: 0.5,")
    try await withMediaRig(.pulseAudio, policy: policy) { rig in
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both paused")
      try await Task.sleep(for: .seconds(1))
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      // The decision is made before the answer, and logged.
      #expect(rig.daemon.log.contains("Not resuming media players"))
      #expect(rig.status(of: rig.playing[0]) == .paused)
      #expect(rig.status(of: rig.playing[1]) == .paused)
    }
  }

  @Test(
    "A profile flip is never heard; a disconnect pauses, and resumes on reconnect only if asked",
    arguments: SoundServerKind.allCases)
  func flipsAndDisconnects(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind) { rig in
      try await withToneWatched(rig) { tone, watch, processes in
        let headset = try await flipIsNeverHeard(rig, watch, processes)
        let buds = try await disconnectPausesWithoutResuming(
          rig, watch, tone, headset: headset)
        try await reconnectResumesWhenAsked(rig, buds: buds)
      }
    }
  }

  /// Plays a `pacat` tone beside the players and watches their streams
  /// and the tone on the speaker while `body` runs; a failure carries the
  /// daemon's and the server's logs.
  private func withToneWatched(
    _ rig: MediaRig,
    _ body: (PacatStream, AudibilityWatch, Set<Int32>) async throws -> Void
  ) async throws {
    let tone = try #require(try await rig.server.startStreams(1).first)
    defer { tone.stop() }
    try await rig.waitForTheTone(tone)
    let processes = Set(
      rig.playing.map(\.processID) + [tone.processIdentifier])
    let watch = try await AudibilityWatch.start(
      rig.server, sink: "speaker", processes: processes)
    defer { _ = watch.stop() }
    do {
      try await body(tone, watch, processes)
    } catch {
      throw FixtureError(
        "\(error)",
        logTail: rig.daemon.logTail() + "\nserver running: "
          + "\(rig.server.isRunning)\n" + rig.server.logTail())
    }
  }

  @Test(
    "A headset nobody registered: a flip is never heard and keeps playing; a disconnect pauses",
    arguments: SoundServerKind.allCases)
  func unregisteredHeadset(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind, registered: false) { rig in
      try await withToneWatched(rig) { tone, watch, processes in
        // Listed as headphones accessoryd guards, known from the server.
        let listed = try await rig.acctl(["list"]).stdout
        #expect(
          listed.split(separator: "\n").contains {
            $0.contains(budsAddress) && $0.contains("guarded")
              && $0.contains("soundServer")
          }, "\(listed)")
        // The person's choice follows the headset to its headset profile.
        let headset = try await flipIsNeverHeard(rig, watch, processes)
        // Gone for good: paused; the tone, which no player pauses, muted.
        try await rig.reloadPolicy(
          try DaemonFixture.policyText().replacingOccurrences(
            of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"))
        try await rig.server.unloadModule(try await rig.module(of: headset))
        try await rig.waitForStatuses(
          [(rig.playing[0], .paused), (rig.playing[1], .paused)],
          "both players paused once the grace time ended")
        try await waitUntil("the tone still muted", within: .seconds(30)) {
          try await watch.streams(of: tone.processIdentifier)
            .allSatisfy(\.isMuted)
        }
        #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
        #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
      }
    }
  }

  /// The card switches from A2DP to the headset profile: the A2DP sink
  /// goes, and the headset's comes with the same address, within the
  /// reappear grace time.
  ///
  /// Returns the headset sink's name.
  private func flipIsNeverHeard(
    _ rig: MediaRig, _ watch: AudibilityWatch, _ processes: Set<Int32>
  ) async throws -> String {
    // Time for more switches, should the first not take; with no BlueZ in
    // this rig, the profile switch's window is what keeps a flip from
    // pausing.
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 30,"
      ).replacingOccurrences(
        of: "profileSwitchSeconds: 0.3,", with: "profileSwitchSeconds: 30,"))
    let headset = try await rig.flip(from: "buds", to: "buds-headset") {
      // Moved to the speaker, and muted there.
      let streams = try await watch.placements(of: processes)
      return streams.count == processes.count
        && streams.allSatisfy { $0.sink == "speaker" && $0.muted }
    }
    try await rig.waitForDefault(headset)
    try await waitUntil(
      "every stream unmuted on the headset's output", within: .seconds(30)
    ) {
      let streams = try await watch.placements(of: processes)
      return streams.count == processes.count
        && streams.allSatisfy { $0.sink == headset && !$0.muted }
    }
    // The server moves the streams to the speaker before any client hears
    // that the sink went: accessoryd mutes them as the removal arrives,
    // before it fetches anything, and they stay muted there.
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    // A flip is not a disconnect: nothing was paused.
    #expect(rig.status(of: rig.playing[0]) == .playing)
    #expect(rig.status(of: rig.playing[1]) == .playing)
    let log = rig.daemon.log
    #expect(
      log.contains(
        "Muted the streams moved off an accessory's output that went away"),
      "\(rig.daemon.logTail())")
    #expect(!log.contains("Paused media players"))
    return headset
  }

  /// The headset's output goes for good: past a 1 s grace time the players
  /// pause and the tone stays muted; back, the tone plays on the buds
  /// again and the players stay paused.
  ///
  /// Returns the name of the buds' sink once back.
  private func disconnectPausesWithoutResuming(
    _ rig: MediaRig, _ watch: AudibilityWatch, _ tone: PacatStream,
    headset: String
  ) async throws -> String {
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"))
    try await rig.server.unloadModule(try await rig.module(of: headset))
    try await rig.waitForStatuses(
      [(rig.playing[0], .paused), (rig.playing[1], .paused)],
      "both players paused once the grace time ended")
    #expect(rig.status(of: rig.paused) == .paused)
    try await waitUntil("the tone still muted", within: .seconds(30)) {
      try await watch.streams(of: tone.processIdentifier).allSatisfy(\.isMuted)
    }
    let explained = try await rig.acctl(["route", "--explain"]).stdout
    #expect(
      explained.contains("output went away and did not come back"),
      "\(explained)")
    #expect(explained.contains("media.resumeOnReconnect is false"))

    let buds = try await rig.connectBuds()
    try await waitUntil("the tone unmuted on the buds", within: .seconds(30)) {
      try await watch.placements(of: [tone.processIdentifier]).contains {
        $0.sink == buds && !$0.muted
      }
    }
    try await waitUntil("the decision not to resume", within: .seconds(30)) {
      rig.daemon.log.contains(
        "Not resuming media players: the accessory disconnected since")
    }
    #expect(rig.status(of: rig.playing[0]) == .paused)
    #expect(rig.status(of: rig.playing[1]) == .paused)
    // Muted as the sink went, then paused: never heard once muted.
    #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
    #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    return buds
  }

  /// With `media.resumeOnReconnect`, the players a disconnect paused play
  /// again once the buds are back.
  private func reconnectResumesWhenAsked(
    _ rig: MediaRig, buds: String
  ) async throws {
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,"
      ).replacingOccurrences(
        of: "resumeOnReconnect: false,", with: "resumeOnReconnect: true,"))
    for player in rig.playing {
      try await player.call(
        "Play", busName: try #require(rig.busName(of: player)))
    }
    try await rig.waitForStatuses(
      [(rig.playing[0], .playing), (rig.playing[1], .playing)],
      "both played again by the person")
    try await rig.server.unloadModule(try await rig.module(of: buds))
    try await rig.waitForStatuses(
      [(rig.playing[0], .paused), (rig.playing[1], .paused)],
      "both paused by the second disconnect")
    let again = try await rig.connectBuds(as: "buds-again")
    try await rig.waitForStatuses(
      [(rig.playing[0], .playing), (rig.playing[1], .playing)],
      "both resumed on the buds")
    #expect(rig.status(of: rig.paused) == .paused)
    try await rig.waitForDefault(again)
  }
}
