import Foundation
import TestSupport

/// A number with a fixed count of decimals.
public func format(_ value: Double, digits: Int = 3) -> String {
  String(format: "%.\(digits)f", value)
}

/// The text padded with spaces on the right to `width` characters.
public func pad(_ text: String, _ width: Int) -> String {
  text.count >= width
    ? text : text + String(repeating: " ", count: width - text.count)
}

/// The text padded with spaces on the left to `width` characters.
///
/// A text that fills the width or more gets one space before it, so that
/// columns stay apart.
public func leftPad(_ text: String, _ width: Int) -> String {
  text.count >= width
    ? " " + text : String(repeating: " ", count: width - text.count) + text
}

/// Prints a progress line on standard error, after what standard output
/// holds so far, so the two interleave in order even when piped.
///
/// - Parameter program: The name the line starts with, in brackets.
public func printProgress(_ message: String, program: String) {
  fflush(nil)
  FileHandle.standardError.write(Data("[\(program)] \(message)\n".utf8))
}

/// What the report says about the machine the figures were taken on.
public enum Machine {
  /// The 1, 5 and 15 minute load averages from `/proc/loadavg`: other work
  /// on the machine shows up in the figures.
  public static func loadAverage() -> String {
    let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
    let fields = text?.split(separator: " ").prefix(3) ?? []
    return fields.count == 3 ? fields.joined(separator: " ") : "unknown"
  }

  /// The processor model from `/proc/cpuinfo`, or "unknown CPU".
  public static func cpuModel() -> String {
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

/// The columns of a table of figures for people: scenario, streams, median,
/// p99 and count, and optionally notes.
public struct FigureTable: Sendable {
  /// The width of the scenario column.
  public var labelWidth: Int
  /// The width of the median column.
  public var medianWidth: Int
  /// The width of the p99 column.
  public var p99Width: Int
  /// The heading of a notes column after the count, if there is one.
  public var notesHeading: String?

  /// Creates a table layout with the given column widths.
  public init(
    labelWidth: Int, medianWidth: Int, p99Width: Int,
    notesHeading: String? = nil
  ) {
    self.labelWidth = labelWidth
    self.medianWidth = medianWidth
    self.p99Width = p99Width
    self.notesHeading = notesHeading
  }

  /// The line of column headings.
  public var header: String {
    pad("scenario", labelWidth) + leftPad("streams", 8)
      + leftPad("median ms", medianWidth) + leftPad("p99 ms", p99Width)
      + leftPad("count", 7) + (notesHeading.map { "  " + $0 } ?? "")
  }

  /// The scenario and streams columns of a row.
  public func lead(_ label: String, streams: Int) -> String {
    pad(label, labelWidth) + leftPad("\(streams)", 8)
  }

  /// The median, p99 and count columns of a row, or `nil` if nothing was
  /// measured.
  public func measurements(_ samples: Samples) -> String? {
    guard let median = samples.median, let p99 = samples.p99 else {
      return nil
    }
    return leftPad(format(median), medianWidth)
      + leftPad(format(p99), p99Width) + leftPad("\(samples.count)", 7)
  }

  /// Prints the header and a line per row, with an empty line wherever the
  /// stream count changes.
  public func printRows<Row>(
    _ rows: [Row], streams: (Row) -> Int, line: (Row) -> String
  ) {
    print(header)
    var previousStreams: Int?
    for row in rows {
      if let previousStreams, previousStreams != streams(row) { print("") }
      previousStreams = streams(row)
      print(line(row))
    }
  }
}

/// The stable `key=value` line of one figure, for programs.
///
/// It reads `figure server=… scenario=… n=…`, then `median_ms=… p99_ms=…`
/// or, if every try timed out, `status=<neverStatus>`, then `count=…
/// timeouts=…`.
public func figureLine(
  server: String, scenario: String, streams: Int, samples: Samples,
  neverStatus: String
) -> String {
  var line = "figure server=\(server) scenario=\(scenario) n=\(streams)"
  if samples.neverHappened {
    line += " status=\(neverStatus)"
  } else if let median = samples.median, let p99 = samples.p99 {
    line += " median_ms=\(format(median)) p99_ms=\(format(p99))"
  }
  line += " count=\(samples.count) timeouts=\(samples.timeouts)"
  return line
}

/// One line for people: a label, the median and the worst (p99) in ms,
/// a note, and how many tries timed out.
///
/// - Parameters:
///   - label: What was measured.
///   - samples: The measurements.
///   - width: The label's column width.
///   - digits: The digits after the point.
///   - note: Text after the figures, such as what they count from.
public func medianAndWorstLine(
  _ label: String, _ samples: Samples, width: Int, digits: Int,
  note: String = ""
) -> String {
  let median = samples.median.map { format($0, digits: digits) } ?? "-"
  let worst = samples.p99.map { format($0, digits: digits) } ?? "-"
  return "  \(pad(label, width)) median \(leftPad(median, 8)) ms  "
    + "worst \(leftPad(worst, 8)) ms" + (note.isEmpty ? "" : "  \(note)")
    + (samples.timeouts > 0 ? "  (\(samples.timeouts) timed out)" : "")
}

/// Runs a benchmark that needs the Bluetooth VM, then exits: outside the
/// VM it says so and exits 64; a failure is printed and exits 1.
///
/// - Parameters:
///   - program: The executable's name, as `scripts/benchmark` runs it.
///   - label: The benchmark's name in its failure line.
///   - body: The benchmark, told whether `--quick` was given.
public func runInsideTheBluetoothVM(
  _ program: String, label: String,
  _ body: @Sendable (_ quick: Bool) async throws -> Void
) async -> Never {
  guard BluetoothVM.isInside else {
    print(
      "\(program): runs inside the Bluetooth VM; scripts/benchmark starts it "
        + "there")
    exit(64)
  }
  do {
    try await body(CommandLine.arguments.contains("--quick"))
    exit(0)
  } catch {
    print("\(label): benchmark failed: \(error)")
    exit(1)
  }
}
