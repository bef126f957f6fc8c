import AccessoryControl
import BenchmarkSupport
import Foundation
import SoundServerModel
import TestSupport

/// Measurement 4: `acctl update` as a whole process.
struct AcctlFigure: Sendable {
  var samples: Samples
  var streams: Int
}

/// Measurement 5: the daemon's memory with many registered accessories.
struct MemoryFigure: Sendable {
  var accessories: Int
  /// How many of their sinks were present at the end.
  var presentSinks: Int
  /// Connected, before any accessory.
  var baseline: MemoryReading
  /// With every accessory registered.
  var final: MemoryReading
  /// The time of one pair plus one register through the control socket.
  var pairAndRegister: Samples
  /// WirePlumber's own memory on this machine, idle on a private PipeWire
  /// stack with one output: the session manager beside which accessoryd
  /// runs.
  var wirePlumber: MemoryReading
}

/// Measurement 5b: the daemon beside WirePlumber in one PipeWire stack.
struct PipeWireMemoryFigure: Sendable {
  var accessories: Int
  var streams: Int
  /// accessoryd with every accessory registered and the streams playing.
  var daemon: MemoryReading
  /// WirePlumber in the same stack, read at the same time.
  var wirePlumber: MemoryReading
}

/// Measurement 6: the daemon's CPU time while nothing happens.
struct IdleFigure: Sendable {
  var duration: Duration
  /// utime + stime over the interval, in clock ticks.
  var ticks: Int
  var ticksPerSecond: Int
  /// The context switches of the daemon's threads over the interval, each
  /// thread read every ``DaemonCosts/idleSamplingInterval``.
  var contextSwitches: Int
  /// The run time over the interval, in milliseconds, of the daemon's
  /// threads from the scheduler, each read every
  /// ``DaemonCosts/idleSamplingInterval``; `nil` without
  /// `/proc/<pid>/task/*/sched`.
  var runTimeMilliseconds: Double?
  /// The daemon's threads at the start, and all that were seen.
  var threads: (start: Int, seen: Int)
  var streams: Int

  var milliseconds: Double {
    Double(ticks) * 1000 / Double(ticksPerSecond)
  }

  /// Scaled to one minute.
  var millisecondsPerMinute: Double {
    milliseconds * 60_000 / duration.milliseconds
  }

  /// The scheduler's run time scaled to one minute.
  var runTimeMillisecondsPerMinute: Double? {
    runTimeMilliseconds.map { $0 * 60_000 / duration.milliseconds }
  }

  /// The context switches scaled to one minute.
  var contextSwitchesPerMinute: Double {
    Double(contextSwitches) * 60_000 / duration.milliseconds
  }
}

/// Measurements 4 and 6 on one PulseAudio server with a speaker, the
/// headphones and two playing streams; then 5 on another with 100
/// Bluetooth-like sinks.
struct DaemonCosts {
  let options: Options
  let workspace: Workspace

  static let idleStreams = 2
  /// How long after the last route the idle interval starts.
  static let idleSettle = Duration.seconds(6)
  /// How often the daemon's threads are read during the idle interval.
  static let idleSamplingInterval = Duration.milliseconds(200)

  /// Runs `acctl update` alternately with `inEar` and `offHead`, then
  /// leaves the headphones worn and watches the daemon's CPU time.
  func measureAcctlAndIdle() async throws -> (AcctlFigure, IdleFigure) {
    progress("acctl and idle: starting PulseAudio")
    let rig = try await Rig.open(.pulseAudio)
    var daemon: Daemon?
    do {
      try await rig.growStreams(to: Self.idleStreams)
      daemon = try await Daemon.start(
        for: rig.server, in: workspace, stateName: "acctl",
        options: options)
      _ = try daemon!.call(
        "accessory.pair", ["address": .string(Rig.headphonesAddress)])
      _ = try daemon!.call(
        "accessory.register",
        [
          "accessory": .string(Rig.headphonesAddress),
          "configuration": [
            "deviceCapabilities": ["audioSwitching", "placement"],
            "devicePlacement": "offHead",
          ],
        ])
      progress("acctl: \(options.acctlRuns) runs of acctl update")
      let acctl = try await measureAcctl(on: rig)
      _ = try daemon!.call(
        "accessory.update",
        [
          "accessory": .string(Rig.headphonesAddress),
          "changes": ["devicePlacement": "inEar"],
        ])
      try await rig.observer.reach(rig.everything(on: Rig.headphones))
      progress(
        "idle: watching the daemon for "
          + "\(format(options.idleDuration.milliseconds / 1000, digits: 0)) s")
      let idle = try await measureIdle(daemon!, streams: Self.idleStreams)
      daemon!.stop()
      await rig.close()
      return (acctl, idle)
    } catch {
      await Self.abandon(daemon, rig)
      throw error
    }
  }

