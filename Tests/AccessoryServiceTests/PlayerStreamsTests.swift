// Which streams belong to which player: by process, through the process's
// parents, over a made-up process tree.

import Glibc
import MPRIS
import Testing

@testable import AccessoryService
@testable import PulseAudio

@Suite struct PlayerStreamsTests {
  /// 100 is the player; 200 its child (a browser's audio process); 300 a
  /// grandchild; 400 another program; 1 is init.
  static let parents: [Int32: Int32] = [100: 1, 200: 100, 300: 200, 400: 1]
  static let finder = PlayerStreams { parents[$0] }

  static func stream(_ index: UInt32, process: String?) -> SinkInput {
    SinkInput(
      index: index, name: "s\(index)", sinkIndex: 0, clientIndex: nil,
      clientName: nil,
      properties: process.map { ["application.process.id": $0] } ?? [:],
      isCorked: false, isMuted: false, ownerModuleIndex: nil)
  }

  @Test func theProcessItsChildrenAndTheirChildren() {
    let player = MediaPlayer(
      busName: "org.mpris.MediaPlayer2.browser", uniqueName: ":1.5",
      processID: 100)
    let streams = [
      Self.stream(1, process: "100"), Self.stream(2, process: "200"),
      Self.stream(3, process: "300"), Self.stream(4, process: "400"),
      Self.stream(5, process: nil), Self.stream(6, process: "not a number"),
    ]
    #expect(
      Self.finder.streams(of: player, among: streams).map(\.index)
        == [1, 2, 3])
  }

  @Test func aPlayerWithoutAProcessOwnsNothing() {
    let player = MediaPlayer(
      busName: "org.mpris.MediaPlayer2.x", uniqueName: ":1.6")
    #expect(
      Self.finder.streams(of: player, among: [Self.stream(1, process: "100")])
        .isEmpty)
  }

  @Test func aLoopInTheTreeEnds() {
    let looping = PlayerStreams { $0 == 7 ? 8 : 7 }
    let player = MediaPlayer(
      busName: "org.mpris.MediaPlayer2.x", uniqueName: ":1.6", processID: 100)
    #expect(
      looping.streams(of: player, among: [Self.stream(1, process: "7")])
        .isEmpty)
  }

  @Test func thisProcessHasAParentInProc() {
    #expect(ProcessFiles.parent(of: getpid()) == getppid())
  }
}
