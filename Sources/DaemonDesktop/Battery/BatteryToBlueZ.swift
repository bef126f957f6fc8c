// The battery accessoryd reads from headphones, given to BlueZ as a
// battery provider, so that BlueZ's org.bluez.Battery1, and upower, GNOME
// and KDE through it, show it: one figure per device (BatteryFigure),
// while the link to the headphones is up, kept current from the daemon's
// readings, registered again with each adapter that comes (BlueZ
// restarted).

import AccessoryControl
import BlueZ
import ConcurrencyHelpers
import DaemonLifecycle
import Logging

/// Gives BlueZ the headphones' battery while the daemon runs.
public struct BatteryToBlueZ: Service {
  /// The service's name, for logs.
  public var name: String { "battery to BlueZ" }

  let feed: DesktopFeed
  let systemBusAddress: String?
  var logger: Logger { feed.logger }

  /// What BlueZ shows as the batteries' source.
  static let source = "accessoryd"

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - feed: The daemon's readings, and the policy, whose
  ///     `desktop.batteryToBlueZ` turns it off.
  ///   - systemBusAddress: BlueZ's bus; nil for the system bus
  ///     (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
  public init(feed: DesktopFeed, systemBusAddress: String? = nil) {
    self.feed = feed
    self.systemBusAddress = systemBusAddress
  }

  enum Outcome {
    case ended
    case turnedOff
    case cancelled
  }

  /// Gives BlueZ the batteries until cancelled, connecting again, with a
  /// backoff, when the bus goes away.
  public func run() async throws {
    var delay = Duration.seconds(1)
    var saidUnreachable = false
    while !Task.isCancelled {
      if !feed.policies.policy.batteryToBlueZ {
        logger.notice(
          "The headphones' battery is not given to BlueZ "
            + "(desktop.batteryToBlueZ)")
        for await policy in feed.policies.policies()
        where policy.batteryToBlueZ {
          break
        }
        continue
      }
      let client: BlueZClient
      do {
        // Short calls: a stop waits for one in flight.
        client = try await BlueZClient.connect(
          busAddress: systemBusAddress, callTimeout: .seconds(3))
        saidUnreachable = false
      } catch {
        // Discovery's notice says the system bus is away; this one is
        // for a closer look.
        if !saidUnreachable {
          logger.info(
            "The headphones' battery cannot be given to BlueZ: \(error)")
          saidUnreachable = true
        }
        try await Task.sleep(for: delay)
        delay = min(delay * 2, .seconds(30))
        continue
      }
      delay = .seconds(1)
      // Cancelled, the connection closes at once: the calls in flight fail
      // rather than hold the stop.
      let outcome = await withTaskCancellationHandler {
        await serve(on: client)
      } onCancel: {
        startThread(named: "battery.close") { client.close() }
      }
      startThread(named: "battery.close") { client.close() }
      switch outcome {
      case .cancelled: return
      case .turnedOff: continue
      case .ended: try await Task.sleep(for: .seconds(1))
      }
    }
  }

  /// Serves the batteries on one connection until it ends, the policy
  /// turns it off, or the task is cancelled.
  func serve(on client: BlueZClient) async -> Outcome {
    let provider: BlueZBatteryProvider
    do {
      provider = try await client.batteryProvider(source: Self.source)
    } catch {
      return .ended
    }
    let changes = client.changes()
    let reporter = RefusalReporter(logger: logger)
    await reporter.report(await provider.register())
    return await withTaskGroup(of: Outcome.self) { group in
      group.addTask {
        for await change in changes {
          switch change {
          case .adapterRemoved(let adapter):
            await provider.forget(adapterAt: adapter.objectPath)
            await reporter.report(await provider.register())
          case .adapterAdded:
            await reporter.report(await provider.register())
          case .deviceAdded, .deviceRemoved:
            await provider.sync()
          case .adapterChanged, .deviceChanged:
            break
          }
        }
        return Task.isCancelled ? .cancelled : .ended
      }
      group.addTask {
        await feed.follow(
          event: { _ in },
          state: { state in
            await provider.setLevels(Self.levels(in: state))
          })
        return .cancelled
      }
      group.addTask {
        for await policy in feed.policies.policies()
        where !policy.batteryToBlueZ {
          return .turnedOff
        }
        return .cancelled
      }
      // A registration that failed for a while (BlueZ starting, busy) is
      // tried again; one refused for good is not.
      group.addTask {
        var pause = Duration.seconds(2)
        while !Task.isCancelled {
          try? await Task.sleep(for: pause)
          guard await provider.hasAdaptersToRegister else {
            pause = .seconds(2)
            continue
          }
          await reporter.report(await provider.register())
          pause = min(pause * 2, .seconds(60))
        }
        return .cancelled
      }
      let first = await group.next() ?? .cancelled
      group.cancelAll()
      return first
    }
  }

  /// The figure of each accessory whose link to accessoryd is up and
  /// whose buds said their charge, by address.
  static func levels(in state: DesktopState) -> [String: Int] {
    var levels: [String: Int] = [:]
    for accessory in state.overview.accessories {
      guard let link = accessory.headphones, link.state == .connected,
        let figure = BatteryFigure.forBlueZ(link.battery)
      else { continue }
      levels[accessory.address] = figure
    }
    return levels
  }
}

/// Says once for each adapter and error why BlueZ refused the provider.
actor RefusalReporter {
  let logger: Logger
  private var said: Set<String> = []

  init(logger: Logger) { self.logger = logger }

  func report(_ refused: [(BlueZAdapter, BlueZError)]) {
    for (adapter, error) in refused {
      let key = "\(adapter.objectPath) \(error.name.rawValue)"
      guard said.insert(key).inserted else { continue }
      if error.name == .unknownMethod || error.name == .unknownObject {
        logger.notice(
          "BlueZ offers no battery providers on \(adapter.objectPath), so "
            + "the headphones' battery is not shown: BlueZ 5.66 needs "
            + "bluetoothd --experimental (-E); 5.71 and later offer them "
            + "always")
      } else {
        logger.warning(
          "BlueZ refused the battery provider on \(adapter.objectPath): "
            + "\(error)")
      }
    }
  }
}
