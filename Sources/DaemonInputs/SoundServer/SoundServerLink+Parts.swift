// The parts of SoundServerLink: the lists of its mirror and how each is
// refetched, the facilities with events not yet refetched, and the sinks
// whose streams are muted the moment they disappear.

import AccessoryControl
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import Logging
import PulseAudio
import SoundServerModel

/// One list of a ``ServerMirror``.
enum MirrorList: CaseIterable, Sendable {
  case serverInfo, sinks, sinkInputs, sources, sourceOutputs, cards

  /// The list that events of a facility change, if any.
  init?(_ facility: ServerEvent.Facility) {
    switch facility {
    case .server: self = .serverInfo
    case .sink: self = .sinks
    case .sinkInput: self = .sinkInputs
    case .source: self = .sources
    case .sourceOutput: self = .sourceOutputs
    case .card: self = .cards
    default: return nil
    }
  }

  /// Fetches the list.
  func fetch(
    from connection: PulseConnection
  ) async -> Result<MirrorPart, PulseError> {
    do throws(PulseError) {
      let part: MirrorPart =
        switch self {
        case .serverInfo: .serverInfo(try await connection.serverInfo())
        case .sinks: .sinks(try await connection.sinks())
        case .sinkInputs: .sinkInputs(try await connection.sinkInputs())
        case .sources: .sources(try await connection.sources())
        case .sourceOutputs:
          .sourceOutputs(try await connection.sourceOutputs())
        case .cards: .cards(try await connection.cards())
        }
      return .success(part)
    } catch {
      return .failure(error)
    }
  }
}

/// One fetched list of a ``ServerMirror``.
enum MirrorPart: Sendable {
  case serverInfo(ServerInfo)
  case sinks([Sink])
  case sinkInputs([SinkInput])
  case sources([Source])
  case sourceOutputs([SourceOutput])
  case cards([Card])

  /// Replaces the list in a mirror.
  func apply(to mirror: inout ServerMirror) {
    switch self {
    case .serverInfo(let info): mirror.serverInfo = info
    case .sinks(let sinks): mirror.sinks = sinks
    case .sinkInputs(let inputs): mirror.sinkInputs = inputs
    case .sources(let sources): mirror.sources = sources
    case .sourceOutputs(let outputs): mirror.sourceOutputs = outputs
    case .cards(let cards): mirror.cards = cards
    }
  }
}

extension PulseConnection {
  /// The error the connection failed with, read from its ended states.
  ///
  /// - Important: Read it only after the connection ended.
  var failure: PulseError? {
    get async {
      var failure: PulseError?
      for await state in states {
        if case .failed(let error) = state { failure = error }
      }
      return failure
    }
  }
}

/// The facilities with events not yet refetched; shared with the task that
/// reads events.
final class PendingChanges: Sendable {
  private let facilities = Mutex<Set<ServerEvent.Facility>>([])
  private let eventCount = Atomic<Int>(0)

  /// Records a facility; returns whether it was not recorded yet.
  func insert(_ facility: ServerEvent.Facility) -> Bool {
    eventCount.add(1, ordering: .relaxed)
    return facilities.withLock { $0.insert(facility).inserted }
  }

  /// Waits until no event has arrived for `quiet`, or for `limit` in all.
  func settle(
    quiet: Duration, limit: Duration, on clock: any EngineClock
  ) async {
    let deadline = clock.now().addingTimeInterval(limit.seconds)
    var seen = eventCount.load(ordering: .relaxed)
    while clock.now() < deadline {
      try? await clock.sleep(for: quiet)
      let now = eventCount.load(ordering: .relaxed)
      if now == seen { return }
      seen = now
    }
  }

  /// Returns the recorded facilities and forgets them.
  func take() -> Set<ServerEvent.Facility> {
    facilities.withLock { facilities in
      defer { facilities = [] }
      return facilities
    }
  }
}

/// The sinks whose streams are muted when they disappear, and the streams
/// on each; shared with the thread that reads the server's events.
final class VanishingSinks: Sendable {
  private struct State {
    var rule: VanishingSinkMute?
    var commander: PulseConnection?
    /// By sink index: the sink and its audible streams.
    var watched: [UInt32: (sink: Sink, streams: [UInt32])] = [:]
    /// The headphone jacks' sinks whose port is being asked for.
    var asking: Set<UInt32> = []
    /// Those of ``asking`` that changed again meanwhile: asked once more.
    var changedAgain: Set<UInt32> = []
    /// The headphone jacks' sinks whose streams were muted as the jack
    /// was pulled, until they play on the headphones again.
    var pulled: [UInt32: Sink] = [:]
  }
  private let state = Mutex(State())

  /// Sets the rule and applies it to a state, if any.
  func setRule(_ rule: VanishingSinkMute?, watching mirror: ServerMirror?) {
    state.withLock {
      $0.rule = rule
      if rule == nil { $0.watched = [:] }
    }
    if let mirror { watch(mirror) }
  }

  /// Takes the command connection of a new session and its first state.
  func connect(_ commander: PulseConnection, watching mirror: ServerMirror) {
    state.withLock { $0.commander = commander }
    watch(mirror)
  }

  /// Forgets the ended session.
  func disconnect() {
    state.withLock {
      $0.commander = nil
      $0.watched = [:]
      $0.asking = []
      $0.changedAgain = []
      $0.pulled = [:]
    }
  }

