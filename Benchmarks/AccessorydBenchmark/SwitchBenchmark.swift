import AccessoryControl
import AudioAccessoryKit
import BenchmarkSupport
import TestSupport

/// How long a measured repetition may take until the observer sees it
/// done, before it counts as a timeout.
let observationTimeout = Duration.seconds(5)

/// The accessory behind the headphones sink, as companion code has it.
let benchmarkHeadphones = ASAccessory(
  displayName: "Bench Buds",
  bluetoothAddress: BluetoothAddress(Rig.headphonesAddress)!,
  formFactor: .headphone)

/// Measurements 1 to 3 on one server kind: accessoryd's switch to the
/// headphones on `AccessoryControlDevice.update`, and the server's own
/// switching on the same streams, for each stream count.
///
/// The daemon is stopped while a reference runs, so it cannot fight it,
/// and started again (same state directory, so the registration stays).
/// The repetitions are taken in interleaved blocks (accessoryd's in three,
/// the references' in two between them), so that a machine busier in one
/// part of the run than in another weighs on both sides of a ratio alike.
struct SwitchBenchmark {
  let kind: SoundServerKind
  let options: Options
  let workspace: Workspace

  /// Runs every figure of this server.
  ///
  /// - Returns: The figures and the rig's description for the report.
  func run() async throws -> (figures: [Figure], setup: String) {
    progress("\(kind): starting the server")
    let rig = try await Rig.open(kind, switchOnConnect: kind == .pulseAudio)
    var daemon: Daemon?
    do {
      let setup =
        "\(rig.info.serverName) \(rig.info.serverVersion), started in "
        + "\(format(rig.server.startupDuration.milliseconds, digits: 0)) ms"
      daemon = try await startDaemon(for: rig)
      try await pairAndRegister(with: daemon!)
      var figures: [Figure] = []
      let daemonBlocks = Self.blocks(of: options.repetitions, count: 3)
      let referenceBlocks = Self.blocks(of: options.repetitions, count: 2)
      for streams in options.streamCounts {
        progress("\(kind): \(streams) streams")
        try await rig.growStreams(to: streams)
        var daemonFigures: [Figure] = []
        var referenceFigures: [Figure] = []
        for (index, repetitions) in daemonBlocks.enumerated() {
          if daemon == nil { daemon = try await startDaemon(for: rig) }
          daemonFigures = Self.joining(
            daemonFigures,
            try await measureDaemon(on: rig, daemon!, repetitions: repetitions))
          guard index < referenceBlocks.count else { continue }
          daemon!.stop()
          daemon = nil
          referenceFigures = Self.joining(
            referenceFigures,
            try await measureReferences(
              on: rig, repetitions: referenceBlocks[index]))
        }
        figures += daemonFigures + referenceFigures
      }
      daemon?.stop()
      daemon = nil
      await rig.close()
      return (figures, setup)
    } catch {
      if let daemon {
        progress("\(kind): the end of the daemon log:\n\(daemon.logTail())")
        daemon.stop()
      }
      await rig.close()
      throw error
    }
  }

  /// `total` repetitions cut into `count` blocks as even as can be, the
  /// larger first.
  static func blocks(of total: Int, count: Int) -> [Int] {
    (0..<count).map { total / count + ($0 < total % count ? 1 : 0) }
  }

  /// The figures of two series of the same figures, joined kind by kind;
  /// the second alone when there is no first.
  static func joining(_ first: [Figure], _ second: [Figure]) -> [Figure] {
    first.isEmpty ? second : zip(first, second).map { $0.joined(with: $1) }
  }

  private func startDaemon(for rig: Rig) async throws -> Daemon {
    try await Daemon.start(
      for: rig.server, in: workspace, stateName: kind.identifier,
      options: options)
  }

  /// Pairs the headphones through the control socket, then registers them
  /// with AccessoryControlDevice and the default engine, taken off.
  private func pairAndRegister(with daemon: Daemon) async throws {
    _ = try daemon.call(
      "accessory.pair", ["address": .string(Rig.headphonesAddress)])
    try await AccessoryControlDevice.register(
      benchmarkHeadphones,
      AccessoryControlDevice.Configuration(
        devicePlacement: .offHead,
        deviceCapabilities: [.audioSwitching, .placement]))
  }

  // MARK: - accessoryd

