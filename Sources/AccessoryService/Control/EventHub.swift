// Publishing accessory, route and sound-server events to every subscriber
// of `events.subscribe`.

import AccessoryControl
import AudioAccessoryKit
import FoundationEssentials
import Locking

/// Delivers events to any number of subscribers.
public final class EventHub: Sendable {
  private let subscribers = Mutex<[UUID: AsyncStream<JSONValue>.Continuation]>(
    [:])

  /// Creates a hub with no subscribers.
  public init() {}

  /// Returns a stream of the events published from now on.
  ///
  /// The subscription ends when the stream is dropped. A subscriber that
  /// falls 1,000 events behind loses the oldest.
  public func subscribe() -> AsyncStream<JSONValue> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: JSONValue.self, bufferingPolicy: .bufferingNewest(1000))
    let id = UUID()
    subscribers.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sends an event to every subscriber, encoded once for all of them.
  public func publish(_ event: DaemonEvent) {
    let targets = subscribers.withLock { Array($0.values) }
    guard !targets.isEmpty else { return }
    let json = event.json
    for target in targets { target.yield(json) }
  }

  /// The number of current subscribers.
  public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
