// Publishing accessory, route, media and sound-server events to every
// subscriber in the process, typed: the wire's JSON is written only for
// the control socket's subscribers, once per event, by the first that
// needs it.

import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import FoundationEssentials

/// One event as the hub delivers it: the event, and its wire form.
public final class PublishedEvent: Sendable {
  /// The event.
  public let event: DaemonEvent
  private let encoded = Mutex<JSONValue?>(nil)

  /// Wraps an event as published.
  public init(_ event: DaemonEvent) {
    self.event = event
  }

  /// The event as the control protocol sends it, encoded once, by the
  /// first reader.
  public var json: JSONValue {
    encoded.withLock { encoded in
      if let encoded { return encoded }
      let value = event.json
      encoded = value
      return value
    }
  }
}

/// Delivers events to any number of subscribers.
public final class EventHub: Sendable {
  private let broadcast = Broadcast<PublishedEvent>(
    bufferingPolicy: .bufferingNewest(1000))

  /// Creates a hub with no subscribers.
  public init() {}

  /// Returns a stream of the events published from now on.
  ///
  /// The subscription ends when the stream is dropped. A subscriber that
  /// falls 1,000 events behind loses the oldest.
  public func subscribe() -> AsyncStream<PublishedEvent> {
    broadcast.subscribe()
  }

  /// Returns a stream of the events published from now on as the control
  /// protocol sends them, for a socket's subscriber.
  public func subscribeToWire() -> AsyncMapSequence<
    AsyncStream<PublishedEvent>, JSONValue
  > {
    broadcast.subscribe().map { @Sendable event in event.json }
  }

  /// Sends an event to every subscriber.
  public func publish(_ event: DaemonEvent) {
    guard broadcast.subscriberCount > 0 else { return }
    broadcast.publish(PublishedEvent(event))
  }

  /// The number of current subscribers.
  public var subscriberCount: Int { broadcast.subscriberCount }
}