  /// Measurement 1: from `update(.inEar)` until the observer sees the
  /// headphones the default with every stream on them, and until the call
  /// returns; then `offHead` and, untimed, back on the speaker.
  ///
  /// Then, to show where the daemon's own time goes, the same number of
  /// `current(for:)` calls (the control round trip alone) and of updates
  /// that change nothing (round trip, saving the state file, deciding).
  ///
  /// - Parameters:
  ///   - rig: The server and its streams.
  ///   - daemon: The running daemon, with the headphones registered.
  ///   - repetitions: How many repetitions to record, after the warm-up.
  /// - Returns: The figures, always in the same order.
  private func measureDaemon(
    on rig: Rig, _ daemon: Daemon, repetitions: Int
  ) async throws -> [Figure] {
    let onSpeaker = rig.everything(on: Rig.speaker)
    let onHeadphones = rig.everything(on: Rig.headphones)
    try await rig.observer.reach(onSpeaker)
    let device = try AccessoryControlDevice.current(for: benchmarkHeadphones)
    let routesBefore = daemon.routesApplied()
    var observed = Samples()
    var returned = Samples()
    let streams = rig.streamIndexes.count
    // Repetition 0 warms the daemon up and is not recorded.
    for repetition in 0...repetitions {
      try await rig.observer.arm(onHeadphones)
      var configuration = device.configuration
      configuration.devicePlacement = .inEar
      let start = ContinuousClock.now
      try await device.update(configuration)
      let returnedAt = ContinuousClock.now
      let seen = try await rig.observer.wait(until: start + observationTimeout)
      if repetition > 0 {
        returned.append(returnedAt - start)
        if let seen {
          observed.append(seen - start)
        } else {
          observed.timeouts += 1
        }
      }
      // The timeline in the daemon's log, written after the measurement.
      daemon.log.write(
        "=== benchmark: \(streams) streams, repetition \(repetition): "
          + "update(.inEar) called", at: start)
      daemon.log.write("=== benchmark: update returned", at: returnedAt)
      if let seen {
        daemon.log.write("=== benchmark: observer saw it applied", at: seen)
      }
      configuration.devicePlacement = .offHead
      daemon.log.write("=== benchmark: update(.offHead), untimed")
      try await device.update(configuration)
      try await rig.observer.reach(onSpeaker)
      try await Task.sleep(for: options.settleInterval)
    }
    let updates = 2 * (repetitions + 1)
    let routes = Double(daemon.routesApplied() - routesBefore)
    let perUpdate =
      ["info", "debug", "trace"].contains(options.daemonLogLevel)
      ? routes / Double(updates) : nil

    var roundTrips = Samples()
    var noChange = Samples()
    var configuration = device.configuration
    configuration.devicePlacement = .offHead
    for repetition in 0...repetitions {
      let start = ContinuousClock.now
      _ = try AccessoryControlDevice.current(for: benchmarkHeadphones)
      let middle = ContinuousClock.now
      try await device.update(configuration)
      let end = ContinuousClock.now
      if repetition > 0 {
        roundTrips.append(middle - start)
        noChange.append(end - middle)
      }
      try await Task.sleep(for: options.settleInterval)
    }
    return [
      Figure(
        server: kind, kind: .updateObserved, streams: streams,
        samples: observed, routesPerUpdate: perUpdate),
      Figure(
        server: kind, kind: .updateReturned, streams: streams,
        samples: returned),
      Figure(
        server: kind, kind: .updateNoChange, streams: streams,
        samples: noChange),
      Figure(
        server: kind, kind: .currentRoundTrip, streams: streams,
        samples: roundTrips),
    ]
  }

  // MARK: - References

  /// Measurement 2, with the daemon stopped: on PulseAudio the server's
  /// module-switch-on-connect; on both, the streams following a default
  /// change (WirePlumber's on PipeWire).
  ///
  /// - Parameters:
  ///   - rig: The server and its streams.
  ///   - repetitions: How many repetitions to record, after the warm-up.
  /// - Returns: The figures, always in the same order.
  private func measureReferences(
    on rig: Rig, repetitions: Int
  ) async throws -> [Figure] {
    var figures: [Figure] = []
    if kind == .pulseAudio {
      figures += try await measureSwitchOnConnect(
        on: rig, repetitions: repetitions)
    }
    figures += try await measureFollowDefault(
      on: rig, repetitions: repetitions)
    return figures
  }

  /// With every stream on the speaker, loads a new null sink and times
  /// until the observer sees it the default with every stream on it; then
  /// unloads it.
  private func measureSwitchOnConnect(
    on rig: Rig, repetitions: Int
  ) async throws -> [Figure] {
    let (done, loadAck) = try await rig.switchOnConnect(
      repetitions: repetitions, settle: options.settleInterval,
      within: .seconds(3))
    let streams = rig.streamIndexes.count
    return [
      Figure(
        server: kind, kind: .switchOnConnect, streams: streams, samples: done),
      Figure(
        server: kind, kind: .switchOnConnectLoadAck, streams: streams,
        samples: loadAck),
    ]
  }

  /// With every stream on the speaker following the default, makes the
  /// headphones the default through the control connection and times until
  /// the observer sees every stream on them; then the speaker again.
  private func measureFollowDefault(
    on rig: Rig, repetitions: Int
  ) async throws -> [Figure] {
    let onSpeaker = rig.everything(on: Rig.speaker)
    let onHeadphones = rig.everything(on: Rig.headphones)
    try await rig.reset()
    var done = Samples()
    var ack = Samples()
    for repetition in 0...repetitions {
      try await rig.observer.arm(onHeadphones)
      let start = ContinuousClock.now
      try await rig.control.setDefaultSink(Rig.headphones)
      let acknowledged = ContinuousClock.now
      let seen = try await rig.observer.wait(until: start + observationTimeout)
      if repetition > 0 {
        ack.append(acknowledged - start)
        if let seen {
          done.append(seen - start)
        } else {
          done.timeouts += 1
        }
      }
      try await rig.control.setDefaultSink(Rig.speaker)
      try await rig.observer.reach(onSpeaker)
      try await Task.sleep(for: options.settleInterval)
    }
    let streams = rig.streamIndexes.count
    return [
      Figure(
        server: kind, kind: .followDefault, streams: streams, samples: done),
      Figure(
        server: kind, kind: .followDefaultAck, streams: streams, samples: ack),
    ]
  }
}
