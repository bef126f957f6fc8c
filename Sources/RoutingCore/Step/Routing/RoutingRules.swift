// Routing's part of the step: what it learns from the sound server's
// states and the person's requests, and what it noticed there.

import SoundServerModel

/// What routing noticed while it took an event in: the engine tells it,
/// or follows it up.
public enum RoutingNotice: Sendable, Hashable {
  /// The server keeps an output that went as its configured default.
  case goneOutputKept(GoneConfiguredOutput)
  /// The person chose the default output: on the server, or by a request.
  case outputChosen(ManualChoice)
  /// The person chose the default input on the server.
  case inputChosen(ManualChoice)
  /// Streams left a default that PipeWire shows unchanged: they are the
  /// person's moves only once a new client saw the same defaults.
  case defaultsToCheck(Set<UInt32>)
  /// The person moved these streams, in the server's order.
  case streamsMovedByThePerson([UInt32])
  /// The person's choices were forgotten: the devices that were chosen.
  case choicesForgotten([String])
  /// The device a request named is the person's choice now.
  case deviceChosen(ChosenDevice)
  /// A request named no single device that can be chosen: why.
  case choiceRefused(DeviceChoiceError)
  /// The server did not show the defaults sent (PipeWire may not tell an
  /// existing client): a fresh state is to be loaded.
  case defaultsNotShown(output: String?, input: String?)
  /// The server refused the last route, or never showed its moves: it is
  /// to be decided and sent again.
  case routeNotCarriedOut
  /// The server did not carry out the route to `output` (nil: the route
  /// chose none), sent this many times in a row: it is pending until
  /// something changes.
  case routeGivenUp(timesSent: Int, output: String?)
  /// BlueZ says devices connected or disconnected: a disconnect is told to
  /// the media rules at once.
  case bluetoothChanged(BluetoothChange)
  /// The update takes off the headphones that have the output: their
  /// media is paused (the media rules' `takenOff`) before it is staged.
  case pauseBeforeStaging(accessory: String, output: UInt32)
}

/// An accessory's update as it arrives, before it is staged.
public struct ArrivingUpdate: Sendable, Hashable {
  /// The accessory's normalized address.
  public var accessory: String
  /// Whether it is registered, reports its placement, and was worn.
  public var wasWorn: Bool
  /// Whether the update makes it off the head.
  public var takesOff: Bool
  /// The server's index of its output when that output has the audio (the
  /// server's default, or the route's when the server has not reported
  /// its default); nil otherwise.
  public var outputWithTheAudio: UInt32?
  /// Whether the engine follows the media players.
  public var followsMedia: Bool

  /// Creates an arriving update.
  public init(
    accessory: String, wasWorn: Bool, takesOff: Bool,
    outputWithTheAudio: UInt32?, followsMedia: Bool
  ) {
    self.accessory = accessory
    self.wasWorn = wasWorn
    self.takesOff = takesOff
    self.outputWithTheAudio = outputWithTheAudio
    self.followsMedia = followsMedia
  }
}

