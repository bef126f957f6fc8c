// The router: on every registry change and every sound-server change it
// builds a snapshot, asks the decision core, applies only the difference in
// one pipelined batch, keeps the decision for explain, and publishes an
// event. No polling, and a timer only while a grace time runs.

import AccessoryControl
import AudioAccessoryKit
import Dispatch
import FoundationEssentials
import Logging
import PulseAudio
import RoutingCore
import Synchronization

/// What the router last decided, for `route.get`.
public struct RouteReport: Sendable {
  /// The output that should be the default, if any.
  public var output: String?
  /// The output's description.
  public var description: String?
  /// Whether the decision is waiting for the sound server.
  public var pending: Bool
  /// Whether the sound server is connected.
  public var soundServerConnected: Bool
  /// The one-line summary.
  public var summary: String
  /// The full explanation, when asked for.
  public var explanation: Explanation?
  /// When the explained decision was made, if there is one.
  public var decidedAt: Date?
  /// What made the router decide then, such as `an accessory was updated`.
  public var trigger: String?
}

/// A decision that changed the route, as `route.history` lists it.
public struct RouteChange: Sendable {
  /// When it was made.
  public var decidedAt: Date
  /// What made the router decide, such as `a grace time ended`.
  public var trigger: String
  /// The output it chose, if any.
  public var output: String?
  /// The one-line summary of why.
  public var summary: String
  /// Whether it changed the default output.
  public var defaultChanged: Bool
  /// How many streams it moved.
  public var moves: Int
}