  /// Measurement 4: spawn to exit of `acctl update <address> --placement`,
  /// alternating; after each run the observer waits, untimed, until the
  /// route is on the server, then the server calms down.
  private func measureAcctl(on rig: Rig) async throws -> AcctlFigure {
    let acctl = try ReleaseDirectory.program("acctl")
    let output = "\(workspace.directory)/acctl.out"
    var environment = ProcessInfo.processInfo.environment
    environment["ACCESSORYD_SOCKET"] = workspace.socketPath
    var samples = Samples()
    // Two warm-up runs, one each way, are not recorded.
    for run in 0..<(options.acctlRuns + 2) {
      let wearing = run.isMultiple(of: 2)
      let start = ContinuousClock.now
      let child = try Child.spawn(
        acctl,
        arguments: [
          "update", Rig.headphonesAddress, "--placement",
          wearing ? "inEar" : "offHead", "--socket", workspace.socketPath,
        ],
        environment: environment, output: output)
      let status = child.waitForExit()
      let end = ContinuousClock.now
      guard status == 0 else {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        throw BenchmarkError(
          "acctl update failed (\(child.exitDescription)): "
            + text.split(separator: "\n").suffix(5).joined(separator: "\n"))
      }
      if run >= 2 { samples.append(end - start) }
      try await rig.observer.reach(
        rig.everything(on: wearing ? Rig.headphones : Rig.speaker))
      try await Task.sleep(for: options.settleInterval)
    }
    try? FileManager.default.removeItem(atPath: output)
    return AcctlFigure(samples: samples, streams: rig.streamIndexes.count)
  }

  /// Measurement 6: utime + stime of the daemon over the idle interval.
  private func measureIdle(
    _ daemon: Daemon, streams: Int
  ) async throws
    -> IdleFigure
  {
    // Idle starts once the last route and its echoes have passed: every
    // libpulse operation arms a 5 s timeout timer that fires even after
    // the reply came, so wait for those too.
    try await Task.sleep(for: Self.idleSettle)
    let ticksBefore = try daemon.cpuTicks()
    let switchesBefore = daemon.contextSwitches()
    let runTimesBefore = daemon.threadRunTimes()
    let start = ContinuousClock.now
    // Each thread's counters are read every sampling interval and the last
    // reading kept, so a thread that ends during the interval still counts
    // (up to its last reading). Reading /proc does not wake the daemon.
    var switchesAfter = switchesBefore
    var runTimesAfter = runTimesBefore
    let end = start + options.idleDuration
    while ContinuousClock.now < end {
      try await Task.sleep(
        for: min(Self.idleSamplingInterval, end - ContinuousClock.now))
      switchesAfter.merge(daemon.contextSwitches()) { $1 }
      runTimesAfter.merge(daemon.threadRunTimes()) { $1 }
    }
    let ticksAfter = try daemon.cpuTicks()
    let elapsed = ContinuousClock.now - start
    let switches = switchesAfter.reduce(0) { total, entry in
      total + entry.value - (switchesBefore[entry.key] ?? 0)
    }
    return IdleFigure(
      duration: elapsed, ticks: ticksAfter - ticksBefore,
      ticksPerSecond: Daemon.ticksPerSecond, contextSwitches: switches,
      runTimeMilliseconds: runTimesAfter.isEmpty
        ? nil
        : runTimesAfter.reduce(0) { total, entry in
          total + entry.value - (runTimesBefore[entry.key] ?? 0)
        },
      threads: (switchesBefore.count, switchesAfter.count),
      streams: streams)
  }

