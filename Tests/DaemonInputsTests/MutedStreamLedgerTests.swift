// The ledger of muted streams: what it writes as streams are muted and
// given back, and what the next daemon reads of it.

import AccessorySetupKit
import DaemonInputs
import DaemonLifecycle
import Foundation
import SoundServerModel
import Testing

@Suite("The ledger of muted streams")
struct MutedStreamLedgerTests {
  let buds = HeadphonesIdentity("AA:BB:CC:DD:EE:01")!
  // Wired headphones: their identity is written and read back as it is.
  let other = HeadphonesIdentity(
    jackOf: "alsa_output.pci-0000_00_1f.3.analog-stereo")

  static func server(cookie: UInt32) -> MutedStreamLedger.Server {
    MutedStreamLedger.Server(
      ServerInfo(
        serverName: "pulseaudio", serverVersion: "16.1",
        defaultSinkName: nil, defaultSourceName: nil, hostName: "h",
        userName: "u", cookie: cookie))
  }

  /// Runs a test with a ledger in a directory of its own.
  func withLedger(
    _ body: (MutedStreamLedger, String) async throws -> Void
  ) async throws {
    let directory = NSTemporaryDirectory() + "ledger-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try await body(MutedStreamLedger(stateDirectory: directory), directory)
  }

  /// What the next daemon reads; nil for nothing, or for a file it
  /// cannot read.
  func leftOver(_ directory: String) -> MutedStreamLedger.LeftOver? {
    switch MutedStreamLedger(stateDirectory: directory).readLeftOver() {
    case .success(let found):
      return found
    case .failure(let error):
      Issue.record("\(error)")
      return nil
    }
  }

  @Test("What the link and the controller mute is there for the next daemon")
  func recordsWhatIsMuted() async throws {
    try await withLedger { ledger, directory in
      #expect(leftOver(directory) == nil)
      ledger.useServer(Self.server(cookie: 7))
      ledger.mutedAsTheirSinkVanished([4, 5], for: buds)
      await ledger.flush()
      #expect(
        leftOver(directory)
          == .init(
            server: Self.server(cookie: 7),
            streams: [
              .init(stream: 4, accessory: buds),
              .init(stream: 5, accessory: buds),
            ]))
      // The controller takes them over, keeps one, and mutes another of
      // another accessory.
      ledger.hold([5: buds, 9: other])
      ledger.takeOver([4, 5])
      await ledger.flush()
      #expect(
        leftOver(directory)?.streams
          == [
            .init(stream: 5, accessory: buds),
            .init(stream: 9, accessory: other),
          ])
    }
  }

  @Test("Nothing held muted leaves no file")
  func nothingHeldLeavesNoFile() async throws {
    try await withLedger { ledger, directory in
      ledger.useServer(Self.server(cookie: 7))
      ledger.hold([3: buds])
      await ledger.flush()
      #expect(
        FileManager.default.fileExists(
          atPath: directory + "/" + MutedStreamLedger.fileName))
      ledger.hold([:])
      await ledger.flush()
      #expect(
        !FileManager.default.fileExists(
          atPath: directory + "/" + MutedStreamLedger.fileName))
      #expect(leftOver(directory) == nil)
    }
  }

  @Test("What an earlier daemon left is rewritten once taken over")
  func aTakenOverFileIsRewritten() async throws {
    try await withLedger { ledger, directory in
      ledger.useServer(Self.server(cookie: 7))
      ledger.hold([3: buds])
      await ledger.flush()
      // The next daemon gives stream 3 back and holds nothing.
      let next = MutedStreamLedger(stateDirectory: directory)
      #expect(leftOver(directory)?.streams.map(\.stream) == [3])
      next.useServer(Self.server(cookie: 7))
      next.rewrite()
      await next.flush()
      #expect(leftOver(directory) == nil)
    }
  }

  @Test("A server that restarted takes the streams of the old one with it")
  func aNewServerDropsTheOldStreams() async throws {
    try await withLedger { ledger, directory in
      ledger.useServer(Self.server(cookie: 7))
      ledger.mutedAsTheirSinkVanished([4], for: buds)
      ledger.useServer(Self.server(cookie: 8))
      await ledger.flush()
      #expect(leftOver(directory) == nil)
    }
  }

  @Test("A ledger that is not one is reported, with its path")
  func aDamagedLedgerIsReported() async throws {
    try await withLedger { ledger, directory in
      try "{ nonsense".write(
        toFile: directory + "/" + MutedStreamLedger.fileName, atomically: true,
        encoding: .utf8)
      #expect(
        ledger.readLeftOver()
          == .failure(
            MutedStreamLedger.LeftOverError(
              path: directory + "/muted-streams.json",
              reason: "it is not a list of muted streams")))
    }
  }
}
