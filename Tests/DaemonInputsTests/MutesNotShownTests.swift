// The link's memory of the mutes its reflex made that no state of the
// server showed yet: pure, on states made here.

import DaemonInputs
import SoundServerModel
import Testing

@Suite("The reflex's mutes a server shows late")
struct MutesNotShownTests {
  /// A state with one headphone sink gone and two streams on the speaker.
  private func state(
    muted: Set<UInt32> = [], streams: [UInt32] = [1, 2]
  )
    -> ServerMirror
  {
    ServerMirror(
      serverInfo: ServerInfo(
        serverName: "PulseAudio (on PipeWire 1.4.2)", serverVersion: "15.0.0",
        defaultSinkName: "speaker", defaultSourceName: nil, hostName: "host",
        userName: "user"),
      sinks: [speaker],
      sinkInputs: streams.map {
        SinkInput(
          index: $0, name: "stream \($0)", sinkIndex: 0, properties: [:],
          isCorked: false, isMuted: muted.contains($0))
      },
      cards: [])
  }

  private let speaker = Sink(
    index: 0, name: "speaker", description: "Speaker", properties: [:],
    ports: [], state: .running, isMuted: false)
  private let buds = Sink(
    index: 4, name: "buds", description: "Buds",
    properties: ["api.bluez5.address": "AA:BB:CC:DD:EE:FF"], ports: [],
    state: .suspended, isMuted: false)

  private func isMuted(_ stream: UInt32, in mirror: ServerMirror) -> Bool {
    mirror.sinkInputs.first { $0.index == stream }?.isMuted ?? false
  }

  @Test("Shown muted until the server shows it; then the server's word holds")
  func shownUntilTheServerShowsIt() {
    var mutes = MutesNotShown()
    // The mute's answer came; the state fetched does not show it yet.
    mutes.follow(state(), after: [.muted([1], of: buds)])
    let shown = mutes.shown(in: state())
    #expect(isMuted(1, in: shown))
    #expect(!isMuted(2, in: shown))
    // Still not shown by the next state: still shown muted.
    mutes.follow(state(), after: [])
    #expect(isMuted(1, in: mutes.shown(in: state())))
    // The server shows it: from then on its word, even an unmute.
    mutes.follow(state(muted: [1]), after: [])
    #expect(!isMuted(1, in: mutes.shown(in: state())))
    #expect(mutes.isEmpty)
  }

  @Test("Forgotten once unmuted at the link's request, or gone")
  func forgottenWhenUnmutedOrGone() {
    var mutes = MutesNotShown()
    mutes.follow(state(), after: [.muted([1, 2], of: buds)])
    mutes.unmuted([1])
    let shown = mutes.shown(in: state())
    #expect(!isMuted(1, in: shown))
    #expect(isMuted(2, in: shown))
    mutes.follow(state(streams: [1]), after: [])
    #expect(mutes.isEmpty)
  }

  @Test("A server that restarted numbers its streams anew: nothing is shown")
  func forgottenWhenTheServerRestarts() {
    var mutes = MutesNotShown()
    mutes.follow(state(), after: [.muted([1], of: buds)])
    var restarted = state()
    restarted.serverInfo.cookie = 7
    mutes.follow(restarted, after: [])
    #expect(mutes.isEmpty)
    #expect(!isMuted(1, in: mutes.shown(in: restarted)))
  }

  @Test("A jack's return mutes nothing")
  func aJacksReturnMutesNothing() {
    var mutes = MutesNotShown()
    mutes.follow(state(), after: [.jackBack(buds)])
    #expect(mutes.isEmpty)
    #expect(mutes.shown(in: state()) == state())
  }
}
