// How the engine's media part follows the world: the server's states, the
// players, the link's mute reflex, the grace times on the engine's clock,
// the resumes that wait for the route, and what a daemon before this one
// left muted; and its hands on the server's streams.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import MPRIS
import RoutingCore
import SoundServerModel

extension EngineLoop {
  // MARK: - Starting and stopping

  /// Reads what an earlier daemon left muted and starts the link's mute
  /// reflex: the streams of a registered accessory's output that vanishes
  /// are muted on the link's thread, and the loop hears of it with the
  /// state that shows the output gone.
  func startMedia() async {
    guard players != nil else { return }
    if let ledger = mutedLedger {
      switch await BlockingPool.shared.run(
        named: "accessoryd.muted", ledger.readLeftOver)
      {
      case .success(let found): media.leftOver = found
      case .failure(let error):
        logger.warning(
          "What an earlier accessoryd left muted is lost: \(error)")
        ledger.rewrite()
      }
    }
    let engine = self.engine
    let ledger = self.mutedLedger
    let policies = self.policies
    let classes = self.headphoneClasses
    await link.muteStreams(
      whenTheirSinkVanishes: VanishingSinkMute(
        appliesTo: { sink in
          // A registered accessory's, or, as the policy says, any
          // headphones' (the rules' `guards`): Bluetooth, or a headphone
          // jack in use.
          if let address = Self.accessoryAddress(of: sink),
            engine.registry.registrations[address].map({ !$0.isInvalidated })
              ?? false
          {
            return true
          }
          return policies.policy.guardUnregisteredHeadphones
            && isHeadphones(sink, byBlueZ: classes.addresses)
        },
        muted: { sink, streams in
          // On the link's thread, before the loop hears of it in the
          // next state: a daemon killed now leaves them muted, and the
          // next one must know.
          guard let identity = headphonesIdentity(of: sink) else { return }
          ledger?.mutedAsTheirSinkVanished(streams, for: identity)
        }))
  }

  /// Stops muting and pausing, and gives back what it muted.
  ///
  /// Nothing would unmute it once the daemon is gone. What it paused stays paused.
  func stopMedia() async {
    guard players != nil, !media.stopped else { return }
    media.stopped = true
    await link.muteStreams(whenTheirSinkVanishes: nil)
    // The pauses and resumes in flight are cancelled: nothing is resumed
    // or announced after this.
    chores.finish()
    media.resumesDone = [:]
    for (_, wait) in media.resumesAwaitingMoves {
      for answer in wait.answers { answer() }
    }
    media.resumesAwaitingMoves = [:]
    // The link's mutes whose news did not reach the loop: the ledger
    // recorded each on the link's thread.
    for (stream, identity) in mutedLedger?.notTakenOver ?? [:] {
      media.mutedAfterTheLoop[stream] = identity
    }
    var held = rules.media.heldMuted
    for (stream, address) in media.mutedAfterTheLoop {
      held[stream] = address.description
    }
    // The loop's last state may not show the link's last mutes.
    let mutedByTheLink = Set(media.mutedAfterTheLoop.keys)
    mutedLedger?.takeOver(Array(mutedByTheLink))
    media.mutedAfterTheLoop = [:]
    rules.media = MediaMemory()
    guard let mirror else {
      // Nothing can be given back without the server: the ledger keeps
      // what it holds, for the next daemon.
      await mutedLedger?.flush()
      return
    }
    // What the server did not confirm given back stays in the ledger, for
    // the next daemon.
    var byAccessory: [String: Set<UInt32>] = [:]
    for (stream, accessory) in held {
      byAccessory[accessory, default: []].insert(stream)
    }
    var kept: [UInt32: HeadphonesIdentity] = [:]
    for (accessory, streams) in byAccessory.sorted(by: { $0.key < $1.key }) {
      let failed = await unmute(
        streams, on: mirror, accessory, reason: "accessoryd is stopping",
        knownMuted: mutedByTheLink)
      if let identity = HeadphonesIdentity(accessory) {
        for stream in failed { kept[stream] = identity }
      }
    }
    mutedLedger?.hold(kept)
    await mutedLedger?.flush()
  }

  /// Keeps the ledger's copy of what is held muted.
  func holdMutes() {
    guard let ledger = mutedLedger, !media.stopped else { return }
    var held = media.releasing
    for (stream, accessory) in rules.media.heldMuted {
      if let identity = HeadphonesIdentity(accessory) {
        held[stream] = identity
      }
    }
    ledger.hold(held)
  }

  static func accessoryAddress(of sink: Sink) -> BluetoothAddress? {
    bluetoothAddress(of: sink).flatMap { BluetoothAddress($0) }
  }

  // MARK: - Following

