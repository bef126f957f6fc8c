// The session D-Bus API: the daemon, the route and each accessory as
// objects under the name io.github.accessoryd, with properties kept
// current from the daemon's events, methods that are the control
// protocol's requests, and the route's and media's events as signals.
// docs/desktop.md describes it.

import AccessoryControl
import AudioAccessoryKit
import ConcurrencyHelpers
import DBus
import DaemonControl
import DaemonLifecycle
import FoundationEssentials
import Logging
import PolicyFiles
import SessionBusInterfaces

/// Serves the session D-Bus API while the daemon runs.
public struct SessionBusAPI: Service {
  /// The service's name, for logs.
  public var name: String { "session D-Bus API" }

  let feed: DesktopFeed
  var policies: PolicyStore { feed.policies }
  var logger: Logger { feed.logger }

  /// Creates the service.
  ///
  /// - Parameter feed: The daemon's events and state (route and media
  ///   events become signals, the state the objects' properties; its
  ///   methods answer the API's), and the policy, whose
  ///   `desktop.sessionBusAPI` turns the API on and off.
  public init(feed: DesktopFeed) {
    self.feed = feed
  }

  /// Serves the API until cancelled, connecting again, with a backoff,
  /// when the bus goes away or another program owns the name.
  public func run() async throws {
    guard let address = feed.busAddress else {
      // The daemon says it once for every part that needs the bus.
      logger.info(
        "The session D-Bus API is not served: DBUS_SESSION_BUS_ADDRESS is "
          + "not set")
      try await sleepUntilCancelled()
      return
    }
    var delay = Duration.milliseconds(100)
    var saidTaken = false
    while !Task.isCancelled {
      if !policies.policy.serveSessionBusAPI {
        logger.notice(
          "The session D-Bus API is turned off (desktop.sessionBusAPI)")
        for await policy in policies.policies() where policy.serveSessionBusAPI
        {
          break
        }
        continue
      }
      switch await serve(at: address) {
      case .ended:
        delay = .milliseconds(100)
        saidTaken = false
        logger.warning(
          "The session bus closed the connection; connecting again",
          metadata: ["dbus.address": address])
      case .taken:
        if !saidTaken {
          logger.warning(
            "Another program owns \(AccessorydBus.busName) on the session "
              + "bus; the D-Bus API is not served until it lets it go",
            metadata: ["dbus.address": address])
          saidTaken = true
        }
      case .failed(let failure):
        logger.warning(
          "The session D-Bus API cannot be served: \(failure.message); "
            + "trying again",
          metadata: ["dbus.address": address, "dbus.error": failure.name])
      case .turnedOff:
        saidTaken = false
        continue
      case .cancelled:
        return
      }
      try await Task.sleep(for: delay)
      delay = min(delay * 2, .seconds(10))
    }
  }

  /// How one connection ended.
  enum Outcome {
    case ended
    case taken
    case failed(DBusFailure)
    case turnedOff
    case cancelled
  }

  /// Serves the API on one connection until it ends or the task is
  /// cancelled.
  func serve(at address: String) async -> Outcome {
    let (ends, ended) = AsyncStream.makeStream(of: Void.self)
    let opened = await DBusConnectionDriver.open(
      address: address, matchRules: [], signalHandler: { _, _ in },
      onEnd: { ended.finish() })
    let driver: DBusConnectionDriver
    switch opened {
    case .success(let connected): driver = connected
    case .failure(let failure): return .failed(failure)
    }
    // Cancelled, the connection closes at once: a call in flight fails
    // rather than hold the stop.
    let outcome = await withTaskCancellationHandler {
      await serve(on: driver, at: address, ends: ends)
    } onCancel: {
      startThread(named: "dbus-api.close") { driver.close() }
    }
    // Closed before the next attempt, so that the name is free again.
    await close(driver)
    return outcome
  }

  /// Serves the API on an open connection until it ends, the policy turns
  /// it off, or the task is cancelled.
  private func serve(
    on driver: DBusConnectionDriver, at address: String,
    ends: AsyncStream<Void>
  ) async -> Outcome {

    guard
      let tree = await DBusObjectTree.serve(
        on: driver, managerPath: AccessorydBus.daemonPath)
    else { return .ended }
    let objects = SessionBusObjects(tree: tree, feed: feed)
    // The objects are there before the name: a call that activated the
    // daemon finds them.
    await objects.publishCurrent()
    switch await driver.requestName(AccessorydBus.busName) {
    case .failure(let failure): return .failed(failure)
    case .success(.taken): return .taken
    case .success(.owned): break
    }
    logger.info(
      "Serving the session D-Bus API",
      metadata: [
        "dbus.address": address, "dbus.name": "\(AccessorydBus.busName)",
      ])
    return await withTaskGroup(of: Outcome.self) { group in
      group.addTask {
        await feed.follow(
          event: { await objects.signal($0) },
          state: { await objects.publish($0) })
        return .cancelled
      }
      group.addTask {
        for await _ in ends {}
        return Task.isCancelled ? .cancelled : .ended
      }
      group.addTask {
        for await policy in policies.policies() {
          guard policy.serveSessionBusAPI else { return .turnedOff }
          await objects.show(policy)
        }
        return .cancelled
      }
      let first = await group.next() ?? .cancelled
      group.cancelAll()
      return first
    }
  }

  private func sleepUntilCancelled() async throws {
    while !Task.isCancelled {
      try await Task.sleep(for: .seconds(3600))
    }
  }

  /// Closes a connection on a thread of its own and waits for it, without
  /// holding a shared thread.
  private func close(_ driver: DBusConnectionDriver) async {
    await withHandover { done in
      startThread(named: "dbus-api.close") {
        driver.close()
        done.resume(returning: ())
      }
    }
  }
}
