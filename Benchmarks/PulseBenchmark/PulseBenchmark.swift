// pulse-benchmark: for each server kind, starts a private server and
// measures set-default round trips, sequential and pipelined moves of 1, 10
// and 50 playing streams, and the server's own module-switch-on-connect as
// the in-server reference. Build it as release (scripts/benchmark).

import BenchmarkSupport
import Foundation
import TestSupport

@main
struct PulseBenchmark {
  static func main() async {
    let options = BenchmarkOptions.parseCommandLine(program: "pulse-benchmark")
    let succeeded = await BenchmarkRun(options: options).run()
    exit(succeeded ? 0 : 1)
  }
}

/// The whole run: every requested server in turn.
struct BenchmarkRun {
  let options: BenchmarkOptions

  /// Measures every server and prints the report.
  ///
  /// - Returns: Whether every server could be measured.
  func run() async -> Bool {
    let start = ContinuousClock.now
    Report.printHeader(options)
    var succeeded = true
    for kind in options.servers {
      do {
        try await ServerBenchmark(kind: kind, options: options).run()
      } catch {
        succeeded = false
        progress("\(kind) benchmark failed: \(error)")
        print("\(kind): benchmark failed: \(error)")
      }
    }
    let total = (ContinuousClock.now - start).milliseconds / 1000
    print("")
    print("total \(format(total, digits: 1)) s")
    fflush(nil)
    return succeeded
  }
}

/// Every scenario on one server kind.
struct ServerBenchmark {
  let kind: SoundServerKind
  let options: BenchmarkOptions

  func run() async throws {
    progress("\(kind): starting the server")
    let session = try await BenchmarkSession.open(
      kind, settleInterval: options.settleInterval)
    let figures: [Figure]
    do {
      Report.printSection(session)
      figures = try await measure(session)
    } catch {
      await session.close()
      throw error
    }
    await session.close()
    Report.printTable(figures)
    print("")
    Report.printFigureLines(figures)
    Report.printRatios(figures)
  }

  private func measure(_ session: BenchmarkSession) async throws -> [Figure] {
    let repetitions = options.repetitions
    var figures: [Figure] = []
    try await session.growStreams(to: 1)
    progress("\(kind): \(options.roundTrips) set-default round trips")
    figures += try await SetDefaultRoundTrips(session: session)
      .run(repetitions: options.roundTrips)
    for streams in options.streamCounts {
      progress("\(kind): \(streams) streams")
      try await session.growStreams(to: streams)
      for mode in [
        MoveScenario.Mode.sequential, .pipelined, .pipelinedObserved,
      ] {
        figures.append(
          try await MoveScenario(session: session, mode: mode)
            .run(repetitions: repetitions))
      }
      figures.append(
        try await DefaultAndMoveScenario(session: session)
          .run(repetitions: repetitions))
      figures += try await SwitchOnConnectScenario(session: session)
        .run(repetitions: repetitions)
    }
    return figures
  }
}

/// Prints a progress line on standard error, after what standard output
/// holds so far, so the two interleave in order even when piped.
func progress(_ message: String) {
  printProgress(message, program: "pulse-benchmark")
}