/// Routing's rules for the events that change what it remembers.
enum RoutingRules {
  /// Takes one event of the sound server or of the person's requests.
  ///
  /// - Parameters:
  ///   - memory: What routing remembers, changed in place.
  ///   - view: The world at the event: the server's state, for the
  ///     events that read it, and the last snapshot.
  ///   - event: The event.
  ///   - policy: The policy in force.
  ///   - now: The time, in seconds on the engine's clock.
  /// - Returns: What routing noticed, in order.
  static func step(
    _ memory: inout RouteTracking, _ view: EngineView, _ event: EngineEvent,
    _ policy: Policy, now: Double
  ) -> [RoutingNotice] {
    let server = view.server
    switch event {
    case .serverState(let fresh):
      guard let server else { return [] }
      recognizeSentDefaults(&memory, in: server.mirror, fresh: fresh)
      return observe(&memory, server, policy, now: now)
    case .presence:
      guard let server else { return [] }
      memory.notePresence(
        of: server.registered, sinks: server.mirror.sinks,
        headphonesByBlueZ: server.headphonesByBlueZ,
        defaultOutput: memory.outputs.decidingOn(
          server.mirror.serverInfo.defaultSinkName),
        reappearGrace: policy.reappearGraceSeconds, now: now)
      return []
    case .confirmDue:
      guard let server else { return [] }
      return confirm(&memory, server.mirror)
    case .personsMovesConfirmed(let streams):
      let present = Set(server?.mirror.sinkInputs.map(\.index) ?? [])
      let moved = memory.confirmMoves(streams).sorted().filter {
        present.contains($0)
      }
      return moved.isEmpty ? [] : [.streamsMovedByThePerson(moved)]
    case .serverLost:
      memory.forgetConnection()
      return []
    case .paired(let addresses):
      memory.notePaired(addresses)
      return []
    case .choose(let words):
      let chosen: ChosenDevice
      switch device(
        named: words, on: server?.mirror, snapshot: view.snapshot)
      {
      case .success(let device): chosen = device
      case .failure(let error): return [.choiceRefused(error)]
      }
      memory.choose(chosen.name, isInput: chosen.isInput, at: now)
      return [.deviceChosen(chosen)]
        + (chosen.isInput
          ? [] : [.outputChosen(ManualChoice(output: chosen.name, at: now))])
    case .forgetChoices:
      return [.choicesForgotten(memory.forgetManualChoices())]
    case .updateArrives(let update):
      // Taken off while it has the audio, with `media.pauseWhenTakenOff`
      // on: its media is paused before the route may change.
      guard update.followsMedia, update.wasWorn, update.takesOff,
        policy.pauseWhenTakenOff, let output = update.outputWithTheAudio
      else { return [] }
      return [.pauseBeforeStaging(accessory: update.accessory, output: output)]
    case .decide, .routeAnswered, .media, .bluetoothDevices:
      return []
    }
  }

  /// Learns from a state of the server.
  private static func observe(
    _ memory: inout RouteTracking, _ server: ServerView, _ policy: Policy,
    now: Double
  ) -> [RoutingNotice] {
    let mirror = server.mirror
    let choiceBefore = memory.manualChoice
    let inputChoiceBefore = memory.inputs.manualChoice
    let goneBefore = memory.goneConfiguredOutput
    memory.observe(
      server: mirror.serverInfo, sinks: mirror.sinks,
      sinkInputs: mirror.sinkInputs, sources: mirror.sources,
      sourceOutputs: mirror.sourceOutputs, accessories: server.registered,
      headphonesByBlueZ: server.headphonesByBlueZ,
      reappearGrace: policy.reappearGraceSeconds, now: now)
    var notices: [RoutingNotice] = []
    if let gone = memory.goneConfiguredOutput, gone != goneBefore {
      notices.append(.goneOutputKept(gone))
    }
    if let choice = memory.manualChoice, choice != choiceBefore {
      notices.append(.outputChosen(choice))
    }
    if let choice = memory.inputs.manualChoice, choice != inputChoiceBefore {
      notices.append(.inputChosen(choice))
    }
    if !memory.leftTheDefault.isEmpty {
      notices.append(.defaultsToCheck(memory.leftTheDefault))
    }
    let moved = memory.movedByThePerson.filter {
      !memory.leftTheDefault.contains($0)
    }
    if !moved.isEmpty { notices.append(.streamsMovedByThePerson(moved)) }
    return notices
  }
}

/// What a route sends: a decision's changes, less those already sent and
/// not yet seen (a state that shows an earlier moment would otherwise
/// repeat them).
public struct RouteSend: Sendable, Hashable {
  /// The default output to send, if any.
  public var defaultChange: String?
  /// The default input to send, if any.
  public var inputChange: String?
  /// Every move decided and not already sent.
  public var moves: [StreamMove]
  /// The streams of ``moves`` a default change carries by itself (on
  /// PulseAudio, those on the old default): moved only if they stay
  /// behind.
  public var carried: Set<UInt32>
  /// The card profiles to switch, first.
  public var profiles: [ProfileRequest]
  /// The default set again so that the server forgets a gone output it
  /// keeps as its configured default.
  public var reassert: DefaultReassertion?

  /// Whether the route sends anything to the server.
  public var sendsSomething: Bool {
    defaultChange != nil || !moves.isEmpty || !profiles.isEmpty
      || inputChange != nil
  }
}

/// A default set again, changing nothing that plays: setting a default
/// replaces the configured one, so the server forgets a gone output it
/// kept as its configured default (and would make the default again when
/// it comes back).
public struct DefaultReassertion: Sendable, Hashable {
  /// The default the server shows, which stays.
  public var keeping: String
  /// The gone output forgotten, if known.
  public var forgotten: String?
}

