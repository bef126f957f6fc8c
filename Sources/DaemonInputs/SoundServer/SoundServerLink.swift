// The service's one link to the sound server: it keeps a ServerMirror up to
// date from the server's events, publishes every new mirror, sends command
// batches, and reconnects by itself when the server goes away.

import AccessoryControl
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import Logging
import PulseAudio
import SoundServerModel

/// A long-running link to the sound server that mirrors its sinks, streams,
/// cards and defaults, and sends commands to it.
///
/// Run the link as a service: ``run()`` connects, loads a ``ServerMirror``,
/// then follows the server's events and publishes a new mirror for each
/// burst of changes. When the server goes away it publishes
/// ``LinkUpdate/disconnected(_:)`` and reconnects with exponential backoff.
/// While connected it neither polls nor runs timers.
///
/// ```swift
/// let link = SoundServerLink(logger: logger)
/// try await withThrowingTaskGroup(of: Void.self) { group in
///   group.addTask { try await link.run() }
///   for await update in await link.updates() {
///     print(update.mirror?.defaultSinkName ?? "disconnected")
///   }
/// }
/// ```
///
/// The link uses two connections: one to observe and one to send batches.
/// PipeWire may show the connection that moves a stream the stream on its
/// target before the move happens, so the mirror comes from the connection
/// that sends nothing, which sees only what the server did.
public actor SoundServerLink {
  /// How long the link waits between attempts to reach the server.
  public struct Backoff: Sendable, Hashable {
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// The longest wait; each failure doubles the wait up to this.
    public var maximumDelay: Duration

    /// Creates a backoff.
    ///
    /// - Parameters:
    ///   - initialDelay: The wait after the first failure.
    ///   - maximumDelay: The longest wait.
    public init(initialDelay: Duration, maximumDelay: Duration) {
      precondition(
        initialDelay > .zero && maximumDelay >= initialDelay,
        "invalid backoff \(initialDelay)...\(maximumDelay)")
      self.initialDelay = initialDelay
      self.maximumDelay = maximumDelay
    }

    /// 50 milliseconds, doubling up to 2 seconds.
    public static let standard = Backoff(
      initialDelay: .milliseconds(50), maximumDelay: .seconds(2))
  }

  /// The server and timeouts of the link's connections.
  public nonisolated let options: PulseConnection.Options
  /// How long the link waits between attempts to reach the server.
  public nonisolated let backoff: Backoff
  /// The time of the backoff and of the settle waits.
  nonisolated let clock: any EngineClock

  private let logger: Logger
  /// The open ``updates()`` streams; only this actor publishes, so the
  /// updates keep their order.
  private let subscribers = Broadcast<LinkUpdate>(
    bufferingPolicy: .bufferingNewest(64))
  private let vanishing = VanishingSinks()
  private var status = Status.idle
  /// The connections of the current session, once its mirror is loaded.
  private var session: Session?
  private var reconnectRequested = false
  private var hasStarted = false

  /// The two connections of a session: one observes, one sends commands.
  private struct Session {
    let observer: PulseConnection
    let commander: PulseConnection

    /// Closes both connections.
    func close() {
      observer.close()
      commander.close()
    }
  }

  /// What the link has: nothing yet, a mirror, or the reason it has none.
  private enum Status {
    case idle
    case connected(ServerMirror)
    case disconnected(SoundServerError)
  }

  /// Creates a link; ``run()`` connects.
  ///
  /// - Parameters:
  ///   - options: The server and the timeouts; the link adds `(commands)`
  ///     to the application name of its command connection.
  ///   - backoff: How long to wait between attempts to reach the server.
  ///   - logger: Where connects and disconnects are logged, with the
  ///     metadata keys `pulse.server` and `pulse.error`.
  ///   - clock: The time of the backoff and of the waits for the server's
  ///     changes to settle: the engine's.
  public init(
    options: PulseConnection.Options = .init(),
    backoff: Backoff = .standard,
    logger: Logger, clock: any EngineClock = SystemEngineClock()
  ) {
    self.options = options
    self.backoff = backoff
    self.clock = clock
    var logger = logger
    logger.metadata["pulse.server"] =
      options.server
      ?? ProcessInfo.processInfo.environment["PULSE_SERVER"].map {
        "\($0) (PULSE_SERVER)"
      } ?? "default"
    self.logger = logger
  }

  // MARK: - State

  /// The server's current state, or `nil` while disconnected; with the
  /// streams the link's reflex muted shown muted even where the server
  /// does not show it yet (see ``LinkUpdate/changed(_:reflexes:)``).
  public var mirror: ServerMirror? {
    if case .connected(let mirror) = status {
      vanishing.shown(mirror)
    } else {
      nil
    }
  }

  /// Whether the link is connected and has loaded the server's state.
  public var isConnected: Bool { mirror != nil }

  /// Returns a stream of the link's changes, starting with its current
  /// state.
  ///
  /// A new stream first yields ``LinkUpdate/connected(_:)`` with the
  /// current mirror if the link is connected, or
  /// ``LinkUpdate/disconnected(_:)`` if it is not (nothing before the first
  /// attempt to connect), then every later update.
  /// Any number of streams can be open. A stream that falls more than 64
  /// updates behind loses the oldest; since each update carries the whole
  /// state, the latest one is always right, but the reflex's news in the
  /// lost ones is lost (``VanishingSinkMute/muted`` is told of each mute on
  /// the link's thread, for a record that must not miss one). Streams end
  /// when ``run()`` ends.
  public func updates() -> AsyncStream<LinkUpdate> {
    let current: LinkUpdate? =
      switch status {
      case .idle: nil
      case .connected(let mirror): .connected(vanishing.shown(mirror))
      case .disconnected(let error): .disconnected(error)
      }
    return subscribers.subscribe(startingWith: current)
  }

  /// Mutes, the moment a sink disappears, the audible streams that played
  /// on it, by the rule given; a later call replaces the rule, and nil
  /// stops muting.
  ///
  /// The streams are the ones the last state showed on the sink, not
  /// corked and not muted. The mute goes out on the command connection as
  /// soon as the sink's removal event arrives. The first update whose
  /// state was fetched after the removal waits for the server's answer
  /// and tells which streams it muted (``LinkReflex/muted(_:of:)``).
  public func muteStreams(whenTheirSinkVanishes rule: VanishingSinkMute?) {
    vanishing.setRule(rule, watching: mirror)
  }

  // MARK: - Commands

  /// Sends a batch of commands as one pipelined round.
  ///
  /// The batch goes out on the link's command connection, see
  /// ``PulseConnection/apply(_:)``. A success is the server's
  /// acknowledgement: wait for the change in ``updates()`` to know that it
  /// is in effect.
  ///
  /// - Parameter batch: The card profiles, default sink and stream moves.
  /// - Returns: One result per operation.
  /// - Throws: ``SoundServerError/connectionTerminated`` if the link is
  ///   not connected.
  public func apply(
    _ batch: ServerBatch
  ) async throws(SoundServerError) -> ServerBatchResult {
    guard let session else { throw .connectionTerminated }
    let result = await session.commander.apply(batch)
    // Unmuted as asked: the reflex's mute of them is no longer shown.
    vanishing.unmuted(
      zip(batch.mutes, result.mutes).lazy.filter { mute, outcome in
        !mute.muted && (try? outcome.get()) != nil
      }.map(\.0.sinkInput))
    return result
  }

  /// Reads the server's defaults through a new, short-lived connection,
  /// and loads a fresh mirror when they are not the mirror's.
  ///
  /// PipeWire (0.3.65, and its sources since) does not pass a change of
  /// its `default` metadata to the clients already bound to it while
  /// another client is binding it: pipewire-pulse then keeps telling its
  /// existing clients the old default, with no event, while a new client
  /// sees the new one. Call this when the mirror hints that the default
  /// moved unseen, such as streams that followed the default moving away
  /// from it together.
  ///
  /// - Returns: The defaults the new client saw, and whether the link
  ///   reloads (the fresh mirror then comes as
  ///   ``LinkUpdate/connected(_:)``); nil when disconnected or when the
  ///   new connection failed.
  public func checkDefaults() async -> DefaultsCheck? {
    guard mirror != nil else { return nil }
    var probeOptions = options
    probeOptions.applicationName += " (check)"
    probeOptions.followsEvents = false
    let info: ServerInfo
    do throws(PulseError) {
      let probe = try await PulseConnection.connect(probeOptions)
      defer { probe.close() }
      info = try await probe.serverInfo()
    } catch {
      logger.debug(
        "could not check the defaults", metadata: ["pulse.error": "\(error)"])
      return nil
    }
    var check = DefaultsCheck(
      sinkName: info.defaultSinkName,
      sourceName: ServerMirror.withoutPlaceholder(
        info.defaultSourceName, "@DEFAULT_SOURCE@"),
      reloading: false)
    // The mirror as it is now: it may have caught up meanwhile.
    guard let mirror, session != nil,
      check.sinkName != mirror.defaultSinkName
        || check.sourceName != mirror.defaultSourceName
    else { return check }
    logger.warning(
      "The sound server did not tell of a new default; reloading",
      metadata: [
        "pulse.default.sink": check.sinkName ?? "none",
        "pulse.default.source": check.sourceName ?? "none",
      ])
    reconnect()
    check.reloading = true
    return check
  }

  /// Drops the connections and connects again at once, loading a fresh
  /// mirror.
  ///
  /// PipeWire's pulse server (seen with pipewire-pulse 0.3.65) sometimes
  /// stops telling the clients it already has about default-sink changes:
  /// they get no event, and its replies to them keep the old default, while
  /// a new client sees the truth. Call this when a change that the server
  /// acknowledged does not show up in ``updates()`` in reasonable time.
  ///
  /// The link publishes ``LinkUpdate/connected(_:)`` with the fresh mirror,
  /// with no ``LinkUpdate/disconnected(_:)`` before it unless the new
  /// attempt fails. Until the new connections are ready, ``apply(_:)``
  /// throws. While disconnected, this does nothing: the link is already
  /// trying to connect.
  public func reconnect() {
    guard let session else { return }
    self.session = nil
    reconnectRequested = true
    session.close()
  }

  // MARK: - Running

  /// Connects and keeps the mirror up to date until the task is cancelled.
  ///
  /// Returns only when cancelled, and never throws: losing the server, or
  /// failing to reach it, leads to new attempts, 50 milliseconds apart at
  /// first and up to 2 seconds apart with the standard ``Backoff``. On
  /// cancellation the link closes its connections at once, publishes
  /// ``LinkUpdate/disconnected(_:)`` with
  /// ``SoundServerModel/SoundServerError/connectionTerminated`` and ends every
  /// ``updates()`` stream. A connection attempt in progress finishes
  /// first; it takes at most the connect timeout of ``options``.
  ///
  /// - Important: Run a link once; a second call traps.
  public func run() async throws {
    precondition(!hasStarted, "SoundServerLink.run() called twice")
    hasStarted = true
    var delay = backoff.initialDelay
    // Whether this outage was logged as a warning; later failed attempts
    // are logged at debug level.
    var outageLogged = false
    while !Task.isCancelled {
      let (error, wasConnected) = await runSession()
      if Task.isCancelled { break }
      if reconnectRequested {
        reconnectRequested = false
        logger.info("reconnecting to the sound server on request")
        delay = backoff.initialDelay
        continue
      }
      if wasConnected {
        delay = backoff.initialDelay
        logger.warning(
          "lost the sound server; reconnecting",
          metadata: ["pulse.error": "\(error)"])
      } else if !outageLogged {
        logger.warning(
          "cannot reach the sound server; retrying",
          metadata: ["pulse.error": "\(error)"])
      } else {
        logger.debug(
          "still cannot reach the sound server",
          metadata: [
            "pulse.error": "\(error)", "pulse.retry.delay": "\(delay)",
          ])
      }
      outageLogged = true
      enterDisconnected(error)
      do {
        try await clock.sleep(for: delay)
      } catch {
        break
      }
      delay = min(delay * 2, backoff.maximumDelay)
    }
    enterDisconnected(.connectionTerminated)
    logger.info("stopped following the sound server")
    subscribers.finish()
  }

  /// Connects, loads the mirror and follows the server until the
  /// connection ends or the task is cancelled.
  ///
  /// - Returns: Why the session ended, and whether it got connected.
  private func runSession() async -> (PulseError, wasConnected: Bool) {
    var commandOptions = options
    commandOptions.applicationName += " (commands)"
    commandOptions.followsEvents = false
    let observer: PulseConnection
    let commander: PulseConnection
    let mirror: ServerMirror
    // Events are only recorded, on the connection's thread, as they come;
    // the first of a burst wakes the follower.
    let changes = PendingChanges()
    let (wakeUps, wakeUp) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    do throws(PulseError) {
      let vanishing = self.vanishing
      observer = try await PulseConnection.connect(options) { event in
        if event.facility == .sink, event.kind == .remove {
          vanishing.removed(event.index)
        } else if event.facility == .sink, event.kind == .change {
          vanishing.changed(event.index)
        }
        if changes.insert(event.facility) { wakeUp.yield() }
      }
      do {
        commander = try await PulseConnection.connect(commandOptions)
      } catch {
        observer.close()
        throw error
      }
      do {
        mirror = try await Self.loadMirror(from: observer)
      } catch {
        observer.close()
        commander.close()
        throw error
      }
    } catch {
      return (error, false)
    }
    session = Session(observer: observer, commander: commander)
    status = .connected(mirror)
    // The reflex's mutes of an earlier session that this state does not
    // show yet are still shown.
    let shown = vanishing.shown(following: mirror)
    vanishing.connect(commander, watching: shown) { wakeUp.yield() }
    // What the reflex did in the last session goes with a state of this
    // one, fetched now.
    if vanishing.hasNews(through: .max) { wakeUp.yield() }
    logger.notice(
      "Sound server connected",
      metadata: [
        "pulse.server.name": mirror.serverInfo.serverName,
        "pulse.server.version": mirror.serverInfo.serverVersion,
      ])
    subscribers.publish(.connected(shown))
    let error = await withTaskCancellationHandler {
      await follow(
        observer, commander, changes: changes, wakeUps: wakeUps,
        wakeUp: wakeUp)
    } onCancel: {
      // Not here: the runtime holds the task's lock while this runs, and
      // closing takes libpulse's, which its thread may hold while it hands
      // this task an event, waiting for the task's lock.
      startThread(named: "pulse.close") {
        observer.close()
        commander.close()
      }
    }
    session = nil
    // What the reflex did and did not tell goes with the next session's
    // first state: the last one may be from before its cause.
    vanishing.disconnect()
    return (error, true)
  }

  /// Publishes ``LinkUpdate/disconnected(_:)`` unless the link already
  /// reported being disconnected.
  private func enterDisconnected(_ cause: PulseError) {
    session = nil
    if case .disconnected = status { return }
    let error = SoundServerError(cause)
    status = .disconnected(error)
    subscribers.publish(.disconnected(error))
  }

  // MARK: - Following events

  /// How long the server must be quiet before the lists that its events
  /// changed are fetched.
  static let eventQuietPeriod = Duration.milliseconds(2)

  /// The longest wait for a quiet moment, from the first event.
  static let eventSettleLimit = Duration.milliseconds(20)

  /// Refetches what the server's events say changed until a connection
  /// ends; closes both connections.
  ///
  /// Events are recorded as they come, on the observing connection's
  /// thread, as the lists to refetch (`changes`); the first one recorded
  /// yields to `wakeUps`. On PulseAudio, a burst of events
  /// (a switch of 50 streams sends more than 100) is let settle first:
  /// the lists are fetched once no event has come for
  /// ``eventQuietPeriod``, or ``eventSettleLimit`` after the first, so the
  /// server is not asked for them while it is still busy with the change.
  /// Each refetch covers every event that arrived before it started.
  ///
  /// - Returns: Why the connection ended.
  private func follow(
    _ observer: PulseConnection, _ commander: PulseConnection,
    changes: PendingChanges, wakeUps: AsyncStream<Void>,
    wakeUp: AsyncStream<Void>.Continuation
  ) async -> PulseError {
    await withTaskGroup(of: Void.self) { group in
      // Neither stream yields events (the observer's go to the handler,
      // the commander has none); each ends with its connection.
      group.addTask {
        for await _ in observer.events {}
        wakeUp.finish()
      }
      group.addTask {
        for await _ in commander.events {}
        wakeUp.finish()
      }
      var failure: PulseError?
      for await _ in wakeUps {
        // PulseAudio sends a switch's events in one burst, right after it
        // has done the work; PipeWire's come one by one as WirePlumber
        // relinks, and waiting for them to stop would only leave the
        // mirror behind.
        if case .connected(let mirror) = status, !mirror.serverInfo.isPipeWire {
          await changes.settle(
            quiet: Self.eventQuietPeriod, limit: Self.eventSettleLimit,
            on: clock)
        }
        let facilities = changes.take()
        guard !facilities.isEmpty || vanishing.hasNews(through: .max) else {
          continue
        }
        do throws(PulseError) {
          try await refresh(facilities, from: observer)
        } catch {
          failure = error
          break
        }
      }
      observer.close()
      commander.close()
      await group.waitForAll()
      let observerFailure = await observer.failure
      let commanderFailure = await commander.failure
      return observerFailure ?? commanderFailure ?? failure
        ?? .connectionTerminated
    }
  }

  /// Refetches the lists that changed and publishes the new mirror if it
  /// differs, or if the link's reflex did something since the last
  /// update: what it did goes out with the state that caused it.
  private func refresh(
    _ facilities: Set<ServerEvent.Facility>, from connection: PulseConnection
  ) async throws(PulseError) {
    var lists = Set(facilities.compactMap(MirrorList.init))
    // The reflexes started so far: their causes are in what is fetched
    // now, sinks and streams whole, and they go out with it.
    let reflexes = vanishing.mark()
    if vanishing.isTelling(through: reflexes) {
      lists.formUnion([.sinks, .sinkInputs])
    }
    // Or the link stopped showing one of its mutes: the state as it is.
    guard !lists.isEmpty || vanishing.hasNews(through: reflexes) else {
      return
    }
    // A new default comes with the sinks and sources it was chosen from:
    // PulseAudio announces the default it falls back to while it unlinks
    // the old default, before the old one's removal, and the two can
    // arrive in bursts of their own on a loaded machine. A mirror with the
    // new default beside the old sinks would show the server's own
    // fallback as the person's choice.
    if lists.contains(.serverInfo) {
      lists.formUnion([.sinks, .sources])
    }
    let parts = try await Self.fetch(lists, from: connection)
    // A sink's removal (or a jack's pull) the link learnt of before the
    // fetch has its streams' mute under way, sent at once: the update
    // waits for its answer. One it learns of during the fetch goes with
    // the next update, whose fetch shows its cause.
    await vanishing.settled(through: reflexes)
    guard case .connected(var mirror) = status else { return }
    let previous = mirror
    for part in parts { part.apply(to: &mirror) }
    guard mirror != previous || vanishing.hasNews(through: reflexes) else {
      return
    }
    status = .connected(mirror)
    let news = vanishing.news(with: mirror, through: reflexes)
    vanishing.watch(news.mirror)
    subscribers.publish(.changed(news.mirror, reflexes: news.reflexes))
  }

  // MARK: - Loading

  /// Loads every list at once.
  private static func loadMirror(
    from connection: PulseConnection
  ) async throws(PulseError) -> ServerMirror {
    let parts = try await fetch(Set(MirrorList.allCases), from: connection)
    guard
      let serverInfo = parts.lazy.compactMap({ part -> ServerInfo? in
        if case .serverInfo(let info) = part { info } else { nil }
      }).first
    else { throw .protocolError }
    var mirror = ServerMirror(
      serverInfo: serverInfo, sinks: [], sinkInputs: [], cards: [])
    for part in parts { part.apply(to: &mirror) }
    return mirror
  }

  /// Fetches lists concurrently; their requests are in flight together.
  private static func fetch(
    _ lists: Set<MirrorList>, from connection: PulseConnection
  ) async throws(PulseError) -> [MirrorPart] {
    let results = await withTaskGroup(
      of: Result<MirrorPart, PulseError>.self
    ) { group in
      for list in lists {
        group.addTask { await list.fetch(from: connection) }
      }
      var results: [Result<MirrorPart, PulseError>] = []
      for await result in group { results.append(result) }
      return results
    }
    return try results.map { result throws(PulseError) in try result.get() }
  }
}
