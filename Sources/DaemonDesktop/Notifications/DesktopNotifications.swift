// Desktop notifications through org.freedesktop.Notifications on the
// session bus: what NotificationPlanner decides from the daemon's events
// and state, each kind shown unless the policy turns it off.

import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import DBus
import DaemonControl
import DaemonLifecycle
import FoundationEssentials
import Logging
import PolicyFiles

/// Shows desktop notifications while the daemon runs.
public struct DesktopNotifications: Service {
  /// The service's name, for logs.
  public var name: String { "desktop notifications" }

  let feed: DesktopFeed
  var policies: PolicyStore { feed.policies }
  var logger: Logger { feed.logger }

  /// Creates the service.
  ///
  /// - Parameter feed: The daemon's events and state, and the policy,
  ///   whose `notifications` object turns each kind off.
  public init(feed: DesktopFeed) {
    self.feed = feed
  }

  /// Follows the daemon until cancelled.
  public func run() async throws {
    guard let address = feed.busAddress else {
      // The daemon says it once for every part that needs the bus.
      logger.info(
        "No desktop notifications: DBUS_SESSION_BUS_ADDRESS is not set")
      while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
      return
    }
    let desk = NotificationDesk(
      sender: NotificationSender(address: address, logger: logger),
      policies: policies, feed: feed)
    await feed.follow(
      event: { event in await desk.take(event) },
      state: { state in await desk.take(state) })
    await desk.close()
  }
}

/// The planner and the sender, one change at a time.
actor NotificationDesk {
  let sender: NotificationSender
  let policies: PolicyStore
  let feed: DesktopFeed
  private var planner = NotificationPlanner()
  private let start = ContinuousClock.now

  init(sender: NotificationSender, policies: PolicyStore, feed: DesktopFeed) {
    self.sender = sender
    self.policies = policies
    self.feed = feed
  }

  /// Seconds since the desk began, the planner's clock.
  private var now: Double {
    let (seconds, attoseconds) = (ContinuousClock.now - start).components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }

  func take(_ state: DesktopState) async {
    await show(planner.take(state, at: now, policy: policies.policy))
    schedule()
  }

  /// When the one timer for the planner's checks fires, if one is set.
  private var timerAt: Double?
  private var timer: Task<Void, Never>?
  /// Which timer is the current one: a replaced timer that wakes anyway
  /// does nothing.
  private var timerGeneration = 0

  /// Sets the timer for the planner's next check, unless it fires by
  /// then already.
  private func schedule() {
    guard let next = planner.nextCheck else { return }
    if let timerAt, timerAt <= next { return }
    timer?.cancel()
    timerAt = next
    timerGeneration += 1
    let generation = timerGeneration
    let delay = max(0, next - now)
    timer = Task {
      try? await Task.sleep(for: .seconds(delay))
      await self.tick(generation)
    }
  }

  func take(_ event: DaemonEvent) async {
    guard case .media(let media) = event,
      media.eventType == .mediaPaused,
      let route = await feed.explainedRoute(),
      let notification = planner.paused(media, route: route)
    else { return }
    await show([notification])
  }

  func tick(_ generation: Int) async {
    guard generation == timerGeneration, !Task.isCancelled else { return }
    timerAt = nil
    timer = nil
    await show(planner.due(at: now))
    schedule()
  }

  private func show(_ notifications: [DesktopNotification]) async {
    let policy = policies.policy
    for notification in notifications where notification.isShown(under: policy)
    {
      await sender.send(notification)
    }
  }

  func close() async {
    timer?.cancel()
    await sender.close()
  }
}

/// Sends notifications to the session's notification server, connecting
/// when the first is to be shown and again after a failure.
actor NotificationSender {
  let address: String
  let logger: Logger
  private var driver: DBusConnectionDriver?
  /// The server's identifier of the last notification of each key, which
  /// the next one of that key replaces.
  private var shown: [String: UInt32] = [:]
  private var saidUnavailable = false
  /// A connection being opened, which every send waits for.
  private var connecting: Task<DBusConnectionDriver?, Never>?
  private var isClosed = false

  init(address: String, logger: Logger) {
    self.address = address
    self.logger = logger
  }

  func send(_ notification: DesktopNotification) async {
    guard let driver = await connected() else { return }
    let urgency: UInt8 = notification.kind == .connected ? 0 : 1
    let reply = await driver.call(
      DBusMethodCall(
        destination: "org.freedesktop.Notifications",
        path: "/org/freedesktop/Notifications",
        interface: "org.freedesktop.Notifications", member: "Notify",
        arguments: [
          .string("accessoryd"), .uint32(shown[notification.key] ?? 0),
          .string(notification.icon), .string(notification.summary),
          .string(notification.body), .typed(signature: "as", .array([])),
          .dictionary([
            .string("urgency"): .variant(.byte(urgency)),
            .string("category"): .variant(
              .string(
                notification.kind == .connected ? "device.added" : "device")),
            .string("x-accessoryd-kind"): .variant(
              .string(notification.kind.rawValue)),
          ]),
          .int32(-1),
        ]),
      // Short: a stop waits for it.
      timeout: .seconds(3))
    switch reply {
    case .success(let reply):
      if let id = reply.arguments.first?.integer {
        shown[notification.key] = UInt32(clamping: id)
      }
      saidUnavailable = false
      logger.info(
        "Notified",
        metadata: [
          "notification.kind": "\(notification.kind.rawValue)",
          "notification.summary": "\(notification.summary)",
        ])
    case .failure(let failure):
      if !saidUnavailable {
        logger.notice(
          "Desktop notifications cannot be shown: \(failure.message)",
          metadata: ["dbus.error": "\(failure.name)"])
        saidUnavailable = true
      }
      if failure.name == "org.freedesktop.DBus.Error.Disconnected" {
        drop()
      }
    }
  }

  private func connected() async -> DBusConnectionDriver? {
    guard !isClosed else { return nil }
    if let driver { return driver }
    // One connection, however many sends wait for it.
    let opening =
      connecting
      ?? Task { [address] in
        try? await DBusConnectionDriver.open(
          address: address, matchRules: [], signalHandler: { _, _ in },
          onEnd: {}
        ).get()
      }
    connecting = opening
    let opened = await opening.value
    connecting = nil
    guard let opened else {
      if !saidUnavailable {
        logger.notice(
          "Desktop notifications cannot be shown: the session bus at "
            + "\(address) cannot be reached")
        saidUnavailable = true
      }
      return nil
    }
    if isClosed {
      startThread(named: "notify.close") { opened.close() }
      return nil
    }
    if driver == nil { driver = opened }
    return driver
  }

  /// Closes the connection; nothing is sent after.
  func close() {
    isClosed = true
    drop()
  }

  /// Closes the connection; the next send opens another.
  private func drop() {
    guard let driver else { return }
    self.driver = nil
    startThread(named: "notify.close") { driver.close() }
  }
}
