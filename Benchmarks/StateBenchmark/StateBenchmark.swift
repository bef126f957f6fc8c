// state-benchmark: the cost of the state file. Recovering a state file cut
// short, with 100, 1,000 and 5,000 accessories, each in a child process of
// its own under an address-space limit, so that its peak memory is its own
// and a recovery that needs more fails instead of taking the machine. Build
// it as release; scripts/benchmark does.

import AccessoryBackend
import AccessorySetupKit
import AudioAccessoryKit
import Foundation
import Glibc

@main
struct StateBenchmark {
  /// The accessory counts measured.
  static let counts = [100, 1_000, 5_000]
  /// The address-space limit of each child, in MiB.
  static let limitMiB = 3_072

  static let usage = """
    usage: state-benchmark [--quick]

    Writes state files of 100, 1,000 and 5,000 paired and registered
    accessories cut short inside their last registration, and recovers each
    in a child process limited to \(limitMiB) MiB of address space; prints
    the recovery time, the child's peak resident memory (ru_maxrss) and
    what was recovered. --quick is accepted for scripts/benchmark and
    changes nothing: the run takes a few seconds.
    """

  static func main() throws {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--recover", arguments.count == 2 {
      recover(path: arguments[1])
      return
    }
    guard arguments.allSatisfy({ $0 == "--quick" }) else {
      let bad = arguments.first { $0 != "--quick" } ?? ""
      FileHandle.standardError.write(
        Data("state-benchmark: unknown argument '\(bad)'\n\(usage)\n".utf8))
      exit(2)
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("state-benchmark-\(getpid())")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    print("")
    print(
      "== state file: recovering a file cut short inside its last "
        + "registration, in a child limited to \(limitMiB) MiB")
    var succeeded = true
    for count in counts {
      let path = directory.appendingPathComponent("state-\(count).json").path
      let whole = StateFile.encode(
        try AccessoryRegistry.registered(
          count: count, at: Date(timeIntervalSince1970: 1_700_000_000)))
      let cut = whole.prefix(whole.count - 40)
      try cut.write(to: URL(fileURLWithPath: path))
      succeeded =
        measure(count: count, bytes: cut.count, path: path)
        && succeeded
    }
    fflush(nil)
    exit(succeeded ? 0 : 1)
  }

  /// Runs one recovery in a child and prints its figures.
  ///
  /// - Returns: Whether the child could run at all; a child that runs out
  ///   of memory is a figure, not a failure.
  static func measure(count: Int, bytes: Int, path: String) -> Bool {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--recover", path]
    let output = Pipe()
    child.standardOutput = output
    do {
      try child.run()
    } catch {
      print("  \(count) accessories: cannot start a child: \(error)")
      return false
    }
    let text = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self)
    child.waitUntilExit()
    let fields = Dictionary(
      text.split(separator: " ").compactMap { field in
        let parts = field.split(separator: "=", maxSplits: 1)
        return parts.count == 2
          ? (
            String(parts[0]),
            String(parts[1]).trimmingCharacters(
              in: .whitespacesAndNewlines)
          ) : nil
      }, uniquingKeysWith: { $1 })
    guard child.terminationStatus == 0,
      child.terminationReason == .exit,
      let milliseconds = fields["ms"], let peak = fields["peak_kib"],
      let recovered = fields["recovered"]
    else {
      print(
        "  \(count) accessories (\(bytes / 1024) KiB): did not finish "
          + "under the \(limitMiB) MiB limit (child ended with "
          + "\(child.terminationReason == .exit ? "status" : "signal") "
          + "\(child.terminationStatus))")
      print(
        "figure scenario=state-recovery accessories=\(count) "
          + "bytes=\(bytes) finished=no limit_mib=\(limitMiB)")
      return true
    }
    let peakMiB = (Double(peak) ?? 0) / 1024
    print(
      "  \(count) accessories (\(bytes / 1024) KiB): \(milliseconds) ms, "
        + "peak resident \(String(format: "%.1f", peakMiB)) MiB, "
        + "recovered \(recovered) accessories")
    print(
      "figure scenario=state-recovery accessories=\(count) bytes=\(bytes) "
        + "finished=yes ms=\(milliseconds) peak_kib=\(peak) "
        + "recovered=\(recovered)")
    return true
  }

  /// The child: limits its address space, recovers the file and prints
  /// `ms=… peak_kib=… recovered=…`.
  static func recover(path: String) {
    var limit = rlimit(
      rlim_cur: rlim_t(limitMiB) << 20, rlim_max: rlim_t(limitMiB) << 20)
    setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    guard let data = FileManager.default.contents(atPath: path) else {
      FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
      exit(1)
    }
    let start = ContinuousClock.now
    let recovery = StateFile.recover(data)
    let elapsed = ContinuousClock.now - start
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let milliseconds =
      Double(elapsed.components.seconds) * 1000
      + Double(elapsed.components.attoseconds) / 1e15
    print(
      "ms=\(String(format: "%.1f", milliseconds)) "
        + "peak_kib=\(usage.ru_maxrss) "
        + "recovered=\(recovery?.registry.accessories.count ?? 0)")
  }
}
