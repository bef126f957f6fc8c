// Media rule `hold-away`: while an accessory's output is expected back (a
// profile switch), what the server moved elsewhere stays muted. It is
// expected back within the reappear grace time while BlueZ says the device
// is connected; for a short window when BlueZ does not say; not at all
// when BlueZ says it disconnected, or for a pulled jack.

extension MediaRun {
  /// Rule `hold-away`: the link muted the streams the server moved off an
  /// accessory's output that went away; they stay muted until they are
  /// back on it, or the reappear grace time ends.
  mutating func outputWentAway(
    _ address: String, output: UInt32, muted: Set<UInt32>, sinkStays: Bool
  ) {
    startAbsence(of: address, isJack: sinkStays)
    memory.absences[address]?.streams.formUnion(muted)
    memory.absences[address]?.played.formUnion(muted)
    memory.absences[address]?.gone.insert(output)
    effects.append(
      .announceMuted(
        accessory: address, streams: muted.sorted(),
        reason: sinkStays
          ? "the headphones' jack was pulled and their output plays on the "
            + "speakers; muted while they are expected back"
          : "the accessory's output went away and the sound server moved "
            + "them to another output; muted while it is expected back"))
    settleAll()
  }

  /// Rule `hold-away`: a pulled jack is plugged in again.
  ///
  /// The link saw it after it muted the streams on its output, so the
  /// output no longer counts as one that went: its streams on it are back
  /// once a state shows the output the headphones' again. (Without that
  /// word, a state from before the pull could not be told from one after
  /// the plug, which is why a jack's output counts as gone at all.)
  mutating func jackBack(_ address: String, output: UInt32) {
    guard memory.absences[address]?.gone.remove(output) != nil else { return }
    settleAll()
  }

  /// Starts the reappear grace time of every guarded output that the new
  /// state no longer shows (``guards(_:)``), with the streams that played
  /// on it (the link muted them already if it could): the players among
  /// them are paused if it does not come back.
  ///
  /// An output the state still shows under another identity (a headphone
  /// jack pulled: the sound card's output stays and plays on its speakers)
  /// went away too; its streams stay on it, and nothing muted them in the
  /// same event, so the audible ones are muted now.
  mutating func noteVanishedOutputs(from previous: MediaView.Server) {
    let current =
      view.server ?? .init(outputs: [], streams: [], defaultOutput: nil)
    for (output, stays) in current.outputsNoLongerTheirs(since: previous) {
      guard let address = output.accessory, guards(output) else { continue }
      let streams = previous.streams.filter {
        $0.output == output.index && !$0.isCorked
      }.map(\.index)
      startAbsence(of: address, isJack: stays)
      memory.absences[address]?.played.formUnion(streams)
      memory.absences[address]?.gone.insert(output.index)
      guard stays else { continue }
      let played = Set(streams)
      let audible = current.streams.filter {
        played.contains($0.index) && !$0.isMuted && !$0.isCorked
      }.map(\.index).sorted()
      guard !audible.isEmpty else { continue }
      memory.absences[address]?.streams.formUnion(audible)
      effects.append(
        .mute(
          accessory: address, streams: audible,
          reason: "the headphones' jack was pulled and their output plays "
            + "on the speakers; muted while they are expected back"))
    }
  }

  /// Whether the rules keep an output's streams from being heard
  /// elsewhere when it goes away: a registered accessory's, or, with
  /// `media.guardUnregisteredHeadphones`, any headphones'.
  func guards(_ output: MediaView.Server.Output) -> Bool {
    guard let address = output.accessory else { return false }
    return view.registered.contains(address)
      || (output.isHeadphones && policy.guardUnregisteredHeadphones)
  }

  /// Starts the wait for an accessory's output that went away.
  ///
  /// The rules decide at once when BlueZ says the device disconnected, or
  /// for a pulled jack (a jack has no profile switch); after
  /// `connection.profileSwitchSeconds` when BlueZ does not say; at the end
  /// of the reappear grace time when BlueZ says it is still connected (a
  /// profile switch). The grace time ends half a second after the
  /// router's, so that the router has decided where the streams go.
  ///
  /// - Parameters:
  ///   - address: The accessory.
  ///   - isJack: Whether a headphone jack was pulled.
  mutating func startAbsence(of address: String, isJack: Bool = false) {
    guard memory.absences[address] == nil else { return }
    memory.lastAbsence += 1
    let grace = policy.reappearGraceSeconds + MediaRules.graceMargin
    // "At once" still waits for the server's state that shows the change
    // and for the link's mutes: those come with it, or with the state
    // after it when the output went while that one was being fetched.
    let window: Double =
      switch (isJack, view.bluetoothConnected[address]) {
      case (true, _), (false, false?): MediaRules.settleMargin
      case (false, true?): grace
      case (false, nil):
        max(min(policy.profileSwitchSeconds, grace), MediaRules.settleMargin)
      }
    memory.absences[address] = .init(
      id: memory.lastAbsence, since: now, endsAt: now + window,
      graceEndsAt: now + grace)
  }
}

extension MediaRules {
  /// How long after the reappear grace time the rules decide on an output
  /// that went away, in seconds: the router decides at the end of the
  /// grace time, and the streams stay muted until it has.
  public static let graceMargin = 0.5
  /// How long the rules wait, at least, before deciding on an output that
  /// went away, in seconds: the link's mutes of the streams it moved may
  /// come with the state after the one that shows it gone, when it went
  /// while that state was being fetched.
  public static let settleMargin = 0.1
}
