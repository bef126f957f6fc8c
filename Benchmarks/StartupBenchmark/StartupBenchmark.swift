// startup-benchmark: how fast acctl starts beside pactl. Runs acctl as the
// package ships it (the release accessoryd made the shipped binary by
// scripts/shipped-binary, called through a link named acctl) and
// PulseAudio's pactl, each with --version, in turns, and prints each one's
// median and 90th percentile and their ratio. Build it and accessoryd as
// release; scripts/benchmark does.

import BenchmarkSupport
import Foundation
import Glibc
import SystemCalls

@main
struct StartupBenchmark {
  static let usage = """
    usage: startup-benchmark [--quick]

    Starts acctl as the package ships it (the release accessoryd beside
    this program, made the shipped binary by scripts/shipped-binary, called
    through a link named acctl) and pactl with --version, in turns, 400
    times each (100 with --quick), and prints each one's median and 90th
    percentile, and acctl's median over pactl's.
    """

  static func main() throws {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.allSatisfy({ $0 == "--quick" }) else {
      let bad = arguments.first { $0 != "--quick" } ?? ""
      FileHandle.standardError.write(
        Data("startup-benchmark: unknown argument '\(bad)'\n\(usage)\n".utf8))
      exit(64)
    }
    let runs = arguments.contains("--quick") ? 100 : 400
    let products = URL(fileURLWithPath: CommandLine.arguments[0])
      .resolvingSymlinksInPath().deletingLastPathComponent()
    let built = products.appendingPathComponent("accessoryd").path
    guard FileManager.default.isExecutableFile(atPath: built) else {
      fail("no release accessoryd at \(built); build it first")
    }
    let pactl = "/usr/bin/pactl"
    guard FileManager.default.isExecutableFile(atPath: pactl) else {
      fail("no \(pactl); install pulseaudio-utils")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("startup-benchmark-\(getpid())")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let shipped = directory.appendingPathComponent("accessoryd").path
    let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts")
    run(
      scripts.appendingPathComponent("shipped-binary").path, [built, shipped])
    let acctl = directory.appendingPathComponent("acctl").path
    try FileManager.default.createSymbolicLink(
      atPath: acctl, withDestinationPath: shipped)

    // One start each first, so that both are in the page cache.
    _ = time(acctl)
    _ = time(pactl)
    var acctlSamples = Samples()
    var pactlSamples = Samples()
    for _ in 0..<runs {
      acctlSamples.append(time(acctl))
      pactlSamples.append(time(pactl))
    }
    let size =
      (try? FileManager.default.attributesOfItem(atPath: shipped))?[
        .size] as? Int ?? 0
    print(
      "== starting acctl beside pactl (--version, \(runs) starts each, in turns)"
    )
    print("load average: \(Machine.loadAverage())")
    print(
      "acctl (a link to the shipped accessoryd, \(format(Double(size) / 1_048_576, digits: 1)) MiB): "
        + line(acctlSamples))
    print("pactl (\(pactl)): " + line(pactlSamples))
    if let mine = acctlSamples.median, let theirs = pactlSamples.median {
      print(
        "acctl's median over pactl's: \(format(mine / theirs, digits: 2))x"
          + (mine <= theirs ? " (no slower)" : " (slower)"))
    }
  }

  /// The median and the 90th percentile of a series, in milliseconds.
  static func line(_ samples: Samples) -> String {
    let sorted = samples.milliseconds.sorted()
    let p90 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))]
    return "median \(format(samples.median ?? 0, digits: 2)) ms, "
      + "90th percentile \(format(p90, digits: 2)) ms"
  }

  /// Runs a program to its end, and stops the benchmark if it fails.
  static func run(_ path: String, _ arguments: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    do {
      try process.run()
    } catch {
      fail("cannot start \(path): \(error)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      fail("\(path) \(arguments.joined(separator: " ")) failed")
    }
  }

  /// Starts a program with --version, its output to /dev/null, and
  /// returns how long it took until it ended.
  static func time(_ path: String) -> Duration {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(
      &actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(
      &attributes, Int16(SpawnSignals.reset(&attributes)))
    let argv = [strdup(path), strdup("--version"), nil]
    defer { argv.forEach { free($0) } }
    let clock = ContinuousClock()
    let start = clock.now
    var child: pid_t = 0
    let spawned = posix_spawn(
      &child, path, &actions, &attributes, argv, environ)
    guard spawned == 0 else { fail("cannot start \(path): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0, errno == EINTR {}
    let elapsed = clock.now - start
    guard status == 0 else {
      fail("\(path) --version failed: status \(status)")
    }
    return elapsed
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("startup-benchmark: \(message)\n".utf8))
    exit(1)
  }
}
