import BenchmarkSupport
import Foundation
import TestSupport

/// The benchmark's output: a table per server for people, and one
/// `figure …` or `ratio …` line per value for programs.
enum Report {
  /// The ratio that pipelined moves of 50 streams may have to
  /// switch-on-connect with 50 streams.
  static let targetRatio = 1.1

  /// The stream count the ratio is taken at.
  static let ratioStreams = 50

  static func printHeader(_ options: BenchmarkOptions) {
    let info = ProcessInfo.processInfo
    print("pulse-benchmark")
    print(
      "machine: \(info.activeProcessorCount) cores (\(Machine.cpuModel())), "
        + "\(info.operatingSystemVersionString), load average at start "
        + Machine.loadAverage())
    print(
      "method: \(options.repetitions) repetitions per stream figure, "
        + "\(options.roundTrips) set-default round trips, streams "
        + options.streamCounts.map(String.init).joined(separator: "/")
        + ", \(options.settleInterval.milliseconds) ms settle between "
        + "repetitions; ContinuousClock; p99 by nearest rank (the maximum "
        + "below 100 samples)")
    print(
      "\"observed\" = a second connection, following events and listing, "
        + "sees the result; \"ack\" = the server's reply to the command")
  }

  static func printSection(_ session: BenchmarkSession) {
    print("")
    print(
      "== \(session.kind): \(session.info.serverName) "
        + "\(session.info.serverVersion), started in "
        + "\(format(session.server.startupDuration.milliseconds, digits: 0))"
        + " ms; sinks bench_a (default), bench_b; "
        + "module-switch-on-connect ignore_virtual=no loaded")
  }

  /// The table of one server's figures.
  static func printTable(_ figures: [Figure]) {
    let table = FigureTable(
      labelWidth: FigureKind.allCases.map(\.label.count).max() ?? 0,
      medianWidth: 12, p99Width: 12)
    table.printRows(figures, streams: \.streams) { figure in
      var line = table.lead(figure.kind.label, streams: figure.streams)
      let samples = figure.samples
      if figure.neverHappened {
        line += "   never fired (\(samples.timeouts)/\(samples.timeouts)"
        line += " timeouts)"
      } else if let columns = table.measurements(samples) {
        line += columns
        if samples.timeouts > 0 { line += "  (\(samples.timeouts) timeouts)" }
      }
      return line
    }
  }

  /// One stable `key=value` line per figure.
  static func printFigureLines(_ figures: [Figure]) {
    for figure in figures {
      print(
        figureLine(
          server: figure.server.identifier, scenario: figure.kind.rawValue,
          streams: figure.streams, samples: figure.samples,
          neverStatus: "never-fired"))
    }
  }

  /// The ratios of ours to switch-on-connect at 50 streams, where the
  /// module fired.
  static func printRatios(_ figures: [Figure]) {
    let n = ratioStreams
    guard let reference = figures.first(.switchOnConnect, streams: n)
    else { return }
    let server = reference.server
    guard let denominator = reference.samples.median else {
      print("")
      print(
        "\(server): no ratio to switch-on-connect: the module never fired")
      return
    }
    print("")
    print("\(server), \(n) streams, medians against switch-on-connect:")
    let numerators: [(FigureKind, String)] = [
      (.movePipelined, "pipelined move of \(n) (acks)"),
      (.movePipelinedObserved, "pipelined move of \(n), until observed"),
      (.defaultAndMoveObserved, "set-default + pipelined moves, observed"),
    ]
    var lines: [String] = []
    for (kind, label) in numerators {
      guard let median = figures.first(kind, streams: n)?.samples.median
      else { continue }
      let ratio = median / denominator
      let meets = ratio <= targetRatio
      print(
        "  \(pad(label, 42)) / switch-on-connect \(n) = "
          + "\(format(median)) / \(format(denominator)) ms = "
          + "\(format(ratio, digits: 2))x  "
          + (meets ? "meets" : "misses")
          + " the target (<= \(format(targetRatio, digits: 1))x)")
      lines.append(
        "ratio server=\(server.identifier) numerator=\(kind.rawValue) "
          + "denominator=\(FigureKind.switchOnConnect.rawValue) n=\(n) "
          + "value=\(format(ratio)) target=\(format(targetRatio, digits: 2)) "
          + "meets=\(meets ? "yes" : "no")")
    }
    for line in lines { print(line) }
  }
}
