// One reconcile of the router: a snapshot, one decision, one pipelined
// batch to the sound server, and what the router keeps of it (the
// decision --explain shows, the history of changes).

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import RoutingCore
import SoundServerModel

extension EngineLoop {
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
  func reconcileOnce(
    because reason: RouteReason, leavingFollowersToTheDefault: Bool
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
    let classes = headphoneClasses.addresses
    let server = ServerView(
      mirror: mirror, registered: registered.addresses,
      headphonesByBlueZ: classes)
    _ = step(.presence, EngineView(server: server), policy: policy, now: now)
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
    let built = SnapshotBuilder.snapshot(
      registry: current.registry, registered: registered.accessories,
      accessories: accessories, mirror: mirror,
      tracking: tracking, headphonesByBlueZ: classes,
      hostAddresses: hostAddresses, now: now)
    let callInputBefore = rules.calls.input
    let effects = step(
      .decide(
        leavingFollowersToTheDefault: leavingFollowersToTheDefault,
        echo: reason.isEcho, resending: reason == .sentMovesNotShown),
      EngineView(snapshot: built, server: server), policy: policy, now: now)
    guard
      case .route(let decision, let snapshot, let send, let explained)? =
        effects.first
    else { return pending }
    if decisionCount > decisionsAtPassStart { decisionsBeyondOneAPass += 1 }
    decisionCount += 1
    lastSnapshot = snapshot
    lastDecision = decision
    lastPolicy = policy
    reconsiderAt = decision.reconsiderAt.map {
      Date(timeIntervalSince1970: $0 + 0.001)
    }
    // The step chose to send only what was not sent already and not yet
    // seen; the loop sends it.
    let record = DecisionRecord(
      decidedAt: decidedAt, trigger: reason, snapshot: snapshot,
      policy: policy, decision: decision,
      sentDefault: send.defaultChange != nil, sentMoves: send.moves.count)
    if explained { explainedDecision = record }
    if let reassertion = send.reassert {
      await reassert(reassertion)
    }
    guard send.sendsSomething else {
      pending = false
      return false
    }
    changeInFlight = record
    publishHistory()
    // On PulseAudio a new default carries every stream that follows the
    // default before the server acknowledges it. The moves of the streams
    // on the old default to the new one wait until the server has shown
    // which of them stayed behind, pinned: sending them at once would only
    // busy the server while every client that follows it asks what
    // changed.
    let sending = RouteSending(
      record: record, reason: reason, mirror: mirror, send: send,
      callInputBefore: callInputBefore,
      sentMoves: send.moves.filter { !send.carried.contains($0.stream) })
    let batch = ServerBatch(
      cardProfiles: send.profiles.map {
        .init(cardName: $0.card, profileName: $0.profile)
      },
      defaultSink: send.defaultChange,
      defaultSource: send.inputChange,
      moves: sending.sentMoves.map {
        .init(sinkInput: $0.stream, sink: $0.to)
      })
    logger.debug(
      "Sending a batch",
      metadata: [
        "route.reason": "\(reason)",
        "route.operations": "\(batch.operationCount)",
      ])
    let result: ServerBatchResult
    do {
      result = try await link.apply(batch)
    } catch {
      conclude(sending, .failure(error))
      return pending
    }
    guard !send.carried.isEmpty else {
      conclude(sending, .success(result))
      return pending
    }
    if case .success = result.defaultSink,
      let defaultChange = send.defaultChange
    {
      // The loop goes on once the server shows the new default.
      awaiting = LoopPhase(
        until: clock.now().addingTimeInterval(Self.followingDefaultLimit),
        awaited: .defaultOutput(defaultChange),
        then: .moveWhatStayed(sending, first: result))
    } else {
      await moveWhatStayed(sending, first: result)
    }
    return pending
  }

  /// Moves the streams a default change did not carry, once the server has
  /// shown which it carried, and concludes the route.
  func moveWhatStayed(
    _ sending: RouteSending, first: ServerBatchResult
  ) async {
    var sending = sending
    var result = first
    // A stream that is gone, or already there, is not moved.
    let stayed = sending.carried.filter { move in
      tracking.expectedMoves[move.stream] == move.to
        && !isPlaying(move.stream, on: move.to)
        && exists(move.stream)
    }
    // A router that stops sends nothing more.
    if !stayed.isEmpty, !Task.isCancelled {
      do {
        let second = try await link.apply(
          ServerBatch(
            moves: stayed.map { .init(sinkInput: $0.stream, sink: $0.to) }))
        sending.sentMoves += stayed
        result.moves += second.moves
      } catch {
        conclude(sending, .failure(error))
        return
      }
    }
    conclude(sending, .success(result))
  }

