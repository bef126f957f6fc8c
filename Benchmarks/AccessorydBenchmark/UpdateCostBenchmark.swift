// What an update costs as registrations grow: the daemon starts on a state
// file of 10 or 1,000 registered accessories beside 50 playing streams on
// PulseAudio; then update → applied for the headphones, updates per
// second from four clients on four other accessories, and acctl update
// naming the headphones by address and by name. PulseAudio's own
// module-switch-on-connect moves the same streams in the same run, after
// each daemon stopped, so that a busier part of the run weighs on both.

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
  /// stream and the default on the output decided (armed before the
  /// call, so the answer's wait for the state file is not in it).
  var applied: Samples
  /// `accessory.update` of the headphones until its answer, which comes
  /// once the state file holds the change.
  var answered: Samples
  /// Acknowledged updates over the interval, from ``UpdateCostBenchmark/clients``
  /// clients.
  var acknowledged: Int
  var duration: Duration
  /// Spawn to exit of `acctl update` naming the headphones by address.
  var acctlByAddress: Samples
  /// Spawn to exit of `acctl update` naming the headphones by name.
  var acctlByName: Samples
  /// PulseAudio's `module-switch-on-connect` moving the same streams to a
  /// new output, measured right after this count's daemon stopped.
  var switchOnConnect: Samples

  var perSecond: Double {
    Double(acknowledged) * 1000 / duration.milliseconds
  }
}

/// Updates against 10 and 1,000 registered accessories on PulseAudio.
struct UpdateCostBenchmark {
  let options: Options
  let workspace: Workspace

  static let accessoryCounts = [10, 1_000]
  /// The playing streams, a player each: the benchmark's PulseAudio takes
  /// 64 clients, the daemon, the observer and the control connection
  /// among them. (`module-sine` streams, which need no client, take
  /// PulseAudio 22 ms each to move, which no player's stream does: they
  /// would measure the server, not the daemon.)
  static let streams = 50
  static let clients = 4
  /// The headphones' name in the state written (``AccessoryRegistry/registered(count:at:first:)``).
  static let headphonesName = "Accessory 0"

  /// Measured update → applied repetitions per count.
  var repetitions: Int { options.isQuick ? 6 : 20 }
  /// Measured `acctl update` runs per count and way of naming.
  var acctlRuns: Int { options.isQuick ? 10 : 30 }
  /// How long the clients update as fast as they can.
  var interval: Duration { options.isQuick ? .seconds(2) : .seconds(5) }

