import PulseAudio
import SoundServerModel

/// A state of the server that a measurement waits to see from outside.
public struct Goal: Sendable, CustomStringConvertible {
  /// The sink that must be the default, if any.
  public var defaultSink: String?
  /// The sink that all of ``streams`` must play on, if any.
  public var streamsSink: String?
  /// The sink inputs that must play on ``streamsSink``.
  public var streams: [UInt32]
  /// A sink that must not exist, if any.
  public var absentSink: String?
  /// The source that must be the default input, if any.
  public var defaultSource: String?
  /// How the default sink's name must begin, if that matters: PipeWire
  /// names a node made again after a profile switch anew (`….2`).
  public var defaultSinkPrefix: String?
  /// How the default source's name must begin, if that matters.
  public var defaultSourcePrefix: String?
  /// Whether a source whose name begins so must exist, or must not.
  public var source: (prefix: String, exists: Bool)?
  /// A card and the profile it must have, if any.
  public var cardProfile: (card: String, profile: String)?
  /// How many recording streams there must be, if that matters.
  public var recordings: Int?

  /// Creates a goal from the conditions that must all hold.
  public init(
    defaultSink: String? = nil, streamsSink: String? = nil,
    streams: [UInt32] = [], absentSink: String? = nil,
    defaultSource: String? = nil,
    cardProfile: (card: String, profile: String)? = nil,
    recordings: Int? = nil, defaultSinkPrefix: String? = nil,
    defaultSourcePrefix: String? = nil,
    source: (prefix: String, exists: Bool)? = nil
  ) {
    self.defaultSink = defaultSink
    self.streamsSink = streamsSink
    self.streams = streams
    self.absentSink = absentSink
    self.defaultSource = defaultSource
    self.cardProfile = cardProfile
    self.recordings = recordings
    self.defaultSinkPrefix = defaultSinkPrefix
    self.defaultSourcePrefix = defaultSourcePrefix
    self.source = source
  }

  /// What the observer must list to judge the goal.
  public var parts: Set<ObservedPart> {
    var parts: Set<ObservedPart> = []
    if defaultSink != nil || defaultSource != nil || defaultSinkPrefix != nil
      || defaultSourcePrefix != nil
    {
      parts.insert(.server)
    }
    if cardProfile != nil { parts.insert(.cards) }
    if recordings != nil { parts.insert(.recordings) }
    if source != nil { parts.insert(.sources) }
    if streamsSink != nil || absentSink != nil { parts.insert(.sinks) }
    if streamsSink != nil && !streams.isEmpty { parts.insert(.inputs) }
    return parts
  }

  /// The conditions, such as `default bench_a, 10 streams on bench_a`.
  public var description: String {
    var terms: [String] = []
    if let defaultSink { terms.append("default \(defaultSink)") }
    if let streamsSink {
      terms.append("\(streams.count) streams on \(streamsSink)")
    }
    if let absentSink { terms.append("no sink \(absentSink)") }
    if let defaultSource { terms.append("default input \(defaultSource)") }
    if let defaultSinkPrefix { terms.append("default \(defaultSinkPrefix)…") }
    if let defaultSourcePrefix {
      terms.append("default input \(defaultSourcePrefix)…")
    }
    if let cardProfile {
      terms.append("\(cardProfile.card) in \(cardProfile.profile)")
    }
    if let recordings { terms.append("\(recordings) recordings") }
    if let source {
      terms.append("\(source.exists ? "a" : "no") source \(source.prefix)…")
    }
    return terms.joined(separator: ", ")
  }
}

/// What an observer lists: the server info, the sinks or the sink inputs.
public enum ObservedPart: Hashable, Sendable {
  /// The server info, which names the default sink.
  case server
  /// The list of sinks.
  case sinks
  /// The list of sink inputs.
  case inputs
  /// The list of cards.
  case cards
  /// The list of recording streams (source outputs).
  case recordings
  /// The list of sources.
  case sources
}

/// What an observer last saw of the server.
public struct ObservedState: Sendable, CustomStringConvertible {
  /// The default sink's name, if the server has one.
  public var defaultSinkName: String?
  /// Sink indexes by name.
  public var sinkIndexes: [String: UInt32] = [:]
  /// The sink index of each sink input.
  public var inputSinks: [UInt32: UInt32] = [:]
  /// The default source's name, if the server has one.
  public var defaultSourceName: String?
  /// Each card's active profile, by card name.
  public var cardProfiles: [String: String] = [:]
  /// How many recording streams there are.
  public var recordingCount = 0
  /// The sources' names.
  public var sourceNames: Set<String> = []

