// The router's memory: manual choices, pins, history and outputs that come
// and go, learned from successive server states.

import RoutingCore
import SoundServerModel
import Testing

private func sink(
  _ index: UInt32, _ name: String, address: String? = nil
) -> Sink {
  var properties: [String: String] = [:]
  if let address { properties["api.bluez5.address"] = address }
  return Sink(
    index: index, name: name, description: name, properties: properties,
    ports: [], activePortName: nil, state: .running, isMuted: false,
    cardIndex: nil, ownerModuleIndex: nil, driver: nil)
}

private func stream(
  _ index: UInt32, on sink: UInt32, properties: [String: String] = [:]
) -> SinkInput {
  SinkInput(
    index: index, name: nil, sinkIndex: sink, clientIndex: nil,
    clientName: nil, properties: properties, isCorked: false, isMuted: false,
    ownerModuleIndex: nil)
}

private func source(
  _ index: UInt32, _ name: String, monitorOf sink: UInt32? = nil
) -> Source {
  Source(
    index: index, name: name, description: name, properties: [:], ports: [],
    activePortName: nil, isMuted: false, monitorOfSinkIndex: sink,
    cardIndex: nil, ownerModuleIndex: nil, driver: nil)
}

private func server(
  default name: String?, isPipeWire: Bool = false
) -> ServerInfo {
  ServerInfo(
    serverName: isPipeWire ? "PulseAudio (on PipeWire 0.3.65)" : "pulseaudio",
    serverVersion: isPipeWire ? "15.0.0" : "16.1", defaultSinkName: name,
    defaultSourceName: nil, hostName: "h", userName: "u")
}

extension RouteTracking {
  /// Observes a state with no streams and no accessories.
  fileprivate mutating func see(
    default name: String?, _ sinks: [Sink], pipeWire: Bool = false,
    at now: Double
  ) {
    observe(
      server: server(default: name, isPipeWire: pipeWire), sinks: sinks,
      sinkInputs: [], accessories: [], reappearGrace: 5, now: now)
  }
}

@Suite("Route tracking")
struct RouteTrackingTests {
  let speaker = sink(0, "speaker")
  let buds = sink(1, "buds", address: "aa:bb:cc:dd:ee:01")

