// Media rule `pause-gone`: when an accessory's output is gone for good
// (BlueZ says the device disconnected, no output of it is back within the
// profile switch's window, or not within the reappear grace time), its
// players are paused.

extension MediaRun {
  /// Rule `pause-gone`: decide at the end of an output's grace time.
  ///
  /// Back, its streams that are elsewhere play where the
  /// router put them (or stay muted while it is off the head); gone for
  /// good, its players are paused (`media.pauseWhenDisconnected`).
  mutating func graceEnded(_ address: String, _ id: Int) {
    guard memory.absences[address]?.id == id else { return }
    guard let server = view.server else {
      // The sound server is away: decide once it is back.
      let at = now + 1
      memory.absences[address]?.endsAt = at
      return
    }
    guard let absence = memory.absences.removeValue(forKey: address) else {
      return
    }
    let present = Set(server.streams.map(\.index))
    let streams = absence.streams.intersection(present)
    let outputs = server.outputs(of: address)
    let played = absence.played.intersection(present)
    // Headphones nobody registered are back only with their streams on
    // them: the router brings back a registered accessory's, but theirs
    // only while they take part in routing (or the person pinned them
    // there, or made them the default), and unmuting them elsewhere would
    // play them out loud.
    let registered = view.registered.contains(address)
    let elsewhere = streams.union(played).filter { stream in
      server.stream(stream).map { !outputs.contains($0.output) } ?? false
    }
    // An output of it is back, its streams not yet (the router moves them
    // as a profile switch ends): waited for to the end of the grace time.
    if !outputs.isEmpty, !elsewhere.isEmpty, now < absence.graceEndsAt {
      var waiting = absence
      waiting.endsAt = absence.graceEndsAt
      memory.absences[address] = waiting
      return
    }
    let isBack = !outputs.isEmpty && (registered || elsewhere.isEmpty)
    if isBack, isOffHead(address), policy.whenUnpausable == .mute,
      !streams.isEmpty
    {
      // Back, but off the head: what the router left elsewhere stays
      // silent until it is worn again, as when it was taken off.
      memory.pauses[address, default: .init(players: [:], at: now)].muted
        .formUnion(streams)
      return
    }
    guard !isBack, policy.pauseWhenDisconnected else {
      unmute(
        streams, address,
        reason: isBack
          ? "the accessory's output is back, and the router left them where "
            + "they are"
          : "the accessory's output did not come back, and "
            + "media.pauseWhenDisconnected is false")
      return
    }
    memory.pauses[address]?.disconnected = true
    memory.pausing[address] = .init(
      cause: .disconnected, streams: streams,
      reason: "the accessory's output went away and did not come back")
    // Of headphones nobody registered, only what is not back on them.
    effects.append(
      .pause(
        accessory: address,
        streams: registered ? streams.union(played) : elsewhere,
        cause: .disconnected))
  }
}

extension MediaRun {
  /// Rule `pause-gone`: BlueZ says the device disconnected, so an output
  /// of it that went is not a profile switch: the rules decide at once,
  /// but never before ``MediaRules/settleMargin`` after it went (the
  /// link's mutes of its streams may still be on their way).
  mutating func bluetoothDisconnected(_ address: String) {
    guard var absence = memory.absences[address] else { return }
    let at = max(now, absence.since + MediaRules.settleMargin)
    absence.endsAt = min(absence.endsAt, at)
    absence.graceEndsAt = min(absence.graceEndsAt, at)
    memory.absences[address] = absence
  }
}