  /// Creates a state in which nothing has been seen yet.
  public init() {}

  /// Whether everything the goal asks for holds in this state.
  public func satisfies(_ goal: Goal) -> Bool {
    if let name = goal.defaultSink, defaultSinkName != name { return false }
    if let name = goal.absentSink, sinkIndexes[name] != nil { return false }
    if let name = goal.defaultSource, defaultSourceName != name {
      return false
    }
    if let wanted = goal.cardProfile,
      cardProfiles[wanted.card] != wanted.profile
    {
      return false
    }
    if let count = goal.recordings, recordingCount != count { return false }
    if let wanted = goal.source,
      sourceNames.contains(where: { $0.hasPrefix(wanted.prefix) })
        != wanted.exists
    {
      return false
    }
    if let prefix = goal.defaultSinkPrefix,
      defaultSinkName?.hasPrefix(prefix) != true
    {
      return false
    }
    if let prefix = goal.defaultSourcePrefix,
      defaultSourceName?.hasPrefix(prefix) != true
    {
      return false
    }
    if let name = goal.streamsSink {
      guard let sink = sinkIndexes[name] else { return false }
      return goal.streams.allSatisfy { inputSinks[$0] == sink }
    }
    return true
  }

  /// The default sink, the sinks and how many streams play on each.
  public var description: String {
    let names = Dictionary(
      sinkIndexes.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
    var counts: [String: Int] = [:]
    for sink in inputSinks.values {
      counts[names[sink] ?? "#\(sink)", default: 0] += 1
    }
    let streams = counts.sorted { $0.key < $1.key }
      .map { "\($0.value) on \($0.key)" }.joined(separator: ", ")
    return "default \(defaultSinkName ?? "none"); sinks "
      + sinkIndexes.keys.sorted().joined(separator: ",")
      + "; streams: \(streams.isEmpty ? "none" : streams)"
  }
}

/// An independent libpulse client that watches a server through its own
/// connection, as pabench does.
///
/// It follows the server's events and, while a goal is armed, answers each
/// batch of events by listing what changed (pipelined), and notes when it
/// first sees the goal hold.
///
/// Events that arrive while a listing is in flight are coalesced into one
/// more listing. When no goal is armed it lists nothing, so it does not load
/// the server during measurements that do not observe.
public actor ServerObserver {
  private let connection: PulseConnection
  private var state = ObservedState()
  /// The parts whose events arrived since they were last listed.
  private var dirty: Set<ObservedPart> = []
  /// The serial of the newest listing applied, per part, so that an older
  /// reply that arrives late never overwrites a newer one.
  private var appliedSerials: [ObservedPart: Int] = [:]
  private var nextSerial = 0
  private var watch: Watch?
  private var nextWatchID = 0
  private var tasks: [Task<Void, Never>] = []
  private let kicks: AsyncStream<Void>
  private let kick: AsyncStream<Void>.Continuation

  private typealias Outcome = Result<ContinuousClock.Instant?, any Error>

  /// An armed goal.
  private struct Watch {
    var id: Int
    var goal: Goal
    var reachedAt: ContinuousClock.Instant?
    var failure: (any Error)?
    var waiter: CheckedContinuation<Outcome, Never>?
    var timeout: Task<Void, Never>?
  }

  private init(connection: PulseConnection) {
    self.connection = connection
    (kicks, kick) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  /// Starts observing through a connection of its own.
  ///
  /// The observer takes the connection's event stream.
  public static func start(
    connection: PulseConnection
  ) async -> ServerObserver {
    let observer = ServerObserver(connection: connection)
    await observer.startTasks()
    return observer
  }

  private func startTasks() {
    let events = connection.events
    tasks = [
      Task { await self.consume(events) },
      Task { await self.refreshWhenKicked() },
    ]
  }

  /// Stops observing; the connection stays open.
  public func stop() {
    kick.finish()
    for task in tasks { task.cancel() }
    if let waiter = watch?.waiter {
      waiter.resume(returning: .failure(BenchmarkError("observer stopped")))
    }
    watch = nil
  }

  /// What the observer last saw.
  public var lastSeen: ObservedState { state }

  // MARK: - Goals

  /// Lists the parts the goal needs, then watches for it.
  ///
  /// Call it before starting the operation; then ``wait(until:)``.
  ///
  /// - Throws: If the goal already holds, since the measurement would then
  ///   mean nothing, or if listing fails.
  public func arm(_ goal: Goal) async throws {
    if try await begin(goal) {
      throw BenchmarkError("\(goal) already holds before the operation")
    }
  }

  /// Waits until the armed goal holds.
  ///
  /// - Returns: The instant the observer first saw it hold, or `nil` if it
  ///   did not by `deadline`.
  public func wait(
    until deadline: ContinuousClock.Instant
  ) async throws -> ContinuousClock.Instant? {
    guard var current = watch else {
      throw BenchmarkError("no goal armed")
    }
    defer { watch = nil }
    if let reachedAt = current.reachedAt { return reachedAt }
    if let failure = current.failure { throw failure }
    let outcome = await withCheckedContinuation { continuation in
      current.waiter = continuation
      let id = current.id
      current.timeout = Task {
        try? await Task.sleep(until: deadline, clock: .continuous)
        if !Task.isCancelled { self.expire(id) }
      }
      watch = current
    }
    return try outcome.get()
  }

  /// Waits, untimed, until a goal holds, such as the end of a repetition.
  ///
  /// It does not rely on the server's events alone: after each
  /// ``relistInterval`` without the goal, it lists the goal's parts again,
  /// since a busy PipeWire server sometimes sends no event for a change of
  /// the default to a connection that was open before it. PipeWire 0.3.65
  /// may even keep telling that connection the old default when asked,
  /// while a new client sees the new one (as accessoryd's link knows):
  /// then the defaults are read through a new, short-lived connection.
  ///
  /// - Throws: ``BenchmarkError`` if it does not within `timeout`.
  public func reach(
    _ goal: Goal, timeout: Duration = .seconds(5)
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    var relists = 0
    while true {
      if relists > 0, try await defaultsSeenAfresh(goal) { return }
      if try await begin(goal) { return }
      let relist = min(deadline, ContinuousClock.now + Self.relistInterval)
      if try await wait(until: relist) != nil { return }
      if ContinuousClock.now >= deadline { break }
      relists += 1
    }
    throw BenchmarkError(
      "the observer did not see \(goal) within \(timeout); it saw \(state)")
  }

  /// Whether the goal holds with the defaults a new connection shows.
  ///
  /// The new defaults then replace the stale ones this connection shows.
  /// Call it with no goal armed.
  private func defaultsSeenAfresh(_ goal: Goal) async throws -> Bool {
    guard
      goal.defaultSink != nil || goal.defaultSource != nil
        || goal.defaultSinkPrefix != nil || goal.defaultSourcePrefix != nil
    else { return false }
    var options = connection.options
    options.applicationName += " (check)"
    options.followsEvents = false
    let probe = try await PulseConnection.connect(options)
    defer { probe.close() }
    let server = try await probe.serverInfo()
    var fresh = state
    fresh.defaultSinkName = server.defaultSinkName
    fresh.defaultSourceName = server.defaultSourceName
    guard fresh.satisfies(goal) else { return false }
    state = fresh
    return true
  }

  /// How long ``reach(_:timeout:)`` waits for an event before it lists the
  /// goal's parts again.
  public static let relistInterval = Duration.seconds(1)

  /// Lists the goal's parts and, unless it holds already, arms it.
  ///
  /// - Returns: Whether the goal already holds.
  private func begin(_ goal: Goal) async throws -> Bool {
    guard watch == nil else {
      throw BenchmarkError("a goal is armed already")
    }
    try await refresh(goal.parts)
    if state.satisfies(goal) { return true }
    nextWatchID += 1
    watch = Watch(id: nextWatchID, goal: goal)
    if !dirty.isDisjoint(with: goal.parts) { kick.yield() }
    return false
  }

  private func expire(_ id: Int) {
    guard watch?.id == id, let waiter = watch?.waiter else { return }
    watch?.waiter = nil
    waiter.resume(returning: .success(nil))
  }

  /// Notes the moment the armed goal first holds.
  private func check() {
    guard var current = watch, current.reachedAt == nil,
      state.satisfies(current.goal)
    else { return }
    let now = ContinuousClock.now
    current.reachedAt = now
    current.timeout?.cancel()
    if let waiter = current.waiter {
      current.waiter = nil
      waiter.resume(returning: .success(now))
    }
    watch = current
  }

  private func fail(_ error: any Error) {
    guard var current = watch else { return }
    current.failure = error
    current.timeout?.cancel()
    if let waiter = current.waiter {
      current.waiter = nil
      waiter.resume(returning: .failure(error))
    }
    watch = current
  }

  // MARK: - Events and listings

  private func consume(_ events: AsyncStream<ServerEvent>) async {
    for await event in events {
      note(event)
    }
  }

  private func note(_ event: ServerEvent) {
    switch (event.facility, event.kind) {
    case (.server, _): dirty.insert(.server)
    case (.sink, .new), (.sink, .remove): dirty.insert(.sinks)
    case (.sinkInput, _): dirty.insert(.inputs)
    case (.card, _): dirty.insert(.cards)
    case (.sourceOutput, .new), (.sourceOutput, .remove):
      dirty.insert(.recordings)
    case (.source, .new), (.source, .remove): dirty.insert(.sources)
    default: return
    }
    if let current = watch, current.reachedAt == nil,
      !dirty.isDisjoint(with: current.goal.parts)
    {
      kick.yield()
    }
  }

  private func refreshWhenKicked() async {
    for await _ in kicks {
      while let current = watch, current.reachedAt == nil,
        current.failure == nil
      {
        let parts = dirty.intersection(current.goal.parts)
        if parts.isEmpty { break }
        do {
          try await refresh(parts)
        } catch {
          fail(error)
        }
      }
    }
  }

  /// Lists the parts, pipelined, and applies what the server returned.
  private func refresh(_ parts: Set<ObservedPart>) async throws {
    guard !parts.isEmpty else { return }
    dirty.subtract(parts)
    nextSerial += 1
    let serial = nextSerial
    let listing = try await Listing.fetch(parts, from: connection)
    apply(listing, serial: serial)
    check()
  }

  private func apply(_ listing: Listing, serial: Int) {
    func isNewest(_ part: ObservedPart) -> Bool {
      guard serial > appliedSerials[part, default: 0] else { return false }
      appliedSerials[part] = serial
      return true
    }
    if let server = listing.server, isNewest(.server) {
      state.defaultSinkName = server.defaultSinkName
      state.defaultSourceName = server.defaultSourceName
    }
    if let cards = listing.cards, isNewest(.cards) {
      state.cardProfiles = Dictionary(
        cards.compactMap { card in
          card.activeProfileName.map { (card.name, $0) }
        }, uniquingKeysWith: { a, _ in a })
    }
    if let recordings = listing.recordings, isNewest(.recordings) {
      state.recordingCount = recordings.count
    }
    if let sources = listing.sources, isNewest(.sources) {
      state.sourceNames = Set(sources.map(\.name))
    }
    if let sinks = listing.sinks, isNewest(.sinks) {
      state.sinkIndexes = Dictionary(
        sinks.map { ($0.name, $0.index) }, uniquingKeysWith: { a, _ in a })
    }
    if let inputs = listing.inputs, isNewest(.inputs) {
      state.inputSinks = Dictionary(
        inputs.map { ($0.index, $0.sinkIndex) }, uniquingKeysWith: { a, _ in a }
      )
    }
  }
}

/// What one refresh of an observer listed.
private struct Listing: Sendable {
  var server: ServerInfo?
  var sinks: [Sink]?
  var inputs: [SinkInput]?
  var cards: [Card]?
  var recordings: [SourceOutput]?
  var sources: [Source]?

  /// Lists the parts at once, pipelined on the connection.
  static func fetch(
    _ parts: Set<ObservedPart>, from connection: PulseConnection
  ) async throws -> Listing {
    async let server =
      parts.contains(.server) ? connection.serverInfo() : nil
    async let sinks = parts.contains(.sinks) ? connection.sinks() : nil
    async let inputs =
      parts.contains(.inputs) ? connection.sinkInputs() : nil
    async let cards = parts.contains(.cards) ? connection.cards() : nil
    async let recordings =
      parts.contains(.recordings) ? connection.sourceOutputs() : nil
    async let sources = parts.contains(.sources) ? connection.sources() : nil
    return try await Listing(
      server: server, sinks: sinks, inputs: inputs, cards: cards,
      recordings: recordings, sources: sources)
  }
}

/// A failure of the benchmark itself, as opposed to a missed target.
public struct BenchmarkError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// Creates an error that describes what went wrong.
  public init(_ description: String) {
    self.description = description
  }
}
