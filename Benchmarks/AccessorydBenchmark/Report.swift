import BenchmarkSupport
import Foundation
import TestSupport

/// The benchmark's output: tables for people, and one `figure …`,
/// `ratio …` or `target …` line per value for programs.
enum Report {
  /// update → applied may take at most this multiple of PulseAudio's
  /// switch-on-connect, at these stream counts.
  static let switchOnConnectRatio = 1.25
  static let switchOnConnectStreams = [10, 50]
  /// On PipeWire, update → applied must be at least this many times
  /// faster than the streams following a default change, at this count.
  static let followDefaultSpeedup = 5.0
  static let followDefaultStreams = 50
  static let acctlMedianMilliseconds = 25.0
  static let rssMiB = 25.0
  static let idleMillisecondsPerMinute = 10.0

  static func printHeader(_ options: Options, workspace: Workspace) {
    let info = ProcessInfo.processInfo
    print("accessoryd-benchmark\(options.isQuick ? " (--quick)" : "")")
    print(
      "machine: \(info.activeProcessorCount) cores (\(Machine.cpuModel())), "
        + "load average at start \(Machine.loadAverage())")
    print(
      "programs: "
        + ((try? options.accessorydExecutable()) ?? "accessoryd (missing)")
        + ", \(ReleaseDirectory.path)/acctl; policy: "
        + "policies/default.json5 with placement.offHeadGraceSeconds: 0; "
        + "daemon --log-level \(options.daemonLogLevel)")
    print(
      "method: \(options.repetitions) measured repetitions per switch figure "
        + "in interleaved blocks (accessoryd's in three, the references' in "
        + "two between them), each after an unrecorded warm-up, streams "
        + options.streamCounts.map(String.init).joined(separator: "/")
        + " (silent pacat), "
        + format(options.settleInterval.milliseconds, digits: 0)
        + " ms settle after each; ContinuousClock; p99 by nearest rank (the "
        + "maximum below 100 samples)")
    print(
      "\"observed\" = an independent libpulse connection (its own "
        + "PulseConnection, following events, listing what changed) sees "
        + "the target the default AND every stream on it")
    print(
      "update = AccessoryControlDevice.update(placement .inEar) with the "
        + "default engine (DaemonAccessoryEngine over the control socket); "
        + "then .offHead and, untimed, back to the speaker")
    print(
      "references: the daemon is STOPPED (SIGTERM) while they run and "
        + "started again afterwards with the same state, so it cannot fight "
        + "them; nothing is registered for the reference sink")
  }

  static func printSection(
    _ kind: SoundServerKind, setup: String, figures: [Figure]
  ) {
    print("")
    var line = "== \(kind): \(setup); sinks bench_speaker (default), "
    line +=
      "bench_buds (\(Rig.headphonesAddress), device.api="
      + "\(kind.bluetoothDeviceAPI))"
    if kind == .pulseAudio {
      line += "; module-switch-on-connect ignore_virtual=no loaded"
    } else {
      line +=
        "; no switch-on-connect figure (pipewire-pulse's module never "
        + "fires for null sinks)"
    }
    print(line)
    printTable(figures)
    print("")
    for figure in figures { print(figureLine(figure)) }
  }

  private static func printTable(_ figures: [Figure]) {
    let table = FigureTable(
      labelWidth: FigureKind.allCases.map(\.label.count).max() ?? 0,
      medianWidth: 11, p99Width: 10, notesHeading: "notes")
    table.printRows(figures, streams: \.streams) { figure in
      var line = table.lead(figure.kind.label, streams: figure.streams)
      let samples = figure.samples
      if figure.neverHappened {
        line += "   never happened (\(samples.timeouts) timeouts)"
      } else if let columns = table.measurements(samples) {
        line += columns
        var notes: [String] = []
        if samples.timeouts > 0 { notes.append("\(samples.timeouts) timeouts") }
        if let routes = figure.routesPerUpdate {
          notes.append("\(format(routes, digits: 2)) routes applied per update")
        }
        if !notes.isEmpty { line += "  " + notes.joined(separator: ", ") }
      }
      return line
    }
  }

  private static func figureLine(_ figure: Figure) -> String {
    var line = BenchmarkSupport.figureLine(
      server: figure.server.identifier, scenario: figure.kind.rawValue,
      streams: figure.streams, samples: figure.samples,
      neverStatus: "never-happened")
    if let routes = figure.routesPerUpdate {
      line += " routes_per_update=\(format(routes, digits: 2))"
    }
    return line
  }