  /// Takes one media event from the inbox.
  ///
  /// - Returns: The media rules' effects, carried out.
  @discardableResult
  func take(_ trigger: MediaTrigger) async -> [MediaEffect] {
    switch trigger {
    case .player(let change):
      switch change {
      case .vanished(let busName):
        return await mediaTake(.playerChanged(busName: busName, status: nil))
      case .appeared(let player), .changed(let player):
        // The change may be older than what the rules saw when they
        // paused it: judged by the player's status now.
        let status =
          players?.player(named: player.busName)?.playbackStatus
          ?? player.playbackStatus
        return await mediaTake(
          .playerChanged(
            busName: player.busName,
            status: MediaView.PlayerStatus(rawValue: status.rawValue)
              ?? .stopped))
      }
    case .reflexes(let reflexes):
      await mediaFollowServer()
      for reflex in reflexes { await take(reflex) }
      return []
    case .input(let input):
      return await mediaTake(input)
    }
  }

  /// Takes what the link's reflex did, told with the state that caused
  /// it (taken in first).
  func take(_ reflex: LinkReflex) async {
    switch reflex {
    case .muted(let muted, let sink):
      guard let identity = headphonesIdentity(of: sink) else { return }
      defer { mutedLedger?.takeOver(muted) }
      guard followsMedia else {
        if let mirror {
          await unmute(
            Set(muted), on: mirror, identity.description,
            reason: "accessoryd is stopping")
        }
        return
      }
      // A headphone jack's sink stays when the jack is pulled.
      await mediaTake(
        .outputWentAway(
          accessory: identity.description, output: sink.index,
          muted: Set(muted), sinkStays: identity.isJack))
    case .jackBack(let sink):
      guard followsMedia else { return }
      await mediaTake(
        .jackBack(
          accessory: HeadphonesIdentity(jackOf: sink.name).description,
          output: sink.index))
    }
  }

  /// Resumes what was paused for an accessory put back on, once the
  /// server shows the route back on it (at most ``movesShownLimit`` later),
  /// then answers; answers at once when nothing is to be resumed.
  func resumeWhenBack(
    _ address: BluetoothAddress, then answer: @escaping @Sendable () -> Void
  ) {
    guard followsMedia, let output = outputName(for: address),
      reportedOutput == output
    else {
      answer()
      return
    }
    // Once the server shows the streams moved there, so that none is
    // heard where it was: PipeWire acknowledges a move before
    // WirePlumber relinks the stream.
    let until = mediaNow + Self.movesShownLimit
    media.resumesAwaitingMoves[address, default: (until, [])].answers
      .append(answer)
  }

  /// Follows the server's state the router last took in, if the media
  /// rules have not, and the streams the person moved.
  func mediaFollowServer() async {
    guard followsMedia else { return }
    if media.followed.number != mirrorNumber {
      let previous = media.followed.server
      let server = mediaServerNow()
      media.followed = (server, mirrorNumber)
      if let mirror {
        mutedLedger?.useServer(MutedStreamLedger.Server(mirror.serverInfo))
        // A new server dropped the old one's streams from the ledger.
        holdMutes()
        if let leftOver = media.leftOver.take() {
          await takeOver(leftOver, on: mirror)
        }
        // Nothing to settle, and no accessory's output went: the rules
        // would change nothing.
        if rules.media.hasPausesOrAbsences
          || Self.anAccessorysOutputWent(from: previous, in: server)
        {
          await mediaTake(.serverChanged(previous: previous))
        }
      }
    }
    let moves = media.personMoves
    media.personMoves = []
    for stream in moves {
      await mediaTake(.streamMovedByThePerson(stream))
    }
  }

  /// Whether an output of an accessory (or of headphones) in one state of
  /// the server is missing from the next, or is there as another's (a
  /// headphone jack pulled).
  static func anAccessorysOutputWent(
    from previous: MediaView.Server?, in server: MediaView.Server?
  ) -> Bool {
    guard let previous else { return false }
    let current = server ?? .init(outputs: [], streams: [], defaultOutput: nil)
    return !current.outputsNoLongerTheirs(since: previous).isEmpty
  }

  /// When the media part next needs the loop: the end of a wait for an
  /// output that went, of a reconnect's settling, or of a resume's wait
  /// for the route.
  var nextMediaWake: Date? {
    guard followsMedia else { return nil }
    let times =
      [rules.media.nextWake].compactMap { $0 }
      + media.resumesAwaitingMoves.values.map(\.until)
    return times.min().map { Date(timeIntervalSince1970: $0) }
  }

