// The session's media players, end to end: real mpv players with
// mpv-mpris on a private session bus, playing to a private sound server,
// seen by the daemon and listed by acctl.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Media players, end to end", .timeLimit(.minutes(3)))
struct MediaTests {
  @Test(
    "acctl players lists each player, its process, its streams and output",
    arguments: SoundServerKind.allCases)
  func playersAreListedWithTheirStreams(_ kind: SoundServerKind) async throws {
    try await withSessionBus(kind) { bus, server, daemon in
      try await listsPlayers(bus, server, daemon)
    }
  }

  private func listsPlayers(
    _ bus: PrivateBus, _ server: SoundServer, _ daemon: DaemonFixture
  ) async throws {
    let playing = try await MediaPlayerProcess.start(
      on: bus, server: server, clientName: "playing")
    let paused = try await MediaPlayerProcess.start(
      on: bus, server: server, clientName: "paused", paused: true)

    let list = try await waitFor(
      "both players, the playing one with a stream on the speaker",
      within: .seconds(20)
    ) { () -> MediaPlayerList in
      let result = try await daemon.acctl(["players", "--json"])
      return try JSONDecoder().decode(
        MediaPlayerList.self, from: Data(result.stdout.utf8))
    } until: { list in
      list.players.count == 2
        && list.players.contains {
          $0.processID == playing.processID && $0.playbackStatus == "Playing"
            && $0.streams.contains { $0.output == "speaker" }
        }
    }
    #expect(list.media == MediaStatus(following: true))
    let pausedPlayer = list.players.first { $0.processID == paused.processID }
    #expect(pausedPlayer?.playbackStatus == "Paused")
    #expect(list.players.allSatisfy { $0.processName == "mpv" })
    #expect(list.players.allSatisfy { $0.canPause && $0.canPlay })

    let text = try await daemon.acctl(["players"])
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("NAME"), "\(text)")
    #expect(text.stdout.contains("mpv \(playing.processID)"), "\(text)")
    #expect(text.stdout.contains("speaker"), "\(text)")

    let status = try await daemon.acctl(["status"])
    #expect(
      status.stdout.contains("media players:  followed on the session bus"),
      "\(status)")
    await playing.stop()
    await paused.stop()
    #expect(await daemon.stop() == 0, "\(daemon.logTail())")
  }

  @Test("Without a session bus, status and players say why pausing is off")
  func withoutASessionBus() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(on: server)
    defer { daemon.shutDown() }
    let reason =
      "there is no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    let status = try await daemon.acctl(["status"])
    #expect(status.status == 0)
    #expect(
      status.stdout.contains(
        "media players:  not followed (\(reason)); pausing is off"),
      "\(status)")
    let players = try await daemon.acctl(["players"])
    #expect(players.status == 0)
    #expect(
      players.stdout
        == "Media players are not followed: \(reason). Pausing when the "
        + "headphones come off is off.\n")
    #expect(await daemon.stop() == 0, "\(daemon.logTail())")
  }
}