  // MARK: - Ratios

  /// Measurement 3: the ratios against the targets, where both figures
  /// were measured.
  static func printRatios(_ figures: [Figure]) {
    var lines: [String] = []
    var text: [String] = []
    for n in switchOnConnectStreams {
      guard
        let ours = figures.first(
          .updateObserved, server: .pulseAudio, streams: n)?.samples.median,
        let reference = figures.first(
          .switchOnConnect, server: .pulseAudio, streams: n)?.samples.median
      else { continue }
      let ratio = ours / reference
      let meets = ratio <= switchOnConnectRatio
      text.append(
        "  PulseAudio, \(n) streams: update -> applied / switch-on-connect = "
          + "\(format(ours)) / \(format(reference)) ms = "
          + "\(format(ratio, digits: 2))x  \(meets ? "meets" : "MISSES") "
          + "the target (<= \(format(switchOnConnectRatio, digits: 2))x)")
      lines.append(
        "ratio server=pulseaudio numerator=update-observed "
          + "denominator=switch-on-connect n=\(n) value=\(format(ratio)) "
          + "target_max=\(format(switchOnConnectRatio, digits: 2)) "
          + "meets=\(meets ? "yes" : "no")")
    }
    let n = followDefaultStreams
    if let ours = figures.first(
      .updateObserved, server: .pipeWire, streams: n)?.samples.median,
      let reference = figures.first(
        .followDefault, server: .pipeWire, streams: n)?.samples.median
    {
      let speedup = reference / ours
      let meets = speedup >= followDefaultSpeedup
      text.append(
        "  PipeWire, \(n) streams: WirePlumber's default-following / "
          + "update -> applied = \(format(reference)) / \(format(ours)) ms = "
          + "\(format(speedup, digits: 2))x faster  "
          + "\(meets ? "meets" : "MISSES") the target (>= "
          + "\(format(followDefaultSpeedup, digits: 0))x)")
      lines.append(
        "ratio server=pipewire numerator=set-default-follow-observed "
          + "denominator=update-observed n=\(n) value=\(format(speedup)) "
          + "target_min=\(format(followDefaultSpeedup, digits: 2)) "
          + "meets=\(meets ? "yes" : "no")")
    }
    guard !text.isEmpty else { return }
    print("")
    print("ratios (medians):")
    text.forEach { print($0) }
    lines.forEach { print($0) }
  }

  // MARK: - Daemon costs

  static func printAcctl(_ figure: AcctlFigure) {
    print("")
    print(
      "== acctl update <address> --placement inEar|offHead, whole process "
        + "(spawn to exit), alternating, PulseAudio with \(figure.streams) "
        + "streams; the daemon applies the route before it answers")
    let samples = figure.samples
    guard let median = samples.median, let p99 = samples.p99 else { return }
    let meets = median <= acctlMedianMilliseconds
    print(
      "  median \(format(median)) ms, p99 \(format(p99)) ms, "
        + "\(samples.count) runs: \(meets ? "meets" : "MISSES") the target "
        + "(median <= \(format(acctlMedianMilliseconds, digits: 0)) ms)")
    print(
      "figure scenario=acctl-update n=\(figure.streams) "
        + "median_ms=\(format(median)) p99_ms=\(format(p99)) "
        + "count=\(samples.count)")
    print(
      "target name=acctl-update-median value=\(format(median)) "
        + "max=\(format(acctlMedianMilliseconds, digits: 0)) "
        + "meets=\(meets ? "yes" : "no")")
  }

  /// Measurement 7: taking the headphones off with players on them, and
  /// a headset nobody registered going away.
  static func printMedia(_ figures: [MediaFigure]) {
    for figure in figures {
      print("")
      if figure.unregistered {
        printUnregistered(figure)
        continue
      }
      print(
        "== \(figure.kind), \(figure.players) mpv player(s) playing on the "
          + "headphones, update(.offHead) with no grace time: every player "
          + "Paused (an independent MPRIS client) and the route on the "
          + "speaker (the observer); audible time of their streams on the "
          + "speaker (an independent libpulse client, at every change)")
      printSamples("offhead-paused", figure.paused, of: figure)
      printSamples("offhead-routed", figure.routed, of: figure)
      printZeroTarget("offhead-audible", figure.audible, of: figure)
      printFlips(figure, prefix: "")
    }
  }

