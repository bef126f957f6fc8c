// Media follows the wearer: the players that play on the accessory that
// has the output are paused when it is taken off, before the route
// changes, and exactly those are resumed when it is put back on, once the
// route is back. When an accessory's output goes away, the streams the
// server moved elsewhere stay muted while it is expected back (a profile
// switch); if it does not come back, its players are paused.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import FoundationEssentials
import Logging
import MPRIS
import PulseAudio
import RoutingCore

/// Pauses and resumes media players as accessories are taken off and put
/// back on.
///
/// It remembers what it paused, per accessory, as KDE Connect does: a
/// player the person plays, stops or closes meanwhile is forgotten, and a
/// player that was paused already (by the headphones' own pause button,
/// say) is never recorded, so resuming touches only what accessoryd
/// paused.
public actor MediaController: Service {
  /// The service's name.
  public nonisolated let name = "media"

  /// What was paused for one accessory.
  struct Pause {
    /// The players, by bus name, with their names.
    var players: [String: String]
    /// Those of them seen Paused since: only a later change to another
    /// status is the person's.
    var seenPaused: Set<String> = []
    /// When they were paused.
    var at: ContinuousClock.Instant
    /// When they were paused, by the wall clock, for people.
    var date = Date()
    /// The streams it muted, which no player could pause.
    var muted: Set<UInt32> = []
    /// Why: taken off, or its output gone for good.
    var cause: PausedMedia.Cause = .takenOff
    /// Whether the accessory's output went away for good since: its
    /// players resume when it is back only if the policy says so.
    var disconnected = false
  }

  /// The streams the server moved off an accessory's output that went
  /// away, muted while it is expected back.
  struct Absence {
    /// The streams muted.
    var streams: Set<UInt32> = []
    /// The sinks that went away, by index.
    var gone: Set<UInt32> = []
    /// The streams that played on them, muted or not: their players are
    /// paused if the output does not come back.
    var played: Set<UInt32> = []
    /// The muted streams seen on another sink since: only those can be
    /// back (a state from before the sink went away still shows them on
    /// it, and PipeWire may give the new sink the old one's index).
    var seenAway: Set<UInt32> = []
    /// When the output went away, by the wall clock, for people.
    var date = Date()
    /// Ends the reappear grace time.
    var timer: Task<Void, Never>?
    /// Tells this absence from a later one of the same accessory, for a
    /// timer that woke as it was cancelled.
    var id = 0
  }

  let players: MediaPlayers
  let link: any RoutingLink
  let engine: InProcessAccessoryEngine
  let policies: PolicyStore
  let router: RouteController?
  let events: EventHub
  let logger: Logger
  var pauses: [BluetoothAddress: Pause] = [:] {
    didSet { recordMutes() }
  }
  /// Accessories taken off whose new placement the registry may not show
  /// yet: the caller saves it once ``takenOff(_:output:on:policy:)``
  /// returns, and a state taken in meanwhile must not find them worn.
  var takingOff: Set<BluetoothAddress> = []
  var absences: [BluetoothAddress: Absence] = [:] {
    didSet { recordMutes() }
  }
  /// Where what it holds muted is kept as it changes, for the next daemon.
  let ledger: MutedStreamLedger?
  /// What a daemon before this one left muted, until the first state of
  /// the server shows what to do with it.
  var leftOver: MutedStreamLedger.LeftOver?
  /// Streams being given back, kept in the ledger until the server
  /// confirms: a daemon killed meanwhile leaves them to the next.
  var releasing: [UInt32: BluetoothAddress] = [:] {
    didSet { recordMutes() }
  }
  var nextAbsence = 0
  /// Whether ``run()`` has ended: nothing more is muted or paused.
  var stopped = false
  /// The sound server's state the controller last saw.
  var mirror: ServerMirror?

  /// How long after the reappear grace time the controller decides on an
  /// output that went away: the router decides at the end of the grace
  /// time, and the streams stay muted until it has.
  static let graceMargin = Duration.milliseconds(500)

  /// How long it waits for the players to accept the pause and report
  /// Paused before the route may change, as Android and WirePlumber wait.
  public static let pauseWait = Duration.seconds(1)

  /// Creates a controller over the session's players.
  ///
  /// - Parameters:
  ///   - players: The session's players.
  ///   - link: The sound server, for its states and for muting streams.
  ///   - engine: The accessories: which are registered, and where they
  ///     are.
  ///   - policies: The policy in force.
  ///   - router: The router, which knows the streams the person moved.
  ///   - events: Where `mediaPaused`, `mediaResumed`, `streamMuted` and
  ///     `streamUnmuted` go.
  ///   - logger: Where what it does is logged.
  ///   - ledger: Where what it holds muted is kept, and what a daemon
  ///     before it left muted is read from; nil keeps nothing.
  public init(
    players: MediaPlayers, link: any RoutingLink,
    engine: InProcessAccessoryEngine, policies: PolicyStore,
    router: RouteController?, events: EventHub, logger: Logger,
    ledger: MutedStreamLedger? = nil
  ) {
    self.ledger = ledger
    self.players = players
    self.link = link
    self.engine = engine
    self.policies = policies
    self.router = router
    self.events = events
    self.logger = logger
  }

  /// Follows the players' changes, to forget those the person plays,
  /// stops or closes, and the sound server's states, to unmute streams
  /// back on their accessory and to notice outputs that went away, until
  /// cancelled.
  public func run() async throws {
    if let ledger {
      switch await BlockingPool.shared.run(
        named: "accessoryd.muted", ledger.readLeftOver)
      {
      case .success(let found): leftOver = found
      case .failure(let error):
        logger.warning(
          "What an earlier accessoryd left muted is lost: \(error)")
        ledger.rewrite()
      }
    }
    let changes = players.changes()
    let updates = await link.updates()
    let engine = self.engine
    let ledger = self.ledger
    await link.muteStreams(
      whenTheirSinkVanishes: VanishingSinkMute(
        appliesTo: { sink in
          guard let address = Self.accessoryAddress(of: sink) else {
            return false
          }
          return engine.registry.registrations[address].map {
            !$0.isInvalidated
          } ?? false
        },
        muted: { [weak self] sink, streams in
          guard let address = Self.accessoryAddress(of: sink) else { return }
          // On the link's thread, before the task: a daemon killed now
          // leaves them muted, and the next one must know.
          ledger?.mutedAsTheirSinkVanished(streams, for: address)
          Task {
            await self?.outputWentAway(
              address, sink: sink.index, muted: streams)
          }
        }))
    let moves = await router?.streamsMovedByThePerson()
    await withDiscardingTaskGroup { group in
      group.addTask { [weak self] in
        for await change in changes { await self?.note(change) }
      }
      if let moves {
        group.addTask { [weak self] in
          for await stream in moves { await self?.personMoved(stream) }
        }
      }
      group.addTask { [weak self] in
        for await update in updates { await self?.observe(update.mirror) }
      }
    }
    await stop()
  }

  /// Stops muting and pausing, and gives back what it muted.
  ///
  /// Nothing would unmute it once the daemon is gone. What it paused stays
  /// paused.
  func stop() async {
    stopped = true
    await link.muteStreams(whenTheirSinkVanishes: nil)
    for absence in absences.values { absence.timer?.cancel() }
    guard let mirror else { return }
    let muted = pauses.mapValues(\.muted).merging(
      absences.mapValues(\.streams)
    ) { $0.union($1) }
    pauses = [:]
    absences = [:]
    // What the server did not confirm given back stays in the ledger, for
    // the next daemon; so do the streams the link muted whose news has
    // not reached this controller yet.
    var kept: [UInt32: BluetoothAddress] = [:]
    for (address, streams) in muted.sorted(by: { $0.key < $1.key })
    where !streams.isEmpty {
      let failed = await unmute(
        streams, on: mirror, address, reason: "accessoryd is stopping")
      for stream in failed { kept[stream] = address }
    }
    ledger?.hold(kept)
    await ledger?.flush()
  }

  /// Keeps the ledger's copy of what is held muted, until the controller
  /// stops.
  func recordMutes() {
    guard let ledger, !stopped else { return }
    var held = releasing
    for (address, pause) in pauses {
      for stream in pause.muted { held[stream] = address }
    }
    for (address, absence) in absences {
      for stream in absence.streams { held[stream] = address }
    }
    ledger.hold(held)
  }

  static func accessoryAddress(of sink: Sink) -> BluetoothAddress? {
    bluetoothAddress(of: sink).flatMap { BluetoothAddress($0) }
  }

  /// The players paused for an accessory now, by bus name.
  public func paused(for address: BluetoothAddress) -> [String: String] {
    pauses[address]?.players ?? [:]
  }

  // MARK: - Taken off

  /// Pauses every player that plays on the accessory's output, waits (at
  /// most ``pauseWait``) until each reports Paused, and, unless the policy
  /// says `move`, mutes the streams on it that no player paused.
  ///
  /// - Parameters:
  ///   - address: The accessory taken off.
  ///   - output: Its sink, the output it has.
  ///   - mirror: The sound server's state now, with its streams.
  ///   - policy: The policy in force.
  /// - Returns: Whether it paused or muted anything.
  @discardableResult
  public func takenOff(
    _ address: BluetoothAddress, output: String, on mirror: ServerMirror,
    policy: Policy
  ) async -> Bool {
    guard let sink = mirror.sink(named: output) else { return false }
    let inputs = mirror.sinkInputs.filter { $0.sinkIndex == sink.index }
    let (paused, pausedStreams) = await pausePlayers(among: inputs, address)
    // What still sounds: streams no player paused, a game or `pacat`.
    let unpausable = inputs.filter {
      !$0.isCorked && !$0.isMuted && !pausedStreams.contains($0.index)
    }.map(\.index)
    let muted =
      policy.whenUnpausable == .mute
      ? await setMute(
        unpausable, muted: true, address,
        reason: "no player can pause them, and the accessory that had the "
          + "output was taken off") : []
    let recorded = record(
      paused, muted: muted, for: address, cause: .takenOff,
      reason: "the accessory that had the output was taken off")
    if recorded { takingOff.insert(address) }
    return recorded
  }

  /// Pauses the players that play any of the streams, and waits until
  /// each reports Paused; the calls and the wait share one deadline,
  /// ``pauseWait``.
  ///
  /// - Returns: The players that accepted, by bus name, with their names,
  ///   and their streams.
  func pausePlayers(
    among inputs: [SinkInput], _ address: BluetoothAddress
  ) async -> (players: [String: String], streams: Set<UInt32>) {
    let owned = await playingPlayers(among: inputs)
    let deadline = ContinuousClock.now + Self.pauseWait
    let paused = await pause(owned.map(\.0), until: deadline)
    await waitForPaused(Set(paused.keys), address, until: deadline)
    return (
      paused, Set(owned.filter { paused[$0.0.busName] != nil }.flatMap(\.1))
    )
  }

  /// Records what was paused and muted for an accessory, and tells.
  ///
  /// - Returns: Whether anything was.
  func record(
    _ paused: [String: String], muted: Set<UInt32>,
    for address: BluetoothAddress, cause: PausedMedia.Cause, reason: String
  ) -> Bool {
    guard !paused.isEmpty || !muted.isEmpty else { return false }
    var pause = pauses[address] ?? Pause(players: [:], at: .now)
    pause.players.merge(paused) { $1 }
    pause.muted.formUnion(muted)
    if !paused.isEmpty {
      pause.at = .now
      pause.date = Date()
      pause.cause = cause
    }
    pause.disconnected = pause.disconnected || cause == .disconnected
    // Those that reported Paused while this waited: a later change to
    // another status is the person's.
    for busName in paused.keys
    where players.player(named: busName)?.playbackStatus == .paused {
      pause.seenPaused.insert(busName)
    }
    pauses[address] = pause
    if !paused.isEmpty {
      logger.notice(
        "Paused media players",
        metadata: [
          "accessory.address": "\(address)",
          "media.players": "\(paused.keys.sorted().joined(separator: ","))",
          "media.reason": "\(reason)",
        ])
      events.publish(
        .media(
          MediaEvent(
            eventType: .mediaPaused, accessory: address.description,
            players: Self.players(paused), reason: reason)))
    }
    return true
  }

  /// The streams of the players that play now, among some streams, by
  /// player; reads `/proc` off the shared threads, only when some player
  /// plays.
  func playingPlayers(
    among inputs: [SinkInput]
  ) async -> [(MediaPlayer, [UInt32])] {
    let candidates = players.players.filter {
      $0.playbackStatus == .playing && $0.canPause
    }
    guard !candidates.isEmpty, !inputs.isEmpty else { return [] }
    return await BlockingPool.shared.run(named: "media.streams") {
      candidates.map {
        ($0, PlayerStreams.system.streams(of: $0, among: inputs).map(\.index))
      }.filter { !$0.1.isEmpty }
    }
  }

  /// Pauses players at once, all together.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  func pause(
    _ targets: [MediaPlayer], until deadline: ContinuousClock.Instant
  ) async -> [String: String] {
    let timeout = max(deadline - .now, .milliseconds(1))
    var paused: [String: String] = [:]
    await withTaskGroup(of: (String, String, MPRISError?).self) { group in
      for player in targets {
        group.addTask { [players] in
          do throws(MPRISError) {
            try await players.pause(player.busName, timeout: timeout)
            return (player.busName, player.displayName, nil)
          } catch {
            return (player.busName, player.displayName, error)
          }
        }
      }
      for await (busName, name, error) in group {
        if let error {
          logger.warning(
            "A player did not pause: \(error)",
            metadata: ["media.player": busName])
        } else {
          paused[busName] = name
        }
      }
    }
    return paused
  }

  /// Waits, until the deadline, for the players to report Paused.
  func waitForPaused(
    _ names: Set<String>, _ address: BluetoothAddress,
    until deadline: ContinuousClock.Instant
  ) async {
    guard !names.isEmpty else { return }
    let allPaused = await players.waitUntil(deadline) { players in
      names.allSatisfy { players[$0]?.playbackStatus != .playing }
    }
    if !allPaused {
      logger.warning(
        "Not every paused player reported Paused within \(Self.pauseWait)",
        metadata: ["accessory.address": "\(address)"])
    }
  }

  /// Mutes or unmutes streams in one batch.
  ///
  /// - Returns: The streams the server muted or unmuted.
  func setMute(
    _ streams: [UInt32], muted: Bool, _ address: BluetoothAddress,
    reason: String
  ) async -> Set<UInt32> {
    guard !streams.isEmpty else { return [] }
    let batch = PulseBatch(
      mutes: streams.map { .init(sinkInput: $0, muted: muted) })
    guard let result = try? await link.apply(batch) else { return [] }
    let done = Set(
      zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      })
    guard !done.isEmpty else { return [] }
    let list = done.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      muted ? "Muted streams no player can pause" : "Unmuted streams",
      metadata: [
        "accessory.address": "\(address)", "pulse.streams": "\(list)",
        "media.reason": "\(reason)",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: muted ? .streamMuted : .streamUnmuted,
          accessory: address.description, players: [],
          streams: done.sorted(), reason: reason)))
    return done
  }

  // MARK: - Put back on

  /// Resumes the players paused for an accessory that are still Paused,
  /// if it was put back on within `window` of the pause, and unmutes the
  /// streams muted for it.
  ///
  /// Players paused because the accessory's output went away resume only
  /// when the policy's `resumeOnReconnect` is on.
  ///
  /// - Parameters:
  ///   - address: The accessory put back on.
  ///   - window: How long after the pause resuming is allowed; zero
  ///     never resumes.
  ///   - mirror: The sound server's state now; without it, everything is
  ///     kept for the next time.
  /// - Returns: The players resumed, by bus name.
  @discardableResult
  public func putBack(
    _ address: BluetoothAddress, within window: Duration,
    on mirror: ServerMirror? = nil
  ) async -> [String: String] {
    takingOff.remove(address)
    guard let mirror, let pause = pauses.removeValue(forKey: address) else {
      return [:]
    }
    // Muted streams are unmuted whatever the time.
    await unmute(
      pause.muted, on: mirror, address, reason: "the accessory was put back on")
    return await resume(
      pause, address, within: window, reason: "the accessory was put back on")
  }

  /// Resumes a pause's players that are still Paused, within the window,
  /// unless a disconnect paused them and the policy does not resume those.
  func resume(
    _ pause: Pause, _ address: BluetoothAddress, within window: Duration,
    reason: String
  ) async -> [String: String] {
    guard !pause.players.isEmpty else { return [:] }
    if pause.disconnected, !policies.policy.resumeOnReconnect {
      logger.info(
        "Not resuming media players: the accessory disconnected since, and "
          + "media.resumeOnReconnect is false",
        metadata: ["accessory.address": "\(address)"])
      return [:]
    }
    let elapsed = ContinuousClock.now - pause.at
    guard window > .zero, elapsed <= window else {
      logger.info(
        "Not resuming media players: back after \(elapsed)",
        metadata: ["accessory.address": "\(address)"])
      return [:]
    }
    var resumed: [String: String] = [:]
    for (busName, name) in pause.players.sorted(by: { $0.key < $1.key })
    where players.player(named: busName)?.playbackStatus == .paused {
      do {
        try await players.play(busName)
        resumed[busName] = name
      } catch {
        logger.warning(
          "A player did not resume: \(error)",
          metadata: ["media.player": busName])
      }
    }
    guard !resumed.isEmpty else { return [:] }
    logger.notice(
      "Resumed media players",
      metadata: [
        "accessory.address": "\(address)",
        "media.players": "\(resumed.keys.sorted().joined(separator: ","))",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: .mediaResumed, accessory: address.description,
          players: Self.players(resumed),
          reason: reason + " within \(Int(window.components.seconds)) s")))
    return resumed
  }

  /// What is paused and muted now, for `route --explain`.
  ///
  /// - Parameter window: How long after a pause putting the accessory
  ///   back on resumes it; zero never.
  public func report(resumingWithin window: Double) -> [PausedMedia] {
    let resumesOnReconnect = policies.policy.resumeOnReconnect
    let paused = pauses.map { address, pause in
      let pausedAt = pause.date.timeIntervalSince1970
      let resumes =
        window > 0 && !pause.players.isEmpty
        && (!pause.disconnected || resumesOnReconnect)
      return PausedMedia(
        accessory: address.description, players: Self.players(pause.players),
        pausedAt: pausedAt, resumeUntil: resumes ? pausedAt + window : nil,
        mutedStreams: pause.muted.sorted(),
        cause: pause.disconnected ? .disconnected : pause.cause)
    }
    let away = absences.map { address, absence in
      PausedMedia(
        accessory: address.description, players: [],
        pausedAt: absence.date.timeIntervalSince1970, resumeUntil: nil,
        mutedStreams: absence.streams.sorted(), cause: .outputAway)
    }
    return (paused + away).sorted {
      ($0.accessory, $0.pausedAt) < ($1.accessory, $1.pausedAt)
    }
  }

  /// Forgets what was paused for an accessory that is unpaired, and
  /// unmutes the streams it muted: nothing will put it back on.
  public func forget(_ address: BluetoothAddress, on mirror: ServerMirror?) {
    takingOff.remove(address)
    let pause = pauses.removeValue(forKey: address)
    let absence = absences.removeValue(forKey: address)
    absence?.timer?.cancel()
    guard let mirror else { return }
    let streams = (pause?.muted ?? []).union(absence?.streams ?? [])
    Task {
      await self.unmute(
        streams, on: mirror, address, reason: "the accessory was unpaired")
    }
  }

  /// Unmutes the streams muted for an accessory that are still there and
  /// still muted (one the person unmuted is theirs).
  ///
  /// - Returns: Those the server did not confirm unmuted.
  @discardableResult
  func unmute(
    _ streams: Set<UInt32>, on mirror: ServerMirror,
    _ address: BluetoothAddress, reason: String
  ) async -> Set<UInt32> {
    let stillMuted = streams.filter { index in
      mirror.sinkInputs.first { $0.index == index }?.isMuted ?? false
    }
    guard !stillMuted.isEmpty else { return [] }
    for stream in stillMuted { releasing[stream] = address }
    let done = await setMute(
      stillMuted.sorted(), muted: false, address, reason: reason)
    for stream in stillMuted { releasing[stream] = nil }
    return stillMuted.subtracting(done)
  }

}