  /// Runs every count on one PulseAudio server.
  func run() async throws -> [UpdateCostFigure] {
    progress("updates: starting PulseAudio with \(Self.streams) streams")
    let rig = try await Rig.open(.pulseAudio, switchOnConnect: true)
    var daemon: Daemon?
    do {
      try await rig.growStreams(to: Self.streams)
      var figures: [UpdateCostFigure] = []
      for count in Self.accessoryCounts {
        progress("updates: \(count) registered accessories")
        try await rig.reset()
        let stateName = "updates-\(count)"
        try writeState(count: count, stateName: stateName)
        daemon = try await Daemon.start(
          for: rig.server, in: workspace, stateName: stateName,
          options: options)
        progress("updates: \(count): update → applied")
        let (applied, answered) = try await measureApplied(on: rig, daemon!)
        progress("updates: \(count): updates per second")
        let (acknowledged, duration) = try await measureRate(daemon!)
        progress("updates: \(count): acctl update")
        let (byAddress, byName) = try await measureAcctl(on: rig)
        daemon!.stop()
        daemon = nil
        progress("updates: switch-on-connect with \(Self.streams) streams")
        let reference = try await measureSwitchOnConnect(on: rig)
        figures.append(
          UpdateCostFigure(
            accessories: count, streams: rig.streamIndexes.count,
            applied: applied, answered: answered,
            acknowledged: acknowledged, duration: duration,
            acctlByAddress: byAddress, acctlByName: byName,
            switchOnConnect: reference))
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
  /// each update until the observer, armed before the call, sees it
  /// applied, and until its answer.
  private func measureApplied(
    on rig: Rig, _ daemon: Daemon
  ) async throws -> (applied: Samples, answered: Samples) {
    let client = try ControlClient(path: daemon.socketPath, timeout: 30)
    defer { client.close() }
    var applied = Samples()
    var answered = Samples()
    // One warm-up each way, not recorded.
    for run in 0..<(repetitions + 2) {
      let wearing = run.isMultiple(of: 2)
      try await rig.observer.arm(
        rig.everything(on: wearing ? Rig.headphones : Rig.speaker))
      let start = ContinuousClock.now
      _ = try client.call(
        "accessory.update",
        params: [
          "accessory": .string(Rig.headphonesAddress),
          "changes": ["devicePlacement": wearing ? "inEar" : "offHead"],
        ])
      let answeredAt = ContinuousClock.now
      let seen = try await rig.observer.wait(
        until: start + observationTimeout)
      if run >= 2 {
        answered.append(answeredAt - start)
        if let seen {
          applied.append(seen - start)
        } else {
          applied.timeouts += 1
        }
      }
      try await Task.sleep(for: options.settleInterval)
    }
    return (applied, answered)
  }

  /// Spawn to exit of `acctl update NAME --placement`, naming the
  /// headphones by address and by name in turn; after each run the
  /// observer waits, untimed, until the route is on the server.
  private func measureAcctl(
    on rig: Rig
  ) async throws -> (byAddress: Samples, byName: Samples) {
    let acctl = try ReleaseDirectory.program("acctl")
    let output = "\(workspace.directory)/acctl-updates.out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    var byAddress = Samples()
    var byName = Samples()
    var wearing = true
    // One warm-up run each way of naming, not recorded.
    for run in 0..<(acctlRuns + 1) {
      for byAddressNow in [true, false] {
        let start = ContinuousClock.now
        let child = try Child.spawn(
          acctl,
          arguments: [
            "update",
            byAddressNow ? Rig.headphonesAddress : Self.headphonesName,
            "--placement", wearing ? "inEar" : "offHead",
            "--socket", workspace.socketPath,
          ],
          environment: ProcessInfo.processInfo.environment, output: output)
        let status = child.waitForExit()
        let elapsed = ContinuousClock.now - start
        guard status == 0 else {
          let text =
            (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
          throw BenchmarkError(
            "acctl update failed (\(child.exitDescription)): "
              + text.split(separator: "\n").suffix(5).joined(separator: "\n"))
        }
        if run > 0 {
          if byAddressNow {
            byAddress.append(elapsed)
          } else {
            byName.append(elapsed)
          }
        }
        try await rig.observer.reach(
          rig.everything(on: wearing ? Rig.headphones : Rig.speaker),
          timeout: observationTimeout)
        try await Task.sleep(for: options.settleInterval)
        wearing.toggle()
      }
    }
    return (byAddress, byName)
  }

  /// With every stream on the speaker following the default, loads a new
  /// output and times until the observer sees it the default with every
  /// stream on it (`module-switch-on-connect`); then unloads it.
  private func measureSwitchOnConnect(on rig: Rig) async throws -> Samples {
    try await rig.switchOnConnect(
      repetitions: repetitions, settle: options.settleInterval,
      within: observationTimeout
    ).done
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
  /// Prints the section: one line per count, a `figure` line each, and
  /// the ratios the scale case is judged by.
  static func report(_ figures: [UpdateCostFigure]) {
    print("")
    print(
      "== updates with many registered accessories: PulseAudio, "
        + "\(streams) streams; update → applied is accessory.update of the "
        + "headphones until the observer sees the route, answered until its "
        + "answer (once the state file holds it); updates/s from "
        + "\(clients) clients on accessories of their own; acctl is spawn "
        + "to exit of acctl update; switch-on-connect is PulseAudio's own "
        + "module moving the same streams, after that count's daemon stopped")
    for figure in figures {
      let median = figure.applied.median ?? .nan
      let slowest = figure.applied.milliseconds.max() ?? .nan
      let answered = figure.answered.median ?? .nan
      let reference = figure.switchOnConnect.median ?? .nan
      let byAddress = figure.acctlByAddress.median ?? .nan
      let byName = figure.acctlByName.median ?? .nan
      print(
        "  \(figure.accessories) accessories: \(format(figure.perSecond, digits: 0)) "
          + "updates/s (\(figure.acknowledged) in "
          + "\(format(figure.duration.milliseconds / 1000, digits: 1)) s); "
          + "update → applied median \(format(median, digits: 1)) ms, "
          + "slowest \(format(slowest, digits: 1)) ms "
          + "(\(figure.applied.count) runs, \(figure.applied.timeouts) "
          + "timeouts), answered median \(format(answered, digits: 1)) ms; "
          + "switch-on-connect median "
          + "\(format(reference, digits: 1)) ms "
          + "(\(figure.switchOnConnect.timeouts) timeouts); acctl update "
          + "ADDRESS \(format(byAddress, digits: 1)) ms, NAME "
          + "\(format(byName, digits: 1)) ms")
      print(
        "figure scenario=update-cost accessories=\(figure.accessories) "
          + "streams=\(figure.streams) "
          + "updates_per_second=\(format(figure.perSecond, digits: 0)) "
          + "applied_median_ms=\(format(median, digits: 1)) "
          + "applied_slowest_ms=\(format(slowest, digits: 1)) "
          + "answered_median_ms=\(format(answered, digits: 1)) "
          + "switch_on_connect_median_ms=\(format(reference, digits: 1)) "
          + "acctl_address_median_ms=\(format(byAddress, digits: 1)) "
          + "acctl_name_median_ms=\(format(byName, digits: 1))")
    }
    guard let fewest = figures.first, let most = figures.last,
      most.accessories > fewest.accessories,
      let mostApplied = most.applied.median,
      let fewestApplied = fewest.applied.median,
      let reference = most.switchOnConnect.median,
      let byAddress = most.acctlByAddress.median,
      let byName = most.acctlByName.median
    else {
      print("  no ratios: a series has no sample")
      return
    }
    let againstModule = mostApplied / reference
    let againstFewest = mostApplied / fewestApplied
    let nameAgainstAddress = byName / byAddress
    print(
      "  at \(most.accessories) accessories: update → applied "
        + "\(format(againstModule, digits: 2))x switch-on-connect; "
        + "\(format(againstFewest, digits: 2))x the \(fewest.accessories) "
        + "accessories' time; acctl update NAME "
        + "\(format(nameAgainstAddress, digits: 2))x acctl update ADDRESS")
    print(
      "figure scenario=update-cost-ratios accessories=\(most.accessories) "
        + "applied_over_switch_on_connect=\(format(againstModule, digits: 2)) "
        + "applied_over_\(fewest.accessories)_accessories="
        + "\(format(againstFewest, digits: 2)) "
        + "acctl_name_over_address=\(format(nameAgainstAddress, digits: 2))")
  }
}
