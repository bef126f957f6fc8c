// What an update costs as registrations grow: the daemon starts on a state
// file of 10, 100 or 1,000 registered accessories beside 50 playing
// streams; then update → applied for the headphones, and updates per
// second from four clients on four other accessories.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import BenchmarkSupport
import ConcurrencyHelpers
import Foundation
import TestSupport

/// The update figures at one number of registered accessories.
struct UpdateCostFigure: Sendable {
  var accessories: Int
  var streams: Int
  /// `accessory.update` of the headphones until the observer sees every
  /// stream and the default on the output decided.
  var applied: Samples
  /// Acknowledged updates over the interval, from ``UpdateCostBenchmark/clients``
  /// clients.
  var acknowledged: Int
  var duration: Duration

  var perSecond: Double {
    Double(acknowledged) * 1000 / duration.milliseconds
  }
}

/// Updates against 10, 100 and 1,000 registered accessories on PulseAudio.
struct UpdateCostBenchmark {
  let options: Options
  let workspace: Workspace

  static let accessoryCounts = [10, 100, 1_000]
  /// PulseAudio takes 64 clients (each stream is one), with the daemon,
  /// the observer and the control connection among them.
  static let streams = 50
  static let clients = 4

  /// Measured update → applied repetitions per count.
  var repetitions: Int { options.isQuick ? 6 : 20 }
  /// How long the clients update as fast as they can.
  var interval: Duration { options.isQuick ? .seconds(2) : .seconds(5) }

  /// Runs every count on one PulseAudio server.
  func run() async throws -> [UpdateCostFigure] {
    progress("updates: starting PulseAudio with \(Self.streams) streams")
    let rig = try await Rig.open(.pulseAudio)
    var daemon: Daemon?
    do {
      try await rig.growStreams(to: Self.streams)
      var figures: [UpdateCostFigure] = []
      for count in Self.accessoryCounts {
        progress("updates: \(count) registered accessories")
        let stateName = "updates-\(count)"
        try writeState(count: count, stateName: stateName)
        daemon = try await Daemon.start(
          for: rig.server, in: workspace, stateName: stateName,
          options: options)
        let applied = try await measureApplied(on: rig, daemon!)
        let (acknowledged, duration) = try await measureRate(daemon!)
        daemon!.stop()
        daemon = nil
        figures.append(
          UpdateCostFigure(
            accessories: count, streams: rig.streamIndexes.count,
            applied: applied, acknowledged: acknowledged, duration: duration))
        // The next daemon starts with the streams on the speaker.
        try await rig.reset()
      }
      await rig.close()
      return figures
    } catch {
      if let daemon {
        progress("updates: the end of the daemon log:\n\(daemon.logTail())")
        daemon.stop()
      }
      await rig.close()
      throw error
    }
  }

  /// The address of the `index`th extra accessory; the headphones are
  /// ``Rig/headphonesAddress``.
  static func address(_ index: Int) -> BluetoothAddress {
    AccessoryRegistry.registeredAddress(index)
  }

  /// Writes a state file with the headphones and `count - 1` others, all
  /// registered and taken off.
  private func writeState(count: Int, stateName: String) throws {
    let registry = try AccessoryRegistry.registered(
      count: count, at: Date(),
      first: BluetoothAddress(Rig.headphonesAddress)!)
    let directory = workspace.stateDirectory(stateName)
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    try StateFile(url: URL(fileURLWithPath: directory + "/state.json"))
      .save(registry)
  }

  /// Puts the headphones on and takes them off, alternately, and times
  /// each update until the observer sees it applied.
  private func measureApplied(
    on rig: Rig, _ daemon: Daemon
  ) async throws -> Samples {
    let client = try ControlClient(path: daemon.socketPath, timeout: 30)
    defer { client.close() }
    var samples = Samples()
    // One warm-up each way, not recorded.
    for run in 0..<(repetitions + 2) {
      let wearing = run.isMultiple(of: 2)
      let start = ContinuousClock.now
      _ = try client.call(
        "accessory.update",
        params: [
          "accessory": .string(Rig.headphonesAddress),
          "changes": ["devicePlacement": wearing ? "inEar" : "offHead"],
        ])
      try await rig.observer.reach(
        rig.everything(on: wearing ? Rig.headphones : Rig.speaker),
        timeout: observationTimeout)
      if run >= 2 { samples.append(ContinuousClock.now - start) }
      try await Task.sleep(for: options.settleInterval)
    }
    return samples
  }

  /// Four clients, each on an accessory of its own with no output, update
  /// its placement as fast as the daemon answers.
  private func measureRate(
    _ daemon: Daemon
  ) async throws -> (acknowledged: Int, duration: Duration) {
    let counts = Mutex<[Int]>([Int](repeating: 0, count: Self.clients))
    let failure = Mutex<String?>(nil)
    let start = ContinuousClock.now
    let end = start + interval
    let socketPath = daemon.socketPath
    await withTaskGroup(of: Void.self) { group in
      for client in 0..<Self.clients {
        group.addTask {
          await onOwnThread {
            do {
              let connection = try ControlClient(path: socketPath, timeout: 30)
              defer { connection.close() }
              let address = Self.address(client + 1).description
              var worn = false
              while ContinuousClock.now < end {
                worn.toggle()
                _ = try connection.call(
                  "accessory.update",
                  params: [
                    "accessory": .string(address),
                    "changes": ["devicePlacement": worn ? "inEar" : "offHead"],
                  ])
                counts.withLock { $0[client] += 1 }
              }
            } catch {
              failure.withLock { $0 = "\(error)" }
            }
          }
        }
      }
    }
    let elapsed = ContinuousClock.now - start
    if let problem = failure.withLock({ $0 }) {
      throw BenchmarkError("an update failed: \(problem)")
    }
    return (counts.withLock { $0.reduce(0, +) }, elapsed)
  }
}

extension UpdateCostBenchmark {
  /// Prints the section: one line per count, and a `figure` line each.
  static func report(_ figures: [UpdateCostFigure]) {
    print("")
    print(
      "== updates with many registered accessories: PulseAudio, "
        + "\(streams) streams; update → applied is accessory.update of the "
        + "headphones until the observer sees the route; updates/s from "
        + "\(clients) clients on accessories of their own")
    for figure in figures {
      let median = figure.applied.median ?? .nan
      let slowest = figure.applied.milliseconds.max() ?? .nan
      print(
        "  \(figure.accessories) accessories: \(format(figure.perSecond, digits: 0)) "
          + "updates/s (\(figure.acknowledged) in "
          + "\(format(figure.duration.milliseconds / 1000, digits: 1)) s); "
          + "update → applied median \(format(median, digits: 1)) ms, "
          + "slowest \(format(slowest, digits: 1)) ms "
          + "(\(figure.applied.count) runs, \(figure.applied.timeouts) "
          + "timeouts)")
      print(
        "figure scenario=update-cost accessories=\(figure.accessories) "
          + "streams=\(figure.streams) "
          + "updates_per_second=\(format(figure.perSecond, digits: 0)) "
          + "applied_median_ms=\(format(median, digits: 1)) "
          + "applied_slowest_ms=\(format(slowest, digits: 1))")
    }
  }
}
