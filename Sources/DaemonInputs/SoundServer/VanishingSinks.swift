// The link's reflex: the sinks whose streams are muted the moment they
// disappear (or their headphone jack is pulled), what the reflex did
// that no update told yet, and the mutes no state of the server showed
// yet. Shared between the thread that reads the server's events and the
// link, which hands what the reflex did to its subscribers inside the
// next update.

import ConcurrencyHelpers
import PulseAudio
import SoundServerModel

/// The sinks whose streams are muted when they disappear, the streams on
/// each, and what the reflex did; shared with the thread that reads the
/// server's events.
final class VanishingSinks: Sendable {
  private struct State {
    var rule: VanishingSinkMute?
    var commander: PulseConnection?
    /// Wakes the link's follower: the reflex did something to tell.
    var wake: (@Sendable () -> Void)?
    /// By sink index: the sink and its audible streams.
    var watched: [UInt32: (sink: Sink, streams: [UInt32])] = [:]
    /// The headphone jacks' sinks whose port is being asked for.
    var asking: Set<UInt32> = []
    /// Those of ``asking`` that changed again meanwhile: asked once more.
    var changedAgain: Set<UInt32> = []
    /// The headphone jacks' sinks whose streams were muted as the jack
    /// was pulled, until they play on the headphones again.
    var pulled: [UInt32: Sink] = [:]
    /// The cookie of the server of the current (or last) session: what
    /// the reflex did is told only with a state of the same server.
    var cookie: UInt32?
    /// The number of the last reflex started: a sink's removal, or a
    /// jack's pull or plug that an answer showed, with the mute it leads
    /// to.
    var lastStarted: UInt64 = 0
    /// The mutes sent that the server has not answered, by the number of
    /// their reflex.
    var underWay: [UInt64: Int] = [:]
    /// Waiting for the reflexes up to a number to be answered.
    var settledWaiters: [(through: UInt64, CheckedContinuation<Void, Never>)] =
      []
    /// What the reflex did that no update has told yet, in order, with the
    /// number of the reflex; emptied when a session on another server
    /// begins.
    var done: [(number: UInt64, reflex: LinkReflex)] = []
    /// Whether the states the link shows changed without a state of the
    /// server: the link unmuted a stream it showed muted.
    var reshown = false
    /// The reflex's mutes that no state of the server has shown yet.
    var mutesNotShown = MutesNotShown()
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

  /// Takes the command connection of a new session, its first state, and
  /// how to wake its follower.
  func connect(
    _ commander: PulseConnection, watching mirror: ServerMirror,
    wake: @escaping @Sendable () -> Void
  ) {
    state.withLock {
      $0.commander = commander
      $0.wake = wake
      // A restarted server numbers its streams anew: what the reflex did
      // on the old one is not told (the rule's `muted` recorded it).
      if $0.cookie != mirror.serverInfo.cookie {
        $0.done = []
        $0.cookie = mirror.serverInfo.cookie
      }
    }
    watch(mirror)
  }