  /// The most Bluetooth-like sinks loaded at once: PulseAudio limits
  /// itself to 256 descriptors (`rlimit-nofile`) and each null sink takes
  /// about four, so it refuses sinks beyond about 55.
  static let sinksAtOnce = 45

  /// Measurement 5: pairs and registers accessories through the control
  /// socket, each with a Bluetooth-like null sink of its own, and reads the
  /// daemon's memory.
  ///
  /// The sinks come in batches of at most ``sinksAtOnce``, loaded through
  /// the rig's control connection and unloaded once their accessories are
  /// registered (a registration outlives its sink, as for headphones put
  /// away); the last batch is the largest and stays, so the daemon ends
  /// with every registration and that many outputs.
  /// WirePlumber's memory 1 s after a private PipeWire stack with one
  /// output started.
  static func wirePlumberMemory() async throws -> MemoryReading {
    let server = try await SoundServer.start(
      .pipeWire,
      sinks: [.speaker(name: "speaker", description: "Built-in Speaker")])
    defer { server.stop() }
    try await Task.sleep(for: .seconds(1))
    // dbus-daemon, pipewire, wireplumber, pipewire-pulse, in start order.
    let pids = server.pids
    guard pids.count == 4 else {
      throw BenchmarkError("the PipeWire stack has \(pids.count) processes")
    }
    return try Daemon.memory(ofProcess: pids[2])
  }

  func measureMemory() async throws -> MemoryFigure {
    let count = options.memoryAccessories
    let addresses = (0..<count).map {
      "AA:BB:CC:00:" + hex($0 / 256) + ":" + hex($0 % 256)
    }
    progress("memory: starting PulseAudio")
    let rig = try await Rig.open(.pulseAudio)
    var daemon: Daemon?
    do {
      daemon = try await Daemon.start(
        for: rig.server, in: workspace, stateName: "memory",
        options: options)
      try await Task.sleep(for: .milliseconds(500))
      let baseline = try daemon!.memory()
      progress("memory: pairing and registering \(count) accessories")
      let client = try ControlClient(path: workspace.socketPath, timeout: 30)
      defer { client.close() }
      var timings = Samples()
      var batches: [ArraySlice<Int>] = []
      var end = count
      while end > 0 {
        let start = max(0, end - Self.sinksAtOnce)
        batches.insert((start..<end).map { $0 }[...], at: 0)
        end = start
      }
      var presentSinks = 0
      for (number, batch) in batches.enumerated() {
        var modules: [UInt32] = []
        for index in batch {
          let spec = NullSinkSpec.bluetoothHeadphones(
            name: "bench_many_\(index)", address: addresses[index],
            description: "Bench Many \(index)")
          modules.append(
            try await rig.control.loadModule(
              "module-null-sink", arguments: try spec.moduleArguments()))
        }
        for index in batch {
          let start = ContinuousClock.now
          try await pairAndRegister(addresses[index], with: client)
          timings.append(.now - start)
        }
        if number < batches.count - 1 {
          for module in modules {
            try await rig.control.unloadModule(module)
          }
        } else {
          presentSinks = modules.count
        }
      }
      let listed = try client.call("accessory.list")["accessories"]
      guard case .array(let accessories) = listed,
        accessories.count(where: { $0["registration"] ?? .null != .null })
          >= count
      else {
        throw BenchmarkError("accessoryd does not list \(count) registrations")
      }
      try await Task.sleep(for: .seconds(1))
      let final = try daemon!.memory()
      daemon!.stop()
      await rig.close()
      progress("memory: WirePlumber's own, on a private PipeWire stack")
      return MemoryFigure(
        accessories: count, presentSinks: presentSinks, baseline: baseline,
        final: final, pairAndRegister: timings,
        wirePlumber: try await Self.wirePlumberMemory())
    } catch {
      await Self.abandon(daemon, rig)
      throw error
    }
  }

  /// Measures the daemon's memory on PulseAudio with many accessories,
  /// then beside WirePlumber on PipeWire, and prints both.
  ///
  /// - Returns: Whether both could be measured.
  func measureAndPrintMemory() async -> Bool {
    let onPulseAudio = await Self.measuring("memory") {
      Report.printMemory(try await measureMemory())
    }
    let onPipeWire = await Self.measuring("memory on PipeWire") {
      Report.printPipeWireMemory(try await measurePipeWireMemory())
    }
    return onPulseAudio && onPipeWire
  }

