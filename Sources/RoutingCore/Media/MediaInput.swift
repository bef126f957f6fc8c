// The events the media rules take, and the effects they ask for.

/// One event for the media rules.
public enum MediaInput: Sendable, Hashable {
  /// An accessory that was worn and had the output is reported off the
  /// head: its output's streams are paused before the route changes.
  case takenOff(accessory: String, output: UInt32)
  /// The players asked to pause answered: those that accepted, by bus
  /// name with their names, and their streams. Ends a
  /// ``MediaMemory/Pausing`` phase.
  case playersPaused(
    accessory: String, players: [String: String], streams: Set<UInt32>)
  /// An accessory is put back on; what was paused within `window` seconds
  /// resumes (zero never resumes).
  case putBack(accessory: String, window: Double)
  /// The change that paused an accessory's media was undone (refused, or
  /// not saved): what was paused resumes and what was muted is unmuted,
  /// however long ago.
  case pauseUndone(accessory: String)
  /// An accessory's output went away, and the link muted the streams the
  /// server moved elsewhere; or, with `sinkStays`, the output stays, no
  /// longer the headphones' (a headphone jack pulled), and the link muted
  /// the streams on it.
  case outputWentAway(
    accessory: String, output: UInt32, muted: Set<UInt32>,
    sinkStays: Bool = false)
  /// A headphone jack's output whose streams the link muted as the jack
  /// was pulled plays on the headphones again, as the link saw after the
  /// pull: its streams there are back, even if no state in between showed
  /// the jack pulled.
  case jackBack(accessory: String, output: UInt32)
  /// The sound server's state changed; the view holds the new one.
  case serverChanged(previous: MediaView.Server?)
  /// The wait for an output that went away ended (a profile switch's
  /// window, the reappear grace time, or at once on BlueZ's word).
  case graceEnded(accessory: String, absence: Int)
  /// A player changed status (nil: it went away).
  case playerChanged(busName: String, status: MediaView.PlayerStatus?)
  /// The person moved a stream to another output.
  case streamMovedByThePerson(UInt32)
  /// Streams an earlier daemon left muted, each with its accessory.
  case leftOverMutes([UInt32: String])
  /// An accessory was unpaired: nothing will put it back on.
  case unpaired(accessory: String)
  /// BlueZ says the device disconnected (its `Connected` went false): an
  /// output of it that went away is not a profile switch.
  case bluetoothDisconnected(accessory: String)
  /// An accessory a disconnect paused has been back for
  /// `media.reconnectSettleSeconds`: its players may resume.
  case backSettled(accessory: String)
}

/// One thing the media rules ask the daemon to do, in order.
public enum MediaEffect: Sendable, Hashable {
  /// Pause the players that play any of the streams, wait (briefly) for
  /// each to report Paused, and answer with
  /// ``MediaInput/playersPaused(accessory:players:streams:)``.
  case pause(accessory: String, streams: Set<UInt32>, cause: MediaPauseCause)
  /// Tell that players were paused.
  case announcePaused(
    accessory: String, players: [String: String], reason: String)
  /// Mute streams no player could pause.
  case mute(accessory: String, streams: [UInt32], reason: String)
  /// Tell that the link muted streams as their output vanished.
  case announceMuted(accessory: String, streams: [UInt32], reason: String)
  /// Unmute those of the streams that are still there and still muted.
  case unmute(accessory: String, streams: Set<UInt32>, reason: String)
  /// Resume those of the players that are still Paused.
  case resume(accessory: String, players: [String: String], reason: String)
  /// Something the rules decided not to do, and why, for the log.
  case note(accessory: String?, String)
}