  /// Takes in what the server answered to a route, and tells.
  func conclude(
    _ sending: RouteSending,
    _ outcome: Result<ServerBatchResult, SoundServerError>
  ) {
    let decision = sending.record.decision
    let reason = sending.reason
    let send = sending.send
    switch outcome {
    case .success(let result):
      // Whatever failed is not expected any more; whatever was sent is
      // checked for once the server has had time to show it.
      let refusedMoves = zip(sending.sentMoves, result.moves).compactMap {
        move, outcome in
        if case .failure = outcome { move } else { nil }
      }
      var defaultRefused = false
      if case .failure = result.defaultSink { defaultRefused = true }
      var inputRefused = false
      if case .failure = result.defaultSource { inputRefused = true }
      takeAnswer(
        sending,
        profilesSwitched: result.cardProfiles.map {
          if case .success = $0 { true } else { false }
        },
        callInputRefused: inputRefused && send.inputChange != nil
          && send.inputChange == decision.callInput,
        routing: RouteConclusion(
          send: send, defaultRefused: defaultRefused,
          inputRefused: inputRefused, refusedMoves: refusedMoves))
      confirmAt = clock.now().addingTimeInterval(Self.confirmationDelay)
      for error in result.errors {
        logger.warning(
          "A routing operation failed",
          metadata: [
            "pulse.error": error.description, "route.reason": "\(reason)",
          ])
      }
      pending = false
    case .failure(let error):
      takeAnswer(
        sending, profilesSwitched: [],
        callInputRefused: send.inputChange != nil
          && send.inputChange == decision.callInput,
        routing: RouteConclusion(send: send, failedWhole: true))
      pending = true
      logger.warning(
        "Cannot apply the route now; it is pending",
        metadata: ["pulse.error": error.description])
    }
    let refused: Int =
      switch outcome {
      case .success(let result): result.errors.count
      case .failure: 0
      }
    tell(sending, summary: keepInHistory(sending.record), refused: refused)
  }

