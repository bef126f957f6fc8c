// The one broadcast every hub of the daemon uses: each value reaches every
// subscriber in order, a subscription ends with its stream, and a finished
// broadcast ends every stream, later ones included.

import ConcurrencyHelpers
import Testing

@Suite("Broadcast")
struct BroadcastTests {
  @Test func everySubscriberGetsEveryValueInOrder() async {
    let broadcast = Broadcast<Int>()
    let first = broadcast.subscribe()
    let second = broadcast.subscribe(startingWith: 0)
    for value in 1...3 { broadcast.publish(value) }
    broadcast.finish()
    #expect(await Array(first) == [1, 2, 3])
    #expect(await Array(second) == [0, 1, 2, 3])
  }

  @Test func aSubscriptionAfterTheFinishEndsAtOnce() async {
    let broadcast = Broadcast<Int>()
    broadcast.finish()
    let late = broadcast.subscribe()
    broadcast.publish(1)
    #expect(await Array(late).isEmpty)
    #expect(broadcast.subscriberCount == 0)
  }

  @Test func aDroppedStreamUnsubscribesAndEndsTheDemand() async {
    let demand = Mutex<[Bool]>([])
    let broadcast = Broadcast<Int>(
      demandChanged: { value in demand.withLock { $0.append(value) } })
    var stream: AsyncStream<Int>? = broadcast.subscribe()
    #expect(broadcast.subscriberCount == 1)
    _ = broadcast.subscribe()  // dropped at once
    #expect(broadcast.subscriberCount == 1)
    stream = nil
    #expect(stream == nil)
    #expect(broadcast.subscriberCount == 0)
    #expect(demand.withLock { $0 } == [true, false])
  }

  @Test func theNewestPolicyKeepsOnlyTheNewest() async {
    let broadcast = Broadcast<Int>(bufferingPolicy: .bufferingNewest(2))
    let stream = broadcast.subscribe()
    for value in 1...5 { broadcast.publish(value) }
    broadcast.finish()
    #expect(await Array(stream) == [4, 5])
  }
}

extension Array where Element: Sendable {
  /// Collects a stream until it ends.
  fileprivate init(_ stream: AsyncStream<Element>) async {
    var values: [Element] = []
    for await value in stream { values.append(value) }
    self = values
  }
}
