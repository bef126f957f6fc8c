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

  private let players: MediaPlayers
  private let link: any RoutingLink
  private let engine: InProcessAccessoryEngine
  private let policies: PolicyStore
  private let router: RouteController?
  private let events: EventHub
  private let logger: Logger
  private var pauses: [BluetoothAddress: Pause] = [:] {
    didSet { recordMutes() }
  }
  /// Accessories taken off whose new placement the registry may not show
  /// yet: the caller saves it once ``takenOff(_:output:on:policy:)``
  /// returns, and a state taken in meanwhile must not find them worn.
  private var takingOff: Set<BluetoothAddress> = []
  private var absences: [BluetoothAddress: Absence] = [:] {
    didSet { recordMutes() }
  }
  /// Where what it holds muted is kept as it changes, for the next daemon.
  private let ledger: MutedStreamLedger?
  /// What a daemon before this one left muted, until the first state of
  /// the server shows what to do with it.
  private var leftOver: MutedStreamLedger.LeftOver?
  /// Streams being given back, kept in the ledger until the server
  /// confirms: a daemon killed meanwhile leaves them to the next.
  private var releasing: [UInt32: BluetoothAddress] = [:] {
    didSet { recordMutes() }
  }
  private var nextAbsence = 0
  /// Whether ``run()`` has ended: nothing more is muted or paused.
  private var stopped = false
  /// The sound server's state the controller last saw.
  private var mirror: ServerMirror?

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
      switch await onOwnThread(named: "accessoryd.muted", ledger.readLeftOver)
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
  private func stop() async {
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
  private func recordMutes() {
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

  private static func accessoryAddress(of sink: Sink) -> BluetoothAddress? {
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
  private func pausePlayers(
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
  private func record(
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
  private func playingPlayers(
    among inputs: [SinkInput]
  ) async -> [(MediaPlayer, [UInt32])] {
    let candidates = players.players.filter {
      $0.playbackStatus == .playing && $0.canPause
    }
    guard !candidates.isEmpty, !inputs.isEmpty else { return [] }
    return await onOwnThread(named: "media.streams") {
      candidates.map {
        ($0, PlayerStreams.system.streams(of: $0, among: inputs).map(\.index))
      }.filter { !$0.1.isEmpty }
    }
  }

  /// Pauses players at once, all together.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  private func pause(
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
  private func waitForPaused(
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
  private func setMute(
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
  private func resume(
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
  private func unmute(
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

  // MARK: - The output goes away

  /// The link muted the streams the server moved off an accessory's
  /// output that went away: they stay muted until they are back on it, or
  /// the reappear grace time ends.
  func outputWentAway(
    _ address: BluetoothAddress, sink: UInt32, muted: [UInt32]
  ) async {
    defer { ledger?.takeOver(muted) }
    guard !stopped else {
      if let mirror {
        await unmute(
          Set(muted), on: mirror, address, reason: "accessoryd is stopping")
      }
      return
    }
    startAbsence(of: address)
    absences[address]?.streams.formUnion(muted)
    absences[address]?.played.formUnion(muted)
    absences[address]?.gone.insert(sink)
    let list = muted.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      "Muted the streams moved off an accessory's output that went away",
      metadata: ["accessory.address": "\(address)", "pulse.streams": "\(list)"])
    events.publish(
      .media(
        MediaEvent(
          eventType: .streamMuted, accessory: address.description,
          players: [], streams: muted.sorted(),
          reason: "the accessory's output went away and the sound server "
            + "moved them to another output; muted while it is expected back")
      ))
    if let mirror { await observe(mirror) }
  }

  /// Starts the reappear grace time of an accessory's output that went
  /// away, unless it runs.
  private func startAbsence(of address: BluetoothAddress) {
    guard absences[address] == nil, !stopped else { return }
    nextAbsence += 1
    var absence = Absence(id: nextAbsence)
    absence.timer = timer(
      address, absence.id,
      after: .seconds(policies.policy.reappearGraceSeconds) + Self.graceMargin)
    absences[address] = absence
  }

  /// A task that ends an absence's grace time after a delay.
  private func timer(
    _ address: BluetoothAddress, _ id: Int, after delay: Duration
  ) -> Task<Void, Never> {
    Task { [weak self] in
      do {
        try await Task.sleep(for: delay)
      } catch {
        return
      }
      await self?.graceEnded(address, id)
    }
  }

  /// The reappear grace time of an output that went away has ended: back,
  /// its streams that are elsewhere play where the router put them; gone
  /// for good, its players are paused (`media.pauseWhenDisconnected`).
  private func graceEnded(_ address: BluetoothAddress, _ id: Int) async {
    guard !stopped, absences[address]?.id == id else { return }
    guard let mirror else {
      // The sound server is away: decide once it is back.
      absences[address]?.timer = timer(address, id, after: .seconds(1))
      return
    }
    guard let absence = absences.removeValue(forKey: address) else { return }
    let policy = policies.policy
    let streams = absence.streams.filter { index in
      mirror.sinkInputs.contains { $0.index == index }
    }
    let present = mirror.sinks.contains {
      bluetoothAddress(of: $0) == address.description
    }
    if present, isOffHead(address), policy.whenUnpausable == .mute,
      !streams.isEmpty
    {
      // Back, but off the head: what the router left elsewhere stays
      // silent until it is worn again, as when it was taken off.
      var pause = pauses[address] ?? Pause(players: [:], at: .now)
      pause.muted.formUnion(streams)
      pauses[address] = pause
      return
    }
    guard !present, policy.pauseWhenDisconnected else {
      await unmute(
        streams, on: mirror, address,
        reason: present
          ? "the accessory's output is back, and the router left them where "
            + "they are"
          : "the accessory's output did not come back, and "
            + "media.pauseWhenDisconnected is false")
      return
    }
    pauses[address]?.disconnected = true
    let inputs = mirror.sinkInputs.filter {
      streams.contains($0.index) || absence.played.contains($0.index)
    }
    let (paused, pausedStreams) = await pausePlayers(among: inputs, address)
    // The paused players' streams are silent now, and so are the corked
    // ones (a player paused meanwhile): unmuted, so that what the person
    // plays again is heard where it is. What still sounds stays muted.
    let current = self.mirror ?? mirror
    let sounding = Set(
      current.sinkInputs.filter { !$0.isCorked }.map(\.index))
    let keepMuted =
      policy.whenUnpausable == .mute
      ? streams.subtracting(pausedStreams).intersection(sounding) : []
    let reason = "the accessory's output went away and did not come back"
    _ = record(
      paused, muted: keepMuted, for: address, cause: .disconnected,
      reason: reason)
    await unmute(
      streams.subtracting(keepMuted), on: current, address, reason: reason)
    // A state that came while the players paused was settled without
    // this record.
    if let latest = self.mirror { await settle(address, on: latest) }
  }

  /// Whether an accessory with the placement capability is reported off
  /// the head.
  private func isOffHead(_ address: BluetoothAddress) -> Bool {
    let registration = engine.registry.registrations[address]
    let registered =
      registration?.configuration.deviceCapabilities.contains(.placement)
      == true && registration?.configuration.devicePlacement == .offHead
    // Until the registry shows it taken off, it is being taken off.
    if registered { takingOff.remove(address) }
    return registered || takingOff.contains(address)
  }

  /// The person moved a stream accessoryd muted because no player could
  /// pause it: it is theirs now, and heard where they put it. (The
  /// streams muted while an output is expected back are left to the
  /// grace time: the server's and the router's moves come fast then.)
  private func personMoved(_ stream: UInt32) async {
    guard let mirror,
      let address = pauses.first(where: { $0.value.muted.contains(stream) })?
        .key
    else { return }
    pauses[address]?.muted.remove(stream)
    if let pause = pauses[address], pause.players.isEmpty, pause.muted.isEmpty {
      pauses[address] = nil
    }
    await unmute(
      [stream], on: mirror, address, reason: "the person moved it")
  }

  // MARK: - Following the server

  /// Takes in a state of the server: unmutes the streams muted for an
  /// accessory once they play on its output again while it is not off the
  /// head; an output back after a disconnect resumes its players if the
  /// policy says so.
  private func observe(_ mirror: ServerMirror?) async {
    let previous = self.mirror
    self.mirror = mirror
    guard let mirror else { return }
    ledger?.useServer(MutedStreamLedger.Server(mirror.serverInfo))
    // A new server dropped the old one's streams from the ledger.
    recordMutes()
    if let leftOver = leftOver.take() {
      await takeOver(leftOver, on: mirror)
    }
    if let previous { noteVanishedOutputs(from: previous, to: mirror) }
    for address in Set(pauses.keys).union(absences.keys).sorted() {
      // The state may have moved on while the one before awaited.
      await settle(address, on: self.mirror ?? mirror)
    }
  }

  /// Starts the grace time of every registered accessory's output that
  /// the new state no longer shows, with the streams that played on it
  /// (the link muted them already if it could): the players among them
  /// are paused if it does not come back.
  private func noteVanishedOutputs(
    from previous: ServerMirror, to mirror: ServerMirror
  ) {
    let present = Set(mirror.sinks.map(\.index))
    for sink in previous.sinks where !present.contains(sink.index) {
      guard let address = Self.accessoryAddress(of: sink),
        let registration = engine.registry.registrations[address],
        !registration.isInvalidated
      else { continue }
      let streams = previous.sinkInputs.filter {
        $0.sinkIndex == sink.index && !$0.isCorked
      }.map(\.index)
      startAbsence(of: address)
      absences[address]?.gone.insert(sink.index)
      absences[address]?.played.formUnion(streams)
    }
  }

  private func settle(
    _ address: BluetoothAddress, on mirror: ServerMirror
  ) async {
    let outputs = Set(
      mirror.sinks.filter { bluetoothAddress(of: $0) == address.description }
        .map(\.index))
    let offHead = isOffHead(address)
    let sinkOf = Dictionary(
      mirror.sinkInputs.map { ($0.index, $0.sinkIndex) },
      uniquingKeysWith: { first, _ in first })
    let isBack = { (stream: UInt32) in
      !offHead && sinkOf[stream].map(outputs.contains) == true
    }
    // The state may change while this awaits: take what it acts on first.
    var back: Set<UInt32> = []
    if var absence = absences[address] {
      for stream in absence.streams {
        if let sink = sinkOf[stream], !absence.gone.contains(sink) {
          absence.seenAway.insert(stream)
        }
      }
      back.formUnion(
        absence.streams.filter { absence.seenAway.contains($0) && isBack($0) })
      absence.streams = absence.streams.filter {
        sinkOf[$0] != nil && !back.contains($0)
      }
      if absence.streams.isEmpty, !outputs.subtracting(absence.gone).isEmpty {
        // Back, with nothing left muted: no disconnect.
        absence.timer?.cancel()
        absences[address] = nil
      } else {
        absences[address] = absence
      }
    } else if outputs.isEmpty, let pause = pauses[address],
      !pause.disconnected
    {
      // Paused when taken off, and now its output is gone: a disconnect
      // if it does not come back.
      startAbsence(of: address)
    }
    var reconnected: Pause?
    if var pause = pauses[address] {
      let unmuting = pause.muted.filter(isBack)
      back.formUnion(unmuting)
      pause.muted = pause.muted.filter {
        sinkOf[$0] != nil && !unmuting.contains($0)
      }
      // Back after a disconnect, worn, with the output on it.
      if pause.disconnected, !offHead,
        let output = mirror.defaultSink, outputs.contains(output.index)
      {
        reconnected = pause
        pause.players = [:]
      }
      pauses[address] =
        pause.players.isEmpty && pause.muted.isEmpty ? nil : pause
    }
    if !back.isEmpty {
      await unmute(
        back, on: mirror, address,
        reason: "they play on the accessory again")
    }
    if let reconnected {
      let window = policies.policy.resumeWhenPutBackWithinSeconds
      _ = await resume(
        reconnected, address, within: .seconds(window),
        reason: "the accessory connected again")
    }
  }

  // MARK: - What a daemon before this one left muted

  /// Takes over the streams a daemon that died left muted: those it would
  /// keep muted now stay so, under its own rules (an accessory off the
  /// head, an output expected back), and the state that follows settles
  /// them; the others are given back at once.
  private func takeOver(
    _ leftOver: MutedStreamLedger.LeftOver, on mirror: ServerMirror
  ) async {
    guard leftOver.server == MutedStreamLedger.Server(mirror.serverInfo) else {
      logger.notice(
        "An earlier accessoryd left streams muted on a sound server that has "
          + "restarted since; they went with it",
        metadata: ["pulse.server": "\(leftOver.server)"])
      ledger?.rewrite()
      return
    }
    let inputs = Dictionary(
      mirror.sinkInputs.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    var giveBack: [BluetoothAddress: Set<UInt32>] = [:]
    var kept: [UInt32] = []
    for entry in leftOver.streams {
      guard let input = inputs[entry.stream], input.isMuted else { continue }
      let address = entry.accessory
      let registered =
        engine.registry.registrations[address].map { !$0.isInvalidated }
        ?? false
      if !registered || input.isCorked {
        giveBack[address, default: []].insert(entry.stream)
      } else if isOffHead(address) {
        // Taken off: silent until it is put back on, as before.
        pauses[address, default: Pause(players: [:], at: .now)].muted.insert(
          entry.stream)
        kept.append(entry.stream)
      } else {
        // Its output went away: muted while it is expected back.
        startAbsence(of: address)
        absences[address]?.streams.insert(entry.stream)
        absences[address]?.played.insert(entry.stream)
        kept.append(entry.stream)
      }
    }
    let list = leftOver.streams.map { "#\($0.stream)" }.joined(separator: ",")
    logger.notice(
      "Took over the streams an earlier accessoryd left muted",
      metadata: [
        "pulse.streams": "\(list)",
        "media.kept-muted": kept.map { "#\($0)" }.joined(separator: ","),
      ])
    for (address, streams) in giveBack.sorted(by: { $0.key < $1.key }) {
      await unmute(
        streams, on: mirror, address,
        reason: "an earlier accessoryd left them muted, and nothing keeps "
          + "them muted now")
    }
    // The file still lists what the earlier daemon left: from now on, it
    // lists what this one holds.
    ledger?.rewrite()
  }

  // MARK: - The person's own changes

  private func note(_ change: MediaPlayerChange) {
    switch change {
    case .vanished(let busName):
      for address in pauses.keys { pauses[address]?.players[busName] = nil }
    case .appeared(let player), .changed(let player):
      // The change may be older than what this controller saw when it
      // paused: judge by the player's status now.
      let status =
        players.player(named: player.busName)?.playbackStatus
        ?? player.playbackStatus
      for (address, pause) in pauses where pause.players[player.busName] != nil
      {
        if status == .paused {
          pauses[address]?.seenPaused.insert(player.busName)
        } else if pause.seenPaused.contains(player.busName) {
          // Played or stopped by the person (or another program): theirs.
          pauses[address]?.players[player.busName] = nil
          logger.info(
            "A paused player was played or stopped meanwhile; it will not "
              + "be resumed",
            metadata: ["media.player": player.busName])
        }
      }
    }
  }

  private static func players(
    _ players: [String: String]
  ) -> [MediaEvent.Player] {
    players.sorted { $0.key < $1.key }.map {
      MediaEvent.Player(busName: $0.key, name: $0.value)
    }
  }
}