  /// Ends the waits for outputs that are over, the reconnects that have
  /// settled, and the resumes' waits that the server's state or the time
  /// answered.
  func mediaWakes() async {
    guard followsMedia else { return }
    let now = mediaNow
    for (accessory, absence) in rules.media.absences.sorted(by: {
      $0.key < $1.key
    }) where absence.endsAt <= now {
      await mediaTake(.graceEnded(accessory: accessory, absence: absence.id))
    }
    for (accessory, pause) in rules.media.pauses.sorted(by: {
      $0.key < $1.key
    }) where pause.resumesAt.map({ $0 <= now }) == true {
      await mediaTake(.backSettled(accessory: accessory))
    }
    for (address, wait) in media.resumesAwaitingMoves.sorted(by: {
      $0.key < $1.key
    })
    where mirror == nil || tracking.expectedMoves.isEmpty || wait.until <= now {
      media.resumesAwaitingMoves[address] = nil
      await mediaTake(
        .putBack(
          accessory: address.description,
          window: policies.policy.resumeWhenPutBackWithinSeconds))
      for answer in wait.answers { answer() }
    }
  }

  /// Takes over the streams a daemon that died left muted, on the server
  /// it left them on.
  func takeOver(
    _ leftOver: MutedStreamLedger.LeftOver, on mirror: ServerMirror
  ) async {
    guard leftOver.server == MutedStreamLedger.Server(mirror.serverInfo) else {
      logger.notice(
        "An earlier accessoryd left streams muted on a sound server that has "
          + "restarted since; they went with it",
        metadata: ["pulse.server": "\(leftOver.server)"])
      mutedLedger?.rewrite()
      return
    }
    var streams: [UInt32: String] = [:]
    for entry in leftOver.streams {
      streams[entry.stream] = entry.accessory.description
    }
    await mediaTake(.leftOverMutes(streams))
    let held = rules.media.heldMuted
    let kept = streams.keys.filter { held[$0] != nil }.sorted()
    logger.notice(
      "Took over the streams an earlier accessoryd left muted",
      metadata: [
        "pulse.streams":
          "\(streams.keys.sorted().map { "#\($0)" }.joined(separator: ","))",
        "media.kept-muted": "\(kept.map { "#\($0)" }.joined(separator: ","))",
      ])
    // The file still lists what the earlier daemon left: from now on, it
    // lists what this one holds.
    mutedLedger?.rewrite()
  }

  // MARK: - The streams

  /// Mutes or unmutes streams in one batch, and tells.
  ///
  /// - Parameters:
  ///   - streams: The streams.
  ///   - muted: Whether to mute or unmute them.
  ///   - accessory: Whose they are, for the log and the event.
  ///   - reason: Why, for the log and the event.
  ///   - answered: Takes the streams the server muted or unmuted, before
  ///     anything is told.
  /// - Returns: The streams the server muted or unmuted.
  @discardableResult
  func setMute(
    _ streams: [UInt32], muted: Bool, _ accessory: String, reason: String,
    answered: (Set<UInt32>) -> Void = { _ in }
  ) async -> Set<UInt32> {
    guard !streams.isEmpty else { return [] }
    let batch = ServerBatch(
      mutes: streams.map { .init(sinkInput: $0, muted: muted) })
    guard let result = try? await link.apply(batch) else {
      answered([])
      return []
    }
    let done = Set(
      zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      })
    answered(done)
    guard !done.isEmpty else { return [] }
    let list = done.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      muted ? "Muted streams no player can pause" : "Unmuted streams",
      metadata: [
        "accessory.address": "\(accessory)", "pulse.streams": "\(list)",
        "media.reason": "\(reason)",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: muted ? .streamMuted : .streamUnmuted,
          accessory: accessory, players: [], streams: done.sorted(),
          reason: reason)))
    return done
  }

  /// Unmutes the streams muted for an accessory that are still there and
  /// still muted (one the person unmuted is theirs).
  ///
  /// - Parameters:
  ///   - streams: The streams.
  ///   - mirror: The state they are judged by; the link's states show its
  ///     own mutes, even before the server does.
  ///   - accessory: Whose they are, for the log and the event.
  ///   - reason: Why, for the log and the event.
  ///   - knownMuted: Streams muted after `mirror` was shown, by the
  ///     link: unmuted if `mirror` shows them at all.
  /// - Returns: Those the server did not confirm unmuted.
  @discardableResult
  func unmute(
    _ streams: Set<UInt32>, on mirror: ServerMirror, _ accessory: String,
    reason: String, knownMuted: Set<UInt32> = []
  ) async -> Set<UInt32> {
    let stillMuted = streams.filter { index in
      guard let input = mirror.sinkInputs.first(where: { $0.index == index })
      else { return false }
      return input.isMuted || knownMuted.contains(index)
    }
    guard !stillMuted.isEmpty else { return [] }
    let address = HeadphonesIdentity(accessory)
    for stream in stillMuted { media.releasing[stream] = address }
    holdMutes()
    let done = await setMute(
      stillMuted.sorted(), muted: false, accessory, reason: reason)
    for stream in stillMuted { media.releasing[stream] = nil }
    holdMutes()
    return stillMuted.subtracting(done)
  }
}
