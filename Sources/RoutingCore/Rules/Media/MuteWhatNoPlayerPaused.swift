// Media rule `mute-unpausable`: what still sounds once the players have
// paused (a game, `pacat`) is muted, unless the policy says `move`.

extension MediaRun {
  /// Rule `mute-unpausable`: the players answered the pause; record what
  /// they paused and mute what still sounds.
  mutating func playersPaused(
    _ address: String, _ paused: [String: String], _ pausedStreams: Set<UInt32>
  ) {
    guard let pausing = memory.pausing.removeValue(forKey: address) else {
      return
    }
    let streams = view.server?.streams ?? []
    switch pausing.cause {
    case .takenOff:
      let unpausable = streams.filter {
        pausing.streams.contains($0.index) && !$0.isCorked && !$0.isMuted
          && !pausedStreams.contains($0.index)
      }.map(\.index).sorted()
      let muted = policy.whenUnpausable == .mute ? unpausable : []
      if !muted.isEmpty {
        effects.append(
          .mute(
            accessory: address, streams: muted,
            reason: "no player can pause them, and the accessory that had "
              + "the output was taken off"))
      }
      _ = record(
        paused, muted: Set(muted), for: address, cause: .takenOff,
        reason: pausing.reason)
    case .disconnected:
      // The paused players' streams are silent now, and so are the corked
      // ones (a player paused meanwhile): unmuted, so that what the
      // person plays again is heard where it is. What still sounds stays
      // muted.
      let sounding = Set(streams.filter { !$0.isCorked }.map(\.index))
      let keepMuted =
        policy.whenUnpausable == .mute
        ? pausing.streams.subtracting(pausedStreams).intersection(sounding)
        : []
      _ = record(
        paused, muted: keepMuted, for: address, cause: .disconnected,
        reason: pausing.reason)
      unmute(
        pausing.streams.subtracting(keepMuted), address,
        reason: pausing.reason)
      // A state that came while the players paused was settled without
      // this record.
      settle(address)
    }
  }

  /// Records what was paused and muted for an accessory, and tells.
  ///
  /// - Returns: Whether anything was.
  mutating func record(
    _ paused: [String: String], muted: Set<UInt32>, for address: String,
    cause: MediaPauseCause, reason: String
  ) -> Bool {
    guard !paused.isEmpty || !muted.isEmpty else { return false }
    var pause = memory.pauses[address] ?? .init(players: [:], at: now)
    pause.players.merge(paused) { $1 }
    pause.muted.formUnion(muted)
    if !paused.isEmpty {
      pause.at = now
      pause.awaySince = nil
      pause.cause = cause
    }
    pause.disconnected = pause.disconnected || cause == .disconnected
    // Those that reported Paused while the daemon waited: a later change
    // to another status is the person's.
    for busName in paused.keys where view.players[busName] == .paused {
      pause.seenPaused.insert(busName)
    }
    memory.pauses[address] = pause
    if !paused.isEmpty {
      effects.append(
        .announcePaused(accessory: address, players: paused, reason: reason))
    }
    return true
  }
}
