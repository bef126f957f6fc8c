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
import FoundationEssentials
import Logging
import PulseAudio
import RoutingCore

/// Applies routing decisions to the sound server.
///
/// The router runs one reconcile at a time, in ``run()``'s loop. Callers
/// that changed something call
/// ``reconcile(because:leavingFollowersToTheDefault:)``, which waits for a
/// reconcile that started after the call; sound-server states from the
/// ``RoutingLink`` and the ends of grace times, read from the
/// ``RouterClock``, come into the same loop. Whatever arrives while a
/// reconcile runs is merged into the next one.
public actor RouteController: Service {
  /// The service's name.
  public nonisolated let name = "router"

  private let engine: InProcessAccessoryEngine
  /// The registered accessories of one membership of the registry (see
  /// ``InProcessAccessoryEngine/VersionedRegistry/membership``): the
  /// addresses of the registrations not invalidated, as the decision core
  /// writes them, and those that take part in a snapshot.
  private var registeredCache:
    (
      membership: UInt64, addresses: Set<String>,
      accessories: RegisteredAccessories
    )?
  /// The decision core's accessories of one registry generation and
  /// presence: the decisions the sound server's changes call for, while
  /// the registry stays, reuse them.
  private var accessoriesCache:
    (
      generation: UInt64, presence: [String: RouteTracking.Presence],
      accessories: [Accessory]
    )?
  private let link: any RoutingLink
  private let policies: PolicyStore
  /// This host's Bluetooth addresses: the configured ones, else those of
  /// its adapters.
  private var hostAddresses: [String]
  /// Whether the addresses were configured, so adapters do not replace
  /// them.
  private let hostAddressesConfigured: Bool
  private let events: EventHub
  private let logger: Logger
  private let clock: any RouterClock
  private let inbox = RouterInbox()

  private var tracking = RouteTracking()
  /// Who hears of the streams the person moves.
  private let personMoves = Broadcast<UInt32>()
  private var mirror: ServerMirror?
  /// The cards this router switched to a headset profile for a call, with
  /// the profile each gets back after it.
  private var callProfiles: [CallProfile] = []
  /// When the last call's streams ended, kept until a call runs again.
  private var callEndedAt: Instant?
  /// Whether a call ran at the last decision: its streams' end starts the
  /// end delay.
  private var callRunning = false
  /// Whether streams that would make a call recorded at the last
  /// decision: the end delay runs from the last one's end.
  private var callStreamsRecorded = false
  /// The input this router made the default for a call, to give back;
  /// forgotten again when the server refused to set it, so that the next
  /// decision sets it again.
  private var callInput: String?
  /// The default input this router sent and had not seen when it asked
  /// the link for a fresh mirror.
  private var inputAwaitingFreshMirror: String?
  private var lastSnapshot: Snapshot?
  private var lastDecision: Decision?
  private var lastPolicy: Policy?
  /// The decision `route --explain` shows: the last one that changed
  /// something, chose another output, or answered a request, a timer or a
  /// policy reload, never a mere echo of the router's own changes.
  private var explainedDecision: DecisionRecord?
  /// The last decisions that changed something, oldest first, each with
  /// its one-line summary: not the snapshot it was made from, which holds
  /// every output and stream and would make the history grow with the
  /// square of the accessories.
  private var changes: [RouteHistory.Change] = []
  /// The decision whose changes are going out, kept whole until they went
  /// out and it joins `changes`; `route.history` lists it first meanwhile.
  private var changeInFlight: DecisionRecord?
  /// How many decisions that changed something are kept for `route.history`.
  public static let historyLimit = 100

  /// One decision with what it was made from.
  private struct DecisionRecord {
    let decidedAt: Date
    let trigger: String
    let snapshot: Snapshot
    let policy: Policy
    let decision: Decision
    /// What it sent: changes already sent and not yet seen are not sent,
    /// nor counted, again.
    let sentDefault: Bool
    let sentMoves: Int
    let sentProfiles: Bool
    let sentInput: Bool

    var changedSomething: Bool {
      sentDefault || sentMoves > 0 || sentProfiles || sentInput
    }
  }

  /// The triggers that follow the sound server, whose decisions mostly
  /// re-decide what the router has just done (a fresh connection included:
  /// the router asks for one when PipeWire does not report its change).
  static let echoTriggers: Set<String> = [
    "the sound server changed", "the sound server connected",
    "sent moves did not show up",
  ]
  private var pending = false
  /// When the decision asked to be made again: the end of a grace time.
  private var reconsiderAt: Date?
  /// When to check that the changes sent showed up.
  private var confirmAt: Date?
  /// Callers of ``awaitMovesShown(within:)``, by their number.
  private var movesShownWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextMovesShownWaiter = 0
  /// Streams that left a default PipeWire showed unchanged: the defaults
  /// are checked before the next decision.
  private var streamsAwaitingDefaultCheck: Set<UInt32> = []
  /// Triggers taken from the inbox during a reconcile, for the next one.
  private var deferred: [RouterTrigger] = []
  /// Why the next reconcile runs, for sound-server states taken during a
  /// reconcile.
  private var followUpReasons: [String] = []
  /// How long sent changes may take to show up.
  package static let confirmationDelay = 1.5
  /// The default this router sent and had not seen when it asked the link
  /// for a fresh mirror: if the fresh mirror shows it, it is this router's
  /// change, not the person's choice.
  private var defaultAwaitingFreshMirror: String?
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
  public init(
    engine: InProcessAccessoryEngine, link: any RoutingLink,
    policies: PolicyStore, hostAddresses: [String], events: EventHub,
    logger: Logger, clock: any RouterClock = SystemRouterClock()
  ) {
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
  }

  // MARK: - The loop

  /// Follows the sound server, the requests and the grace times until
  /// cancelled; then answers every waiting request as pending.
  public func run() async throws {
    let updates = await link.updates()
    let inbox = self.inbox
    await withDiscardingTaskGroup { group in
      group.addTask {
        for await update in updates { _ = inbox.post(.link(update)) }
      }
      await loop()
      group.cancelAll()
    }
    personMoves.finish()
    for trigger in deferred + inbox.close() {
      if case .request(let request) = trigger {
        request.reply.resume(returning: true)
      }
    }
    deferred = []
  }

  /// Routes again and waits for the result.
  ///
  /// The call waits for a reconcile that started after it, so that the
  /// route covers whatever the caller changed before; calls that arrive
  /// together share one. Once the router has stopped, it answers at once
  /// that the route is pending.
  ///
  /// - Parameters:
  ///   - reason: Why, for the log and `route --explain`.
  ///   - leavingFollowersToTheDefault: On PulseAudio, whether to leave the
  ///     streams that follow the default to the default change and move
  ///     only those that stayed behind once the server shows them.
  /// - Returns: Whether the route is pending: the server is away, or did
  ///   not take it.
  @discardableResult
  public nonisolated func reconcile(
    because reason: String, leavingFollowersToTheDefault: Bool = false
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

  private func loop() async {
    while !Task.isCancelled {
      let triggers = deferred + inbox.take()
      deferred = []
      let now = clock.now()
      let graceEnded = reconsiderAt.map { now >= $0 } ?? false
      let confirming = confirmAt.map { now >= $0 } ?? false
      guard
        !triggers.isEmpty || graceEnded || confirming
          || !followUpReasons.isEmpty || !streamsAwaitingDefaultCheck.isEmpty
      else {
        await waitForTriggers(
          until: [reconsiderAt, confirmAt].compactMap { $0 }.min())
        continue
      }
      var reasons = followUpReasons
      followUpReasons = []
      var replies: [CheckedContinuation<Bool, Never>] = []
      var leavingFollowers = false
      for trigger in triggers {
        switch trigger {
        case .link(let update):
          if let reason = handle(update) { reasons.append(reason) }
        case .request(let request):
          reasons.append(request.reason)
          replies.append(request.reply)
          leavingFollowers =
            leavingFollowers || request.leavingFollowersToTheDefault
        }
      }
      if graceEnded {
        reconsiderAt = nil
        reasons.append("a grace time ended")
      }
      if confirming {
        confirmAt = nil
        if await confirmSentChanges() {
          reasons.append("sent moves did not show up")
        }
      }
      // States taken in while checking may call for another check; each
      // comes from a new state, so this ends.
      while !streamsAwaitingDefaultCheck.isEmpty, !Task.isCancelled {
        await checkForUnreportedDefault()
      }
      if let reason = Self.mergedReason(reasons) {
        await reconcileOnce(
          because: reason, leavingFollowersToTheDefault: leavingFollowers)
      }
      for reply in replies { reply.resume(returning: pending) }
    }
  }

  /// The reason a merged reconcile gives: the first that is not an echo
  /// of the sound server, else the first.
  static func mergedReason(_ reasons: [String]) -> String? {
    reasons.first { !echoTriggers.contains($0) } ?? reasons.first
  }

  /// Returns once a trigger is queued, `deadline` has passed, or the task
  /// is cancelled.
  private func waitForTriggers(until deadline: Date?) async {
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

  /// During a reconcile: waits for the link's next mirror.
  ///
  /// Returns when the link publishes a mirror that shows what is awaited,
  /// or loses the server, or `limit` seconds have passed. Requests that
  /// arrive meanwhile wait for the next reconcile.
  ///
  /// - Parameters:
  ///   - limit: How long to wait at most.
  ///   - isAwaited: Whether an update is the one waited for; another (one
  ///     the link published before) is taken in, and the wait goes on.
  private func awaitNextMirror(
    within limit: Double,
    until isAwaited: (LinkUpdate) -> Bool = { _ in true }
  ) async {
    let deadline = clock.now().addingTimeInterval(limit)
    while !Task.isCancelled {
      var sawUpdate = false
      for trigger in inbox.take() {
        guard case .link(let update) = trigger else {
          deferred.append(trigger)
          continue
        }
        if let reason = handle(update) { followUpReasons.append(reason) }
        sawUpdate = sawUpdate || isAwaited(update)
      }
      if sawUpdate || clock.now() >= deadline { return }
      await waitForTriggers(until: deadline)
    }
  }

  /// Takes in a sound-server state.
  ///
  /// - Returns: Why to route again, or nil when there is nothing to route
  ///   on.
  private func handle(_ update: LinkUpdate) -> String? {
    switch update {
    case .connected(let mirror):
      // SoundServerLink logs the connection once, with the version.
      events.publish(.soundServer(.init(state: .connected)))
      recognizeSentDefault(in: mirror)
      // The fresh mirror answers the question either way.
      defaultAwaitingFreshMirror = nil
      inputAwaitingFreshMirror = nil
      observe(mirror)
      return "the sound server connected"
    case .changed(let mirror):
      recognizeSentDefault(in: mirror)
      observe(mirror)
      return "the sound server changed"
    case .disconnected(let error):
      if self.mirror != nil {
        logger.warning(
          "Sound server disconnected",
          metadata: ["pulse.error": error.description])
        events.publish(.soundServer(.init(state: .disconnected)))
      }
      mirror = nil
      tracking.forgetConnection()
      resumeMovesShownWaiters()
      defaultAwaitingFreshMirror = nil
      inputAwaitingFreshMirror = nil
      pending = lastDecision?.hasActions ?? false
      return nil
    }
  }

  /// Sets the default the server shows again, so that the server forgets
  /// a registered accessory's output that went, which it still keeps as
  /// its configured default: setting a default replaces the configured
  /// one, and changes nothing that plays.
  ///
  /// - Parameter output: The default the server shows, which stays.
  private func makeTheServerForgetTheGoneOutput(
    keeping output: String
  ) async {
    let gone = tracking.goneConfiguredOutput?.name ?? "?"
    tracking.forgetGoneConfiguredOutput()
    let result = try? await link.apply(PulseBatch(defaultSink: output))
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

  /// After asking for a fresh mirror: a mirror that shows the default this
  /// router sent shows its own change, not the person's choice.
  private func recognizeSentDefault(in mirror: ServerMirror) {
    if let sent = inputAwaitingFreshMirror, mirror.defaultSourceName == sent {
      inputAwaitingFreshMirror = nil
      tracking.expectedDefaultInput = sent
    }
    guard let sent = defaultAwaitingFreshMirror,
      mirror.defaultSinkName == sent
    else { return }
    defaultAwaitingFreshMirror = nil
    tracking.expectedDefault = sent
  }

  /// The streams of `moves` that a default change to `newDefault` carries
  /// by itself: on PulseAudio, those on the current default that move to
  /// the new one (unless pinned, which only the server knows).
  private static func movesCarriedByDefault(
    _ moves: [StreamMove], to newDefault: String?, on mirror: ServerMirror
  ) -> Set<UInt32> {
    guard let newDefault, !mirror.serverInfo.isPipeWire,
      let oldDefault = mirror.defaultSink
    else { return [] }
    let onOldDefault = Set(
      mirror.sinkInputs(onSinkNamed: oldDefault.name).map(\.index))
    return Set(
      moves.filter { $0.to == newDefault && onOldDefault.contains($0.stream) }
        .map(\.stream))
  }

  /// Whether the mirror shows a stream on a sink; a stream that is gone
  /// counts as not.
  private func isPlaying(_ stream: UInt32, on sinkName: String) -> Bool {
    mirror?.sinkInputs(onSinkNamed: sinkName).contains { $0.index == stream }
      ?? false
  }

  /// Whether the mirror shows a stream at all.
  private func exists(_ stream: UInt32) -> Bool {
    mirror?.sinkInputs.contains { $0.index == stream } ?? false
  }

  /// The registered accessories' normalized addresses.
  private var registeredAddresses: Set<String> {
    registered(in: engine.versionedRegistry).addresses
  }

  /// The registered accessories of a registry, from ``registeredCache``
  /// while the same addresses are registered.
  private func registered(
    in current: InProcessAccessoryEngine.VersionedRegistry
  ) -> (addresses: Set<String>, accessories: RegisteredAccessories) {
    if let cached = registeredCache, cached.membership == current.membership {
      return (cached.addresses, cached.accessories)
    }
    let addresses = Set(
      current.registry.registrations.values.lazy.filter { !$0.isInvalidated }
        .map { $0.address.description })
    let accessories = RegisteredAccessories(current.registry)
    registeredCache = (current.membership, addresses, accessories)
    tracking.notePaired(
      Set(current.registry.accessories.keys.lazy.map(\.description)))
    return (addresses, accessories)
  }

  private func observe(_ mirror: ServerMirror) {
    self.mirror = mirror
    let registered = registeredAddresses
    let choiceBefore = tracking.manualChoice
    let inputChoiceBefore = tracking.inputs.manualChoice
    let goneBefore = tracking.goneConfiguredOutput
    tracking.observe(
      server: mirror.serverInfo, sinks: mirror.sinks,
      sinkInputs: mirror.sinkInputs, sources: mirror.sources,
      sourceOutputs: mirror.sourceOutputs, accessories: registered,
      reappearGrace: policies.policy.reappearGraceSeconds,
      now: clock.now().timeIntervalSince1970)
    if let gone = tracking.goneConfiguredOutput, gone != goneBefore {
      logger.debug(
        "The server keeps a gone output as its configured default",
        metadata: [
          "route.gone": gone.name,
          "accessory.address": gone.accessory ?? "none",
        ])
    }
    if let choice = tracking.manualChoice, choice != choiceBefore {
      publishManualChoice(choice, on: mirror)
    }
    if let choice = tracking.inputs.manualChoice, choice != inputChoiceBefore {
      logger.info(
        "The person chose the default input",
        metadata: ["route.input": choice.output])
    }
    if tracking.expectedMoves.isEmpty { resumeMovesShownWaiters() }
    // Streams that left a default PipeWire shows unchanged are the
    // person's only once a new client saw the same default.
    streamsAwaitingDefaultCheck.formUnion(tracking.leftTheDefault)
    announceMovedByThePerson(
      tracking.movedByThePerson.filter {
        !tracking.leftTheDefault.contains($0)
      })
  }

  /// Tells the subscribers of ``streamsMovedByThePerson()`` of moves.
  private func announceMovedByThePerson(_ streams: [UInt32]) {
    for stream in streams { personMoves.publish(stream) }
  }

  /// Returns once the server shows the streams this router moved where it
  /// moved them, the server is away, or `limit` has passed.
  ///
  /// PipeWire acknowledges a move before WirePlumber relinks the stream:
  /// a stream to be unmuted, or a player to be resumed, on the output it
  /// was moved to waits for this, or it would be heard where it was.
  public func awaitMovesShown(within limit: Duration) async {
    guard mirror != nil, !tracking.expectedMoves.isEmpty else { return }
    let id = nextMovesShownWaiter
    nextMovesShownWaiter += 1
    let timeout = Task { [weak self] in
      try? await Task.sleep(for: limit)
      await self?.resumeMovesShownWaiter(id)
    }
    await withCheckedContinuation { movesShownWaiters[id] = $0 }
    timeout.cancel()
  }

  /// How many callers wait in ``awaitMovesShown(within:)``, for tests.
  package var movesShownWaiterCount: Int { movesShownWaiters.count }

  private func resumeMovesShownWaiter(_ id: Int) {
    movesShownWaiters.removeValue(forKey: id)?.resume()
  }

  private func resumeMovesShownWaiters() {
    let waiters = movesShownWaiters.values
    movesShownWaiters = [:]
    for waiter in waiters { waiter.resume() }
  }

  /// Returns the streams the person moves to another output, as the
  /// router sees each move, from now on.
  public func streamsMovedByThePerson() -> AsyncStream<UInt32> {
    personMoves.subscribe()
  }

  /// Tells event subscribers that the person chose a default output with
  /// another program.
  private func publishManualChoice(
    _ choice: ManualChoice, on mirror: ServerMirror
  ) {
    let description = mirror.sink(named: choice.output)?.description
    logger.info(
      "The person chose the default output",
      metadata: ["route.output": choice.output])
    guard events.subscriberCount > 0 else { return }
    events.publish(
      .route(
        RouteEvent(
          output: choice.output,
          summary:
            "You chose \(description ?? choice.output) as the default output",
          moves: 0, defaultChanged: true, pending: false, chosenBy: .person)))
  }

  // MARK: - One reconcile

  /// Decides and applies the result.
  ///
  /// Returns after the server acknowledged it, or at once with `pending`
  /// when the server is away. Only the loop calls it, so reconciles never
  /// overlap.
  ///
  /// - Parameters:
  ///   - reason: Why, for the log.
  ///   - leavingFollowersToTheDefault: On PulseAudio, whether to leave the
  ///     streams that follow the default to the default change and move
  ///     only those that stayed behind once the link's next mirror shows
  ///     them.
  /// - Returns: Whether the route is pending.
  @discardableResult
  private func reconcileOnce(
    because reason: String, leavingFollowersToTheDefault: Bool
  ) async -> Bool {
    let policy = policies.policy
    guard let mirror else {
      pending = true
      return true
    }
    let decidedAt = clock.now()
    let now = decidedAt.timeIntervalSince1970
    let current = engine.versionedRegistry
    let registered = registered(in: current)
    tracking.notePresence(
      of: registered.addresses, sinks: mirror.sinks,
      reappearGrace: policy.reappearGraceSeconds, now: now)
    let accessories: [Accessory]
    if let cached = accessoriesCache, cached.generation == current.generation,
      cached.presence == tracking.presence
    {
      accessories = cached.accessories
    } else {
      accessories = SnapshotBuilder.accessories(
        registry: current.registry, registered: registered.accessories,
        presence: tracking.presence)
      accessoriesCache = (current.generation, tracking.presence, accessories)
    }
    var snapshot = SnapshotBuilder.snapshot(
      registry: current.registry, registered: registered.accessories,
      accessories: accessories, mirror: mirror,
      tracking: tracking, callProfiles: callProfiles,
      hostAddresses: hostAddresses, now: now)
    noteCall(in: snapshot, policy: policy)
    snapshot.callEndedAt = callEndedAt
    snapshot.callInput = callInput
    let decision = decide(snapshot, policy, explaining: false)
    // The records of cards gone, or moved off their call profile by
    // someone else, end with the decision; those given back end once the
    // server took the profile (see recordCallProfiles).
    let givenBack = Set(
      decision.profileRequests.filter { $0.purpose == .afterCall }.map(\.card))
    let ended = Set(decision.endedCallProfiles).subtracting(givenBack)
    callProfiles.removeAll { ended.contains($0.card) }
    let callInputBefore = callInput
    callInput = decision.callInput(
      after: callInput, defaultInput: snapshot.defaultInput)
    lastSnapshot = snapshot
    lastDecision = decision
    lastPolicy = policy
    reconsiderAt = decision.reconsiderAt.map {
      Date(timeIntervalSince1970: $0 + 0.001)
    }
    // Changes already sent and not yet seen are not sent again: a server
    // event that shows an earlier state would otherwise repeat them.
    let defaultChange =
      decision.defaultChange == tracking.expectedDefault
      ? nil : decision.defaultChange
    let moves = decision.moves.filter {
      tracking.expectedMoves[$0.stream] != $0.to
    }
    let inputChange =
      decision.defaultInputChange == tracking.expectedDefaultInput
      ? nil : decision.defaultInputChange
    let record = DecisionRecord(
      decidedAt: decidedAt, trigger: reason, snapshot: snapshot,
      policy: policy, decision: decision,
      sentDefault: defaultChange != nil, sentMoves: moves.count,
      sentProfiles: !decision.profileRequests.isEmpty,
      sentInput: inputChange != nil)
    keep(record)
    if decision.reassertsDefault, let target = decision.target {
      await makeTheServerForgetTheGoneOutput(keeping: target)
    }
    guard
      defaultChange != nil || !moves.isEmpty
        || !decision.profileRequests.isEmpty || inputChange != nil
    else {
      pending = false
      return false
    }
    changeInFlight = record
    // On PulseAudio a new default carries every stream that follows the
    // default before the server acknowledges it. The moves of the streams
    // on the old default to the new one wait until the server has shown
    // which of them stayed behind, pinned: sending them at once would only
    // busy the server while every client that follows it asks what
    // changed.
    let carried =
      leavingFollowersToTheDefault
      ? Self.movesCarriedByDefault(moves, to: defaultChange, on: mirror) : []
    var sentMoves = moves.filter { !carried.contains($0.stream) }
    let batch = PulseBatch(
      cardProfiles: decision.profileRequests.map {
        .init(cardName: $0.card, profileName: $0.profile)
      },
      defaultSink: defaultChange,
      defaultSource: inputChange,
      moves: sentMoves.map { .init(sinkInput: $0.stream, sink: $0.to) })
    if let defaultChange { tracking.expectedDefault = defaultChange }
    if let inputChange { tracking.expectedDefaultInput = inputChange }
    for move in moves { tracking.expectedMoves[move.stream] = move.to }
    // Only what this reconcile set is forgotten again: the states taken in
    // while it waits may already have settled some.
    func forgetOwn(_ moves: [StreamMove]) {
      for move in moves where tracking.expectedMoves[move.stream] == move.to {
        tracking.expectedMoves[move.stream] = nil
      }
    }
    logger.debug(
      "Sending a batch",
      metadata: [
        "route.reason": reason, "route.operations": "\(batch.operationCount)",
      ])
    do {
      var result = try await link.apply(batch)
      if !carried.isEmpty {
        let left = moves.filter { carried.contains($0.stream) }
        if case .success = result.defaultSink {
          await awaitNextMirror(within: Self.followingDefaultLimit) {
            $0.mirror.map { $0.defaultSinkName == defaultChange } ?? true
          }
        }
        // A stream that is gone, or already there, is not moved.
        let stayed = left.filter { move in
          tracking.expectedMoves[move.stream] == move.to
            && !isPlaying(move.stream, on: move.to)
            && exists(move.stream)
        }
        // A router that stops sends nothing more.
        if !stayed.isEmpty, !Task.isCancelled {
          let second = try await link.apply(
            PulseBatch(
              moves: stayed.map { .init(sinkInput: $0.stream, sink: $0.to) }))
          sentMoves += stayed
          result.moves += second.moves
        }
      }
      // Whatever failed is not expected any more; whatever was sent is
      // checked for once the server has had time to show it.
      if case .failure = result.defaultSink, let defaultChange {
        tracking.forgetExpectedDefault(defaultChange)
      }
      if case .failure = result.defaultSource, let inputChange {
        tracking.forgetExpectedDefaultInput(inputChange)
        if inputChange == decision.callInput { callInput = callInputBefore }
      }
      recordCallProfiles(decision.profileRequests, result.cardProfiles)
      forgetOwn(
        zip(sentMoves, result.moves).compactMap { move, outcome in
          if case .failure = outcome { move } else { nil }
        })
      confirmAt = clock.now().addingTimeInterval(Self.confirmationDelay)
      for error in result.errors {
        logger.warning(
          "A routing operation failed",
          metadata: ["pulse.error": error.description, "route.reason": reason])
      }
      pending = false
    } catch {
      if let defaultChange { tracking.forgetExpectedDefault(defaultChange) }
      if let inputChange {
        tracking.forgetExpectedDefaultInput(inputChange)
        if inputChange == decision.callInput { callInput = callInputBefore }
      }
      forgetOwn(moves)
      pending = true
      logger.warning(
        "Cannot apply the route now; it is pending",
        metadata: ["pulse.error": error.description])
    }
    let summary = keepInHistory(record)
    // A switch of the default is one line at the default level; moves
    // alone are details.
    logger.log(
      level: defaultChange == nil ? .info : .notice,
      defaultChange == nil ? "Route applied" : "Output switched",
      metadata: [
        "route.reason": reason,
        "route.output": decision.target ?? "none",
        "route.moves": "\(decision.moves.count)",
      ])
    if let inputChange {
      logger.notice(
        "Input switched",
        metadata: [
          "route.reason": reason, "route.input": inputChange,
          "route.call": decision.callPhase.rawValue,
        ])
    }
    for request in decision.profileRequests {
      logger.notice(
        "Card profile switched",
        metadata: [
          "route.card": request.card, "route.profile": request.profile,
          "route.purpose": request.purpose.rawValue,
        ])
    }
    if !sentMoves.isEmpty {
      logger.debug(
        "Streams moved",
        metadata: [
          "route.streams": sentMoves.map { move in
            let from =
              mirror.sinkInputs.first { $0.index == move.stream }
              .flatMap { mirror.sink(index: $0.sinkIndex)?.name } ?? "no sink"
            return "#\(move.stream) \(from)→\(move.to)"
          }.joined(separator: ", ")
        ])
    }
    if events.subscriberCount > 0 {
      events.publish(
        .route(
          RouteEvent(
            output: decision.target, summary: summary,
            moves: decision.moves.count,
            defaultChanged: decision.defaultChange != nil, pending: pending,
            chosenBy: .accessoryd, inputChanged: inputChange,
            profiles: decision.profileRequests.map(
              RouteEvent.ProfileSwitch.init))
        ))
    }
    return pending
  }

  /// Follows the call: once its streams are all gone, the end delay runs
  /// from now, also when streams that would have made a call came and went
  /// during it; a call that runs again ends it.
  private func noteCall(in snapshot: Snapshot, policy: Policy) {
    let streams = callStreams(in: snapshot, policy: policy)
    let delay = policy.callStartDelaySeconds
    if streams.contains(where: { snapshot.now >= $0.recordingSince + delay }) {
      callRunning = true
      callEndedAt = nil
    } else if streams.isEmpty,
      callRunning || (callEndedAt != nil && callStreamsRecorded)
    {
      callRunning = false
      callEndedAt = snapshot.now
    }
    callStreamsRecorded = !streams.isEmpty
  }

  /// Keeps the records of the cards switched for a call as the server
  /// answered.
  ///
  /// A card it switched for a call is remembered with the profile it had;
  /// a card it gave back is forgotten. A give-back the server refused
  /// keeps its record, to be tried again.
  private func recordCallProfiles(
    _ requests: [ProfileRequest], _ results: [Result<Void, PulseError>]
  ) {
    for (request, result) in zip(requests, results) {
      guard case .success = result else { continue }
      if request.purpose == .afterCall {
        callProfiles.removeAll { $0.card == request.card }
      }
      guard request.purpose == .call, let previous = request.previousProfile
      else { continue }
      callProfiles.removeAll { $0.card == request.card }
      callProfiles.append(
        CallProfile(
          card: request.card, previousProfile: previous,
          callProfile: request.profile))
    }
  }

  /// Checks, once the server has had time, that what this router sent
  /// showed up: a default change PipeWire did not report makes the link
  /// load a fresh mirror.
  ///
  /// - Returns: Whether moves never seen were forgotten, to be decided
  ///   again.
  private func confirmSentChanges() async -> Bool {
    guard let mirror else { return false }
    let output = tracking.expectedDefault.flatMap {
      mirror.defaultSinkName == $0 ? nil : $0
    }
    let input = tracking.expectedDefaultInput.flatMap {
      mirror.defaultSourceName == $0 ? nil : $0
    }
    if output != nil || input != nil {
      logger.warning(
        "The sound server did not report the new default; refreshing",
        metadata: [
          "route.output": output ?? "reported",
          "route.input": input ?? "reported",
        ])
      if let output {
        tracking.expectedDefault = nil
        defaultAwaitingFreshMirror = output
      }
      if let input {
        tracking.expectedDefaultInput = nil
        inputAwaitingFreshMirror = input
      }
      tracking.expectedMoves = [:]
      // The fresh state routes again; the stale one is not decided on.
      await link.reconnect()
      await awaitNextMirror(within: Self.freshMirrorLimit)
      return false
    }
    guard !tracking.expectedMoves.isEmpty else { return false }
    tracking.expectedMoves = [:]
    return true
  }

  /// Checks the defaults as a new client sees them, after streams left a
  /// default PipeWire shows unchanged.
  ///
  /// PipeWire does not tell its existing clients of a default that changes
  /// while another client is binding its metadata. When the link's state
  /// shows other defaults, it reloads, and the fresh state shows the
  /// change: the person's choice, if it was, and the streams that moved
  /// to the new default followed it (``RouteTracking`` unpins them). When
  /// the router's state shows what the new client saw, the streams were
  /// moved by the person.
  private func checkForUnreportedDefault() async {
    let streams = streamsAwaitingDefaultCheck
    streamsAwaitingDefaultCheck = []
    let check = await link.checkDefaults()
    if check?.reloading == true {
      await awaitNextMirror(within: Self.freshMirrorLimit) {
        if case .changed = $0 { false } else { true }
      }
    }
    guard let mirror,
      check.map({
        $0.sinkName == mirror.defaultSinkName
          && $0.sourceName == mirror.defaultSourceName
      }) ?? true
    else { return }
    let moved = tracking.confirmMoves(streams)
    announceMovedByThePerson(moved.sorted().filter { exists($0) })
  }

  /// Keeps a decision for `route --explain`.
  private func keep(_ record: DecisionRecord) {
    let choseAnother =
      record.decision.target != explainedDecision?.decision.target
    if record.changedSomething || choseAnother
      || !Self.echoTriggers.contains(record.trigger)
    {
      explainedDecision = record
    }
  }

  /// Keeps a decision that changed something for `route.history` once its
  /// changes went out, with its summary, written then: off the path from
  /// the decision to the server.
  ///
  /// - Returns: The summary.
  private func keepInHistory(_ record: DecisionRecord) -> String {
    let change = Self.historyChange(of: record)
    changes.append(change)
    if changes.count > Self.historyLimit {
      changes.removeFirst(changes.count - Self.historyLimit)
    }
    changeInFlight = nil
    return change.summary
  }

  /// A decision as `route.history` lists it, with the summary its
  /// explanation gives.
  private static func historyChange(
    of record: DecisionRecord
  ) -> RouteHistory.Change {
    RouteHistory.Change(
      decidedAt: record.decidedAt, trigger: record.trigger,
      output: record.decision.target,
      summary: decide(record.snapshot, record.policy).explanation.summary,
      defaultChanged: record.sentDefault, moves: record.sentMoves)
  }

  /// Returns the last decisions that changed the route, newest first: the
  /// one whose changes are going out, if any, then those that went out.
  ///
  /// - Parameter limit: How many at most.
  public func history(limit: Int) -> [RouteHistory.Change] {
    let inFlight = changeInFlight.map { [Self.historyChange(of: $0)] } ?? []
    return Array(
      (inFlight + changes.suffix(max(0, limit)).reversed()).prefix(
        max(0, limit)))
  }

  /// The output ``report(explaining:)`` names, without deciding again
  /// for its summary: the last decision's target, else the server's
  /// default.
  public var reportedOutput: String? {
    guard let latest = lastSnapshot, lastPolicy != nil else {
      return mirror?.defaultSinkName
    }
    return lastDecision?.target ?? latest.defaultOutput
  }

  /// Returns the current output and, explained on request, the decision
  /// that last moved it, kept it on request, or chose it: what a person
  /// asking "why did my audio move?" wants, not the re-decision that
  /// followed the router's own change.
  public func report(explaining: Bool) -> RouteReport {
    let connected = mirror != nil
    guard let latest = lastSnapshot, lastPolicy != nil else {
      return RouteReport(
        output: mirror?.defaultSinkName, description: nil, pending: pending,
        soundServer: connected ? .connected : .disconnected,
        summary: connected
          ? "No decision yet" : "No decision yet: the sound server is away")
    }
    let output = reportedOutput
    let input = lastDecision?.inputTarget ?? latest.defaultInput
    let record = explainedDecision
    let explained = record.map {
      decide($0.snapshot, $0.policy, explaining: true)
    }
    var report = RouteReport(
      output: output,
      description: output.flatMap { name in
        latest.outputs.first { $0.name == name }?.description
      },
      pending: pending, soundServer: connected ? .connected : .disconnected,
      summary: explained?.explanation.summary ?? "No decision yet",
      explanation: explaining
        ? explained.map { RouteReport.Explanation($0.explanation) } : nil,
      text: explaining ? explained?.explanation.text : nil,
      decidedAt: record?.decidedAt, trigger: record?.trigger)
    report.input = input
    report.inputDescription = input.flatMap { name in
      latest.inputs.first { $0.name == name }?.description
    }
    report.call = lastDecision.map { RouteReport.CallPhase($0.callPhase) }
    report.callProfiles = callProfiles.map(RouteReport.CallProfile.init)
    return report
  }

  /// Takes the host's Bluetooth adapters' addresses as its identities for
  /// multipoint decisions, unless addresses were configured; routes again
  /// if they changed.
  public func useAdapterAddresses(_ addresses: [BluetoothAddress]) async {
    guard !hostAddressesConfigured else { return }
    let texts = addresses.map(\.description)
    guard texts != hostAddresses else { return }
    hostAddresses = texts
    logger.info(
      "Host addresses from the Bluetooth adapters",
      metadata: ["host.addresses": texts.joined(separator: ",")])
    await reconcile(because: "the host's Bluetooth adapters changed")
  }

  /// The host's Bluetooth addresses in use.
  public var currentHostAddresses: [String] { hostAddresses }

  /// Returns the name of the output that carries an accessory's address.
  public func outputName(for address: BluetoothAddress) -> String? {
    mirror?.sinks.first { bluetoothAddress(of: $0) == address.description }?
      .name
  }

  /// The state of the sound server the router last took in, for tests
  /// that wait for it to catch up with a scripted server.
  package var currentMirror: ServerMirror? { mirror }

  /// The connected sound server's identity, or nil.
  public var serverInfo: ServerInfo? { mirror?.serverInfo }
}
