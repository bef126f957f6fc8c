import Foundation
import PulseAudio
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
      "machine: \(info.activeProcessorCount) cores (\(cpuModel())), "
        + "\(info.operatingSystemVersionString), load average at start "
        + loadAverage())
    print(
      "method: \(options.repetitions) repetitions per stream figure, "
        + "\(options.roundTrips) set-default round trips, streams "
        + options.streamCounts.map(String.init).joined(separator: "/")
        + ", \(milliseconds(options.settleInterval)) ms settle between "
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
        + "\(format(milliseconds(session.server.startupDuration), digits: 0))"
        + " ms; sinks bench_a (default), bench_b; "
        + "module-switch-on-connect ignore_virtual=no loaded")
  }

  /// The table of one server's figures.
  static func printTable(_ figures: [Figure]) {
    let labelWidth = FigureKind.allCases.map(\.label.count).max() ?? 0
    print(
      pad("scenario", labelWidth) + leftPad("streams", 8)
        + leftPad("median ms", 12) + leftPad("p99 ms", 12)
        + leftPad("count", 7))
    var previousStreams: Int?
    for figure in figures {
      if let previousStreams, previousStreams != figure.streams {
        print("")
      }
      previousStreams = figure.streams
      var line = pad(figure.kind.label, labelWidth)
      line += leftPad("\(figure.streams)", 8)
      let samples = figure.samples
      if figure.neverHappened {
        line += "   never fired (\(samples.timeouts)/\(samples.timeouts)"
        line += " timeouts)"
      } else if let median = samples.median, let p99 = samples.p99 {
        line += leftPad(format(median), 12) + leftPad(format(p99), 12)
        line += leftPad("\(samples.count)", 7)
        if samples.timeouts > 0 { line += "  (\(samples.timeouts) timeouts)" }
      }
      print(line)
    }
  }

  /// One stable `key=value` line per figure.
  static func printFigureLines(_ figures: [Figure]) {
    for figure in figures {
      var line = "figure server=\(figure.server.identifier)"
      line += " scenario=\(figure.kind.rawValue) n=\(figure.streams)"
      let samples = figure.samples
      if figure.neverHappened {
        line += " status=never-fired"
      } else if let median = samples.median, let p99 = samples.p99 {
        line += " median_ms=\(format(median)) p99_ms=\(format(p99))"
      }
      line += " count=\(samples.count) timeouts=\(samples.timeouts)"
      print(line)
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

  // MARK: - Formatting

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
  }

  static func format(_ value: Double, digits: Int = 3) -> String {
    String(format: "%.\(digits)f", value)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width
      ? text : text + String(repeating: " ", count: width - text.count)
  }

  private static func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width
      ? " " + text : String(repeating: " ", count: width - text.count) + text
  }

  /// The 1, 5 and 15 minute load averages from `/proc/loadavg`: other work
  /// on the machine shows up in the figures.
  private static func loadAverage() -> String {
    let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
    let fields = text?.split(separator: " ").prefix(3) ?? []
    return fields.count == 3 ? fields.joined(separator: " ") : "unknown"
  }

  /// The processor model from `/proc/cpuinfo`, or "unknown CPU".
  private static func cpuModel() -> String {
    let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))
    let line = text?.split(separator: "\n").first {
      $0.hasPrefix("model name")
    }
    guard let line, let colon = line.firstIndex(of: ":") else {
      return "unknown CPU"
    }
    return line[line.index(after: colon)...].trimmingCharacters(
      in: .whitespaces)
  }
}
