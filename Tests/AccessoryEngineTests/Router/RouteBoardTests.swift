// The route the loop publishes: the control methods read it without
// entering the loop, the loop decides once per pass whatever they ask,
// and the explanation of a decision is written once, by the first query
// that asks for it.

import AccessoryEngine
import Testing

@Suite("The route the loop publishes")
struct RouteBoardTests {
  typealias Rig = RouterRig

  @Test(
    "Queries decide nothing: one decision per update, one explanation per decision asked about"
  )
  func queriesDecideNothing() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.caughtUp()
      let board = rig.router.board
      let decisions = await rig.router.decisionCount
      let written = board.explanationsWritten
      for _ in 0..<20 {
        let report = board.report(explaining: true)
        #expect(report.output == Rig.buds)
        #expect(report.text?.isEmpty == false)
        #expect(board.report(explaining: false).summary == report.summary)
      }
      #expect(await rig.router.decisionCount == decisions)
      #expect(board.explanationsWritten - written <= 1)

      // An update is one decision, published as the pass ends: the next
      // query explains it, once.
      try await rig.report(Rig.budsAddress, .offHead)
      try await rig.report(Rig.budsAddress, .inEar)
      #expect(await rig.router.decisionCount - decisions == 2)
      let before = board.explanationsWritten
      let explained = board.report(explaining: true)
      #expect(explained.output == Rig.buds)
      #expect(explained.trigger == "an accessory was updated")
      _ = board.report(explaining: true)
      _ = board.report(explaining: false)
      #expect(board.explanationsWritten - before == 1)
      #expect(await rig.router.decisionCount - decisions == 2)
    }
  }

  @Test("A follower is told each time the published route names another output")
  func followersAreTold() async throws {
    try await Rig.run { rig in
      let board = rig.router.board
      var changes = board.routeChanges().makeAsyncIterator()
      try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(await changes.next() != nil)
      #expect(board.report(explaining: false).output == Rig.buds)
    }
  }
}
