// What the loop waits for, as a phase of its own state rather than a wait
// nested in a reconcile: a state of the sound server that shows the new
// default, or a fresh one it asked for, until a deadline. While a phase
// runs, the loop takes in the server's states and keeps every other event
// for after it; the phase ends with the state it waits for, or at its
// deadline, and what comes after it is carried out then.

import DaemonInputs
import FoundationEssentials
import RoutingCore
import SoundServerModel

/// A route batch sent, whose outcome is not yet concluded: on PulseAudio
/// the streams that follow the default wait for the server to show which
/// of them the default change carried.
struct RouteSending {
  /// The decision, for `route --explain` and the history.
  var record: EngineLoop.DecisionRecord
  /// Why it was decided.
  var reason: RouteReason
  /// The server's state it was decided on.
  var mirror: ServerMirror
  /// What the step decided to send.
  var send: RouteSend
  /// The call's input before the decision, restored if the server refuses
  /// the new one.
  var callInputBefore: String?
  /// The moves sent so far, in the order of the results.
  var sentMoves: [StreamMove]

  /// The default output sent, if any.
  var defaultChange: String? { send.defaultChange }
  /// The default input sent, if any.
  var inputChange: String? { send.inputChange }
  /// The moves left to the default change, sent only for the streams it
  /// did not carry.
  var carried: [StreamMove] {
    send.moves.filter { send.carried.contains($0.stream) }
  }
}

/// A phase of the router's loop: it waits for a state of the sound server.
struct LoopPhase {
  /// The state waited for.
  enum Awaited {
    /// One whose default output is this one.
    case defaultOutput(String)
    /// Any state.
    case anyState
    /// The first state of a new connection.
    case freshConnection
  }

  /// What the loop does once the phase ends.
  enum Then {
    /// Moves the streams the default change did not carry, and concludes
    /// the route.
    case moveWhatStayed(RouteSending, first: ServerBatchResult)
    /// Nothing more: the fresh state routes again by itself.
    case decideOnTheFreshState
    /// Takes the streams that left the default as the person's moves if
    /// the defaults a new client saw are those the router's state shows.
    case confirmPersonsMoves(Set<UInt32>, DefaultsCheck)
  }

  /// When the loop stops waiting.
  let until: Date
  /// The state waited for.
  let awaited: Awaited
  /// What comes after.
  let then: Then

  /// Whether a state of the server is the one waited for; losing the
  /// server ends every wait.
  func isAnswered(by update: LinkUpdate) -> Bool {
    switch (awaited, update) {
    case (_, .disconnected): true
    case (.defaultOutput(let name), _): update.mirror?.defaultSinkName == name
    case (.anyState, _): true
    case (.freshConnection, .connected): true
    case (.freshConnection, .changed): false
    }
  }
}

extension EngineLoop {
  /// Waits in a phase: takes in the server's states and keeps every other
  /// event, and what the link's reflex did, for after it.
  ///
  /// - Returns: Whether the phase ended: the state came, or the deadline
  ///   passed.
  func takeEventsDuring(_ phase: LoopPhase) async -> Bool {
    var answered = false
    for trigger in inbox.take() {
      guard case .link(let update) = trigger else {
        deferred.append(trigger)
        continue
      }
      if let reason = handle(update) { followUpReasons.append(reason) }
      // What the link's reflex did waits for the media, after the phase.
      if case .changed(_, let reflexes) = update, !reflexes.isEmpty {
        deferred.append(.media(.reflexes(reflexes)))
      }
      answered = answered || phase.isAnswered(by: update)
    }
    if answered || clock.now() >= phase.until { return true }
    await waitForTriggers(until: phase.until)
    return false
  }

  /// Carries out what comes after a phase.
  func end(_ phase: LoopPhase) async {
    switch phase.then {
    case .moveWhatStayed(let sending, let first):
      await moveWhatStayed(sending, first: first)
    case .decideOnTheFreshState:
      break
    case .confirmPersonsMoves(let streams, let check):
      confirmPersonsMoves(streams, seen: check)
    }
  }

  /// Keeps what a pass had gathered when a phase interrupted it, for the
  /// pass after the phase.
  func holdForThePhase(
    reasons: [RouteReason], replies: [CheckedContinuation<Bool, Never>],
    leavingFollowers: Bool
  ) {
    // The decision that began the phase is what queries see meanwhile.
    publishRoute()
    followUpReasons = reasons + followUpReasons
    repliesAfterPhase += replies
    followUpLeavesFollowers = followUpLeavesFollowers || leavingFollowers
  }
}