/// What the server answered to a route, as routing remembers it.
public struct RouteConclusion: Sendable, Hashable {
  /// What was sent.
  public var send: RouteSend
  /// Whether the batch failed whole (the server went away): nothing of it
  /// is expected any more.
  public var failedWhole: Bool
  /// Whether the server refused the default output.
  public var defaultRefused: Bool
  /// Whether the server refused the default input.
  public var inputRefused: Bool
  /// The moves the server refused.
  public var refusedMoves: [StreamMove]

  /// Creates a conclusion.
  public init(
    send: RouteSend, failedWhole: Bool = false, defaultRefused: Bool = false,
    inputRefused: Bool = false, refusedMoves: [StreamMove] = []
  ) {
    self.send = send
    self.failedWhole = failedWhole
    self.defaultRefused = defaultRefused
    self.inputRefused = inputRefused
    self.refusedMoves = refusedMoves
  }
}

extension RoutingRules {
  /// What a decision sends, remembered as sent: the echo filter.
  ///
  /// - Parameters:
  ///   - decision: The decision.
  ///   - memory: What routing remembers; the defaults and moves sent are
  ///     expected from now on.
  ///   - server: The state decided on, for the moves a default carries.
  ///   - leavingFollowers: On PulseAudio, whether to leave the streams
  ///     that follow the default to the default change.
  ///   - now: The time of the decision.
  static func send(
    _ decision: Decision, _ memory: inout RouteTracking, server: ServerMirror?,
    leavingFollowers: Bool, now: Double
  ) -> RouteSend {
    let defaultChange =
      decision.defaultChange == memory.expectedDefault
      ? nil : decision.defaultChange
    let moves = decision.moves.filter {
      memory.expectedMoves[$0.stream] != $0.to
    }
    let inputChange =
      decision.defaultInputChange == memory.expectedDefaultInput
      ? nil : decision.defaultInputChange
    var reassert: DefaultReassertion?
    if decision.reassertsDefault, let target = decision.target {
      reassert = DefaultReassertion(
        keeping: target, forgotten: memory.goneConfiguredOutput?.name)
      memory.forgetGoneConfiguredOutput()
    }
    let carried =
      leavingFollowers
      ? movesCarriedByDefault(moves, to: defaultChange, on: server) : []
    let send = RouteSend(
      defaultChange: defaultChange, inputChange: inputChange, moves: moves,
      carried: carried, profiles: decision.profileRequests, reassert: reassert)
    guard send.sendsSomething else { return send }
    if let defaultChange { memory.sendDefault(defaultChange, at: now) }
    if let inputChange {
      memory.sendDefault(inputChange, isInput: true, at: now)
    }
    for move in moves { memory.expectedMoves[move.stream] = move.to }
    return send
  }

  /// The streams of `moves` that a default change to `newDefault` carries
  /// by itself: on PulseAudio, those on the current default that move to
  /// the new one (unless pinned, which only the server knows).
  static func movesCarriedByDefault(
    _ moves: [StreamMove], to newDefault: String?, on mirror: ServerMirror?
  ) -> Set<UInt32> {
    guard let mirror, let newDefault, !mirror.serverInfo.isPipeWire,
      let oldDefault = mirror.defaultSink
    else { return [] }
    let onOldDefault = Set(
      mirror.sinkInputs(onSinkNamed: oldDefault.name).map(\.index))
    return Set(
      moves.filter { $0.to == newDefault && onOldDefault.contains($0.stream) }
        .map(\.stream))
  }

  /// Forgets what the server refused of a route, or all of it when the
  /// batch failed whole: only what this route set, since the states taken
  /// in meanwhile may already have settled some.
  static func conclude(
    _ conclusion: RouteConclusion, _ memory: inout RouteTracking
  ) {
    let send = conclusion.send
    func forgetOwn(_ moves: [StreamMove]) {
      for move in moves where memory.expectedMoves[move.stream] == move.to {
        memory.expectedMoves[move.stream] = nil
      }
    }
    if conclusion.failedWhole {
      if let change = send.defaultChange {
        memory.forgetExpectedDefault(change)
      }
      if let change = send.inputChange {
        memory.forgetExpectedDefaultInput(change)
      }
      forgetOwn(send.moves)
      memory.routeRefused = false
      return
    }
    if conclusion.defaultRefused, let change = send.defaultChange {
      memory.forgetExpectedDefault(change)
    }
    if conclusion.inputRefused, let change = send.inputChange {
      memory.forgetExpectedDefaultInput(change)
    }
    forgetOwn(conclusion.refusedMoves)
    memory.routeRefused =
      conclusion.defaultRefused || !conclusion.refusedMoves.isEmpty
  }

