// One value to many subscribers: each subscriber is an `AsyncStream`, and
// every value published reaches each stream that exists then. The one
// implementation of the pattern for the sound-server link, the event hub,
// the media players, discovery, BlueZ and MPRIS.

/// Delivers each published value to every current subscriber's stream.
///
/// Thread-safe. A subscription ends when its stream is dropped or its
/// iteration is cancelled; ``finish()`` ends them all, and a subscription
/// made after it ends at once.
///
/// Values are yielded outside the lock: a stream's termination handler
/// takes it, and the runtime runs that handler under its own lock of the
/// stream, which a yield needs too. So publishers that need their values
/// kept in order publish from one thread, task or actor at a time.
///
/// ```swift
/// let changes = Broadcast<Int>()
/// let stream = changes.subscribe()
/// changes.publish(1)
/// for await value in stream { print(value) }  // 1
/// ```
public final class Broadcast<Element: Sendable>: Sendable {
  private struct Subscribers {
    var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    var next = 0
    var isFinished = false
  }

  private let subscribers = Mutex(Subscribers())
  private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
  private let demandChanged: (@Sendable (Bool) -> Void)?

  /// Creates a broadcast with no subscribers.
  ///
  /// - Parameters:
  ///   - bufferingPolicy: What each subscriber's stream keeps while its
  ///     subscriber does not read: everything (the default), or the
  ///     newest values only, for a subscriber that may fall behind.
  ///   - demandChanged: Called with `true` when the first subscriber
  ///     comes and with `false` when the last one goes, outside the lock,
  ///     for a producer that works only while someone listens.
  public init(
    bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy =
      .unbounded,
    demandChanged: (@Sendable (Bool) -> Void)? = nil
  ) {
    self.bufferingPolicy = bufferingPolicy
    self.demandChanged = demandChanged
  }

  /// Returns a stream of the values published from now on.
  ///
  /// - Parameter first: A value the stream yields before them, such as
  ///   the state the subscriber starts from.
  public func subscribe(
    startingWith first: Element? = nil
  ) -> AsyncStream<
    Element
  > {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: bufferingPolicy)
    if let first { continuation.yield(first) }
    let added: (id: Int, isFirst: Bool)? = subscribers.withLock { state in
      guard !state.isFinished else { return nil }
      let id = state.next
      state.next += 1
      state.continuations[id] = continuation
      return (id, state.continuations.count == 1)
    }
    guard let added else {
      continuation.finish()
      return stream
    }
    if added.isFirst { demandChanged?(true) }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      let wasLast = self.subscribers.withLock {
        $0.continuations.removeValue(forKey: added.id) != nil
          && $0.continuations.isEmpty
      }
      if wasLast { self.demandChanged?(false) }
    }
    return stream
  }

  /// Sends a value to every current subscriber.
  public func publish(_ element: Element) {
    let targets = subscribers.withLock { Array($0.continuations.values) }
    for continuation in targets { continuation.yield(element) }
  }

  /// Ends every subscription, and any made later.
  public func finish() {
    let ended = subscribers.withLock { state in
      state.isFinished = true
      defer { state.continuations = [:] }
      return Array(state.continuations.values)
    }
    // Outside the lock: a stream's termination handler takes it.
    for continuation in ended { continuation.finish() }
  }

  /// The number of current subscribers.
  public var subscriberCount: Int {
    subscribers.withLock { $0.continuations.count }
  }
}
