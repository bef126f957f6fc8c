// What the desktop parts read of the daemon: its events as they come, and
// its state (`daemon.overview` and `route.get`, the answers acctl reads)
// read again after each event and sound-server change,
// one reading at a time, the latest change winning.

import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import ConcurrencyHelpers
import DBus
import DaemonControl
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import Logging
import PolicyFiles

/// The daemon's state at one moment, as the desktop parts see it.
struct DesktopState: Sendable {
  /// What `daemon.overview` answers.
  var overview: DaemonOverview
  /// What `route.get` answers.
  var route: RouteReport
}

/// What the desktop parts share: the daemon's events and state, the
/// policy, the log and the session bus.
///
/// As a service it reads the state after each change, one reading at a
/// time and a short while after the change, so that a burst of changes
/// (streams moving) costs one reading, shared by every part.
public final class DesktopFeed: Service {
  /// The service's name, for logs.
  public var name: String { "desktop feed" }
  let methods: DaemonMethods
  let events: EventHub
  let router: EngineLoop
  /// The policy, whose `desktop` and `notifications` objects turn the
  /// parts off.
  let policies: PolicyStore
  let logger: Logger
  /// The session bus; nil when the daemon has none.
  let busAddress: String?
  private let readings = Broadcast<DesktopState>(
    bufferingPolicy: .bufferingNewest(1))
  private let latest = Mutex<DesktopState?>(nil)
  /// How many parts follow the readings, and how to ask for one when the
  /// first comes: without a follower nothing is read.
  private let followers = Mutex<(count: Int, wake: (@Sendable () -> Void)?)>(
    (0, nil))
  /// How long after a change the state is read, gathering the changes
  /// that come with it.
  static let settleTime = Duration.milliseconds(50)

  /// Creates a feed.
  ///
  /// - Parameters:
  ///   - methods: What answers the daemon's requests and gives its state.
  ///   - events: The daemon's events, handed on and each followed by a
  ///     new reading of the state.
  ///   - router: The router, each sound-server state it takes in
  ///     (outputs, streams) and each route it publishes that names
  ///     another output or input followed by a new reading too.
  ///   - policies: The policy in force.
  ///   - logger: Where the parts log.
  ///   - busAddress: The session bus; nil serves and shows nothing, and
  ///     says so in the log.
  public init(
    methods: DaemonMethods, events: EventHub, router: EngineLoop,
    policies: PolicyStore, logger: Logger,
    busAddress: String?
  ) {
    self.methods = methods
    self.events = events
    self.router = router
    self.policies = policies
    self.logger = logger
    self.busAddress = busAddress
  }

  /// The session bus's address, `DBUS_SESSION_BUS_ADDRESS`, or nil.
  public static var sessionBusAddress: String? {
    guard let address = environmentVariable("DBUS_SESSION_BUS_ADDRESS"),
      !address.isEmpty
    else { return nil }
    return address
  }

  /// Reads the state now, in the process: what `daemon.overview` and
  /// `route.get` answer, without their JSON.
  func read() async -> DesktopState {
    let overview = await methods.overview()
    return DesktopState(
      overview: overview, route: router.board.report(explaining: false))
  }

  /// The latest reading, or one made now when there is none yet.
  func current() async -> DesktopState? {
    if let reading = latest.withLock({ $0 }) { return reading }
    return await read()
  }

  /// The route explained, with what the media rules hold paused
  /// (`route.get` with `explain`); nil if the daemon cannot answer.
  func explainedRoute() async -> RouteReport? {
    try? await methods.call(
      method: RouteGetRequest.method, params: .object(["explain": .bool(true)])
    ).decode(as: RouteReport.self)
  }

  /// Reads the state after each change, until cancelled, and hands the
  /// readings to the parts.
  ///
  /// A change is an event, a sound-server state the router took in, or a
  /// route it published that names another output or input (not
  /// discovery's changes: following them would make the adapters scan).
  /// While no part follows, nothing is read: the first to come gets a
  /// fresh reading.
  public func run() async throws {
    // Subscribed before the first reading, so that no change is missed.
    let subscription = events.subscribe()
    let updates = router.stateChanges()
    let routes = router.board.routeChanges()
    let (changed, change) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    followers.withLock { $0.wake = { change.yield() } }
    defer { followers.withLock { $0.wake = nil } }
    change.yield()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await _ in subscription { change.yield() }
      }
      group.addTask {
        for await _ in updates { change.yield() }
      }
      group.addTask {
        for await _ in routes { change.yield() }
      }
      group.addTask { [self] in
        for await _ in changed {
          guard followers.withLock({ $0.count }) > 0 else { continue }
          try? await Task.sleep(for: Self.settleTime)
          let current = await read()
          // Under the lock that ``follow`` subscribes under: no reading
          // falls between its latest and its subscription.
          latest.withLock { latest in
            // Read for followers that have all gone: not kept, as it
            // goes stale while no one follows.
            guard followers.withLock({ $0.count }) > 0 else { return }
            latest = current
            readings.publish(current)
          }
        }
      }
      await group.next()
      group.cancelAll()
      change.finish()
    }
  }

  /// Hands each event to `event` and each new reading to `state`, the
  /// latest reading first, until the task is cancelled.
  func follow(
    event: @escaping @Sendable (DaemonEvent) async -> Void,
    state: @escaping @Sendable (DesktopState) async -> Void
  ) async {
    let subscription = events.subscribe()
    let states = latest.withLock { readings.subscribe(startingWith: $0) }
    let wake = followers.withLock { followers in
      followers.count += 1
      return followers.count == 1 ? followers.wake : nil
    }
    // The first follower: a reading now, as nothing was read without one.
    wake?()
    defer {
      let isLast = followers.withLock { followers in
        followers.count -= 1
        return followers.count == 0
      }
      // What was read last goes stale while no one follows. (Under the
      // lock the readings are kept under, after the count: a reading
      // under way is not kept either.)
      if isLast { latest.withLock { $0 = nil } }
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await published in subscription { await event(published.event) }
      }
      group.addTask {
        for await current in states { await state(current) }
      }
      await group.next()
      group.cancelAll()
    }
  }
}