  /// A headset nobody registered: its flips, and it going for good.
  private static func printUnregistered(_ figure: MediaFigure) {
    print(
      "== \(figure.kind), \(figure.players) mpv player(s) playing on a "
        + "Bluetooth headset nobody registered, which the person made the "
        + "default")
    printFlips(figure, prefix: "unregistered-")
    print(
      "  gone for good (the sink removed, BlueZ not asked: the profile "
        + "switch's window, 0.3 s, decides): until every stream of the "
        + "players was muted or corked (the benchmark's own connection, "
        + "polling), until every player was Paused, how far the players' "
        + "MPRIS Position went on between the two (the most of any player), "
        + "and their audible time on the speaker (the server moves them "
        + "before any client hears the sink went, as in a flip)")
    printSamples("unregistered-gone-silent", figure.goneSilent, of: figure)
    printSamples("unregistered-gone-paused", figure.gonePaused, of: figure)
    printSamples(
      "unregistered-gone-position-lost", figure.gonePositionLost, of: figure)
    printSamples("unregistered-gone-audible", figure.goneAudible, of: figure)
  }

  /// One series of a media figure: its median and p99, as a line for
  /// people and a `figure` line.
  private static func printSamples(
    _ name: String, _ samples: Samples, of figure: MediaFigure
  ) {
    guard let median = samples.median, let p99 = samples.p99 else {
      print("  \(name): no sample (\(samples.timeouts) timeouts)")
      return
    }
    let worst = samples.milliseconds.max() ?? 0
    print(
      "  \(name): median \(format(median)) ms, p99 \(format(p99)) ms, "
        + "worst \(format(worst)) ms, \(samples.count) repetitions")
    print(
      "figure server=\(figure.kind.identifier) scenario=\(name) "
        + "players=\(figure.players) median_ms=\(format(median)) "
        + "p99_ms=\(format(p99)) worst_ms=\(format(worst)) "
        + "count=\(samples.count) timeouts=\(samples.timeouts)")
  }

  /// An audible time whose target is 0 ms: the worst repetition.
  private static func printZeroTarget(
    _ name: String, _ samples: Samples, of figure: MediaFigure
  ) {
    let worst = samples.milliseconds.max() ?? 0
    let meets = worst == 0
    print(
      "  audible on the speaker: at most \(format(worst)) ms in "
        + "\(samples.count) repetitions: "
        + "\(meets ? "meets" : "MISSES") the target (0 ms)")
    print(
      "target name=\(name) server=\(figure.kind.identifier) "
        + "players=\(figure.players) value=\(format(worst)) max=0 "
        + "meets=\(meets ? "yes" : "no")")
  }

  /// The profile flips of one media figure.
  private static func printFlips(_ figure: MediaFigure, prefix: String) {
    print(
      "  A2DP ↔ headset flips, the sink removed and one with the same "
        + "address loaded: the time their streams played unmuted on the "
        + "speaker where the server moved them, and until all played "
        + "unmuted on the new sink")
    printSamples("\(prefix)flip-audible", figure.flipAudible, of: figure)
    printSamples("\(prefix)flip-back", figure.flipBack, of: figure)
    if figure.lateFlips > 0 {
      print(
        "  \(figure.lateFlips) flip(s) made again: the new sink came later "
          + "than the profile switch's window (0.3 s, BlueZ not asked) on "
          + "this busy machine, and the daemon rightly took the headphones "
          + "for gone and paused the players")
    }
    print(
      "figure server=\(figure.kind.identifier) scenario=\(prefix)late-flips "
        + "players=\(figure.players) count=\(figure.lateFlips)")
  }