  @Test func aDefaultChangeOfItsOwnIsNotAManualChoice() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, buds],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 10)
    tracking.expectedDefault = "buds"
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 11)
    #expect(tracking.manualChoice == nil)
    #expect(tracking.history == ["speaker"])
    #expect(tracking.expectedDefault == nil)
  }

  @Test func twoOwnDefaultsInARowAreNeitherAManualChoice() {
    let headset = sink(2, "headset", address: "aa:bb:cc:dd:ee:02")
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, buds, headset],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 10)
    tracking.expectedDefault = "buds"
    tracking.expectedDefault = "headset"
    // The server reports the first after the second was sent.
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds, headset],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 11)
    #expect(tracking.manualChoice == nil)
    #expect(tracking.expectedDefaults == ["headset"])
    tracking.observe(
      server: server(default: "headset"), sinks: [speaker, buds, headset],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 12)
    #expect(tracking.manualChoice == nil)
    #expect(tracking.expectedDefault == nil)
  }

  @Test func aSentDefaultNotYetShownIsTheOneDecidedOn() {
    let headset = sink(2, "headset", address: "aa:bb:cc:dd:ee:02")
    let all = [speaker, buds, headset]
    var tracking = RouteTracking()
    tracking.see(default: "speaker", all, pipeWire: true, at: 10)
    #expect(tracking.outputs.decidingOn("speaker") == "speaker")
    #expect(tracking.outputs.decidingSince == 10)
    tracking.sendDefault("buds", at: 10.5)
    // PipeWire has not told this client: the sent one holds, since it was
    // sent.
    tracking.see(default: "speaker", all, pipeWire: true, at: 11)
    #expect(tracking.outputs.decidingOn("speaker") == "buds")
    #expect(tracking.outputs.decidingSince == 10.5)
    // Another change shown since is newer than what was sent, and stays
    // so when the default the state showed before comes back.
    tracking.see(default: "headset", all, pipeWire: true, at: 12)
    #expect(tracking.outputs.decidingOn("headset") == "headset")
    tracking.see(default: "speaker", all, pipeWire: true, at: 13)
    #expect(tracking.outputs.decidingOn("speaker") == "speaker")
    #expect(tracking.outputs.decidingSince == 13)
  }

  @Test func ofTwoSentTheLaterHoldsThroughALateReportOfTheFirst() {
    let headset = sink(2, "headset", address: "aa:bb:cc:dd:ee:02")
    let all = [speaker, buds, headset]
    var tracking = RouteTracking()
    tracking.see(default: "speaker", all, at: 10)
    tracking.sendDefault("buds", at: 10.5)
    tracking.sendDefault("headset", at: 10.6)
    tracking.see(default: "buds", all, at: 11)
    #expect(tracking.outputs.decidingOn("buds") == "headset")
    tracking.see(default: "headset", all, at: 12)
    #expect(tracking.expectedDefault == nil)
    #expect(tracking.outputs.decidingOn("headset") == "headset")
  }

  @Test func aSentDefaultShownLateIsTheDefaultSinceItWasSent() {
    var tracking = RouteTracking()
    tracking.see(default: "speaker", [speaker, buds], pipeWire: true, at: 10)
    tracking.sendDefault("buds", at: 10.5)
    tracking.see(default: "buds", [speaker, buds], pipeWire: true, at: 12)
    #expect(tracking.outputs.currentSince == 10.5)
    #expect(tracking.outputs.decidingSince == 10.5)
  }

  @Test func aDefaultSentAfterTheOldOneWentReplacesItsConfiguration() {
    var tracking = RouteTracking()
    tracking.see(default: "buds", [speaker, buds], at: 10)
    // The buds go; this service sets the speaker before the server shows
    // its own fallback, then its own change.
    tracking.sendDefault("speaker", at: 11)
    tracking.see(default: "speaker", [speaker], at: 11.5)
    #expect(tracking.goneConfiguredOutput == nil)
    // Without a send, the server's fallback keeps the buds configured.
    var fallback = RouteTracking()
    fallback.see(default: "buds", [speaker, buds], at: 10)
    fallback.see(default: "speaker", [speaker], at: 11.5)
    #expect(fallback.goneConfiguredOutput?.name == "buds")
  }

  @Test func aSentDefaultThatWentWasRefusedOrIsOldIsNotDecidedOn() {
    var tracking = RouteTracking()
    tracking.see(default: "speaker", [speaker, buds], at: 10)
    tracking.sendDefault("buds", at: 10.5)
    tracking.see(default: "speaker", [speaker], at: 11)
    #expect(tracking.outputs.decidingOn("speaker") == "speaker")
    tracking.see(default: "buds", [speaker, buds], at: 12)
    #expect(tracking.expectedDefault == nil)
    #expect(tracking.outputs.decidingOn("buds") == "buds")
    // Refused: the one shown.
    tracking.sendDefault("speaker", at: 13)
    tracking.forgetExpectedDefault("speaker")
    #expect(tracking.outputs.decidingOn("buds") == "buds")
    // A new connection's first state is what there is.
    tracking.sendDefault("speaker", at: 14)
    tracking.forgetConnection()
    tracking.see(default: "buds", [speaker, buds], at: 15)
    #expect(tracking.outputs.decidingOn("buds") == "buds")
    // An input sent is decided on the same way.
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      sources: [source(0, "speaker.monitor", monitorOf: 0), source(2, "mic")],
      accessories: [], reappearGrace: 5, now: 16)
    tracking.sendDefault("mic", isInput: true, at: 17)
    #expect(tracking.inputs.decidingOn(nil) == "mic")
  }

  @Test func aMonitorFollowingTheDefaultOutputIsNoChoiceOfTheInput() {
    let mic = source(2, "mic")
    let sources = [
      source(0, "speaker.monitor", monitorOf: 0),
      source(1, "buds.monitor", monitorOf: 1), mic,
    ]
    func state(_ output: String, _ input: String) -> ServerInfo {
      var info = server(default: output)
      info.defaultSourceName = input
      return info
    }
    var tracking = RouteTracking()
    func see(_ output: String, _ input: String, at now: Double) {
      tracking.observe(
        server: state(output, input), sinks: [speaker, buds], sinkInputs: [],
        sources: sources, accessories: [], reappearGrace: 5, now: now)
    }
    see("speaker", "speaker.monitor", at: 10)
    tracking.expectedDefault = "buds"
    // PulseAudio, with no input configured, moves its pick among monitors
    // to the new default output's.
    see("buds", "buds.monitor", at: 11)
    #expect(tracking.inputs.manualChoice == nil)
    // A microphone as the output changes, or a monitor that is not the new
    // output's, is the person's.
    tracking.expectedDefault = "speaker"
    see("speaker", "mic", at: 12)
    #expect(tracking.inputs.manualChoice?.output == "mic")
    tracking.expectedDefault = "buds"
    see("buds", "speaker.monitor", at: 13)
    #expect(tracking.inputs.manualChoice?.output == "speaker.monitor")
    // From a microphone, the new output's monitor is the person's too.
    see("buds", "mic", at: 14)
    tracking.expectedDefault = "speaker"
    see("speaker", "speaker.monitor", at: 15)
    #expect(tracking.inputs.manualChoice?.output == "speaker.monitor")
  }

  @Test func aRefusedDefaultIsForgottenAloneNotTheOnesBefore() {
    var tracking = RouteTracking()
    tracking.see(default: "speaker", [speaker, buds], at: 10)
    tracking.expectedDefault = "buds"
    tracking.expectedDefault = "speaker"
    tracking.forgetExpectedDefault("speaker")
    #expect(tracking.expectedDefaults == ["buds"])
    // The first one, acknowledged earlier, still shows up as this
    // service's own.
    tracking.see(default: "buds", [speaker, buds], at: 11)
    #expect(tracking.manualChoice == nil)
  }

  @Test func aNewStreamOffTheDefaultStaysWhereItStarted() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 10)
    // Two streams start: one on the default, one already on the speaker
    // (PipeWire can show a stream moved right after it started only there).
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds],
      sinkInputs: [stream(1, on: 1), stream(2, on: 0)], accessories: [],
      reappearGrace: 5, now: 11)
    #expect(tracking.pins == [2: .startedThere])
    // A stream that starts on the output this service is switching to is
    // not pinned there.
    tracking.expectedDefault = "speaker"
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds],
      sinkInputs: [stream(1, on: 1), stream(2, on: 0), stream(3, on: 0)],
      accessories: [], reappearGrace: 5, now: 12)
    #expect(tracking.pins == [2: .startedThere])
  }

  @Test func anotherProgramsDefaultChangeIsAManualChoice() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 10)
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, buds],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 12)
    #expect(tracking.manualChoice?.output == "speaker")
    #expect(tracking.manualChoice?.at == 12)
  }

  @Test func aRestartedServersOwnDefaultIsNotAManualChoice() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 10)
    tracking.forgetConnection()
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, buds],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 20)
    #expect(tracking.manualChoice == nil)
  }

  @Test func theServersFallbackWhenAnOutputGoesIsNotAManualChoice() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 10)
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 11)
    #expect(tracking.manualChoice == nil)
  }

  @Test func theServersDefaultAMomentAfterAnOutputCameIsNotAManualChoice() {
    let phones = sink(2, "buds.2", address: "aa:bb:cc:dd:ee:01")
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 10)
    // The output comes back under a new name; WirePlumber settles on
    // another default a moment later, in a state of its own.
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 11)
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, buds, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 11.5)
    #expect(tracking.manualChoice == nil)
    // Later, the same change is the person's.
    tracking.observe(
      server: server(default: "buds.2"), sinks: [speaker, buds, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 13)
    #expect(tracking.manualChoice?.output == "buds.2")
  }

  @Test func aStreamThePersonMovesIsPinnedUntilItGoesBackToTheDefault() {
    var tracking = RouteTracking()
    let sinks = [speaker, buds]
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 0)], accessories: [], reappearGrace: 5,
      now: 10)
    // Moved by someone else to a sink that is not the default.
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 1)], accessories: [], reappearGrace: 5,
      now: 11)
    #expect(tracking.pins[7] == .user)
    #expect(tracking.movedByThePerson == [7])
    // Moved back to the default: free again, and the person's move too.
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 0)], accessories: [], reappearGrace: 5,
      now: 12)
    #expect(tracking.pins[7] == nil)
    #expect(tracking.movedByThePerson == [7])
    // A state with no move says none.
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 0)], accessories: [], reappearGrace: 5,
      now: 13)
    #expect(tracking.movedByThePerson.isEmpty)
  }

  @Test func onPipeWireStreamsLeavingAnUnchangedDefaultAwaitTheCheck() {
    var tracking = RouteTracking()
    let sinks = [speaker, buds]
    tracking.observe(
      server: server(default: "buds", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 1), stream(2, on: 1)], accessories: [],
      reappearGrace: 5, now: 10)
    // Both move to the speaker; the server still shows the buds.
    tracking.observe(
      server: server(default: "buds", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 0), stream(2, on: 0)], accessories: [],
      reappearGrace: 5, now: 11)
    #expect(tracking.leftTheDefault == [1, 2])
    #expect(tracking.unconfirmedMoves == [1, 2])
    #expect(tracking.pins[1] == .user)
    // A fresh state shows the default on the speaker: they followed it.
    tracking.observe(
      server: server(default: "speaker", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 0), stream(2, on: 0)], accessories: [],
      reappearGrace: 5, now: 12)
    #expect(tracking.manualChoice?.output == "speaker")
    #expect(tracking.pins.isEmpty)
    #expect(tracking.unconfirmedMoves.isEmpty)
  }

  @Test func aConfirmedMoveOffTheDefaultStaysPinned() {
    var tracking = RouteTracking()
    let sinks = [speaker, buds]
    tracking.observe(
      server: server(default: "buds", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 1)], accessories: [], reappearGrace: 5,
      now: 10)
    tracking.observe(
      server: server(default: "buds", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 0)], accessories: [], reappearGrace: 5,
      now: 11)
    #expect(tracking.confirmMoves([1, 7]) == [1])
    // The person later makes the speaker the default: the stream stays
    // theirs, pinned.
    tracking.observe(
      server: server(default: "speaker", isPipeWire: true), sinks: sinks,
      sinkInputs: [stream(1, on: 0)], accessories: [], reappearGrace: 5,
      now: 12)
    #expect(tracking.pins[1] == .user)
  }

  @Test func onPulseAudioAndAfterItsOwnDefaultNothingAwaitsTheCheck() {
    var pulse = RouteTracking()
    pulse.observe(
      server: server(default: "buds"), sinks: [speaker, buds],
      sinkInputs: [stream(1, on: 1)], accessories: [], reappearGrace: 5,
      now: 10)
    pulse.observe(
      server: server(default: "buds"), sinks: [speaker, buds],
      sinkInputs: [stream(1, on: 0)], accessories: [], reappearGrace: 5,
      now: 11)
    #expect(pulse.movedByThePerson == [1])
    #expect(pulse.leftTheDefault.isEmpty)
    // On PipeWire, a stream that follows the default this service set,
    // before the server shows it, is not a sign of a hidden default.
    var pipeWire = RouteTracking()
    pipeWire.observe(
      server: server(default: "buds", isPipeWire: true),
      sinks: [speaker, buds], sinkInputs: [stream(1, on: 1)],
      accessories: [], reappearGrace: 5, now: 10)
    pipeWire.expectedDefault = "speaker"
    pipeWire.observe(
      server: server(default: "buds", isPipeWire: true),
      sinks: [speaker, buds], sinkInputs: [stream(1, on: 0)],
      accessories: [], reappearGrace: 5, now: 11)
    #expect(pipeWire.leftTheDefault.isEmpty)
  }

  @Test func aMoveOfItsOwnDoesNotPin() {
    var tracking = RouteTracking()
    let sinks = [speaker, buds]
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 0)], accessories: [], reappearGrace: 5,
      now: 10)
    tracking.expectedMoves[7] = "buds"
    tracking.observe(
      server: server(default: "speaker"), sinks: sinks,
      sinkInputs: [stream(7, on: 1)], accessories: [], reappearGrace: 5,
      now: 11)
    #expect(tracking.pins[7] == nil)
    #expect(tracking.expectedMoves.isEmpty)
    #expect(tracking.movedByThePerson.isEmpty)
  }

  @Test func aStreamWithATargetIsPinnedByItsApplication() {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker],
      sinkInputs: [stream(3, on: 0, properties: ["target.object": "speaker"])],
      accessories: [], reappearGrace: 5, now: 10)
    #expect(tracking.pins[3] == .application)
  }

  @Test func anOutputThatComesBackWithinTheGraceIsNotAReconnection() {
    var tracking = RouteTracking()
    let address = "AA:BB:CC:DD:EE:01"
    func observe(_ sinks: [Sink], at now: Double) {
      tracking.observe(
        server: server(default: "speaker"), sinks: sinks, sinkInputs: [],
        accessories: [address], reappearGrace: 5, now: now)
    }
    observe([speaker, buds], at: 10)
    #expect(tracking.presence[address]?.connectedAt == 10)
    observe([speaker], at: 20)
    #expect(tracking.presence[address]?.missingSince == 20)
    observe([speaker, buds], at: 22)
    #expect(tracking.presence[address]?.connectedAt == 10)
    #expect(tracking.presence[address]?.missingSince == nil)
    // Gone longer than the grace: coming back is a new connection.
    observe([speaker], at: 30)
    observe([speaker, buds], at: 40)
    #expect(tracking.presence[address]?.connectedAt == 40)
  }

  @Test func theHistoryKeepsTheMostRecentFirstWithoutRepeats() {
    var tracking = RouteTracking()
    let third = sink(2, "hdmi")
    for (now, name) in [
      (1.0, "speaker"), (2, "buds"), (3, "hdmi"), (4, "speaker"), (5, "buds"),
    ] {
      tracking.expectedDefault = name
      tracking.observe(
        server: server(default: name), sinks: [speaker, buds, third],
        sinkInputs: [], accessories: [], reappearGrace: 5, now: now)
    }
    #expect(tracking.history == ["speaker", "hdmi"])
  }
}

