// The engine's one step: (memory, view, event, policy, now) to (memory,
// effects), for routing, calls and media together. Pure: the engine
// carries the effects out in their order and feeds back what came of them
// as later events.

/// What the rules remember between events: the call's and the media's.
public struct EngineMemory: Sendable, Hashable {
  /// What the call rules remember.
  public var calls = CallMemory()
  /// What the media rules remember.
  public var media = MediaMemory()

  /// Creates an empty memory.
  public init() {}
}

/// The world at an event, as the rules that take it see it.
public struct EngineView: Sendable {
  /// The routing snapshot, for ``EngineEvent/decide``: built only when a
  /// route is decided.
  public var snapshot: Snapshot?
  /// What the media rules see, for ``EngineEvent/media(_:)``.
  public var media: MediaView?

  /// Creates a view.
  public init(snapshot: Snapshot? = nil, media: MediaView? = nil) {
    self.snapshot = snapshot
    self.media = media
  }
}

/// One event the rules take.
public enum EngineEvent: Sendable, Hashable {
  /// Something changed that may move the route: decide on the view's
  /// snapshot.
  case decide
  /// What the sound server answered to the last route.
  case routeAnswered(RouteAnswer)
  /// An event of the media rules, on the view's media part.
  case media(MediaInput)
}

/// What the engine does, in the order given.
public enum EngineEffect: Sendable {
  /// Apply a decision: the route batch, the default input and the card
  /// profiles. `on` is the snapshot as decided on, with the call's memory
  /// in it, for `route --explain`.
  case route(Decision, on: Snapshot)
  /// One of the media rules' effects.
  case media(MediaEffect)
}

/// The rules of routing, calls and media, taken one event at a time.
public enum EngineRules {
  /// Takes one event.
  ///
  /// - Parameters:
  ///   - memory: What the rules remember.
  ///   - view: The world at the event.
  ///   - event: The event.
  ///   - policy: The policy in force.
  ///   - now: The time, in seconds since 1970 on the engine's clock.
  /// - Returns: The new memory and the effects, in the order to carry
  ///   them out.
  public static func step(
    _ memory: EngineMemory, _ view: EngineView, _ event: EngineEvent,
    _ policy: Policy, now: Double
  ) -> (EngineMemory, [EngineEffect]) {
    var memory = memory
    switch event {
    case .decide:
      guard var snapshot = view.snapshot else { return (memory, []) }
      memory.calls.note(snapshot, policy)
      snapshot.callProfiles = memory.calls.profiles
      snapshot.callEndedAt = memory.calls.endedAt
      snapshot.callInput = memory.calls.input
      let decision = decide(snapshot, policy, explaining: false)
      memory.calls.follow(decision, defaultInput: snapshot.defaultInput)
      return (memory, [.route(decision, on: snapshot)])
    case .routeAnswered(let answer):
      memory.calls.record(answer)
      return (memory, [])
    case .media(let input):
      guard let view = view.media else { return (memory, []) }
      let (media, effects) = MediaRules.step(
        memory.media, view, input, policy, now: now)
      memory.media = media
      return (memory, effects.map(EngineEffect.media))
    }
  }
}
