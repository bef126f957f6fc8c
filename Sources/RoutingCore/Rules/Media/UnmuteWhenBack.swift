// Media rule `unmute-back`: a stream muted for an accessory is unmuted
// once it plays on the accessory's output again while it is worn; an
// output back after a disconnect resumes its players if the policy says
// so, once it has been back for media.reconnectSettleSeconds.

extension MediaRun {
  /// Rule `unmute-back`, on a new state of the sound server: notes the
  /// outputs that went away, then settles every accessory the memory
  /// holds something for.
  mutating func serverChanged(from previous: MediaView.Server?) {
    if let previous { noteVanishedOutputs(from: previous) }
    settleAll()
  }

  /// Rule `unmute-back`: the wait of an accessory back after a disconnect
  /// is over.
  ///
  /// It has been back for `media.reconnectSettleSeconds`. Without the
  /// server, the wait starts again once it is back.
  mutating func backSettled(_ address: String) {
    guard view.server != nil else {
      memory.pauses[address]?.resumesAt = nil
      return
    }
    settle(address)
  }

  /// Settles every accessory the memory holds something for.
  mutating func settleAll() {
    for address in Set(memory.pauses.keys).union(memory.absences.keys).sorted()
    {
      settle(address)
    }
  }

  /// Settles one accessory against the server's state.
  mutating func settle(_ address: String) {
    guard let server = view.server else { return }
    let outputs = server.outputs(of: address)
    let offHead = isOffHead(address)
    let outputOf = server.outputOfStream
    let isBack = { (stream: UInt32) in
      !offHead && outputOf[stream].map(outputs.contains) == true
    }
    var back: Set<UInt32> = []
    if var absence = memory.absences[address] {
      for stream in absence.streams {
        // On an output that is not one that went, or on one that went
        // and stays, no longer theirs (a pulled jack's card): not on the
        // one it was on in a state from before.
        if let output = outputOf[stream],
          !absence.gone.contains(output) || !outputs.contains(output)
        {
          absence.seenAway.insert(stream)
        }
      }
      back.formUnion(
        absence.streams.filter { absence.seenAway.contains($0) && isBack($0) })
      absence.streams = absence.streams.filter {
        outputOf[$0] != nil && !back.contains($0)
      }
      if absence.streams.isEmpty,
        !back.isEmpty || !outputs.subtracting(absence.gone).isEmpty
      {
        // Back (on a new output, or what was muted back on one of theirs,
        // as a plugged jack's card is), with nothing left muted: no
        // disconnect.
        memory.absences[address] = nil
      } else {
        memory.absences[address] = absence
      }
    } else if outputs.isEmpty, let pause = memory.pauses[address],
      !pause.disconnected
    {
      // Paused when taken off, and now its output is gone: a disconnect
      // if it does not come back.
      startAbsence(of: address)
    }
    var reconnected: MediaMemory.Pause?
    var backAt = now
    if var pause = memory.pauses[address] {
      let unmuting = pause.muted.filter(isBack)
      back.formUnion(unmuting)
      pause.muted = pause.muted.filter {
        outputOf[$0] != nil && !unmuting.contains($0)
      }
      // Back after a disconnect, worn, with the output on it, for
      // media.reconnectSettleSeconds (at once when it does not resume): a
      // drop before then keeps the players paused.
      if pause.disconnected, !offHead, let output = server.defaultOutput,
        outputs.contains(output)
      {
        let settle =
          policy.resumeOnReconnect ? policy.reconnectSettleSeconds : 0
        let resumesAt = pause.resumesAt ?? now + settle
        if now >= resumesAt {
          backAt = resumesAt - settle
          reconnected = pause
          pause.players = [:]
          pause.resumesAt = nil
        } else {
          pause.resumesAt = resumesAt
        }
      } else {
        // Back and waiting to settle, and its output gone again (a
        // flapping link): the time away the put-back window measures
        // starts now.
        if pause.resumesAt != nil, outputs.isEmpty { pause.awaySince = now }
        pause.resumesAt = nil
      }
      memory.pauses[address] =
        pause.players.isEmpty && pause.muted.isEmpty ? nil : pause
    }
    unmute(back, address, reason: "they play on the accessory again")
    if let reconnected {
      resume(
        reconnected, address, within: policy.resumeWhenPutBackWithinSeconds,
        reason: "the accessory connected again", backAt: backAt)
    }
  }
}
