// Which streams belong to which player: by process, through the process's
// parents, over a made-up process tree.

import DaemonInputs
import DaemonLifecycle
import Glibc
import MPRIS
import SoundServerModel
import Testing

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

  @Test func aFlatpakPlayerOwnsItsApplicationsStreams() {
    // The bus names the sandbox's D-Bus proxy (500); the player's audio
    // comes from 600 in the same sandbox, or PipeWire names the app.
    let apps: [Int32: String] = [
      500: "org.example.Player", 600: "org.example.Player",
      700: "org.example.Other",
    ]
    let finder = PlayerStreams(
      parent: { Self.parents[$0] }, flatpakAppID: { apps[$0] })
    let player = MediaPlayer(
      busName: "org.mpris.MediaPlayer2.example", uniqueName: ":1.9",
      processID: 500, flatpakAppID: "org.example.Player")
    var named = Self.stream(3, process: "42")
    named.properties["pipewire.access.portal.app_id"] = "org.example.Player"
    var otherNamed = Self.stream(4, process: "600")
    otherNamed.properties["pipewire.access.portal.app_id"] = "org.example.Other"
    let streams = [
      Self.stream(1, process: "600"), Self.stream(2, process: "700"), named,
      otherNamed, Self.stream(5, process: "100"),
    ]
    #expect(
      finder.streams(of: player, among: streams).map(\.index) == [1, 3])
  }

  @Test func flatpakInfoNamesTheApplication() {
    let info = """
      [Instance]
      name=org.example.Wrong

      [Application]
      runtime=runtime/org.freedesktop.Platform/x86_64/23.08
      name = org.example.Player\r

      [Context]
      shared=network;ipc;
      """
    #expect(ProcessFiles.flatpakAppID(fromInfo: info) == "org.example.Player")
    #expect(ProcessFiles.flatpakAppID(fromInfo: "[Instance]\nname=x") == nil)
    #expect(ProcessFiles.flatpakAppID(of: getpid()) == nil)
  }

  @Test func thisProcessHasAParentInProc() {
    #expect(ProcessFiles.parent(of: getpid()) == getppid())
  }
}
