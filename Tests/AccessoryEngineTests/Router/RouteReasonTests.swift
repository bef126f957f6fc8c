// Why the engine routes, typed: each reason's words, which are echoes of
// the sound server, and how a pass that merges several names itself.

import AccessoryEngine
import Testing

@Suite("Route reasons")
struct RouteReasonTests {
  @Test("Each named reason reads back from its words; others stay words")
  func wordsReadBack() {
    for reason in RouteReason.named {
      #expect(RouteReason(stringLiteral: reason.description) == reason)
    }
    let asked: RouteReason = "a test asked"
    #expect(asked == .other("a test asked"))
    #expect(asked.description == "a test asked")
  }

  @Test("Only the sound server's own states are echoes")
  func echoes() {
    #expect(
      RouteReason.named.filter(\.isEcho) == [
        .serverChanged, .serverConnected, .sentMovesNotShown,
      ])
    #expect(!RouteReason.other("the sound server changed!").isEcho)
  }

  @Test("A merged pass names its first reason that is not an echo")
  func mergedReason() {
    #expect(
      EngineLoop.mergedReason([
        .serverChanged, .accessoryUpdated, .graceEnded,
      ]) == .accessoryUpdated)
    #expect(
      EngineLoop.mergedReason([.serverConnected, .serverChanged])
        == .serverConnected)
    // Among echoes, the engine's own re-send says why it sent again.
    #expect(
      EngineLoop.mergedReason([.serverChanged, .sentMovesNotShown])
        == .sentMovesNotShown)
    #expect(EngineLoop.mergedReason([]) == nil)
  }
}
