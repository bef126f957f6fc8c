// routing-benchmark: times the decision core on a small and a large
// snapshot and checks that a million decisions do not grow the resident
// memory. Build it as release (scripts/benchmark).

import Foundation
import PolicyFiles
import RoutingCore

@main
struct RoutingBenchmark {
  static let usage = """
    usage: routing-benchmark [--quick] [--policies DIR]
                             [--only small|large|memory]

    Times decide(_:_:) on a small snapshot (4 accessories, 8 outputs,
    32 streams) and a large one (1,000 accessories, 500 outputs,
    5,000 streams), and reads VmRSS before and after one million decisions
    on the small one.

      --quick            fewer repetitions (100,000 decisions for the memory
                         check), for CI
      --policies DIR     read DIR/default.json5 (default: policies/ in the
                         current directory or above the executable)
      --only PART        run one part: small, large or memory (for profiling)
      -h, --help         show this text

    Targets: small median <= 10 us, large median <= 2 ms, no memory growth.
    Exits with 1 only if the benchmark itself fails, never because a target
    is missed; 2 for a wrong command line.
    """

  static func main() {
    var quick = false
    var policiesFolder: String?
    var parts: Set<String> = ["small", "large", "memory"]
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch argument {
      case "--quick":
        quick = true
      case "--policies":
        guard let folder = arguments.popFirst() else {
          fail("--policies needs a folder", status: 2)
        }
        policiesFolder = folder
      case "--only":
        guard let part = arguments.popFirst(), parts.contains(part) else {
          fail("--only needs small, large or memory", status: 2)
        }
        parts = [part]
      case "-h", "--help":
        print(usage)
        exit(0)
      default:
        fail("unknown argument '\(argument)'", status: 2)
      }
    }
    let start = ContinuousClock.now
    let (policy, source) = loadPolicy(folder: policiesFolder)
    var run = BenchmarkRun(quick: quick, policy: policy, parts: parts)
    print("routing-benchmark: the decision core, \(buildKind) build")
    print("policy: \(source)")
    print(
      "mode: \(quick ? "quick" : "full"); ContinuousClock per decision after "
        + "a warm-up; p99 by nearest rank")
    print("")
    fflush(nil)
    run.measureTimings()
    if parts.contains("memory") { run.measureMemory() }
    print("")
    for line in run.figureLines { print(line) }
    let seconds = microseconds(.now - start) / 1e6
    print("total \(format(seconds, digits: 1)) s")
    if !run.failures.isEmpty {
      for failure in run.failures { print("failure: \(failure)") }
      exit(1)
    }
  }

  static var buildKind: String {
    #if DEBUG
      "debug (figures are not meaningful; use -c release)"
    #else
      "release"
    #endif
  }

  /// Reads default.json5 from the given folder, or from policies/ in the
  /// current directory or above the executable; falls back to `Policy()`.
  static func loadPolicy(folder: String?) -> (Policy, String) {
    let fileName = "default.json5"
    var candidates: [URL] = []
    if let folder {
      candidates = [
        URL(fileURLWithPath: folder).appendingPathComponent(fileName)
      ]
    } else {
      let current = URL(
        fileURLWithPath: FileManager.default.currentDirectoryPath)
      candidates.append(
        current.appendingPathComponent("policies").appendingPathComponent(
          fileName))
      var directory = executableURL().deletingLastPathComponent()
      for _ in 0..<6 {
        candidates.append(
          directory.appendingPathComponent("policies")
            .appendingPathComponent(fileName))
        directory = directory.deletingLastPathComponent()
      }
    }
    for candidate in candidates
    where FileManager.default.fileExists(atPath: candidate.path) {
      do {
        let policy = try PolicyLoader.load(contentsOf: candidate)
        return (policy, candidate.standardizedFileURL.path)
      } catch {
        fail("\(error)", status: 1)
      }
    }
    if let folder {
      fail("no \(fileName) in \(folder)", status: 1)
    }
    return (
      Policy(),
      "built-in Policy() defaults (note: policies/\(fileName) was not found "
        + "in the current directory or above the executable; pass --policies DIR)"
    )
  }

  static func executableURL() -> URL {
    if let path = try? FileManager.default.destinationOfSymbolicLink(
      atPath: "/proc/self/exe")
    {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
  }

  static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("routing-benchmark: \(message)\n".utf8))
    if status == 2 {
      FileHandle.standardError.write(Data((usage + "\n").utf8))
    }
    exit(status)
  }
}

/// One run of the benchmark: the measurements and their report lines.
struct BenchmarkRun {
  let quick: Bool
  let policy: Policy
  /// The parts to run: `small`, `large`, `memory`.
  let parts: Set<String>
  var figureLines: [String] = []
  var failures: [String] = []

