// The MPRIS client against real players: mpv with mpv-mpris on a private
// session bus, playing to nothing (--ao=null), so that only MPRIS is under
// test.

import Glibc
import MPRIS
import TestSupport
import Testing

/// Waits for a change that satisfies a condition, for at most 30 s of
/// changes; returns the player it names.
private func next(
  _ changes: inout AsyncStream<MediaPlayerChange>.Iterator,
  _ condition: (MediaPlayerChange) -> Bool
) async throws -> MediaPlayerChange {
  while let change = await changes.next() {
    if condition(change) { return change }
  }
  throw FixtureError("the client's changes ended")
}

/// Starts mpv on a bus and returns it with the change in which the client
/// saw it appear.
private func startPlayer(
  on bus: PrivateBus, _ changes: inout AsyncStream<MediaPlayerChange>.Iterator
) async throws -> (MediaPlayerProcess, MediaPlayerChange) {
  let mpv = try await MediaPlayerProcess.start(on: bus)
  let appeared = try await next(&changes) {
    if case .appeared(let player) = $0 {
      return player.processID == mpv.processID
    }
    return false
  }
  return (mpv, appeared)
}

@Suite(.timeLimit(.minutes(2))) struct MPRISClientTests {
  @Test func followsAPlayerFromStartToQuit() async throws {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let client = try await MPRISClient.connect(busAddress: bus.address)
    defer { client.close() }
    #expect(client.players().isEmpty)
    var changes = client.changes().makeAsyncIterator()
    let (mpv, appeared) = try await startPlayer(on: bus, &changes)
    guard case .appeared(var player) = appeared else { return }
    #expect(player.busName.hasPrefix("org.mpris.MediaPlayer2.mpv"))
    #expect(player.processName == "mpv")
    #expect(!player.isBluetoothProxy)
    #expect(player.canPause && player.canPlay)
    #expect(player.uniqueName.hasPrefix(":"))
    if player.playbackStatus != .playing {
      // mpv reports Playing once the file is open.
      let change = try await next(&changes) {
        if case .changed(let changed) = $0 {
          return changed.playbackStatus == .playing
        }
        return false
      }
      if case .changed(let changed) = change { player = changed }
    }
    #expect(client.players() == [player])

    try await client.pause(player.busName)
    _ = try await next(&changes) {
      if case .changed(let changed) = $0 {
        return changed.playbackStatus == .paused
      }
      return false
    }
    #expect(client.players().first?.playbackStatus == .paused)
    try await client.play(player.busName)
    _ = try await next(&changes) {
      if case .changed(let changed) = $0 {
        return changed.playbackStatus == .playing
      }
      return false
    }

    await mpv.stop()
    let vanished = try await next(&changes) {
      if case .vanished = $0 { return true }
      return false
    }
    #expect(vanished == .vanished(busName: player.busName))
    #expect(client.players().isEmpty)
  }

  @Test func readsPlayersThatWereThereFirstWithTheirStatus() async throws {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let paused = try await MediaPlayerProcess.start(
      on: bus, clientName: "paused", paused: true)
    let playing = try await MediaPlayerProcess.start(
      on: bus, clientName: "playing")
    // Wait, through a client of its own, until both have their names.
    let watcher = try await MPRISClient.connect(busAddress: bus.address)
    var changes = watcher.changes().makeAsyncIterator()
    while watcher.players().filter({ $0.playbackStatus == .playing }).count < 1
      || watcher.players().count < 2
    {
      _ = await changes.next()
    }
    watcher.close()

    let client = try await MPRISClient.connect(busAddress: bus.address)
    defer { client.close() }
    let players = Dictionary(
      uniqueKeysWithValues: client.players().map { ($0.processID, $0) })
    #expect(players[paused.processID]?.playbackStatus == .paused)
    #expect(players[playing.processID]?.playbackStatus == .playing)
    await paused.stop()
    await playing.stop()
  }

  @Test func pausingAPlayerThatIsGoneSaysWhich() async throws {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let client = try await MPRISClient.connect(busAddress: bus.address)
    defer { client.close() }
    await #expect {
      try await client.pause("org.mpris.MediaPlayer2.gone")
    } throws: { error in
      guard let error = error as? MPRISError else { return false }
      return error.operation == "pausing org.mpris.MediaPlayer2.gone"
        && error.name == "org.freedesktop.DBus.Error.ServiceUnknown"
    }
  }

  @Test func aCancelledPauseStopsWaitingForAPlayerThatDoesNotAnswer()
    async throws
  {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let client = try await MPRISClient.connect(busAddress: bus.address)
    defer { client.close() }
    var changes = client.changes().makeAsyncIterator()
    let (mpv, appeared) = try await startPlayer(on: bus, &changes)
    guard case .appeared(let player) = appeared else { return }
    // Stopped, the player answers nothing: only the cancellation can end
    // a wait of an hour.
    kill(mpv.processID, SIGSTOP)
    let pausing = Task {
      try await client.pause(player.busName, timeout: .seconds(3600))
    }
    // Most likely sent by now; cancelled before it is sent, it ends the
    // same way.
    try await Task.sleep(for: .milliseconds(200))
    pausing.cancel()
    let result = await pausing.result
    kill(mpv.processID, SIGCONT)
    await mpv.stop()
    #expect(throws: MPRISError.self) { try result.get() }
    if case .failure(let error as MPRISError) = result {
      #expect(error.name == "org.freedesktop.DBus.Error.NoReply")
    }
  }
}
