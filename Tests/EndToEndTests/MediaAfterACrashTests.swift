// What a daemon that dies leaves muted, end to end: the buds' output goes,
// the streams the server moved to the speaker are muted, and the daemon is
// killed with SIGKILL while the buds are expected back. The next daemon
// takes over what its predecessor left muted: back on the buds, every
// stream plays again; gone for good, the players are paused and only what
// no player can pause stays muted.

import AccessoryControl
import Foundation
import Glibc
import TestSupport
import Testing

extension MediaFollowsTheWearerTests {
  @Test(
    "Killed while the buds are away: the next daemon unmutes the streams once they are back",
    arguments: SoundServerKind.allCases)
  func killedWhileTheBudsAreAway(_ kind: SoundServerKind) async throws {
    try await withMediaRig(kind) { rig in
      let (tone, watch, processes) = try await Self.budsDropAndTheDaemonDies(
        rig, graceSeconds: 30)
      defer {
        tone.stop()
        _ = watch.stop()
      }
      try await rig.daemon.restart()
      let buds = try await rig.connectBuds(as: "buds-back")
      do {
        try await waitUntil(
          "every stream unmuted on the buds", within: .seconds(15)
        ) {
          let streams = try await watch.placements(of: processes)
          return streams.count == processes.count
            && streams.allSatisfy { $0.sink == buds && !$0.muted }
        }
      } catch {
        throw FixtureError("\(error)", logTail: rig.daemon.logTail())
      }
      #expect(
        rig.daemon.log.contains(
          "Took over the streams an earlier accessoryd left muted"),
        "\(rig.daemon.logTail())")
      // Back within the grace time: nothing was paused, and nothing was
      // heard on the speaker once muted.
      #expect(rig.status(of: rig.playing[0]) == .playing)
      #expect(rig.status(of: rig.playing[1]) == .playing)
      #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
      #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
      try await waitUntil("the ledger emptied", within: .seconds(30)) {
        !FileManager.default.fileExists(atPath: Self.ledgerPath(rig))
      }
    }
  }

  @Test(
    "Killed while the buds are away for good: the next daemon pauses the players and unmutes their streams"
  )
  func killedWhileTheBudsAreGoneForGood() async throws {
    try await withMediaRig(.pulseAudio) { rig in
      let (tone, watch, _) = try await Self.budsDropAndTheDaemonDies(
        rig, graceSeconds: 1)
      defer {
        tone.stop()
        _ = watch.stop()
      }
      try await rig.daemon.restart()
      try await rig.waitForStatuses(
        [(rig.playing[0], .paused), (rig.playing[1], .paused)],
        "both players paused once the new daemon's grace time ended")
      let players = Set(rig.playing.map(\.processID))
      try await waitUntil(
        "the paused players' streams unmuted", within: .seconds(30)
      ) {
        try await watch.placements(of: players).allSatisfy { !$0.muted }
      }
      // The tone has no player to pause it: kept muted, as the daemon
      // that muted it would have kept it.
      #expect(
        try await watch.streams(of: tone.processIdentifier).allSatisfy(
          \.isMuted))
      #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    }
  }

  /// The ledger's path in the rig's state directory.
  static func ledgerPath(_ rig: MediaRig) -> String {
    rig.daemon.stateDirectory + "/muted-streams.json"
  }

  /// Plays a tone beside the players, takes the buds' output away, waits
  /// until the streams are muted on the speaker and the ledger names them
  /// all, then kills the daemon with SIGKILL.
  ///
  /// - Returns: The tone, a watch of the speaker, and the processes whose
  ///   streams it watches.
  static func budsDropAndTheDaemonDies(
    _ rig: MediaRig, graceSeconds: Int
  ) async throws -> (PacatStream, AudibilityWatch, Set<Int32>) {
    // No BlueZ here: the profile switch's window is as long as the grace
    // time, so that the buds are expected back all that time.
    try await rig.reloadPolicy(
      try DaemonFixture.policyText().replacingOccurrences(
        of: "reappearGraceSeconds: 5,",
        with: "reappearGraceSeconds: \(graceSeconds),"
      ).replacingOccurrences(
        of: "profileSwitchSeconds: 0.3,",
        with: "profileSwitchSeconds: \(graceSeconds),"))
    let tone = try #require(try await rig.server.startStreams(1).first)
    try await rig.waitForTheTone(tone)
    let processes = Set(rig.playing.map(\.processID) + [tone.processIdentifier])
    let watch = try await AudibilityWatch.start(
      rig.server, sink: "speaker", processes: processes)
    try await rig.server.unloadModule(try await rig.module(of: "buds"))
    try await waitUntil(
      "every stream muted on the speaker", within: .seconds(30)
    ) {
      let streams = try await watch.placements(of: processes)
      return streams.count == processes.count
        && streams.allSatisfy { $0.sink == "speaker" && $0.muted }
    }
    let indexes = Set(
      try await watch.streams(of: processes).map(\.index))
    try await waitUntil("the ledger naming every stream", within: .seconds(30))
    {
      Self.ledgerStreams(rig).isSuperset(of: indexes)
    }
    await rig.daemon.kill()
    // Nothing of the daemon is left to unmute them.
    #expect(
      try await watch.placements(of: processes).allSatisfy(\.muted))
    return (tone, watch, processes)
  }

  /// The streams the ledger names now.
  static func ledgerStreams(_ rig: MediaRig) -> Set<UInt32> {
    struct Ledger: Decodable {
      struct Entry: Decodable { var stream: UInt32 }
      var streams: [Entry]
    }
    guard
      let data = FileManager.default.contents(atPath: ledgerPath(rig)),
      let ledger = try? JSONDecoder().decode(Ledger.self, from: data)
    else { return [] }
    return Set(ledger.streams.map(\.stream))
  }
}
