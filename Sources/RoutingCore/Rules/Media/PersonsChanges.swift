// Media rule `persons-own`: what the person does meanwhile is theirs: a
// paused player they play, stop or close is not resumed, and a muted
// stream they move is unmuted where they put it.

extension MediaRun {
  /// Rule `persons-own`, for a player's change: a paused player seen
  /// Paused and then changed again was played or stopped by the person
  /// (or another program), and is forgotten; one that went away too.
  mutating func playerChanged(
    _ busName: String, _ status: MediaView.PlayerStatus?
  ) {
    guard let status else {
      for address in memory.pauses.keys {
        memory.pauses[address]?.players[busName] = nil
      }
      return
    }
    for (address, pause) in memory.pauses where pause.players[busName] != nil {
      if status == .paused {
        memory.pauses[address]?.seenPaused.insert(busName)
      } else if pause.seenPaused.contains(busName) {
        memory.pauses[address]?.players[busName] = nil
        effects.append(
          .note(
            accessory: address,
            "A paused player (\(busName)) was played or stopped meanwhile; it "
              + "will not be resumed"))
      }
    }
  }

  /// Rule `persons-own`, for a stream the person moved: one muted because
  /// no player could pause it is theirs now, and heard where they put it.
  /// (The streams muted while an output is expected back are left to the
  /// grace time: the server's and the router's moves come fast then.)
  mutating func personMoved(_ stream: UInt32) {
    guard view.server != nil,
      let address = memory.pauses.first(where: {
        $0.value.muted.contains(stream)
      })?
      .key
    else { return }
    memory.pauses[address]?.muted.remove(stream)
    if let pause = memory.pauses[address], pause.players.isEmpty,
      pause.muted.isEmpty
    {
      memory.pauses[address] = nil
    }
    unmute([stream], address, reason: "the person moved it")
  }
}
