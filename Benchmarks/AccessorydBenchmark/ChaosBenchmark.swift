// Fault injection: four clients update their accessories as fast as they
// can while the daemon is SIGKILLed and the sound server killed, one at a
// time at random moments; prints what was sent, acknowledged and lost, and
// how long the route took to come back after each server return.

import BenchmarkSupport
import Foundation
import TestSupport

/// The fault-injection figures on one server.
struct ChaosBenchmark {
  let kind: SoundServerKind
  let options: Options

  /// How many faults: 40, or 10 with `--quick`.
  var faults: Int { options.isQuick ? 10 : 40 }

  /// Runs the faults and returns the figures.
  func run() async throws -> ChaosRun.Figures {
    progress("\(kind): \(faults) faults")
    let run = try await ChaosRun.prepare(kind)
    defer { run.shutDown() }
    return try await run.run(faults: faults)
  }

  /// Prints the section of one server.
  func report(_ figures: ChaosRun.Figures) {
    var samples = Samples()
    for convergence in figures.convergences { samples.append(convergence) }
    let slowest = samples.milliseconds.max() ?? 0
    print("")
    print(
      "== \(kind), fault injection: 4 clients updating placement and source "
        + "as fast as they can through \(faults) faults: the daemon SIGKILLed "
        + "and the server killed, alternately, at random moments")
    print(
      "  updates: \(figures.sent) sent, \(figures.acknowledged) acknowledged, "
        + "\(figures.refused) refused, \(figures.unanswered) unanswered at a "
        + "kill, \(figures.lost) lost")
    print(
      "  faults: \(figures.daemonKills) daemon SIGKILLs (the state file "
        + "parsed after each: \(figures.stateFilesRead) reads), "
        + "\(figures.serverKills) server kills")
    if let median = samples.median {
      print(
        "  route converged after the server's return: median "
          + "\(format(median)) ms, slowest \(format(slowest)) ms (within 1 s: "
          + "\(slowest <= 1000 ? "yes" : "no"))")
    }
    for loss in figures.losses.prefix(5) { print("  lost: \(loss)") }
    print(
      "figure server=\(kind.identifier) scenario=chaos sent=\(figures.sent) "
        + "acknowledged=\(figures.acknowledged) lost=\(figures.lost) "
        + "daemon_kills=\(figures.daemonKills) "
        + "server_kills=\(figures.serverKills) "
        + "slowest_convergence_ms=\(format(slowest))")
  }
}
