// accessoryd-benchmark: measures the release accessoryd and acctl against
// private PulseAudio and PipeWire servers (switch latency beside the
// servers' own switching, acctl as a process, memory, idle CPU). Build it
// as release; scripts/benchmark does.

import AccessoryControl
import AudioAccessoryKit
import BenchmarkSupport
import Foundation
import Glibc
import TestSupport

@main
struct AccessorydBenchmark {
  static func main() async {
    let options = Options.parseCommandLine(program: "accessoryd-benchmark")
    let succeeded = await BenchmarkRun(options: options).run()
    exit(succeeded ? 0 : 1)
  }
}

/// The whole run.
struct BenchmarkRun {
  let options: Options

  /// Measures everything and prints the report.
  ///
  /// - Returns: Whether every measurement could be made.
  func run() async -> Bool {
    let start = ContinuousClock.now
    let workspace: Workspace
    do {
      _ = try options.accessorydExecutable()
      _ = try ReleaseDirectory.program("acctl")
      workspace = try Workspace()
    } catch {
      progress("cannot start: \(error)")
      print("benchmark failed: \(error)")
      return false
    }
    defer {
      if options.keepsLogs {
        print("logs kept in \(workspace.directory)")
      } else {
        workspace.remove()
      }
    }
    // The default engine of AccessoryControlDevice finds the daemon through
    // ACCESSORYD_SOCKET; set it before anything creates the engine.
    setenv(ControlSocketPath.environmentVariable, workspace.socketPath, 1)
    let engine = AccessoryControlEngines.default as? DaemonAccessoryEngine
    guard engine?.socketPath == workspace.socketPath else {
      print(
        "benchmark failed: the default engine is not a DaemonAccessoryEngine "
          + "on \(workspace.socketPath)")
      return false
    }
    let signalSources = Self.stopOnSignals(removing: workspace)
    defer { signalSources.forEach { $0.cancel() } }

    Report.printHeader(options, workspace: workspace)
    if options.memoryOnly {
      let succeeded = await DaemonCosts(options: options, workspace: workspace)
        .measureAndPrintMemory()
      fflush(nil)
      return succeeded
    }
    if options.mediaOnly {
      let succeeded = await runMedia(workspace: workspace)
      fflush(nil)
      return succeeded
    }
    var succeeded = true
    if !options.updatesOnly {
      succeeded = await runAllButUpdates(workspace: workspace)
    }
    do {
      UpdateCostBenchmark.report(
        try await UpdateCostBenchmark(options: options, workspace: workspace)
          .run())
    } catch {
      succeeded = false
      progress("updates failed: \(error)")
      print("")
      print("updates with many accessories: benchmark failed: \(error)")
    }
    print("")
    let seconds = (ContinuousClock.now - start).milliseconds / 1000
    print("total \(format(seconds, digits: 1)) s")
    fflush(nil)
    return succeeded
  }

  /// Measures every section but the updates with many accessories, and
  /// prints them.
  ///
  /// - Returns: Whether every measurement could be made.
  private func runAllButUpdates(workspace: Workspace) async -> Bool {
    var succeeded = true
    var figures: [Figure] = []
    for kind in options.servers {
      do {
        let (measured, setup) = try await SwitchBenchmark(
          kind: kind, options: options, workspace: workspace
        ).run()
        figures += measured
        Report.printSection(kind, setup: setup, figures: measured)
      } catch {
        succeeded = false
        progress("\(kind) failed: \(error)")
        print("")
        print("\(kind): benchmark failed: \(error)")
      }
    }
    Report.printRatios(figures)
    if !(await runMedia(workspace: workspace)) { succeeded = false }

    for kind in options.servers {
      let chaos = ChaosBenchmark(kind: kind, options: options)
      do {
        chaos.report(try await chaos.run())
      } catch {
        succeeded = false
        progress("fault injection on \(kind) failed: \(error)")
        print("")
        print("fault injection on \(kind): benchmark failed: \(error)")
      }
    }

    let costs = DaemonCosts(options: options, workspace: workspace)
    do {
      let (acctl, idle) = try await costs.measureAcctlAndIdle()
      Report.printAcctl(acctl)
      Report.printIdle(idle)
    } catch {
      succeeded = false
      progress("acctl and idle failed: \(error)")
      print("")
      print("acctl and idle CPU: benchmark failed: \(error)")
    }
    if !(await costs.measureAndPrintMemory()) { succeeded = false }
    return succeeded
  }

  /// Measures pausing and resuming the media players on each server, and
  /// prints the figures.
  ///
  /// - Returns: Whether every measurement could be made.
  private func runMedia(workspace: Workspace) async -> Bool {
    var succeeded = true
    for kind in options.servers {
      do {
        let media = try await MediaBenchmark(
          kind: kind, options: options, workspace: workspace
        ).run()
        Report.printMedia(media)
      } catch {
        succeeded = false
        progress("media on \(kind) failed: \(error)")
        print("")
        print("media players on \(kind): benchmark failed: \(error)")
      }
    }
    return succeeded
  }

  /// Exits on SIGINT or SIGTERM: the sound servers' watchdogs then stop
  /// the servers, the streams and the daemon (which joins a server's
  /// process group).
  private static func stopOnSignals(
    removing workspace: Workspace
  ) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(
        signal: number, queue: .global())
      source.setEventHandler {
        progress("interrupted; the servers' watchdogs clean up")
        workspace.remove()
        exit(130)
      }
      source.resume()
      return source
    }
  }
}
