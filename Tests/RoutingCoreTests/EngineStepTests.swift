// The engine's one step over a whole call: what the call rules remember
// between decisions (the profile to give back, when the call ended, the
// input made the default for it) lives in the step's memory, and the
// server's answers come back as events. Pure: no server, no clock.

import RoutingCore
import Testing

@Suite("The engine's step: calls remembered between decisions")
struct EngineStepTests {
  /// Takes one event and returns the new memory and the route decided,
  /// if any.
  static func take(
    _ memory: EngineMemory, _ event: EngineEvent, on snapshot: Snapshot? = nil
  ) -> (EngineMemory, Decision?) {
    let (next, effects) = EngineRules.step(
      memory, EngineView(snapshot: snapshot), event, Policy(),
      now: snapshot?.now ?? 0)
    let decisions = effects.compactMap {
      if case .route(let decision, _, _, _) = $0 { decision } else { nil }
    }
    return (next, decisions.first)
  }

  @Test(
    "A call from its start to the profile given back",
    arguments: BluetoothFixtures.Server.allCases)
  func wholeCall(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    let call = CallsTests.callStream(since: 99.7)
    var memory = EngineMemory()

    // Started: the profile is asked for, and remembered once switched.
    let active = fixture.snapshot(
      placement: .inEar, captureStreams: [call], now: 100.2)
    let (afterStart, started) = Self.take(
      memory, .decide(leavingFollowersToTheDefault: false), on: active)
    memory = afterStart
    let switchToHeadset = try #require(started?.profileRequests.first)
    #expect(switchToHeadset.purpose == .call)
    #expect(memory.calls.running)
    #expect(memory.calls.profiles.isEmpty)
    (memory, _) = Self.take(
      memory,
      .routeAnswered(
        RouteAnswer(profiles: [switchToHeadset], profilesSwitched: [true])))
    #expect(
      memory.calls.profiles == [
        CallProfile(
          card: fixture.cardName, previousProfile: fixture.musicProfile,
          callProfile: fixture.headsetProfile)
      ])

    // In the headset profile: its microphone, remembered as the call's.
    var inCall = fixture.inCall(now: 103)
    inCall.callProfiles = []
    let (afterInput, input) = Self.take(
      memory, .decide(leavingFollowersToTheDefault: false), on: inCall)
    memory = afterInput
    #expect(input?.defaultInputChange == fixture.headsetSource.name)
    #expect(memory.calls.input == fixture.headsetSource.name)

    // The server refuses the input: forgotten, to be set again.
    let refused = Self.take(
      memory,
      .routeAnswered(
        RouteAnswer(
          profiles: [], profilesSwitched: [],
          refusedCallInput: .init(before: nil)))
    ).0
    #expect(refused.calls.input == nil)

    // The call's streams end: the end delay runs from now.
    var ended = inCall
    ended.now = 110
    ended.captureStreams = []
    ended.defaultInput = fixture.headsetSource.name
    ended.inputHistory = [BluetoothFixtures.builtInMicrophone.name]
    let (afterEnd, ending) = Self.take(
      memory, .decide(leavingFollowersToTheDefault: false), on: ended)
    memory = afterEnd
    #expect(ending?.callPhase == .ending)
    #expect(memory.calls.endedAt == 110)
    #expect(!memory.calls.running)

    // 2 s later: the profile it had goes back; once switched, forgotten.
    ended.now = 112
    let (afterCall, givingBack) = Self.take(
      memory, .decide(leavingFollowersToTheDefault: false), on: ended)
    memory = afterCall
    let giveBack = try #require(givingBack?.profileRequests.first)
    #expect(giveBack.purpose == .afterCall)
    #expect(
      givingBack?.defaultInputChange
        == BluetoothFixtures.builtInMicrophone.name)
    #expect(memory.calls.input == nil)
    let refusedGiveBack = Self.take(
      memory,
      .routeAnswered(
        RouteAnswer(profiles: [giveBack], profilesSwitched: [false]))
    ).0
    #expect(refusedGiveBack.calls.profiles.count == 1)
    (memory, _) = Self.take(
      memory,
      .routeAnswered(
        RouteAnswer(profiles: [giveBack], profilesSwitched: [true])
      ))
    #expect(memory.calls.profiles.isEmpty)
  }

  @Test("A media event is the media rules' step")
  func mediaEvent() {
    var memory = EngineMemory()
    memory.media.pauses["AA:BB:CC:DD:EE:FF"] = .init(players: [:], at: 1)
    let view = MediaView(
      server: nil, players: [:], registered: [], reportedOffHead: [])
    let event = MediaInput.unpaired(accessory: "AA:BB:CC:DD:EE:FF")
    let (next, effects) = EngineRules.step(
      memory, EngineView(media: view), .media(event), Policy(), now: 5)
    let (media, mediaEffects) = MediaRules.step(
      memory.media, view, event, Policy(), now: 5)
    #expect(next.media == media)
    #expect(next.calls == memory.calls)
    #expect(effects.count == mediaEffects.count)
  }

  @Test(
    "BlueZ's devices: who joined and who dropped, an empty list (BlueZ gone) dropping nobody"
  )
  func bluetoothDevices() {
    var memory = EngineMemory()
    func take(_ devices: [String: Bool]) -> [BluetoothChange] {
      EngineRules.step(
        &memory, EngineView(), .bluetoothDevices(devices), Policy(), now: 1
      ).compactMap {
        if case .routing(.bluetoothChanged(let change)) = $0 {
          change
        } else {
          nil
        }
      }
    }
    let buds = "AA:BB:CC:DD:EE:01"
    let headset = "AA:BB:CC:DD:EE:02"
    #expect(
      take([buds: true, headset: false]) == [
        BluetoothChange(joined: [buds], dropped: [])
      ])
    // Listed again alike: nothing changed.
    #expect(take([buds: true, headset: false]).isEmpty)
    // BlueZ gone: says nothing of the devices.
    #expect(take([:]).isEmpty)
    #expect(memory.bluetooth.connected.isEmpty)
    // Back, both connected; then the buds no longer listed: dropped.
    #expect(
      take([buds: true, headset: true]) == [
        BluetoothChange(joined: [buds, headset], dropped: [])
      ])
    #expect(
      take([headset: true]) == [BluetoothChange(joined: [], dropped: [buds])])
    #expect(memory.bluetooth.connected == [headset: true])
  }
}