/// Applies routing decisions to the sound server.
public actor RouteController: Service {
  /// The service's name.
  public nonisolated let name = "router"

  private let engine: InProcessAccessoryEngine
  private let link: SoundServerLink
  private let policies: PolicyStore
  /// This host's Bluetooth addresses: the configured ones, else those of
  /// its adapters.
  private var hostAddresses: [String]
  /// Whether the addresses were configured, so adapters do not replace
  /// them.
  private let hostAddressesConfigured: Bool
  private let events: EventHub
  private let logger: Logger
  private let clock: @Sendable () -> Date

  private var tracking = RouteTracking()
  private var mirror: ServerMirror?
  private var lastSnapshot: Snapshot?
  private var lastDecision: Decision?
  private var lastPolicy: Policy?
  /// The decision `route --explain` shows: the last one that changed
  /// something, chose another output, or answered a request, a timer or a
  /// policy reload, never a mere echo of the router's own changes.
  private var explainedDecision: DecisionRecord?
  /// The last decisions that changed something, oldest first.
  private var changes: [DecisionRecord] = []
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

    var changedSomething: Bool { sentDefault || sentMoves > 0 || sentProfiles }
  }

  /// The triggers that follow the sound server, whose decisions mostly
  /// re-decide what the router has just done (a fresh connection included:
  /// the router asks for one when PipeWire does not report its change).
  private static let echoTriggers: Set<String> = [
    "the sound server changed", "the sound server connected",
    "sent moves did not show up",
  ]
  private var pending = false
  private let timer: ReconsiderTimer
  /// Checks that the changes this router sent show up; PipeWire now and
  /// then stops telling existing connections about default changes.
  private let confirmation: ReconsiderTimer
  /// How long sent changes may take to show up.
  static let confirmationDelay = 1.5
  /// The default this router sent and had not seen when it asked the link
  /// for a fresh mirror: if the fresh mirror shows it, it is this router's
  /// change, not the person's choice.
  private var defaultAwaitingFreshMirror: String?
  /// Reconciliations that sent a batch and have not finished.
  private var reconcilesInFlight = 0
  /// Reconciliations waiting for the next mirror, by id.
  private var mirrorWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextMirrorWaiterID = 0
  /// How long a route waits for the server to show which streams followed
  /// its default change before it moves them all.
  static let followingDefaultLimit = Duration.milliseconds(250)

  /// Creates the router.
  public init(
    engine: InProcessAccessoryEngine, link: SoundServerLink,
    policies: PolicyStore, hostAddresses: [String], events: EventHub,
    logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }
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
    self.timer = ReconsiderTimer()
    self.confirmation = ReconsiderTimer()
  }

  /// Follows the sound server and the grace-time timer until cancelled.
  public func run() async throws {
    let updates = await link.updates()
    let wakeups = timer.wakeups
    let confirmations = confirmation.wakeups
    await withDiscardingTaskGroup { group in
      group.addTask {
        for await update in updates { await self.handle(update) }
      }
      group.addTask {
        for await _ in wakeups {
          _ = await self.reconcile(because: "a grace time ended")
        }
      }
      group.addTask {
        for await _ in confirmations { await self.confirmSentChanges() }
      }
    }
    timer.cancel()
    confirmation.cancel()
  }

  private func handle(_ update: LinkUpdate) async {
    switch update {
    case .connected(let mirror):
      logger.notice(
        "Sound server connected",
        metadata: ["pulse.server": mirror.serverInfo.serverName])
      events.publish(.object(["kind": "soundServer", "state": "connected"]))
      recognizeSentDefault(in: mirror)
      // The fresh mirror answers the question either way.
      defaultAwaitingFreshMirror = nil
      observe(mirror)
      resumeMirrorWaiters()
      _ = await reconcile(because: "the sound server connected")
    case .changed(let mirror):
      recognizeSentDefault(in: mirror)
      observe(mirror)
      resumeMirrorWaiters()
      _ = await reconcile(because: "the sound server changed")
    case .disconnected(let error):
      if self.mirror != nil {
        logger.warning(
          "Sound server disconnected",
          metadata: ["pulse.error": error.description])
        events.publish(
          .object(["kind": "soundServer", "state": "disconnected"]))
      }
      mirror = nil
      tracking.forgetConnection()
      defaultAwaitingFreshMirror = nil
      pending = lastDecision?.hasActions ?? false
      resumeMirrorWaiters()
    }
  }

  /// After asking for a fresh mirror: a mirror that shows the default this
  /// router sent shows its own change, not the person's choice.
  private func recognizeSentDefault(in mirror: ServerMirror) {
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

  /// Waits until the link publishes another mirror (or goes away), or
  /// `limit` has passed.
  private func nextMirror(within limit: Duration) async {
    let id = nextMirrorWaiterID
    nextMirrorWaiterID += 1
    await withCheckedContinuation { continuation in
      mirrorWaiters[id] = continuation
      Task {
        try? await Task.sleep(for: limit)
        self.resumeMirrorWaiter(id)
      }
    }
  }

  private func resumeMirrorWaiter(_ id: Int) {
    mirrorWaiters.removeValue(forKey: id)?.resume()
  }

  private func resumeMirrorWaiters() {
    let waiters = mirrorWaiters
    mirrorWaiters = [:]
    for waiter in waiters.values { waiter.resume() }
  }

  private func observe(_ mirror: ServerMirror) {
    self.mirror = mirror
    let registered = Set(
      engine.registry.registrations.values.filter { !$0.isInvalidated }
        .map { $0.address.description })
    tracking.observe(
      server: mirror.serverInfo, sinks: mirror.sinks,
      sinkInputs: mirror.sinkInputs, accessories: registered,
      reappearGrace: policies.policy.reappearGraceSeconds,
      now: clock().timeIntervalSince1970)
  }

  /// Decides and applies the result; returns after the server acknowledged
  /// it, or at once with `pending` when the server is away.
  ///
  /// - Parameters:
  ///   - reason: Why, for the log.
  ///   - leavingFollowersToTheDefault: On PulseAudio, whether to leave the
  ///     streams that follow the default to the default change and move
  ///     only those that stayed behind once the link's next mirror shows
  ///     them. Only a caller outside the link's update loop may ask for it
  ///     (a control request): that loop delivers the mirror waited for.
  /// - Returns: Whether the route is pending.
  @discardableResult
  public func reconcile(
    because reason: String, leavingFollowersToTheDefault: Bool = false
  ) async -> Bool {
    let policy = policies.policy
    guard let mirror else {
      pending = true
      return true
    }
    let now = clock().timeIntervalSince1970
    let snapshot = SnapshotBuilder.snapshot(
      registry: engine.registry, server: mirror.serverInfo,
      sinks: mirror.sinks, sinkInputs: mirror.sinkInputs,
      cards: mirror.cards, tracking: tracking,
      hostAddresses: hostAddresses, now: now)
    let decision = decide(snapshot, policy, explaining: false)
    lastSnapshot = snapshot
    lastDecision = decision
    lastPolicy = policy
    timer.schedule(
      at: decision.reconsiderAt.map { $0 - now },
      now: DispatchTime.now())
    // Changes already sent and not yet seen are not sent again: a server
    // event during a batch would otherwise repeat it.
    let defaultChange =
      decision.defaultChange == tracking.expectedDefault
      ? nil : decision.defaultChange
    let moves = decision.moves.filter {
      tracking.expectedMoves[$0.stream] != $0.to
    }
    keep(
      DecisionRecord(
        decidedAt: clock(), trigger: reason, snapshot: snapshot,
        policy: policy, decision: decision,
        sentDefault: defaultChange != nil, sentMoves: moves.count,
        sentProfiles: !decision.profileRequests.isEmpty))
    guard
      defaultChange != nil || !moves.isEmpty
        || !decision.profileRequests.isEmpty
    else {
      pending = false
      return false
    }
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
      moves: sentMoves.map { .init(sinkInput: $0.stream, sink: $0.to) })
    if let defaultChange { tracking.expectedDefault = defaultChange }
    for move in moves { tracking.expectedMoves[move.stream] = move.to }
    // Only what this call set is forgotten again: while it waits, another
    // reconciliation may set newer expectations.
    func forgetOwn(_ moves: [StreamMove]) {
      for move in moves where tracking.expectedMoves[move.stream] == move.to {
        tracking.expectedMoves[move.stream] = nil
      }
    }
    reconcilesInFlight += 1
    defer { reconcilesInFlight -= 1 }
    do {
      var result = try await link.apply(batch)
      if !carried.isEmpty {
        let left = moves.filter { carried.contains($0.stream) }
        if case .success = result.defaultSink {
          await nextMirror(within: Self.followingDefaultLimit)
        }
        // A move that a later decision replaced is not sent.
        let stayed = left.filter {
          tracking.expectedMoves[$0.stream] == $0.to
            && !isPlaying($0.stream, on: $0.to)
        }
        if !stayed.isEmpty {
          let second = try await link.apply(
            PulseBatch(
              moves: stayed.map { .init(sinkInput: $0.stream, sink: $0.to) }))
          sentMoves += stayed
          result.moves += second.moves
        }
      }
      // Whatever failed is not expected any more; whatever was sent is
      // checked for once the server has had time to show it.
      if case .failure = result.defaultSink,
        tracking.expectedDefault == defaultChange
      {
        tracking.expectedDefault = nil
      }
      forgetOwn(
        zip(sentMoves, result.moves).compactMap { move, outcome in
          if case .failure = outcome { move } else { nil }
        })
      confirmation.schedule(at: Self.confirmationDelay, now: DispatchTime.now())
      for error in result.errors {
        logger.warning(
          "A routing operation failed",
          metadata: ["pulse.error": error.description, "route.reason": reason])
      }
      pending = false
    } catch {
      if tracking.expectedDefault == defaultChange {
        tracking.expectedDefault = nil
      }
      forgetOwn(moves)
      pending = true
      logger.warning(
        "Cannot apply the route now; it is pending",
        metadata: ["pulse.error": error.description])
    }
    logger.info(
      "Route applied",
      metadata: [
        "route.reason": reason,
        "route.output": decision.target ?? "none",
        "route.moves": "\(decision.moves.count)",
      ])
    // The summary takes a second decision with its explanation: only for
    // someone who listens.
    if events.subscriberCount > 0 {
      events.publish(
        .object([
          "kind": "route",
          "output": decision.target.map(JSONValue.string) ?? .null,
          "summary": .string(
            decide(snapshot, policy).explanation.summary),
          "moves": .number(Double(decision.moves.count)),
          "defaultChanged": .bool(decision.defaultChange != nil),
          "pending": .bool(pending),
        ]))
    }
    return pending
  }

  /// Checks, once the server has had time, that what this router sent
  /// showed up: a default change PipeWire did not report makes the link
  /// load a fresh mirror; moves never seen are forgotten and decided again.
  private func confirmSentChanges() async {
    guard mirror != nil else { return }
    // A reconciliation still under way has not had its time yet.
    guard reconcilesInFlight == 0 else {
      confirmation.schedule(at: Self.confirmationDelay, now: DispatchTime.now())
      return
    }
    if let expected = tracking.expectedDefault,
      mirror?.defaultSinkName != expected
    {
      logger.warning(
        "The sound server did not report the new default; refreshing",
        metadata: ["route.output": expected])
      tracking.expectedDefault = nil
      defaultAwaitingFreshMirror = expected
      await link.reconnect()
    }
    if !tracking.expectedMoves.isEmpty {
      tracking.expectedMoves = [:]
      await reconcile(because: "sent moves did not show up")
    }
  }

  /// Keeps a decision for `route --explain` and, if it changed something,
  /// for `route.history`.
  private func keep(_ record: DecisionRecord) {
    let choseAnother =
      record.decision.target != explainedDecision?.decision.target
    if record.changedSomething || choseAnother
      || !Self.echoTriggers.contains(record.trigger)
    {
      explainedDecision = record
    }
    guard record.changedSomething else { return }
    changes.append(record)
    if changes.count > Self.historyLimit {
      changes.removeFirst(changes.count - Self.historyLimit)
    }
  }

  /// Returns the last decisions that changed the route, newest first.
  ///
  /// - Parameter limit: How many at most.
  public func history(limit: Int) -> [RouteChange] {
    changes.suffix(max(0, limit)).reversed().map { record in
      RouteChange(
        decidedAt: record.decidedAt, trigger: record.trigger,
        output: record.decision.target,
        summary: decide(record.snapshot, record.policy).explanation.summary,
        defaultChanged: record.sentDefault, moves: record.sentMoves)
    }
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
        soundServerConnected: connected,
        summary: connected
          ? "No decision yet" : "No decision yet: the sound server is away",
        explanation: nil)
    }
    let output = lastDecision?.target ?? latest.defaultOutput
    let record = explainedDecision
    let explained = record.map {
      decide($0.snapshot, $0.policy, explaining: true)
    }
    return RouteReport(
      output: output,
      description: output.flatMap { name in
        latest.outputs.first { $0.name == name }?.description
      },
      pending: pending, soundServerConnected: connected,
      summary: explained?.explanation.summary ?? "No decision yet",
      explanation: explaining ? explained?.explanation : nil,
      decidedAt: record?.decidedAt, trigger: record?.trigger)
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
    _ = await reconcile(because: "the host's Bluetooth adapters changed")
  }

  /// The host's Bluetooth addresses in use.
  public var currentHostAddresses: [String] { hostAddresses }

  /// Returns the name of the output that carries an accessory's address.
  public func outputName(for address: BluetoothAddress) -> String? {
    mirror?.sinks.first { bluetoothAddress(of: $0) == address.description }?
      .name
  }

  /// The connected sound server's identity, or nil.
  public var serverInfo: ServerInfo? { mirror?.serverInfo }
}

/// A one-shot timer for the end of a grace time, delivered as an async
/// sequence of wake-ups.
final class ReconsiderTimer: Sendable {
  let wakeups: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  private let source = Mutex<(any DispatchSourceTimer)?>(nil)

  init() {
    (wakeups, continuation) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Arms the timer `seconds` from now, replacing any armed one; nil
  /// disarms it.
  func schedule(at seconds: Double?, now: DispatchTime) {
    source.withLock { source in
      source?.cancel()
      source = nil
      guard let seconds else { return }
      let timer = DispatchSource.makeTimerSource(
        queue: DispatchQueue.global())
      let delay = max(0, seconds) + 0.001
      timer.schedule(deadline: now + delay, leeway: .milliseconds(5))
      let continuation = self.continuation
      timer.setEventHandler { continuation.yield() }
      timer.resume()
      source = timer
    }
  }

  func cancel() {
    schedule(at: nil, now: .now())
    continuation.finish()
  }
}