  /// Forgets the ended session; what the reflex did is still told, with
  /// the next session's first state, and its mutes the server did not
  /// show yet are still shown in the next session's states of the same
  /// server.
  func disconnect() {
    state.withLock {
      $0.commander = nil
      $0.wake = nil
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

  // MARK: - Telling what the reflex did

  /// The number of the last reflex started: a state fetched from now on
  /// shows what caused the reflexes up to it (a sink's removal, or a
  /// jack's pull or plug, numbered as the link learns of it), and goes
  /// out with them.
  func mark() -> UInt64 { state.withLock { $0.lastStarted } }

  /// Returns once the reflexes up to a number are answered.
  ///
  /// What they did then goes out with the state fetched after them. Each
  /// is answered by the server or by the connection's operation timeout.
  /// A reflex started later goes with a later state: one fetched before
  /// its cause would show the sink as it was.
  ///
  /// - Parameter number: The last reflex to wait for (``mark()``).
  func settled(through number: UInt64) async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        guard state.underWay.keys.contains(where: { $0 <= number }) else {
          return true
        }
        state.settledWaiters.append((number, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Whether a reflex up to a number is under way or not yet told: the
  /// state that tells it is fetched whole (sinks and streams), after it.
  func isTelling(through number: UInt64) -> Bool {
    state.withLock { state in
      state.underWay.keys.contains { $0 <= number }
        || state.done.contains { $0.number <= number }
    }
  }

  /// Whether the reflexes up to a number did something no update has
  /// told, or the link stopped showing one of its mutes.
  func hasNews(through number: UInt64) -> Bool {
    state.withLock { state in
      state.reshown || state.done.contains { $0.number <= number }
    }
  }

  /// Takes what the reflexes up to a number did, for an update with a
  /// state of the server fetched after them, and that state as the update
  /// shows it: the reflexes' mutes the server does not show yet are
  /// shown.
  ///
  /// - Parameters:
  ///   - fetched: The state as the server showed it.
  ///   - number: The last reflex the state was fetched after.
  /// - Returns: The state to publish and what the reflexes did, in order.
  func news(
    with fetched: ServerMirror, through number: UInt64
  ) -> (mirror: ServerMirror, reflexes: [LinkReflex]) {
    state.withLock { state in
      let reflexes = state.done.filter { $0.number <= number }.map(\.reflex)
      state.done.removeAll { $0.number <= number }
      state.reshown = false
      state.mutesNotShown.follow(fetched, after: reflexes)
      return (state.mutesNotShown.shown(in: fetched), reflexes)
    }
  }

  /// A new session's first state as the link publishes it: the reflex's
  /// mutes that it shows, or whose streams it lacks, are no longer shown
  /// by the link; the others are.
  func shown(following fetched: ServerMirror) -> ServerMirror {
    state.withLock { state in
      state.mutesNotShown.follow(fetched, after: [])
      return state.mutesNotShown.shown(in: fetched)
    }
  }

  /// A state as the link publishes it: with the reflex's mutes that the
  /// server does not show yet.
  func shown(_ fetched: ServerMirror) -> ServerMirror {
    state.withLock { $0.mutesNotShown.shown(in: fetched) }
  }

  /// Notes streams the server unmuted at the link's request: the
  /// reflex's mutes of them are no longer shown, and the follower is
  /// woken to publish the state without them (the server may tell of no
  /// change: it never showed the mute).
  func unmuted(_ streams: some Sequence<UInt32>) {
    let wake = state.withLock { state -> (@Sendable () -> Void)? in
      let before = state.mutesNotShown
      state.mutesNotShown.unmuted(streams)
      guard state.mutesNotShown != before else { return nil }
      state.reshown = true
      return state.wake
    }
    wake?()
  }

  /// Starts a reflex, under the lock.
  ///
  /// - Returns: Its number.
  private static func start(_ state: inout State) -> UInt64 {
    state.lastStarted += 1
    state.underWay[state.lastStarted] = 1
    return state.lastStarted
  }

  /// Ends one mute or jack question of a reflex, with what it did if
  /// anything, and wakes who waits for it.
  private func conclude(_ number: UInt64, _ reflex: LinkReflex?) {
    let (waiters, wake) = state.withLock {
      state -> ([CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) in
      if let left = state.underWay[number], left > 1 {
        state.underWay[number] = left - 1
      } else {
        state.underWay[number] = nil
      }
      if let reflex { state.done.append((number, reflex)) }
      let oldest = state.underWay.keys.min() ?? .max
      let ready = state.settledWaiters.filter { $0.through < oldest }
      state.settledWaiters.removeAll { $0.through < oldest }
      let wake = state.underWay[number] == nil && !state.done.isEmpty
      return (ready.map(\.1), wake ? state.wake : nil)
    }
    for waiter in waiters { waiter.resume() }
    wake?()
  }

  // MARK: - On the events' thread

  /// On the events' thread: a sink disappeared; mutes its streams.
  func removed(_ index: UInt32) {
    let taken = state.withLock {
      state -> (VanishingSinkMute, PulseConnection, Sink, [UInt32], UInt64)?
      in
      state.pulled[index] = nil
      guard let entry = state.watched.removeValue(forKey: index),
        !entry.streams.isEmpty, let rule = state.rule,
        let commander = state.commander
      else { return nil }
      // Numbered as the event comes, after the server removed the sink:
      // a state fetched from now on shows it gone, and waits for the
      // answer.
      let number = Self.start(&state)
      return (rule, commander, entry.sink, entry.streams, number)
    }
    guard let (rule, commander, sink, streams, number) = taken else { return }
    // Sent from this thread at once: a task would start later, while the
    // server already plays the streams where it moved them.
    mute(streams, of: sink, through: commander, telling: rule, as: number)
  }

  /// On the events' thread: a sink changed.
  ///
  /// When it is a headphone jack's sink with streams, its active port is
  /// asked for at once: the jack pulled (the port switched to the
  /// speakers, or the jack unplugged), its streams are muted, as those of
  /// a sink that disappeared are. When it is one whose streams were muted
  /// so, it is asked for too: plugged again, the subscribers hear it, so
  /// that what was muted is unmuted even when no state in between showed
  /// the jack pulled.
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
        // A pull or a plug the answer shows is a reflex from now: a state
        // fetched from now on shows it too (the answer came before the
        // fetch is asked for), and goes out with it.
        let (outcome, number) = state.withLock {
          state -> (JackOutcome, UInt64) in
          // Asked in a session that ended: the new one asks its own.
          guard state.commander === commander else { return (.unchanged, 0) }
          var outcome = JackOutcome.unchanged
          var number: UInt64 = 0
          if let now, now.index == index {
            // Pulled once: a state fetched before the pull, watched
            // since, does not make it a second pull.
            if wiredHeadphonesJack(of: now) == nil, state.pulled[index] == nil,
              let entry = state.watched.removeValue(forKey: index)
            {
              state.pulled[index] = entry.sink
              outcome = .pulled(entry.streams)
              if !entry.streams.isEmpty { number = Self.start(&state) }
            } else if wiredHeadphonesJack(of: now) != nil,
              state.pulled.removeValue(forKey: index) != nil
            {
              outcome = .back(now)
              number = Self.start(&state)
            }
          }
          // Changed again meanwhile: asked once more, after acting on
          // this answer (a pull, then a plug, each told).
          let again =
            state.changedAgain.remove(index) != nil
            && state.commander === commander
          if !again { state.asking.remove(index) }
          return (again ? outcome.thenAskAgain : outcome, number)
        }
        switch outcome {
        case .pulled(let streams), .pulledThenAskAgain(let streams):
          if !streams.isEmpty {
            mute(
              streams, of: sink, through: commander, telling: rule,
              as: number)
          }
        case .back(let now), .backThenAskAgain(let now):
          conclude(number, .jackBack(now))
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

  /// Mutes streams of a sink that went (or whose headphones went), counted
  /// under way by the caller as part of a reflex; tells the rule which the
  /// server muted, and keeps them for the update that tells the reflex.
  private func mute(
    _ streams: [UInt32], of sink: Sink, through commander: PulseConnection,
    telling rule: VanishingSinkMute, as number: UInt64
  ) {
    commander.send(
      ServerBatch(mutes: streams.map { .init(sinkInput: $0, muted: true) })
    ) { [self] result in
      let muted = zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      }
      if !muted.isEmpty { rule.muted(sink, muted) }
      conclude(number, muted.isEmpty ? nil : .muted(muted, of: sink))
    }
  }
}

/// The streams the link's reflex muted that no state of the server has
/// shown muted yet.
///
/// A server may tell of a mute late (PipeWire's pulse server answers the
/// mute before its stream shows it), and a subscriber that saw the stream
/// unmuted would not give it back. The link shows them muted in the
/// states it publishes until the server shows them so, they go, or the
/// link unmutes them.
package struct MutesNotShown: Sendable, Hashable {
  private var streams: Set<UInt32> = []
  /// The cookie of the server whose streams these are: a server that
  /// restarted numbers its streams anew.
  private var cookie: UInt32?

  /// None.
  package init() {}

  /// Whether the link shows no mute the server does not.
  package var isEmpty: Bool { streams.isEmpty }

  /// Follows a state of the server fetched after what the reflex did.
  ///
  /// - Parameters:
  ///   - fetched: The state as the server showed it.
  ///   - reflexes: What the reflex did, which the update with this state
  ///     tells.
  package mutating func follow(
    _ fetched: ServerMirror, after reflexes: [LinkReflex]
  ) {
    if cookie != fetched.serverInfo.cookie {
      streams = []
      cookie = fetched.serverInfo.cookie
    }
    for case .muted(let muted, _) in reflexes { streams.formUnion(muted) }
    // Shown muted by the server, or gone: the server's word is enough.
    streams = streams.filter { index in
      fetched.sinkInputs.contains { $0.index == index && !$0.isMuted }
    }
  }

  /// Notes streams the server unmuted at the link's request.
  package mutating func unmuted(_ unmuted: some Sequence<UInt32>) {
    streams.subtract(unmuted)
  }

  /// A state of the server with these mutes shown.
  package func shown(in mirror: ServerMirror) -> ServerMirror {
    guard !streams.isEmpty else { return mirror }
    var mirror = mirror
    for position in mirror.sinkInputs.indices
    where streams.contains(mirror.sinkInputs[position].index) {
      mirror.sinkInputs[position].isMuted = true
    }
    return mirror
  }
}
