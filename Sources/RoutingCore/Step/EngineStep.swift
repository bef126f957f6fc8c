// The engine's one step: (memory, view, event, policy, now) to (memory,
// effects), for routing, calls, media and BlueZ's connections together. Pure: the engine
// carries the effects out in their order and feeds back what came of them
// as later events.

import SoundServerModel

/// What the rules remember between events: routing's, the call's, the
/// media's, and BlueZ's word on which devices are connected.
public struct EngineMemory: Sendable {
  /// What routing remembers of the sound server: the defaults used,
  /// chosen and sent, pins, the outputs that came and went, the
  /// headphones nobody registered, the decision `route --explain` shows.
  public var routing = RouteTracking()
  /// What the call rules remember.
  public var calls = CallMemory()
  /// What the media rules remember.
  public var media = MediaMemory()
  /// BlueZ's word on whether each device it knows is connected.
  public var bluetooth = BluetoothConnections()

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
  /// The sound server's state, for the events that read it
  /// (``EngineEvent/serverState(fresh:)``, ``EngineEvent/presence``,
  /// ``EngineEvent/decide(leavingFollowersToTheDefault:echo:resending:)``,
  /// ``EngineEvent/confirmDue`` and
  /// ``EngineEvent/personsMovesConfirmed(_:)``).
  public var server: ServerView?

  /// Creates a view.
  public init(
    snapshot: Snapshot? = nil, media: MediaView? = nil,
    server: ServerView? = nil
  ) {
    self.snapshot = snapshot
    self.media = media
    self.server = server
  }
}

/// A state of the sound server, with what routing reads beside it.
public struct ServerView: Sendable {
  /// The server's state.
  public var mirror: ServerMirror
  /// The registered accessories' normalized addresses: read by the
  /// events that take in a state (``EngineEvent/serverState(fresh:)``,
  /// ``EngineEvent/presence``); the checks of what was sent read the
  /// state alone.
  public var registered: Set<String>
  /// The Bluetooth devices BlueZ's class calls headphones.
  public var headphonesByBlueZ: Set<String>

  /// Creates a view of a state.
  public init(
    mirror: ServerMirror, registered: Set<String> = [],
    headphonesByBlueZ: Set<String> = []
  ) {
    self.mirror = mirror
    self.registered = registered
    self.headphonesByBlueZ = headphonesByBlueZ
  }
}

/// One event the rules take.
public enum EngineEvent: Sendable, Hashable {
  /// Something changed that may move the route: decide on the view's
  /// snapshot, and send what was not sent already.
  ///
  /// `leavingFollowersToTheDefault`: on PulseAudio, leave the streams
  /// that follow the default to the default change (the view's server
  /// tells which). `echo`: nothing but the server's own changes asked for
  /// it, so it is worth explaining only if it changes something.
  /// `resending`: the server did not carry out the last route, which is
  /// decided and sent again; another decision that sends something, or a
  /// re-send to another output, starts the count of re-sends again. Any
  /// decision ends a re-sending that gave up.
  case decide(
    leavingFollowersToTheDefault: Bool, echo: Bool = false,
    resending: Bool = false)
  /// What the sound server answered to the last route.
  case routeAnswered(RouteAnswer)
  /// An event of the media rules, on the view's media part.
  case media(MediaInput)
  /// The sound server showed the view's state: routing learns from it.
  /// `fresh`: the first state of a new connection.
  case serverState(fresh: Bool)
  /// Before a decision: which accessories' and headphones' outputs the
  /// view's server shows now.
  case presence
  /// The time to check that what was sent shows in the view's server.
  case confirmDue
  /// Streams that left a default PipeWire showed unchanged are the
  /// person's moves: a new client saw the same defaults.
  case personsMovesConfirmed(Set<UInt32>)
  /// An accessory's update arrives, before it is staged: whether its
  /// media is paused first.
  case updateArrives(ArrivingUpdate)
  /// The connection to the sound server was lost.
  case serverLost
  /// The accessories paired now, by normalized address.
  case paired(Set<String>)
  /// The person named a device to choose through a request
  /// (`output.choose`), by its name or description: the step tells which,
  /// from the view's server and snapshot, or why none.
  case choose(device: String)
  /// The person asked to forget their choices of output and input.
  case forgetChoices
  /// BlueZ listed its devices: whether each is connected, by address.
  case bluetoothDevices([String: Bool])
}

/// What the engine does, in the order given.
public enum EngineEffect: Sendable {
  /// Apply a decision: the route batch, the default input and the card
  /// profiles. `on` is the snapshot as decided on, with the call's memory
  /// in it, for `route --explain`; `sending`, what goes to the server;
  /// `explained`, whether `route --explain` shows it from now on.
  case route(Decision, on: Snapshot, sending: RouteSend, explained: Bool)
  /// One of the media rules' effects.
  case media(MediaEffect)
  /// Something routing noticed, to tell or to follow up.
  case routing(RoutingNotice)
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
    let effects = step(&memory, view, event, policy, now: now)
    return (memory, effects)
  }

  /// Takes one event, changing the memory in place: the engine keeps one
  /// memory, and what routing remembers grows with the registry, so it is
  /// not copied at each event.
  ///
  /// - Parameters:
  ///   - memory: What the rules remember, changed in place.
  ///   - view: The world at the event.
  ///   - event: The event.
  ///   - policy: The policy in force.
  ///   - now: The time, in seconds since 1970 on the engine's clock.
  /// - Returns: The effects, in the order to carry them out.
  public static func step(
    _ memory: inout EngineMemory, _ view: EngineView, _ event: EngineEvent,
    _ policy: Policy, now: Double
  ) -> [EngineEffect] {
    switch event {
    case .decide(let leavingFollowers, let echo, let resending):
      guard var snapshot = view.snapshot else { return [] }
      memory.routing.resendingGaveUp = false
      memory.calls.note(snapshot, policy)
      snapshot.callProfiles = memory.calls.profiles
      snapshot.callEndedAt = memory.calls.endedAt
      snapshot.callInput = memory.calls.input
      let decision = decide(snapshot, policy, explaining: false)
      memory.calls.follow(decision, defaultInput: snapshot.defaultInput)
      let sending = RoutingRules.send(
        decision, &memory.routing, server: view.server?.mirror,
        leavingFollowers: leavingFollowers, now: now)
      if sending.sendsSomething {
        if !resending || decision.target != memory.routing.lastSentTarget {
          memory.routing.resendsInARow = 0
        }
        memory.routing.lastSentTarget = decision.target
      }
      let explained = memory.routing.explain(
        decision, on: snapshot, changing: sending.sendsSomething, echo: echo)
      return [
        .route(decision, on: snapshot, sending: sending, explained: explained)
      ]
    case .routeAnswered(let answer):
      memory.calls.record(answer)
      if let conclusion = answer.routing {
        RoutingRules.conclude(conclusion, &memory.routing)
      }
      return []
    case .bluetoothDevices(let devices):
      guard let change = memory.bluetooth.take(devices) else { return [] }
      return [.routing(.bluetoothChanged(change))]
    case .media(let input):
      guard let view = view.media else { return [] }
      let (media, effects) = MediaRules.step(
        memory.media, view, input, policy, now: now)
      memory.media = media
      return effects.map(EngineEffect.media)
    case .serverState, .serverLost, .paired, .choose, .forgetChoices, .presence,
      .confirmDue, .personsMovesConfirmed, .updateArrives:
      let notices = RoutingRules.step(
        &memory.routing, view, event, policy, now: now)
      return notices.map(EngineEffect.routing)
    }
  }
}
