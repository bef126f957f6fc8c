// Fault injection end to end: clients update their accessories as fast as
// they can while the daemon is killed with SIGKILL and the sound server is
// killed, at random moments; nothing acknowledged is lost and the route
// comes back after each server return.

import TestSupport
import Testing

@Suite("Fault injection, end to end")
struct ChaosTests {
  @Test(
    "Updates under SIGKILLs of the daemon and the server: none acknowledged is lost",
    arguments: SoundServerKind.allCases)
  func nothingAcknowledgedIsLost(_ kind: SoundServerKind) async throws {
    let run = try await ChaosRun.prepare(kind)
    defer { run.shutDown() }
    let figures = try await run.run(faults: 6)
    #expect(figures.lost == 0, "\(figures.losses)")
    #expect(figures.daemonKills == 3 && figures.serverKills == 3)
    #expect(figures.stateFilesRead == figures.daemonKills + 1)
    #expect(figures.convergences.count == figures.serverKills)
    #expect(figures.acknowledged > 0)
    #expect(
      figures.sent
        == figures.acknowledged + figures.refused + figures.unanswered)
  }
}