  /// After a measurement failed: prints the end of the daemon's log,
  /// stops it and closes the rig.
  private static func abandon(_ daemon: Daemon?, _ rig: Rig) async {
    if let daemon {
      progress("the end of the daemon log:\n\(daemon.logTail())")
      daemon.stop()
    }
    await rig.close()
  }

  /// Runs one measurement; prints that it failed, and why, if it throws.
  ///
  /// - Returns: Whether it was measured.
  private static func measuring(
    _ what: String, _ measurement: () async throws -> Void
  ) async -> Bool {
    do {
      try await measurement()
      return true
    } catch {
      progress("\(what) failed: \(error)")
      print("")
      print("\(what): benchmark failed: \(error)")
      return false
    }
  }

  /// The accessories of ``measurePipeWireMemory()``.
  static let pipeWireAccessories = 41
  /// The playing streams of ``measurePipeWireMemory()``.
  static let pipeWireStreams = 3

  /// The daemon's memory and WirePlumber's in one private PipeWire stack:
  /// ``pipeWireAccessories`` paired and registered accessories, each with
  /// a Bluetooth-like sink of its own, and ``pipeWireStreams`` playing
  /// streams; both read 1 s after the last registration.
  func measurePipeWireMemory() async throws -> PipeWireMemoryFigure {
    let count = Self.pipeWireAccessories
    let addresses = (0..<count).map {
      "AA:BB:CC:01:" + hex($0 / 256) + ":" + hex($0 % 256)
    }
    progress("memory on PipeWire: starting the stack")
    let rig = try await Rig.open(
      .pipeWire,
      extraSinks: addresses.enumerated().map { index, address in
        .bluetoothHeadphones(
          name: "bench_pw_\(index)", address: address,
          description: "Bench PipeWire \(index)",
          deviceAPI: SoundServerKind.pipeWire.bluetoothDeviceAPI)
      })
    var daemon: Daemon?
    do {
      try await rig.growStreams(to: Self.pipeWireStreams)
      daemon = try await Daemon.start(
        for: rig.server, in: workspace, stateName: "memory-pipewire",
        options: options)
      progress("memory on PipeWire: pairing and registering \(count)")
      let client = try ControlClient(path: workspace.socketPath, timeout: 30)
      defer { client.close() }
      for address in addresses {
        try await pairAndRegister(address, with: client)
      }
      try await Task.sleep(for: .seconds(1))
      // dbus-daemon, pipewire, wireplumber, pipewire-pulse, in start order.
      let pids = rig.server.pids
      guard pids.count == 4 else {
        throw BenchmarkError("the PipeWire stack has \(pids.count) processes")
      }
      let figure = PipeWireMemoryFigure(
        accessories: count, streams: Self.pipeWireStreams,
        daemon: try daemon!.memory(),
        wirePlumber: try Daemon.memory(ofProcess: pids[2]))
      daemon!.stop()
      await rig.close()
      return figure
    } catch {
      await Self.abandon(daemon, rig)
      throw error
    }
  }

  /// Pairs an accessory and registers it taken off.
  private func pairAndRegister(
    _ address: String, with client: ControlClient
  ) async throws {
    try await pair(address, with: client)
    _ = try client.call(
      "accessory.register",
      params: [
        "accessory": .string(address),
        "configuration": [
          "deviceCapabilities": ["audioSwitching", "placement"],
          "devicePlacement": "offHead",
        ],
      ])
  }

  /// Pairs an accessory, trying again while the daemon has not seen its
  /// freshly loaded sink yet.
  private func pair(_ address: String, with client: ControlClient) async throws
  {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
      let problem: String
      do {
        _ = try client.call(
          "accessory.pair", params: ["address": .string(address)])
        return
      } catch {
        problem = error.description
      }
      // The daemon refuses an address it has no output for yet.
      guard problem.contains("no Bluetooth output"),
        ContinuousClock.now < deadline
      else {
        throw BenchmarkError("pairing \(address): \(problem)")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  private func hex(_ value: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
  }
}