@Suite("Route tracking: a gone output the server keeps configured")
struct GoneConfiguredOutputTests {
  let speaker = sink(0, "speaker")
  let buds = sink(1, "buds", address: "aa:bb:cc:dd:ee:01")
  let phones = sink(2, "phones")

  /// The buds the default, then gone at `now` 20 with the server on the
  /// speaker.
  func budsGone() -> RouteTracking {
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 10)
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 20)
    return tracking
  }

  @Test func theServersFallbackKeepsTheGoneOutputConfigured() {
    let tracking = budsGone()
    #expect(
      tracking.goneConfiguredOutput
        == .init(name: "buds", accessory: "AA:BB:CC:DD:EE:01"))
    #expect(tracking.manualChoice == nil)
  }

  @Test func shownGoneBeforeTheFallbackStillNamesItsAccessory() {
    // A pipewire-pulse connection may show the default on the buds after
    // they went, and the fallback only after.
    var tracking = RouteTracking()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 10)
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 20)
    tracking.observe(
      server: server(default: "speaker"), sinks: [speaker], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 20.1)
    #expect(tracking.goneConfiguredOutput?.accessory == "AA:BB:CC:DD:EE:01")
  }

  @Test func aLaterFallbackKeepsTheFirstGoneOutput() {
    var tracking = budsGone()
    tracking.observe(
      server: server(default: "phones"), sinks: [phones], sinkInputs: [],
      accessories: [], reappearGrace: 5, now: 30)
    #expect(tracking.goneConfiguredOutput?.name == "buds")
  }

  @Test func thePersonsChoiceReplacesIt() {
    var tracking = budsGone()
    tracking.observe(
      server: server(default: "phones"), sinks: [speaker, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 30)
    #expect(tracking.goneConfiguredOutput == nil)
    #expect(tracking.manualChoice?.output == "phones")
  }

  @Test func itsReturnEndsIt() {
    var tracking = budsGone()
    tracking.observe(
      server: server(default: "buds"), sinks: [speaker, buds, phones],
      sinkInputs: [], accessories: [], reappearGrace: 5, now: 30)
    #expect(tracking.goneConfiguredOutput == nil)
  }

  @Test func settingTheDefaultAgainEndsIt() {
    var tracking = budsGone()
    tracking.forgetGoneConfiguredOutput()
    #expect(tracking.goneConfiguredOutput == nil)
  }
}