  /// Times both scenarios and prints a table.
  mutating func measureTimings() {
    guard parts.contains("small") || parts.contains("large") else { return }
    print(
      pad("scenario", 14) + pad("accessories/outp./str.", 24)
        + leftPad("decisions", 10) + leftPad("median", 12) + leftPad("p99", 12)
        + leftPad("per second", 13) + "  target")
    let scenarios: [(BenchmarkScenario, targetMicroseconds: Double)] = [
      (.small, 10), (.large, 2000),
    ]
    // The service decides without the explanation on its hot path and
    // explains on request; both are timed, the targets apply to the first.
    for (scenario, target) in scenarios where parts.contains(scenario.name) {
      for explaining in [false, true] {
        measure(
          scenario, target: explaining ? nil : target, explaining: explaining)
      }
    }
  }

  mutating func measure(
    _ scenario: BenchmarkScenario, target: Double?, explaining: Bool
  ) {
    let snapshot = scenario.snapshot
    let first = decide(snapshot, policy)
    let timing: Timing
    if scenario.name == "small" {
      timing = .measure(
        snapshot, policy, explaining: explaining,
        warmUp: quick ? 2_000 : 20_000,
        minimum: quick ? 20_000 : 200_000, maximum: quick ? 20_000 : 200_000,
        budget: .seconds(quick ? 2 : 10))
    } else {
      timing = .measure(
        snapshot, policy, explaining: explaining, warmUp: quick ? 2 : 5,
        minimum: quick ? 10 : 50, maximum: quick ? 100 : 1_000,
        budget: .seconds(quick ? 2 : 10))
    }
    if decide(snapshot, policy) != first {
      failures.append("\(scenario.name): the decision changed between runs")
    }
    let name = scenario.name + (explaining ? "+explain" : "")
    let met = target.map { timing.medianMicroseconds <= $0 }
    let verdict =
      target.map { "  median <= \(duration($0)): \(met! ? "met" : "MISSED")" }
      ?? "  (with the explanation; no target)"
    print(
      pad(name, 14)
        + pad(
          "\(scenario.accessoryCount)/\(scenario.outputCount)/"
            + "\(scenario.streamCount)", 24)
        + leftPad("\(timing.repetitions)", 10)
        + leftPad(duration(timing.medianMicroseconds), 12)
        + leftPad(duration(timing.p99Microseconds), 12)
        + leftPad(format(timing.perSecond, digits: 0), 13)
        + verdict)
    if explaining {
      print(
        "  decision: \(first.explanation.summary) "
          + "(\(first.moves.count) moves, \(first.profileRequests.count) "
          + "profile requests, \(first.explanation.steps.count) rules)")
    }
    fflush(nil)
    figureLines.append(
      "figure scenario=\(name)"
        + " accessories=\(scenario.accessoryCount)"
        + " outputs=\(scenario.outputCount) streams=\(scenario.streamCount)"
        + " repetitions=\(timing.repetitions)"
        + " median_us=\(format(timing.medianMicroseconds, digits: 2))"
        + " p99_us=\(format(timing.p99Microseconds, digits: 2))"
        + " per_second=\(format(timing.perSecond, digits: 0))"
        + (target.map {
          " target_median_us=\(format($0, digits: 0)) met=\(met! ? "yes" : "no")"
        } ?? ""))
  }

  /// Reads VmRSS before and after many decisions on the small snapshot.
  mutating func measureMemory() {
    let count = quick ? 100_000 : 1_000_000
    // Allocator noise: a leak of even 16 bytes a decision would be 1.6 MB
    // over 100,000 decisions.
    let toleranceKilobytes = 1024
    let snapshot = BenchmarkScenario.small.snapshot
    for _ in 0..<10_000 {
      blackHole(decide(snapshot, policy, explaining: false))
    }
    guard let before = residentKilobytes() else {
      print("")
      print("memory: /proc/self/status has no VmRSS here; not measured")
      figureLines.append("figure scenario=memory status=unavailable")
      return
    }
    let start = ContinuousClock.now
    for _ in 0..<count {
      blackHole(decide(snapshot, policy, explaining: false))
    }
    let elapsed = microseconds(.now - start) / 1e6
    let after = residentKilobytes() ?? before
    let growth = after - before
    let met = growth <= toleranceKilobytes
    print("")
    print(
      "memory: VmRSS \(before) kB before, \(after) kB after \(count) "
        + "decisions on the small snapshot (\(format(elapsed, digits: 1)) s): "
        + "growth \(growth) kB; target: no growth (up to "
        + "\(toleranceKilobytes) kB of allocator noise): "
        + (met ? "met" : "MISSED"))
    figureLines.append(
      "figure scenario=memory decisions=\(count) rss_before_kb=\(before)"
        + " rss_after_kb=\(after) growth_kb=\(growth)"
        + " target_growth_kb=0 tolerance_kb=\(toleranceKilobytes)"
        + " met=\(met ? "yes" : "no")")
  }
}

// MARK: - Formatting

func format(_ value: Double, digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}

/// A time in microseconds, in µs below a millisecond and in ms above.
func duration(_ microseconds: Double) -> String {
  microseconds < 1000
    ? "\(format(microseconds, digits: 2)) µs"
    : "\(format(microseconds / 1000, digits: 2)) ms"
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width
    ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func leftPad(_ text: String, _ width: Int) -> String {
  text.count >= width
    ? " " + text : String(repeating: " ", count: width - text.count) + text
}