  /// Logs a route that went out, and publishes it.
  ///
  /// - Parameters:
  ///   - summary: The decision's summary.
  ///   - refused: How many of its operations the server refused.
  func tell(_ sending: RouteSending, summary: String, refused: Int = 0) {
    let decision = sending.record.decision
    let reason = sending.reason
    let mirror = sending.mirror
    var metadata: Logger.Metadata = [
      "route.reason": "\(reason)",
      "route.output": decision.target ?? "none",
      "route.moves": "\(decision.moves.count)",
    ]
    if refused > 0 { metadata["route.refused"] = "\(refused)" }
    // A switch of the default is one line at the default level; moves
    // alone are details.
    logger.log(
      level: sending.defaultChange == nil ? .info : .notice,
      sending.defaultChange == nil ? "Route applied" : "Output switched",
      metadata: metadata)
    if let inputChange = sending.inputChange {
      logger.notice(
        "Input switched",
        metadata: [
          "route.reason": "\(reason)", "route.input": inputChange,
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
    if !sending.sentMoves.isEmpty {
      logger.debug(
        "Streams moved",
        metadata: [
          "route.streams": sending.sentMoves.map { move in
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
            chosenBy: .accessoryd, inputChanged: sending.inputChange,
            profiles: decision.profileRequests.map(
              RouteEvent.ProfileSwitch.init))
        ))
    }
  }

  /// Gives the rules what the server answered to a route: its card
  /// profiles and call input for the call's memory, its defaults and moves
  /// for routing's.
  func takeAnswer(
    _ sending: RouteSending, profilesSwitched: [Bool], callInputRefused: Bool,
    routing: RouteConclusion
  ) {
    let answer = RouteAnswer(
      profiles: sending.record.decision.profileRequests,
      profilesSwitched: profilesSwitched,
      refusedCallInput: callInputRefused
        ? .init(before: sending.callInputBefore) : nil,
      routing: routing)
    _ = step(.routeAnswered(answer), policy: sending.record.policy)
  }

  /// Checks, once the server has had time, that what this router sent
  /// showed up: a default change PipeWire did not report makes the link
  /// load a fresh mirror; moves never seen, or a route the server refused,
  /// are decided again, up to ``resendLimit`` times in a row.
  ///
  /// - Returns: Whether moves never seen were forgotten, or a route was
  ///   refused, to be decided again.
  func confirmSentChanges() async -> Bool {
    guard let mirror else { return false }
    let effects = step(
      .confirmDue,
      EngineView(server: ServerView(mirror: mirror)))
    for case .routing(let notice) in effects {
      switch notice {
      case .defaultsNotShown(let output, let input):
        logger.warning(
          "The sound server did not report the new default; refreshing",
          metadata: [
            "route.output": output ?? "reported",
            "route.input": input ?? "reported",
          ])
        // The fresh state routes again; the stale one is not decided on.
        await link.reconnect()
        awaiting = LoopPhase(
          until: clock.now().addingTimeInterval(Self.freshMirrorLimit),
          awaited: .anyState, then: .decideOnTheFreshState)
        return false
      case .routeNotCarriedOut:
        return true
      case .routeGivenUp(let timesSent, let output):
        logger.warning(
          "The sound server did not carry out the route \(timesSent) "
            + "times; it is pending until something changes",
          metadata: ["route.output": output ?? "none"])
        return false
      default:
        continue
      }
    }
    return false
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
  func checkForUnreportedDefault() async {
    let streams = streamsAwaitingDefaultCheck
    streamsAwaitingDefaultCheck = []
    let check = await link.checkDefaults()
    guard let check else {
      confirmPersonsMoves(streams, seen: nil)
      return
    }
    guard check.reloading else {
      confirmPersonsMoves(streams, seen: check)
      return
    }
    // The loop goes on once the fresh state is in.
    awaiting = LoopPhase(
      until: clock.now().addingTimeInterval(Self.freshMirrorLimit),
      awaited: .freshConnection, then: .confirmPersonsMoves(streams, check))
  }

  /// Takes streams that left the default as the person's moves, if the
  /// defaults a new client saw (when one could look) are those the
  /// router's state shows.
  func confirmPersonsMoves(_ streams: Set<UInt32>, seen check: DefaultsCheck?) {
    guard let mirror,
      check.map({
        $0.sinkName == mirror.defaultSinkName
          && $0.sourceName == mirror.defaultSourceName
      }) ?? true
    else { return }
    carryOut(
      step(
        .personsMovesConfirmed(streams),
        EngineView(server: ServerView(mirror: mirror))))
  }

  /// Keeps a decision that changed something for `route.history` once its
  /// changes went out, with its summary, written then: off the path from
  /// the decision to the server.
  ///
  /// - Returns: The summary.
  func keepInHistory(_ record: DecisionRecord) -> String {
    let change = Self.historyChange(of: record)
    // A re-send of what the server did not show is the decision before it
    // once more: counted there, so that it never pushes the person's own
    // changes out of the history.
    if record.trigger == .sentMovesNotShown, var last = changes.last,
      last.output == change.output
    {
      last.resends += 1
      changes[changes.count - 1] = last
      changeInFlight = nil
      publishHistory()
      return change.summary
    }
    changes.append(change)
    if changes.count > Self.historyLimit {
      changes.removeFirst(changes.count - Self.historyLimit)
    }
    changeInFlight = nil
    publishHistory()
    return change.summary
  }

  /// Publishes the history and the change going out for the queries,
  /// together: a query never lists one decision twice.
  func publishHistory() {
    let (changes, inFlight) = (self.changes, changeInFlight)
    board.note {
      $0.changes = changes
      $0.changeInFlight = inFlight
    }
  }

  /// A decision as `route.history` lists it, with the summary its
  /// explanation gives.
  static func historyChange(
    of record: DecisionRecord
  ) -> RouteHistory.Change {
    RouteHistory.Change(
      decidedAt: record.decidedAt, trigger: record.trigger.description,
      output: record.decision.target,
      summary: decide(record.snapshot, record.policy).explanation.summary,
      defaultChanged: record.sentDefault, moves: record.sentMoves)
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
  ///
  /// The control methods read ``board`` instead, without entering the
  /// loop; this publishes first, for a caller inside the engine.
  public func report(explaining: Bool) -> RouteReport {
    publishRoute()
    return board.report(explaining: explaining)
  }

  /// Publishes the route on ``board``.
  ///
  /// It is what the control methods answer until the next pass; nothing
  /// is decided here.
  func publishRoute() {
    let connected = mirror != nil
    guard let latest = lastSnapshot, lastPolicy != nil else {
      board.publish(
        RouteBoard.Published(
          report: RouteReport(
            output: mirror?.defaultSinkName, description: nil,
            pending: pending || rules.routing.resendingGaveUp,
            soundServer: connected ? .connected : .disconnected,
            summary: connected
              ? "No decision yet" : "No decision yet: the sound server is away"),
          explained: nil))
      return
    }
    let output = reportedOutput
    let input = lastDecision?.inputTarget ?? latest.defaultInput
    var report = RouteReport(
      output: output,
      description: output.flatMap { name in
        latest.outputs.first { $0.name == name }?.description
      },
      pending: pending || rules.routing.resendingGaveUp,
      soundServer: connected ? .connected : .disconnected,
      summary: "No decision yet")
    report.input = input
    report.inputDescription = input.flatMap { name in
      latest.inputs.first { $0.name == name }?.description
    }
    report.call = lastDecision.map { RouteReport.CallPhase($0.callPhase) }
    report.callProfiles = rules.calls.profiles.map(
      RouteReport.CallProfile.init)
    board.publish(
      RouteBoard.Published(
        report: report,
        explained: explainedDecision.map {
          RouteBoard.Explained(
            number: explainedNumber, snapshot: $0.snapshot, policy: $0.policy,
            decidedAt: $0.decidedAt, trigger: $0.trigger.description)
        }))
  }

  /// Takes the host's Bluetooth adapters' addresses as its identities for
  /// multipoint decisions, unless addresses were configured: in the loop,
  /// in order, routing again if they changed.
  public nonisolated func useAdapterAddresses(
    _ addresses: [BluetoothAddress]
  ) async {
    await makeInTheLoop(because: .adaptersChanged) { router in
      router.takeAdapterAddresses(addresses)
    }
  }

  /// Takes in what BlueZ reports of its devices, in the loop, in order:
  /// whether each is connected, for the media rules (a device that
  /// disconnected is told to them at once), and the Bluetooth devices
  /// whose class calls them headphones (``headphoneClasses``), routing
  /// again when those change.
  ///
  /// - Parameter devices: The devices BlueZ reports.
  public nonisolated func useBlueZDevices(
    _ devices: [DiscoveredDevice]
  ) async {
    await makeInTheLoop(because: .headphoneClassesChanged) { router in
      router.takeBlueZDevices(devices)
    }
  }

  /// Makes a change to what routing reads in the loop, in the order
  /// events came, and routes it if it changed something.
  ///
  /// Returns once it has routed. Once the engine has stopped, nothing is
  /// made.
  ///
  /// - Parameters:
  ///   - reason: Why it routes.
  ///   - make: Makes the change; whether it changed what routing reads.
  nonisolated func makeInTheLoop(
    because reason: RouteReason,
    _ make: @escaping @Sendable (isolated EngineLoop) -> Bool
  ) async {
    _ = await withCheckedContinuation { continuation in
      let change = RequestedChange(
        reason: reason, leavingFollowersToTheDefault: false,
        forgetsMediaOf: nil, make: make, reply: continuation)
      if !inbox.post(.change(change)) { continuation.resume(returning: true) }
    }
  }

  /// The adapters' addresses as the host's, unless addresses were
  /// configured.
  ///
  /// - Returns: Whether they changed.
  func takeAdapterAddresses(_ addresses: [BluetoothAddress]) -> Bool {
    guard !hostAddressesConfigured else { return false }
    let texts = addresses.map(\.description)
    guard texts != hostAddresses else { return false }
    hostAddresses = texts
    logger.info(
      "Host addresses from the Bluetooth adapters",
      metadata: ["host.addresses": texts.joined(separator: ",")])
    return true
  }

  /// What BlueZ reports of its devices.
  ///
  /// - Returns: Whether the devices BlueZ's class calls headphones
  ///   changed: the route is decided again.
  func takeBlueZDevices(_ devices: [DiscoveredDevice]) -> Bool {
    let connected = Dictionary(
      devices.map { ($0.address.description, $0.isConnected) },
      uniquingKeysWith: { $0 || $1 })
    carryOut(step(.bluetoothDevices(connected)))
    guard headphoneClasses.replace(from: devices) else { return false }
    // The media rules' view of the outputs depends on them.
    media.converted = (-1, nil)
    logger.info(
      "Headphones by BlueZ's device class",
      metadata: [
        "headphones.addresses": headphoneClasses.addresses.sorted().joined(
          separator: ",")
      ])
    return true
  }

  /// Tells event subscribers that the person chose a default output with
  /// another program.
  func publishManualChoice(
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
}