  /// Notes which sinks the rule applies to in a new state, and their
  /// audible streams.
  func watch(_ mirror: ServerMirror) {
    guard let rule = state.withLock({ $0.rule }) else { return }
    var watched: [UInt32: (sink: Sink, streams: [UInt32])] = [:]
    for sink in mirror.sinks where rule.appliesTo(sink) {
      watched[sink.index] = (
        sink,
        mirror.sinkInputs.filter {
          $0.sinkIndex == sink.index && !$0.isCorked && !$0.isMuted
        }.map(\.index)
      )
    }
    state.withLock { $0.watched = watched }
  }

  /// On the events' thread: a sink disappeared; mutes its streams.
  func removed(_ index: UInt32) {
    let taken = state.withLock {
      state -> (VanishingSinkMute, PulseConnection, Sink, [UInt32])? in
      state.pulled[index] = nil
      guard let entry = state.watched.removeValue(forKey: index),
        !entry.streams.isEmpty, let rule = state.rule,
        let commander = state.commander
      else { return nil }
      return (rule, commander, entry.sink, entry.streams)
    }
    guard let (rule, commander, sink, streams) = taken else { return }
    // Sent from this thread at once: a task would start later, while the
    // server already plays the streams where it moved them.
    Self.mute(streams, of: sink, through: commander, telling: rule)
  }

  /// On the events' thread: a sink changed.
  ///
  /// When it is a headphone jack's sink with streams, its active port is
  /// asked for at once: the jack pulled (the port switched to the
  /// speakers, or the jack unplugged), its streams are muted, as those of
  /// a sink that disappeared are. When it is one whose streams were muted
  /// so, it is asked for too: plugged again, the rule hears it, so that
  /// what was muted is unmuted even when no state in between showed the
  /// jack pulled.
  func changed(_ index: UInt32) {
    let taken = state.withLock {
      state -> (VanishingSinkMute, PulseConnection, Sink)? in
      guard let rule = state.rule, let commander = state.commander else {
        return nil
      }
      // A jack's sink with audible streams, or a pulled jack's sink,
      // whose plugging in again is told.
      let sink: Sink
      if let entry = state.watched[index], !entry.streams.isEmpty,
        wiredHeadphonesJack(of: entry.sink) != nil
      {
        sink = entry.sink
      } else if let pulled = state.pulled[index] {
        sink = pulled
      } else {
        return nil
      }
      // Asked already: asked again once the answer comes, as the answer
      // may be from before this change.
      guard state.asking.insert(index).inserted else {
        state.changedAgain.insert(index)
        return nil
      }
      return (rule, commander, sink)
    }
    guard let (rule, commander, sink) = taken else { return }
    Task {
      while true {
        let now = try? await commander.sink(named: sink.name)
        let outcome = state.withLock { state -> JackOutcome in
          var outcome = JackOutcome.unchanged
          if let now, now.index == index {
            if wiredHeadphonesJack(of: now) == nil,
              let entry = state.watched.removeValue(forKey: index)
            {
              state.pulled[index] = entry.sink
              outcome = .pulled(entry.streams)
            } else if wiredHeadphonesJack(of: now) != nil,
              state.pulled.removeValue(forKey: index) != nil
            {
              outcome = .back(now)
            }
          }
          // Changed again meanwhile: asked once more, after acting on
          // this answer (a pull, then a plug, each told).
          let again =
            state.changedAgain.remove(index) != nil
            && state.commander === commander
          if !again { state.asking.remove(index) }
          return again ? outcome.thenAskAgain : outcome
        }
        switch outcome {
        case .pulled(let streams), .pulledThenAskAgain(let streams):
          if !streams.isEmpty {
            Self.mute(streams, of: sink, through: commander, telling: rule)
          }
        case .back(let now), .backThenAskAgain(let now):
          rule.jackBack(now)
        case .unchanged, .askAgain:
          break
        }
        guard outcome.asksAgain else { return }
      }
    }
  }

  /// What the answer about a headphone jack's sink shows, and whether it
  /// is asked for again.
  private enum JackOutcome {
    /// The jack was pulled: these streams are muted.
    case pulled([UInt32])
    case pulledThenAskAgain([UInt32])
    /// The jack pulled before plays on the headphones again.
    case back(Sink)
    case backThenAskAgain(Sink)
    /// Nothing to do.
    case unchanged
    case askAgain

    /// The same, then asked again: it changed again meanwhile.
    var thenAskAgain: Self {
      switch self {
      case .pulled(let streams): .pulledThenAskAgain(streams)
      case .back(let sink): .backThenAskAgain(sink)
      case .unchanged: .askAgain
      default: self
      }
    }

    /// Whether the sink is asked for again.
    var asksAgain: Bool {
      switch self {
      case .pulledThenAskAgain, .backThenAskAgain, .askAgain: true
      case .pulled, .back, .unchanged: false
      }
    }
  }

  /// Mutes streams of a sink that went (or whose headphones went), and
  /// tells the rule which the server muted.
  private static func mute(
    _ streams: [UInt32], of sink: Sink, through commander: PulseConnection,
    telling rule: VanishingSinkMute
  ) {
    commander.send(
      ServerBatch(mutes: streams.map { .init(sinkInput: $0, muted: true) })
    ) { result in
      let muted = zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      }
      if !muted.isEmpty { rule.muted(sink, muted) }
    }
  }
}
