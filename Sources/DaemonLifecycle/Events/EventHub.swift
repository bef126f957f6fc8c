// Publishing accessory, route and sound-server events to every subscriber
// of `events.subscribe`.

import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import FoundationEssentials

/// Delivers events to any number of subscribers.
public final class EventHub: Sendable {
  private let broadcast = Broadcast<JSONValue>(
    bufferingPolicy: .bufferingNewest(1000))

  /// Creates a hub with no subscribers.
  public init() {}

  /// Returns a stream of the events published from now on.
  ///
  /// The subscription ends when the stream is dropped. A subscriber that
  /// falls 1,000 events behind loses the oldest.
  public func subscribe() -> AsyncStream<JSONValue> {
    broadcast.subscribe()
  }

  /// Sends an event to every subscriber, encoded once for all of them.
  public func publish(_ event: DaemonEvent) {
    guard broadcast.subscriberCount > 0 else { return }
    broadcast.publish(event.json)
  }

  /// The number of current subscribers.
  public var subscriberCount: Int { broadcast.subscriberCount }
}
