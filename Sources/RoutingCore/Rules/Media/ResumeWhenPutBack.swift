// Media rule `resume-put-back`: what was paused resumes when the
// headphones are put back on within the policy's window.

extension MediaRun {
  /// Rule `resume-put-back`: unmute what was muted for an accessory put
  /// back on, whatever the time, and resume the players paused for it
  /// that are still Paused, within `window` seconds of the pause.
  ///
  /// Without the server, everything is kept for the next time.
  mutating func putBack(_ address: String, within window: Double) {
    guard view.server != nil,
      let pause = memory.pauses.removeValue(forKey: address)
    else { return }
    let reason =
      window.isFinite
      ? "the accessory was put back on"
      : "the change that paused them was undone"
    unmute(pause.muted, address, reason: reason)
    resume(pause, address, within: window, reason: reason)
  }

  /// Resumes a pause's players that are still Paused, within the window,
  /// unless a disconnect paused them and the policy does not resume those.
  ///
  /// - Parameter backAt: When the accessory was back, if not now: the
  ///   window is judged then, not after the reconnect settled.
  mutating func resume(
    _ pause: MediaMemory.Pause, _ address: String, within window: Double,
    reason: String, backAt: Double? = nil
  ) {
    guard !pause.players.isEmpty else { return }
    if pause.disconnected, !policy.resumeOnReconnect {
      effects.append(
        .note(
          accessory: address,
          "Not resuming media players: the accessory disconnected since, and "
            + "media.resumeOnReconnect is false"))
      return
    }
    let elapsed = (backAt ?? now) - pause.awayFrom
    guard window > 0, elapsed <= window else {
      let shown = (elapsed * 10).rounded() / 10
      effects.append(
        .note(
          accessory: address,
          "Not resuming media players: back after \(shown) s, past the "
            + "\(Int(window)) s window"))
      return
    }
    let players = pause.players.filter { view.players[$0.key] == .paused }
    guard !players.isEmpty else { return }
    effects.append(
      .resume(
        accessory: address, players: players,
        reason: window.isFinite ? reason + " within \(Int(window)) s" : reason))
  }
}