  /// Checks, once the server has had time, that what was sent showed up.
  static func confirm(
    _ memory: inout RouteTracking, _ mirror: ServerMirror
  ) -> [RoutingNotice] {
    let output = memory.expectedDefault.flatMap {
      mirror.defaultSinkName == $0 ? nil : $0
    }
    let input = memory.expectedDefaultInput.flatMap {
      mirror.defaultSourceName == $0 ? nil : $0
    }
    if output != nil || input != nil {
      if let output {
        memory.expectedDefault = nil
        memory.awaitingFreshOutput = output
      }
      if let input {
        memory.expectedDefaultInput = nil
        memory.awaitingFreshInput = input
      }
      memory.expectedMoves = [:]
      return [.defaultsNotShown(output: output, input: input)]
    }
    let refused = memory.routeRefused
    memory.routeRefused = false
    guard refused || !memory.expectedMoves.isEmpty else { return [] }
    memory.expectedMoves = [:]
    guard memory.resendsInARow < RouteTracking.resendLimit else {
      // Not in effect: pending until a change makes the engine route
      // again; states that route alike (a cork, its own mutes) still
      // decide nothing.
      memory.resendingGaveUp = true
      return [
        .routeGivenUp(
          timesSent: memory.resendsInARow + 1, output: memory.lastSentTarget)
      ]
    }
    memory.resendsInARow += 1
    return [.routeNotCarriedOut]
  }

  /// Before a state is learnt from: one that shows a default sent and not
  /// shown in time shows this service's own change; the first state of a
  /// new connection answers the question either way.
  static func recognizeSentDefaults(
    _ memory: inout RouteTracking, in mirror: ServerMirror, fresh: Bool
  ) {
    if let sent = memory.awaitingFreshInput,
      mirror.defaultSourceName == sent
    {
      memory.awaitingFreshInput = nil
      memory.expectedDefaultInput = sent
    }
    if let sent = memory.awaitingFreshOutput,
      mirror.defaultSinkName == sent
    {
      memory.awaitingFreshOutput = nil
      memory.expectedDefault = sent
    }
    if fresh {
      memory.awaitingFreshOutput = nil
      memory.awaitingFreshInput = nil
    }
  }
}

/// The decision `route --explain` shows, as routing remembers it: its
/// output, and the outputs its snapshot had.
public struct ExplainedRoute: Sendable, Hashable {
  /// The output it chose.
  public var target: String?
  /// The names of its snapshot's outputs.
  public var outputs: Set<String>
  /// The accessories its snapshot's outputs belonged to.
  public var accessories: Set<String>

  /// Remembers a decision.
  init(_ decision: Decision, on snapshot: Snapshot) {
    target = decision.target
    outputs = Set(snapshot.outputs.map(\.name))
    accessories = Set(snapshot.outputs.compactMap(\.accessory))
  }

  /// Whether a snapshot shows headphones, or an accessory's output, that
  /// this one did not: a new device, not one of them under another name.
  func headphonesCame(in snapshot: Snapshot) -> Bool {
    snapshot.outputs.contains { output in
      guard !outputs.contains(output.name),
        output.isHeadphones || output.accessory != nil
      else { return false }
      return output.accessory.map { !accessories.contains($0) } ?? true
    }
  }
}

extension RouteTracking {
  /// Whether `route --explain` shows a decision from now on: one that
  /// changes something, chooses another output, was not asked for by the
  /// server's echo alone, or was made as headphones or an accessory's
  /// output came (why headphones that connected did not take the output
  /// is worth explaining; another device, or the same headphones under
  /// another profile's output, is not).
  mutating func explain(
    _ decision: Decision, on snapshot: Snapshot, changing: Bool, echo: Bool
  ) -> Bool {
    let worth =
      changing || decision.target != explained?.target || !echo
      || explained?.headphonesCame(in: snapshot) == true
    if worth { explained = ExplainedRoute(decision, on: snapshot) }
    return worth
  }
}