@Suite("Route tracking: unpaired accessories")
struct ForgottenAccessoriesTests {
  @Test func anUnpairedAccessoryIsForgottenUntilPairedAgain() {
    var tracking = RouteTracking()
    tracking.notePaired(["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"])
    #expect(tracking.forgottenAccessories.isEmpty)
    tracking.notePaired(["AA:BB:CC:DD:EE:01"])
    #expect(tracking.forgottenAccessories == ["AA:BB:CC:DD:EE:02"])
    tracking.notePaired(["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"])
    #expect(tracking.forgottenAccessories.isEmpty)
  }

  @Test func theFirstListForgetsNothing() {
    var tracking = RouteTracking()
    tracking.notePaired([])
    #expect(tracking.forgottenAccessories.isEmpty)
  }
}

@Suite("Route tracking: the server's own switches, and a flip followed")
struct ServerSwitchTrackingTests {
  let speaker = sink(0, "speaker")
  let buds = sink(1, "buds", address: "aa:bb:cc:dd:ee:01")

  /// Observes a default and sinks with no stream, nobody registered.
  private func see(
    _ tracking: inout RouteTracking, default name: String, _ sinks: [Sink],
    at now: Double
  ) {
    tracking.observe(
      server: server(default: name), sinks: sinks, sinkInputs: [],
      accessories: [], reappearGrace: 5, now: now)
  }

