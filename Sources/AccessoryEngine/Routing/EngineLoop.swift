// The router: one loop takes every trigger (registry changes through
// requests, sound-server states, the end of a grace time) and runs one
// reconcile at a time. Each builds a snapshot, asks the decision core,
// applies only the difference in one pipelined batch, keeps the decision
// for explain, and publishes an event. Triggers that arrive during a
// reconcile are merged into the next. No polling, and a deadline only
// while a grace time runs or sent changes wait to show up.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import PolicyFiles
import RoutingCore
import SoundServerModel

/// Applies routing decisions to the sound server.
///
/// The router runs one reconcile at a time, in ``run()``'s loop. Callers
/// that changed something call
/// ``reconcile(because:leavingFollowersToTheDefault:)``, which waits for a
/// reconcile that started after the call; sound-server states from the
/// ``RoutingLink`` and the ends of grace times, read from the
/// ``EngineClock``, come into the same loop. Whatever arrives while a
/// reconcile runs is merged into the next one.
public actor EngineLoop: Service {
  /// The service's name.
  public nonisolated let name = "router"

  let engine: RegistryStore
  /// The registered accessories of one membership of the registry (see
  /// ``RegistryStore/VersionedRegistry/membership``): the
  /// addresses of the registrations not invalidated, as the decision core
  /// writes them, and those that take part in a snapshot.
  var registeredCache:
    (
      membership: UInt64, addresses: Set<String>,
      accessories: RegisteredAccessories
    )?
  /// The decision core's accessories of one registry generation and
  /// presence: the decisions the sound server's changes call for, while
  /// the registry stays, reuse them.
  var accessoriesCache:
    (
      generation: UInt64, presence: [String: RouteTracking.Presence],
      accessories: [Accessory]
    )?
  let link: any RoutingLink
  /// The Bluetooth devices BlueZ's class calls headphones: for outputs
  /// whose properties do not say.
  public nonisolated let headphoneClasses: BlueZHeadphoneClasses
  let policies: PolicyStore
  /// This host's Bluetooth addresses: the configured ones, else those of
  /// its adapters.
  var hostAddresses: [String] {
    didSet {
      let addresses = hostAddresses
      board.note { $0.hostAddresses = addresses }
    }
  }
  /// Whether the addresses were configured, so adapters do not replace
  /// them.
  let hostAddressesConfigured: Bool
  let events: EventHub
  /// Says that the router took in a sound-server state (``stateChanges()``).
  private let takenIn = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
  let logger: Logger
  let clock: any EngineClock
  let inbox = RouterInbox()
  /// The pauses, resumes and waits for the state file the loop starts,
  /// run as children of its task group.
  let chores = LoopChores()

  /// What routing remembers, as the step keeps it: read here, changed
  /// only by the step.
  var tracking: RouteTracking { rules.routing }
  var mirror: ServerMirror? {
    didSet {
      mirrorNumber += 1
      let mirror = self.mirror
      board.note { $0.mirror = mirror }
    }
  }
  /// Counts the server's states taken in (and losses of the server), so
  /// that the media part knows whether it followed the last.
  var mirrorNumber = 0
  /// The session's media players; nil leaves media alone.
  let players: (any MediaPlayerControl)?
  /// Where the streams held muted are kept, for the next daemon.
  let mutedLedger: MutedStreamLedger?
  /// The media rules' memory and what carrying out their effects needs.
  var media = MediaRuntime()
  /// Updates that wait for the media of an accessory taken off to pause,
  /// by accessory, oldest first.
  var updatesAwaitingPause: [BluetoothAddress: [AccessoryUpdate]] = [:]
  /// Updates staged in this pass, handed to the state file once it has
  /// routed.
  var stagedUpdates:
    [(
      BluetoothAddress,
      CheckedContinuation<Result<StagedUpdate, AccessoryControlFailure>, Never>,
      StagedUpdate
    )] = []
  /// Updates the state file could not save, answered once the route has
  /// followed the undone registry.
  var updatesNotSaved:
    [(UpdateAwaitingSave, Result<Void, AccessoryControlFailure>)] = []
  /// How many updates wait for the pause of their accessory's media, the
  /// one that started it included, for tests.
  package var updatesWaitingForAPause: Int {
    updatesAwaitingPause.values.reduce(0) { $0 + $1.count }
  }
  /// How many decisions the loop has made, for the tests that count them
  /// per event.
  package internal(set) var decisionCount = 0
  /// How many decisions were made in a pass that had made one already,
  /// or outside any pass: none, for the tests that count them.
  package internal(set) var decisionsBeyondOneAPass = 0
  /// ``decisionCount`` when the current pass began.
  var decisionsAtPassStart = 0
  /// The streams the person moved, as far as the router knows: those
  /// pinned by the person whose move is confirmed.
  package var personsMoves: Set<UInt32> {
    Set(tracking.pins.filter { $0.value == .user }.keys)
      .subtracting(tracking.unconfirmedMoves)
  }
  /// What the rules remember: routing's, the call's, the media's, and
  /// BlueZ's word on which devices are connected.
  ///
  /// What the media rules hold is published for the queries as it
  /// changes (the memory itself is changed in place, not copied).
  var rules = EngineMemory() {
    didSet {
      let (pauses, absences) = (rules.media.pauses, rules.media.absences)
      board.note {
        $0.pauses = pauses
        $0.absences = absences
      }
    }
  }
  var lastSnapshot: Snapshot? {
    didSet {
      let snapshot = lastSnapshot
      board.note { $0.snapshot = snapshot }
    }
  }
  var lastDecision: Decision?
  var lastPolicy: Policy?
  /// The decision `route --explain` shows: the last one that changed
  /// something, chose another output, answered a request, a timer or a
  /// policy reload, or was made as headphones came; never a mere echo of
  /// the router's own changes.
  var explainedDecision: DecisionRecord? {
    didSet { explainedNumber += 1 }
  }
  /// Tells the explained decision from the one before it, for ``board``.
  var explainedNumber = 0
  /// The route as the loop last published it, for the control methods:
  /// they read it without entering the loop.
  public nonisolated let board: RouteBoard
  /// The last decisions that changed something, oldest first, each with
  /// its one-line summary: not the snapshot it was made from, which holds
  /// every output and stream and would make the history grow with the
  /// square of the accessories.
  ///
  /// Published with ``changeInFlight`` by ``publishHistory()``, the two
  /// together.
  var changes: [RouteHistory.Change] = []
  /// The decision whose changes are going out, kept whole until they went
  /// out and it joins `changes`; `route.history` lists it first meanwhile.
  var changeInFlight: DecisionRecord?
  /// How many decisions that changed something are kept for `route.history`.
  public static let historyLimit = RouteHistory.maximumLimit

  /// One decision with what it was made from.
  struct DecisionRecord: Sendable {
    let decidedAt: Date
    let trigger: RouteReason
    let snapshot: Snapshot
    let policy: Policy
    let decision: Decision
    /// What it sent, for the history: changes already sent and not yet
    /// seen are not sent, nor counted, again.
    let sentDefault: Bool
    let sentMoves: Int
  }

  var pending = false
  /// When the decision asked to be made again: the end of a grace time.
  var reconsiderAt: Date?
  /// When to check that the changes sent showed up.
  var confirmAt: Date?
  /// Streams that left a default PipeWire showed unchanged: the defaults
  /// are checked before the next decision.
  var streamsAwaitingDefaultCheck: Set<UInt32> = []
  /// Triggers taken from the inbox during a phase, for the pass after it.
  var deferred: [RouterTrigger] = []
  /// Why the next reconcile runs: sound-server states taken in during a
  /// phase, and the reasons of a pass a phase interrupted.
  var followUpReasons: [RouteReason] = []
  /// Whether the next reconcile leaves the streams that follow the default
  /// to the default change, as a pass a phase interrupted asked.
  var followUpLeavesFollowers = false
  /// What the loop waits for, if anything: the server to show a default it
  /// sent, or a fresh state it asked for.
  var awaiting: LoopPhase?
  /// Requests whose pass a phase interrupted: answered once it has routed.
  var repliesAfterPhase: [CheckedContinuation<Bool, Never>] = []
  /// How long sent changes may take to show up.
  package static let confirmationDelay = 1.5
  /// How many times in a row the loop sends a route again that the server
  /// did not carry out, before it waits for a change instead.
  package static let resendLimit = RouteTracking.resendLimit
  /// How long the router waits for the fresh state it asked for before it
  /// decides on what it has.
  static let freshMirrorLimit = 2.0
  /// How long a route waits for the server to show which streams followed
  /// its default change before it moves them all.
  static let followingDefaultLimit = 0.25

  /// Creates the router.
  ///
  /// - Parameters:
  ///   - engine: The accessories and their registrations.
  ///   - link: The sound server.
  ///   - policies: The policy in force.
  ///   - hostAddresses: This host's Bluetooth addresses, if configured.
  ///   - events: Where route and sound-server events go.
  ///   - logger: Where decisions and failures are logged.
  ///   - clock: The time of decisions, grace times and waits.
  ///   - players: The session's media players, paused and resumed as the
  ///     media rules decide; nil leaves media alone.
  ///   - mutedLedger: Where the streams held muted are kept, and what a
  ///     daemon before this one left muted is read from.
  public init(
    engine: RegistryStore, link: any RoutingLink,
    policies: PolicyStore, hostAddresses: [String], events: EventHub,
    logger: Logger, clock: any EngineClock = SystemEngineClock(),
    players: (any MediaPlayerControl)? = nil,
    mutedLedger: MutedStreamLedger? = nil
  ) {
    self.players = players
    self.mutedLedger = mutedLedger
    self.engine = engine
    self.link = link
    self.policies = policies
    self.hostAddresses = hostAddresses.compactMap {
      BluetoothAddress($0)?.description
    }
    self.hostAddressesConfigured = !hostAddresses.isEmpty
    self.events = events
    self.logger = logger
    self.clock = clock
    let classes = BlueZHeadphoneClasses()
    self.headphoneClasses = classes
    self.board = RouteBoard(
      policies: policies, headphoneClasses: classes, clock: clock)
    let addresses = self.hostAddresses
    board.note { $0.hostAddresses = addresses }
  }

  // MARK: - The loop

  /// Follows the sound server, the requests and the grace times until
  /// cancelled; then answers every waiting request as pending.
  public func run() async throws {
    let updates = await link.updates()
    let inbox = self.inbox
    let chores = self.chores
    await startMedia()
    let changes = players?.changes()
    await withDiscardingTaskGroup { group in
      group.addTask { await chores.run() }
      await withDiscardingTaskGroup { inputs in
        inputs.addTask {
          for await update in updates { _ = inbox.post(.link(update)) }
        }
        if let changes {
          inputs.addTask {
            for await change in changes {
              _ = inbox.post(.media(.player(change)))
            }
          }
        }
        await loop()
        inputs.cancelAll()
      }
      await concludeAfterTheLoop()
      // Stopping took no chore if nothing followed media.
      chores.finish()
    }
  }

  /// Concludes what the loop left: the phase it waited in, the requests
  /// it had not answered, the media it held.
  private func concludeAfterTheLoop() async {
    // A route waiting for the server to show its default is concluded
    // with what went out; its requests are answered with the rest.
    if let phase = awaiting {
      awaiting = nil
      await end(phase)
      // What stayed behind was not moved.
      pending = true
    }
    publishRoute()
    for reply in repliesAfterPhase { reply.resume(returning: true) }
    repliesAfterPhase = []
    // No more mutes by the link's reflex: what it muted until now is in
    // the inbox, the memory or the ledger, and is given back below.
    if players != nil { await link.muteStreams(whenTheirSinkVanishes: nil) }
    let left = deferred + inbox.close()
    deferred = []
    answerAfterStopping(left)
    await stopMedia()
  }

  /// Routes again and waits for the result.
  ///
  /// The call waits for a reconcile that started after it; calls that
  /// arrive together share one. Once the router has stopped, it answers at
  /// once that the route is pending. A caller that changes what routing
  /// reads uses ``change(because:leavingFollowersToTheDefault:_:)``
  /// instead, which makes the change in the loop.
  ///
  /// - Parameters:
  ///   - reason: Why, for the log and `route --explain`.
  ///   - leavingFollowersToTheDefault: On PulseAudio, whether to leave the
  ///     streams that follow the default to the default change and move
  ///     only those that stayed behind once the server shows them.
  /// - Returns: Whether the route is pending: the server is away, or did
  ///   not take it.
  @discardableResult
  package nonisolated func reconcile(
    because reason: RouteReason, leavingFollowersToTheDefault: Bool = false
  ) async -> Bool {
    await withCheckedContinuation { continuation in
      let request = RouteRequest(
        reason: reason,
        leavingFollowersToTheDefault: leavingFollowersToTheDefault,
        reply: continuation)
      if !inbox.post(.request(request)) {
        continuation.resume(returning: true)
      }
    }
  }

  /// How many triggers wait for the next reconcile, for tests that need
  /// a request to be queued before they let a held batch through.
  package nonisolated var queuedTriggerCount: Int { inbox.count }

  func loop() async {
    while !Task.isCancelled {
      if let phase = awaiting {
        guard await takeEventsDuring(phase) else { continue }
        awaiting = nil
        await end(phase)
        if case .moveWhatStayed = phase.then {
          // The route is out: its requests are answered.
          let replies = repliesAfterPhase
          repliesAfterPhase = []
          await endPass(answering: replies)
        }
        continue
      }
      let triggers = deferred + inbox.take()
      deferred = []
      let now = clock.now()
      let graceEnded = reconsiderAt.map { now >= $0 } ?? false
      let confirming = confirmAt.map { now >= $0 } ?? false
      let mediaDue = nextMediaWake.map { now >= $0 } ?? false
      guard
        !triggers.isEmpty || graceEnded || confirming || mediaDue
          || !followUpReasons.isEmpty || !streamsAwaitingDefaultCheck.isEmpty
          || !repliesAfterPhase.isEmpty || !stagedUpdates.isEmpty
          || !updatesNotSaved.isEmpty
      else {
        await waitForTriggers(
          until: [reconsiderAt, confirmAt, nextMediaWake].compactMap { $0 }
            .min())
        continue
      }
      decisionsAtPassStart = decisionCount
      var reasons = followUpReasons
      followUpReasons = []
      var replies = repliesAfterPhase
      repliesAfterPhase = []
      var leavingFollowers = followUpLeavesFollowers
      followUpLeavesFollowers = false
      for trigger in triggers {
        switch trigger {
        case .link(let update):
          if let reason = handle(update) { reasons.append(reason) }
          // What the link's reflex did, after the state that shows it.
          if case .changed(_, let reflexes) = update, !reflexes.isEmpty {
            await take(.reflexes(reflexes))
          }
        case .request(let request):
          reasons.append(request.reason)
          replies.append(request.reply)
          leavingFollowers =
            leavingFollowers || request.leavingFollowersToTheDefault
        case .change(let change):
          guard change.make(self) else {
            change.reply.resume(returning: true)
            continue
          }
          if let address = change.forgetsMediaOf {
            await mediaFollowServer()
            _ = await take(.input(.unpaired(accessory: address.description)))
          }
          reasons.append(change.reason)
          replies.append(change.reply)
          leavingFollowers =
            leavingFollowers || change.leavingFollowersToTheDefault
        case .update(let update):
          await mediaFollowServer()
          if await take(update) {
            reasons.append(.accessoryUpdated)
            leavingFollowers = true
          }
        case .media(let event):
          await mediaFollowServer()
          let effects = await take(event)
          if case .input(.playersPaused(let accessory, _, _)) = event,
            await stageAfterPause(of: accessory, effects: effects)
          {
            reasons.append(.accessoryUpdated)
            leavingFollowers = true
          }
        case .saved(let waiting, let saved):
          if take(waiting, saved: saved) { reasons.append(.updateNotSaved) }
        }
      }
      await mediaFollowServer()
      await mediaWakes()
      if graceEnded {
        reconsiderAt = nil
        reasons.append(.graceEnded)
      }
      if confirming {
        confirmAt = nil
        if await confirmSentChanges() {
          reasons.append(.sentMovesNotShown)
        }
      }
      if !streamsAwaitingDefaultCheck.isEmpty, awaiting == nil {
        await checkForUnreportedDefault()
      }
      // A phase began: the pass goes on after it, with the states it
      // takes in.
      if awaiting != nil {
        holdForThePhase(
          reasons: reasons, replies: replies,
          leavingFollowers: leavingFollowers)
        continue
      }
      if let reason = Self.mergedReason(reasons) {
        await reconcileOnce(
          because: reason, leavingFollowersToTheDefault: leavingFollowers)
        if awaiting != nil {
          holdForThePhase(
            reasons: [], replies: replies, leavingFollowers: false)
          continue
        }
      }
      await endPass(answering: replies)
    }
  }

  /// Ends a pass once its route is out: answers its requests with whether
  /// the route is pending, hands its updates to the state file, answers
  /// those not saved, and lets the media part follow what came meanwhile.
  func endPass(answering replies: [CheckedContinuation<Bool, Never>]) async {
    publishRoute()
    for reply in replies { reply.resume(returning: pending) }
    answerStagedUpdates()
    await answerUpdatesNotSaved()
    await mediaFollowServer()
    await mediaWakes()
  }

  /// The reason a merged reconcile gives: the first that is not an echo
  /// of the sound server, else the engine's own re-send (the history counts
  /// it in the decision it repeats), else the first.
  package static func mergedReason(_ reasons: [RouteReason]) -> RouteReason? {
    reasons.first { !$0.isEcho }
      ?? reasons.first { $0 == .sentMovesNotShown } ?? reasons.first
  }

  /// Returns once a trigger is queued, `deadline` has passed, or the task
  /// is cancelled.
  func waitForTriggers(until deadline: Date?) async {
    let inbox = self.inbox
    guard let deadline else {
      await inbox.waitForTriggers()
      return
    }
    let clock = self.clock
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await inbox.waitForTriggers() }
      group.addTask { try? await clock.sleep(until: deadline) }
      await group.next()
      group.cancelAll()
    }
  }

  /// A stream that yields each time the router has taken in a
  /// sound-server state, so that what it answers (outputs, streams, the
  /// server) is read after it, not before; a subscriber that falls behind
  /// gets one.
  public nonisolated func stateChanges() -> AsyncStream<Void> {
    takenIn.subscribe()
  }

  /// Takes in a sound-server state.
  ///
  /// - Returns: Why to route again, or nil when there is nothing to route
  ///   on.
  func handle(_ update: LinkUpdate) -> RouteReason? {
    defer {
      publishRoute()
      takenIn.publish(())
    }
    switch update {
    case .connected(let mirror):
      // SoundServerLink logs the connection once, with the version.
      observe(mirror, fresh: true) {
        events.publish(.soundServer(.init(state: .connected)))
      }
      return .serverConnected
    case .changed(let mirror, _):
      // A state that differs only in what no rule reads (a player's cork,
      // the engine's own mutes) is taken in, and decides nothing, unless
      // a route is pending.
      let routesAlike = self.mirror?.routesLike(mirror) ?? false
      observe(mirror, fresh: false)
      return routesAlike && !pending ? nil : .serverChanged
    case .disconnected(let error):
      // Published before it is told, as every fact the queries read.
      let wasConnected = mirror != nil
      mirror = nil
      if wasConnected {
        logger.warning(
          "Sound server disconnected",
          metadata: ["pulse.error": error.description])
        events.publish(.soundServer(.init(state: .disconnected)))
      }
      _ = step(.serverLost)
      pending = lastDecision?.hasActions ?? false
      return nil
    }
  }

  /// Sets the default the server shows again, so that the server forgets
  /// a registered accessory's output that went, which it still keeps as
  /// its configured default: setting a default replaces the configured
  /// one, and changes nothing that plays.
  func reassert(_ reassertion: DefaultReassertion) async {
    let gone = reassertion.forgotten ?? "?"
    let output = reassertion.keeping
    let result = try? await link.apply(ServerBatch(defaultSink: output))
    if case .success? = result?.defaultSink {
      logger.info(
        "Set the default again so that the server forgets a gone output",
        metadata: ["route.forgotten": gone, "route.output": output])
    } else {
      logger.warning(
        "Could not set the default again: the server keeps a gone output",
        metadata: ["route.forgotten": gone, "route.output": output])
    }
  }

  /// Whether the mirror shows a stream on a sink; a stream that is gone
  /// counts as not.
  func isPlaying(_ stream: UInt32, on sinkName: String) -> Bool {
    mirror?.sinkInputs(onSinkNamed: sinkName).contains { $0.index == stream }
      ?? false
  }

  /// Whether the mirror shows a stream at all.
  func exists(_ stream: UInt32) -> Bool {
    mirror?.sinkInputs.contains { $0.index == stream } ?? false
  }

  /// The registered accessories' normalized addresses.
  var registeredAddresses: Set<String> {
    registered(in: engine.versionedRegistry).addresses
  }

  /// The registered accessories of a registry, from ``registeredCache``
  /// while the same addresses are registered.
  func registered(
    in current: RegistryStore.VersionedRegistry
  ) -> (addresses: Set<String>, accessories: RegisteredAccessories) {
    if let cached = registeredCache, cached.membership == current.membership {
      return (cached.addresses, cached.accessories)
    }
    let addresses = Set(
      current.registry.registrations.values.lazy.filter { !$0.isInvalidated }
        .map { $0.address.description })
    let accessories = RegisteredAccessories(current.registry)
    registeredCache = (current.membership, addresses, accessories)
    _ = step(
      .paired(Set(current.registry.accessories.keys.lazy.map(\.description))))
    return (addresses, accessories)
  }

  /// Takes in a state of the server: routing learns from it in the step,
  /// and the loop carries out what it noticed.
  ///
  /// - Parameters:
  ///   - mirror: The state.
  ///   - fresh: Whether it is the first state of a new connection.
  ///   - announce: Tells of it, once the state is published for the
  ///     queries and before routing learns from it.
  func observe(
    _ mirror: ServerMirror, fresh: Bool, announce: () -> Void = {}
  ) {
    self.mirror = mirror
    announce()
    let view = ServerView(
      mirror: mirror, registered: registeredAddresses,
      headphonesByBlueZ: headphoneClasses.addresses)
    carryOut(step(.serverState(fresh: fresh), EngineView(server: view)))
  }

  /// Steps the rules with one event, keeps their memory and returns the
  /// effects, in order.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - view: The world at the event.
  ///   - policy: The policy in force; the store's when nil.
  ///   - now: The time of the event; the clock's when nil.
  func step(
    _ event: EngineEvent, _ view: EngineView = EngineView(),
    policy: Policy? = nil, now: Double? = nil
  ) -> [EngineEffect] {
    EngineRules.step(
      &rules, view, event, policy ?? policies.policy,
      now: now ?? clock.now().timeIntervalSince1970)
  }

  /// Carries out what routing noticed; other effects are carried out
  /// where their events are taken.
  func carryOut(_ effects: [EngineEffect]) {
    for case .routing(let notice) in effects {
      switch notice {
      case .goneOutputKept(let gone):
        logger.debug(
          "The server keeps a gone output as its configured default",
          metadata: [
            "route.gone": gone.name,
            "accessory.address": gone.accessory ?? "none",
          ])
      case .outputChosen(let choice):
        if let mirror { publishManualChoice(choice, on: mirror) }
      case .inputChosen(let choice):
        logger.info(
          "The person chose the default input",
          metadata: ["route.input": choice.output])
      case .defaultsToCheck(let streams):
        // Streams that left a default PipeWire shows unchanged are the
        // person's only once a new client saw the same default.
        streamsAwaitingDefaultCheck.formUnion(streams)
      case .streamsMovedByThePerson(let streams):
        announceMovedByThePerson(streams)
      case .choicesForgotten(let devices):
        guard !devices.isEmpty else { continue }
        logger.info(
          "The person's choices were forgotten",
          metadata: ["route.devices": devices.joined(separator: ",")])
      case .bluetoothChanged(let change):
        for address in change.joined {
          logger.notice(
            "BlueZ says the device is connected",
            metadata: ["accessory.address": address])
        }
        for address in change.dropped {
          logger.notice(
            "BlueZ says the device disconnected",
            metadata: ["accessory.address": address])
          _ = inbox.post(
            .media(.input(.bluetoothDisconnected(accessory: address))))
        }
      case .defaultsNotShown, .routeNotCarriedOut, .routeGivenUp,
        .pauseBeforeStaging,
        .deviceChosen, .choiceRefused:
        // Carried out where they were asked for (confirmSentChanges,
        // take(_:), choose(_:)).
        continue
      }
    }
  }

  /// Tells the media rules of the streams the person moved.
  func announceMovedByThePerson(_ streams: [UInt32]) {
    if followsMedia { media.personMoves.append(contentsOf: streams) }
  }
}