  static func printMemory(_ figure: MemoryFigure) {
    print("")
    print(
      "== daemon memory: VmRSS with \(figure.accessories) paired and "
        + "registered accessories, read 1 s after the last registration; "
        + "each paired against a Bluetooth-like null sink of its own on "
        + "PulseAudio, loaded in batches of at most \(DaemonCosts.sinksAtOnce) "
        + "(PulseAudio's 256-descriptor limit), \(figure.presentSinks) of "
        + "them present at the end")
    let final = figure.final
    let baseline = figure.baseline
    let rssMiB = Double(final.residentKiB) / 1024
    let meets = rssMiB <= self.rssMiB
    print(
      "  VmRSS \(final.residentKiB) KiB (\(format(rssMiB, digits: 1)) MiB), "
        + "peak VmHWM \(final.peakKiB) KiB: \(meets ? "meets" : "MISSES") "
        + "the target (<= \(format(self.rssMiB, digits: 0)) MiB)")
    print(
      "  of it: RssAnon (private heap and stacks) "
        + "\(kibibytes(final.anonymousKiB)), RssFile (mapped files: the "
        + "daemon's code with the Swift runtime linked in, and the C "
        + "libraries) "
        + "\(kibibytes(final.fileKiB)); Pss \(kibibytes(final.proportionalKiB))"
    )
    print(
      "  with no accessory: VmRSS \(baseline.residentKiB) KiB, RssAnon "
        + "\(kibibytes(baseline.anonymousKiB)), RssFile "
        + "\(kibibytes(baseline.fileKiB)), Pss "
        + kibibytes(baseline.proportionalKiB))
    let wirePlumber = figure.wirePlumber
    print(
      "  beside WirePlumber's own on this machine (idle, one output): "
        + "\(described(wirePlumber)); accessoryd is "
        + format(
          Double(final.residentKiB) / Double(max(wirePlumber.residentKiB, 1)),
          digits: 2) + "× of it")
    if let median = figure.pairAndRegister.median,
      let p99 = figure.pairAndRegister.p99
    {
      print(
        "  pair + register through the control socket: median "
          + "\(format(median)) ms, p99 \(format(p99)) ms")
    }
    var line =
      "figure scenario=daemon-rss accessories=\(figure.accessories) "
      + "sinks_present=\(figure.presentSinks) "
      + "rss_kb=\(final.residentKiB) peak_kb=\(final.peakKiB)"
    if let anonymous = final.anonymousKiB { line += " anon_kb=\(anonymous)" }
    if let file = final.fileKiB { line += " file_kb=\(file)" }
    if let pss = final.proportionalKiB { line += " pss_kb=\(pss)" }
    line += " baseline_rss_kb=\(baseline.residentKiB)"
    line += " wireplumber_rss_kb=\(wirePlumber.residentKiB)"
    if let pss = wirePlumber.proportionalKiB {
      line += " wireplumber_pss_kb=\(pss)"
    }
    if let anonymous = baseline.anonymousKiB {
      line += " baseline_anon_kb=\(anonymous)"
    }
    print(line)
    print(
      "target name=daemon-rss value_mib=\(format(rssMiB, digits: 1)) "
        + "max_mib=\(format(self.rssMiB, digits: 0)) "
        + "meets=\(meets ? "yes" : "no")")
  }

  static func printPipeWireMemory(_ figure: PipeWireMemoryFigure) {
    let daemon = figure.daemon
    let wirePlumber = figure.wirePlumber
    let ratio =
      Double(daemon.residentKiB) / Double(max(wirePlumber.residentKiB, 1))
    print("")
    print(
      "== daemon memory beside WirePlumber: one private PipeWire stack, "
        + "\(figure.accessories) paired and registered accessories (a "
        + "Bluetooth-like sink each), \(figure.streams) playing streams; "
        + "both read 1 s after the last registration")
    print("  accessoryd \(described(daemon))")
    print("  WirePlumber \(described(wirePlumber))")
    print(
      "  accessoryd is \(format(ratio, digits: 2))× WirePlumber's VmRSS: "
        + "\(ratio <= 1 ? "meets" : "MISSES") the target (<= 1.0×)")
    var line =
      "figure scenario=daemon-rss-pipewire accessories=\(figure.accessories) "
      + "streams=\(figure.streams) rss_kb=\(daemon.residentKiB) "
      + "wireplumber_rss_kb=\(wirePlumber.residentKiB)"
    if let anonymous = daemon.anonymousKiB { line += " anon_kb=\(anonymous)" }
    if let file = daemon.fileKiB { line += " file_kb=\(file)" }
    if let anonymous = wirePlumber.anonymousKiB {
      line += " wireplumber_anon_kb=\(anonymous)"
    }
    if let file = wirePlumber.fileKiB { line += " wireplumber_file_kb=\(file)" }
    print(line)
    print(
      "target name=daemon-rss-vs-wireplumber value=\(format(ratio, digits: 2)) "
        + "max=1.0 meets=\(ratio <= 1 ? "yes" : "no")")
  }