  @Test func theServersSwitchToAnOutputThatJustCameIsTakenOnArrival() {
    var tracking = RouteTracking()
    let boombox = sink(2, "boombox", address: "aa:bb:cc:dd:ee:07")
    see(&tracking, default: "buds", [speaker, buds], at: 1)
    see(&tracking, default: "buds", [speaker, buds, boombox], at: 10)
    see(&tracking, default: "boombox", [speaker, buds, boombox], at: 10.1)
    #expect(
      tracking.outputs.takenOnArrival?.previous == "buds"
        && tracking.outputs.takenOnArrival?.output == "boombox")
    #expect(tracking.outputs.currentSince == 10.1)
  }

  @Test func theConfiguredDefaultComingBackIsNotTakenOnArrival() {
    var tracking = RouteTracking()
    let usb = sink(3, "usb")
    see(&tracking, default: "usb", [speaker, buds, usb], at: 1)
    // The person's USB speaker goes; the server falls back to the buds.
    see(&tracking, default: "buds", [speaker, buds], at: 10)
    // Back: the server makes its configured default the default again.
    see(&tracking, default: "usb", [speaker, buds, usb], at: 20)
    #expect(tracking.outputs.takenOnArrival == nil)
  }

  @Test func aFlipOfTheDefaultHeadsetIsFollowedDespiteAnOlderChoice() {
    var tracking = RouteTracking()
    let headset = sink(4, "headset", address: "aa:bb:cc:dd:ee:01")
    see(&tracking, default: "speaker", [speaker, buds], at: 1)
    // The person once chose the speaker; later the buds became the
    // default, which the server gave them as they came.
    see(&tracking, default: "buds", [speaker, buds], at: 5)
    see(&tracking, default: "speaker", [speaker, buds], at: 7)
    see(&tracking, default: "buds", [speaker], at: 20)
    see(&tracking, default: "buds", [speaker, buds], at: 21)
    #expect(tracking.manualChoice?.output == "speaker")
    // The buds flip to their headset profile: gone, the same address back.
    see(&tracking, default: "speaker", [speaker], at: 30)
    see(&tracking, default: "speaker", [speaker, headset], at: 30.3)
    #expect(tracking.manualChoice?.output == "headset")
  }
}
