// Routing's part of the engine's step, as pure scenarios: the step learns
// from the server's states, sends only what it has not sent, forgets what
// the server refused, and tells its own late default from the person's
// choice. No server, no clock.

import RoutingCore
import SoundServerModel
import Testing

@Suite("The engine's step: routing's memory and the echo filter")
struct RoutingStepTests {
  static let speaker = Sink(
    index: 0, name: "speaker", description: "Speaker", properties: [:],
    ports: [], activePortName: nil, state: .running, isMuted: false)
  static let buds = Sink(
    index: 1, name: "bluez_output.AA_BB_CC_DD_EE_01.1",
    description: "Buds",
    properties: [
      "api.bluez5.address": "AA:BB:CC:DD:EE:01",
      "device.form_factor": "headphone",
    ],
    ports: [], activePortName: nil, state: .running, isMuted: false)
  static let music = SinkInput(
    index: 7, sinkIndex: 0, properties: [:], isCorked: false, isMuted: false)

  /// A state of the server with the speaker and the buds.
  static func state(
    default name: String, streamOn sink: UInt32 = 0, pipeWire: Bool = true
  ) -> ServerMirror {
    var stream = music
    stream.sinkIndex = sink
    return ServerMirror(
      serverInfo: ServerInfo(
        serverName: pipeWire ? "PulseAudio (on PipeWire 1.4.2)" : "pulseaudio",
        serverVersion: "16.1", defaultSinkName: name, hostName: "h",
        userName: "u"),
      sinks: [speaker, buds], sinkInputs: [stream], cards: [])
  }

  /// Steps one event on a state and returns the effects.
  static func take(
    _ memory: inout EngineMemory, _ event: EngineEvent, on state: ServerMirror,
    snapshot: Snapshot? = nil, at now: Double
  ) -> [EngineEffect] {
    let (next, effects) = EngineRules.step(
      memory,
      EngineView(
        snapshot: snapshot, server: ServerView(mirror: state, registered: [])),
      event, Policy(), now: now)
    memory = next
    return effects
  }

  /// A snapshot whose decision makes the buds the default and moves the
  /// stream to them.
  static func decidingForTheBuds(now: Double) -> Snapshot {
    Snapshot(
      accessories: [
        Accessory(
          address: "AA:BB:CC:DD:EE:01", name: "Buds", placement: .inEar,
          placementChangedAt: 0.5, connectionChangedAt: 0.5, registeredAt: 0)
      ],
      outputs: [
        Output(name: speaker.name, description: "Speaker"),
        Output(
          name: buds.name, description: "Buds",
          properties: buds.properties, accessory: "AA:BB:CC:DD:EE:01",
          isHeadphones: true),
      ],
      streams: [Stream(id: 7, output: speaker.name, role: "music")],
      defaultOutput: speaker.name, now: now)
  }

  /// What routing noticed, in order.
  static func notices(_ effects: [EngineEffect]) -> [RoutingNotice] {
    effects.compactMap {
      if case .routing(let notice) = $0 { notice } else { nil }
    }
  }

  /// Takes in the first state, then decides for the buds on it: what the
  /// route sends.
  static func connectAndDecide(
    _ memory: inout EngineMemory, on state: ServerMirror,
    leavingFollowers: Bool = false
  ) throws -> RouteSend {
    _ = take(&memory, .serverState(fresh: true), on: state, at: 1)
    return try decideForTheBuds(
      &memory, on: state, leavingFollowers: leavingFollowers, at: 2)
  }