  /// A process's memory as the report words it: "VmRSS N KiB (M MiB),
  /// RssAnon …, RssFile …, Pss …".
  private static func described(_ reading: MemoryReading) -> String {
    "VmRSS \(reading.residentKiB) KiB "
      + "(\(format(Double(reading.residentKiB) / 1024, digits: 1)) MiB), "
      + "RssAnon \(kibibytes(reading.anonymousKiB)), RssFile "
      + "\(kibibytes(reading.fileKiB)), Pss "
      + kibibytes(reading.proportionalKiB)
  }

  private static func kibibytes(_ value: Int?) -> String {
    value.map { "\($0) KiB" } ?? "unknown"
  }

  static func printIdle(_ figure: IdleFigure) {
    print("")
    let seconds = figure.duration.milliseconds / 1000
    print(
      "== daemon CPU while idle, over "
        + "\(format(seconds, digits: 1)) s"
        + (seconds < 59 ? ", scaled to a minute" : "")
        + "; PulseAudio, the headphones registered and worn (inEar), "
        + "\(figure.streams) streams playing on them; starting "
        + format(DaemonCosts.idleSettle.milliseconds / 1000, digits: 0)
        + " s after the route was applied")
    // The scheduler's nanosecond count is judged; the ticks, whose
    // resolution is far coarser than the target, are shown beside it.
    let tickPerMinute = figure.millisecondsPerMinute
    let perMinute = figure.runTimeMillisecondsPerMinute ?? tickPerMinute
    let meets = perMinute <= idleMillisecondsPerMinute
    if let runTime = figure.runTimeMilliseconds {
      print(
        "  the scheduler's run time (se.sum_exec_runtime) of every thread, "
          + "read every "
          + "\(format(DaemonCosts.idleSamplingInterval.milliseconds, digits: 0)) ms: "
          + "\(format(runTime, digits: 2)) ms = "
          + "\(format(perMinute, digits: 2)) ms per minute: "
          + "\(meets ? "meets" : "MISSES") the target (<= "
          + "\(format(idleMillisecondsPerMinute, digits: 0)) ms per minute)")
    }
    let resolution = 1000 / Double(figure.ticksPerSecond) * 60 / seconds
    print(
      "  utime+stime: \(figure.ticks) ticks (\(figure.ticksPerSecond)/s) = "
        + "\(format(figure.milliseconds, digits: 1)) ms = "
        + "\(format(tickPerMinute, digits: 1)) ms per minute"
        + (figure.runTimeMilliseconds == nil
          ? ": \(meets ? "meets" : "MISSES") the target (<= "
            + "\(format(idleMillisecondsPerMinute, digits: 0)) ms per minute)"
          : "")
        + "; resolution \(format(resolution, digits: 0)) ms per minute")
    print(
      "  wake-ups (context switches): "
        + "\(figure.contextSwitches) = "
        + "\(format(figure.contextSwitchesPerMinute, digits: 1)) per minute; "
        + "threads \(figure.threads.start) at the start, "
        + "\(figure.threads.seen) seen in all")
    var figureLine =
      "figure scenario=daemon-idle-cpu seconds=\(format(seconds, digits: 1)) "
      + "ticks=\(figure.ticks) cpu_ms=\(format(figure.milliseconds, digits: 1)) "
      + "per_minute_ms=\(format(tickPerMinute, digits: 1)) "
      + "scaled=\(seconds < 59 ? "yes" : "no")"
    if let perMinute = figure.runTimeMillisecondsPerMinute {
      figureLine += " runtime_per_minute_ms=\(format(perMinute, digits: 2))"
    }
    figureLine += " context_switches=\(figure.contextSwitches)"
    print(figureLine)
    print(
      "target name=daemon-idle-cpu value=\(format(perMinute, digits: 2)) "
        + "max=\(format(idleMillisecondsPerMinute, digits: 0)) "
        + "meets=\(meets ? "yes" : "no")")
  }
}

/// Prints a progress line on standard error, after what standard output
/// holds so far, so the two interleave in order even when piped.
func progress(_ message: String) {
  printProgress(message, program: "accessoryd-benchmark")
}