  /// Decides for the buds on a state: what the route sends.
  static func decideForTheBuds(
    _ memory: inout EngineMemory, on state: ServerMirror,
    leavingFollowers: Bool = false, at now: Double
  ) throws -> RouteSend {
    try #require(
      sent(
        take(
          &memory, .decide(leavingFollowersToTheDefault: leavingFollowers),
          on: state, snapshot: decidingForTheBuds(now: now), at: now)))
  }

  /// The server's answer to a route with no card profiles.
  static func answer(_ conclusion: RouteConclusion) -> EngineEvent {
    .routeAnswered(
      RouteAnswer(profiles: [], profilesSwitched: [], routing: conclusion))
  }

  /// What a route sends, if the effects route.
  static func sent(_ effects: [EngineEffect]) -> RouteSend? {
    for case .route(_, _, let sending, _) in effects { return sending }
    return nil
  }

  @Test("A route sent and not yet shown is not sent again")
  func theEchoFilterKeepsWhatWasSent() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    let first = try Self.connectAndDecide(&memory, on: before)
    #expect(first.defaultChange == Self.buds.name)
    #expect(first.moves.map(\.stream) == [7])
    #expect(memory.routing.expectedDefault == Self.buds.name)

    // The server has not shown it yet: deciding again sends nothing.
    let again = try Self.decideForTheBuds(&memory, on: before, at: 2.1)
    #expect(!again.sendsSomething)

    // Shown: this service's own change, not the person's choice.
    let effects = Self.take(
      &memory, .serverState(fresh: false),
      on: Self.state(default: Self.buds.name, streamOn: 1), at: 2.2)
    #expect(Self.notices(effects).isEmpty)
    #expect(memory.routing.manualChoice == nil)
  }

  @Test("What the server refused is forgotten, and the check sends it again")
  func aRefusedRouteIsSentAgain() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    let send = try Self.connectAndDecide(&memory, on: before)
    _ = Self.take(
      &memory,
      Self.answer(
        RouteConclusion(
          send: send, defaultRefused: true, refusedMoves: send.moves)),
      on: before, at: 2.05)
    #expect(memory.routing.expectedDefault == nil)
    #expect(memory.routing.expectedMoves.isEmpty)
    #expect(memory.routing.routeRefused)

    let check = Self.take(&memory, .confirmDue, on: before, at: 3.5)
    #expect(Self.notices(check) == [.routeNotCarriedOut])
    #expect(!memory.routing.routeRefused)

    // Decided again, it is sent whole.
    let resent = try Self.decideForTheBuds(&memory, on: before, at: 3.6)
    #expect(resent.defaultChange == Self.buds.name)
  }

  @Test(
    "A route the server never carries out is sent again five times in a row, then given up until another decision"
  )
  func resendsAreBoundedInTheStep() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    var send = try Self.connectAndDecide(&memory, on: before)
    var now = 2.0
    func refuseAndCheck() -> [RoutingNotice] {
      _ = Self.take(
        &memory,
        Self.answer(
          RouteConclusion(
            send: send, defaultRefused: true, refusedMoves: send.moves)),
        on: before, at: now + 0.05)
      now += 1.5
      return Self.notices(Self.take(&memory, .confirmDue, on: before, at: now))
    }
    func resend() throws -> RouteSend {
      now += 0.1
      return try #require(
        Self.sent(
          Self.take(
            &memory,
            .decide(leavingFollowersToTheDefault: false, resending: true),
            on: before, snapshot: Self.decidingForTheBuds(now: now), at: now)))
    }
    for sent in 1...RouteTracking.resendLimit {
      #expect(refuseAndCheck() == [.routeNotCarriedOut])
      #expect(memory.routing.resendsInARow == sent)
      send = try resend()
      #expect(send.defaultChange == Self.buds.name)
    }
    #expect(
      refuseAndCheck() == [
        .routeGivenUp(
          timesSent: RouteTracking.resendLimit + 1, output: Self.buds.name)
      ])
    #expect(memory.routing.resendingGaveUp)
    // Another decision that sends something ends it and counts anew.
    send = try Self.decideForTheBuds(&memory, on: before, at: now + 0.1)
    #expect(!memory.routing.resendingGaveUp)
    #expect(memory.routing.resendsInARow == 0)
    #expect(refuseAndCheck() == [.routeNotCarriedOut])
  }

  @Test("A re-send that routes to another output is a new route, counted anew")
  func aResendToAnotherOutputCountsAnew() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    let send = try Self.connectAndDecide(&memory, on: before)
    for sent in 1...3 {
      _ = Self.take(
        &memory,
        Self.answer(
          RouteConclusion(
            send: send, defaultRefused: true, refusedMoves: send.moves)),
        on: before, at: Double(sent) + 2)
      let check = Self.take(
        &memory, .confirmDue, on: before, at: Double(sent) + 2.5)
      #expect(Self.notices(check) == [.routeNotCarriedOut])
    }
    #expect(memory.routing.resendsInARow == 3)
    // Meanwhile the buds went off the head: the re-send routes to the
    // speaker, and the server shows the buds as its default.
    // Past the grace time that keeps the output on headphones just taken
    // off.
    var takenOff = Self.decidingForTheBuds(now: 100)
    takenOff.accessories[0].placement = .offHead
    takenOff.accessories[0].placementChangedAt = 5.9
    takenOff.defaultOutput = Self.buds.name
    let resent = try #require(
      Self.sent(
        Self.take(
          &memory,
          .decide(leavingFollowersToTheDefault: false, resending: true),
          on: Self.state(default: Self.buds.name), snapshot: takenOff, at: 100))
    )
    #expect(resent.defaultChange == Self.speaker.name)
    #expect(memory.routing.resendsInARow == 0)
    #expect(memory.routing.lastSentTarget == Self.speaker.name)
  }

  @Test(
    "A default sent that the server shows only to a new client is this service's, not the person's"
  )
  func aLateDefaultIsRecognizedInTheFreshState() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    let send = try Self.connectAndDecide(&memory, on: before)
    _ = Self.take(
      &memory, Self.answer(RouteConclusion(send: send)), on: before, at: 2.05)

    // PipeWire did not tell this client: the check asks for a fresh state.
    let check = Self.take(&memory, .confirmDue, on: before, at: 3.5)
    #expect(
      Self.notices(check) == [
        .defaultsNotShown(output: Self.buds.name, input: nil)
      ])
    #expect(memory.routing.expectedDefault == nil)
    #expect(memory.routing.awaitingFreshOutput == Self.buds.name)

    // The fresh state shows it: recognized as sent, no choice noticed.
    let fresh = Self.take(
      &memory, .serverState(fresh: true),
      on: Self.state(default: Self.buds.name, streamOn: 1), at: 3.7)
    #expect(Self.notices(fresh).isEmpty)
    #expect(memory.routing.manualChoice == nil)
    #expect(memory.routing.awaitingFreshOutput == nil)
  }

  @Test("A default another program sets is the person's choice, told once")
  func anotherProgramsDefaultIsNoticed() {
    var memory = EngineMemory()
    _ = Self.take(
      &memory, .serverState(fresh: true),
      on: Self.state(default: Self.speaker.name), at: 1)
    let effects = Self.take(
      &memory, .serverState(fresh: false),
      on: Self.state(default: Self.buds.name), at: 5)
    #expect(
      Self.notices(effects) == [
        .outputChosen(ManualChoice(output: Self.buds.name, at: 5))
      ])
    let again = Self.take(
      &memory, .serverState(fresh: false),
      on: Self.state(default: Self.buds.name), at: 6)
    #expect(Self.notices(again).isEmpty)
  }

  @Test("On PulseAudio the default carries the streams on the old default")
  func theDefaultCarriesItsFollowers() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name, pipeWire: false)
    let send = try Self.connectAndDecide(
      &memory, on: before, leavingFollowers: true)
    #expect(send.carried == [7])
    var onPipeWire = EngineMemory()
    let pipeWire = Self.state(default: Self.speaker.name)
    let direct = try Self.connectAndDecide(
      &onPipeWire, on: pipeWire, leavingFollowers: true)
    #expect(direct.carried.isEmpty)
  }

  @Test("An echo that changes nothing is not what route --explain shows")
  func theExplainedDecisionIsTheStepsChoice() throws {
    var memory = EngineMemory()
    let before = Self.state(default: Self.speaker.name)
    _ = Self.take(&memory, .serverState(fresh: true), on: before, at: 1)
    func explained(_ event: EngineEvent, at now: Double) -> Bool? {
      for case .route(_, _, _, let explained) in Self.take(
        &memory, event, on: before,
        snapshot: Self.decidingForTheBuds(now: now), at: now)
      {
        return explained
      }
      return nil
    }
    // The first decision sends the route: explained.
    #expect(
      explained(.decide(leavingFollowersToTheDefault: false), at: 2) == true)
    // The server's echo of it changes nothing and chooses the same output.
    #expect(
      explained(
        .decide(leavingFollowersToTheDefault: false, echo: true), at: 2.1)
        == false)
    // A request's decision is explained even when it changes nothing.
    #expect(
      explained(.decide(leavingFollowersToTheDefault: false), at: 2.2) == true)
    #expect(memory.routing.explained?.target == Self.buds.name)
  }

  @Test("Taken off with the audio, the media pause first, as the policy says")
  func pauseBeforeStagingIsTheStepsChoice() {
    let update = ArrivingUpdate(
      accessory: "AA:BB:CC:DD:EE:01", wasWorn: true, takesOff: true,
      outputWithTheAudio: 1, followsMedia: true)
    func notices(_ update: ArrivingUpdate, _ policy: Policy) -> [RoutingNotice]
    {
      Self.notices(
        EngineRules.step(
          EngineMemory(), EngineView(), .updateArrives(update), policy, now: 1
        ).1)
    }
    #expect(
      notices(update, Policy()) == [
        .pauseBeforeStaging(accessory: "AA:BB:CC:DD:EE:01", output: 1)
      ])
    var off = Policy()
    off.pauseWhenTakenOff = false
    #expect(notices(update, off).isEmpty)
    var elsewhere = update
    elsewhere.outputWithTheAudio = nil
    #expect(notices(elsewhere, Policy()).isEmpty)
    var notWorn = update
    notWorn.wasWorn = false
    #expect(notices(notWorn, Policy()).isEmpty)
  }

  /// `acctl output NAME`: the step tells which device the words name, or
  /// why none is taken, and remembers the choice it takes.
  @Test(
    "A request names a device: by name or description, else refused with why"
  )
  func aRequestNamesADevice() {
    var memory = EngineMemory()
    let state = Self.state(default: Self.speaker.name)
    // By description, in any case: the buds' output, the person's choice.
    let chosen = Self.notices(
      Self.take(&memory, .choose(device: "bUDS"), on: state, at: 1))
    #expect(
      chosen == [
        .deviceChosen(ChosenDevice(name: Self.buds.name, isInput: false)),
        .outputChosen(ManualChoice(output: Self.buds.name, at: 1)),
      ])
    #expect(memory.routing.manualChoice?.output == Self.buds.name)
    // No such device: refused, naming what there is.
    #expect(
      Self.notices(
        Self.take(&memory, .choose(device: "hdmi"), on: state, at: 2))
        == [
          .choiceRefused(
            .unknown("hdmi", known: [Self.speaker.name, Self.buds.name]))
        ])
    // Two outputs with one description: refused, naming both.
    var twins = state
    twins.sinks[1].description = "Speaker"
    #expect(
      Self.notices(
        Self.take(&memory, .choose(device: "speaker"), on: twins, at: 3))
        == [
          .deviceChosen(ChosenDevice(name: Self.speaker.name, isInput: false)),
          .outputChosen(ManualChoice(output: Self.speaker.name, at: 3)),
        ])
    #expect(
      Self.notices(
        Self.take(&memory, .choose(device: "SPEAKER"), on: twins, at: 4))
        == [
          .choiceRefused(
            .ambiguous("SPEAKER", names: [Self.speaker.name, Self.buds.name]))
        ])
    // Unplugged, as the last snapshot says: refused; the choice stays.
    var snapshot = Self.decidingForTheBuds(now: 5)
    snapshot.outputs[1].ports = [.init(name: "out", isAvailable: false)]
    snapshot.outputs[1].activePort = "out"
    #expect(
      Self.notices(
        Self.take(
          &memory, .choose(device: "Buds"), on: state, snapshot: snapshot,
          at: 5))
        == [.choiceRefused(.unavailable(Self.buds.name))])
    #expect(memory.routing.manualChoice?.output == Self.speaker.name)
  }
}
