// The Bluetooth VM of the headphone tests: scripts/run-in-vm boots Debian's
// kernel, which has Bluetooth, with two emulated controllers, and runs a
// command inside. The host's tests run the suites that need Bluetooth
// sockets there, in one boot, with this same test binary.

import Foundation

/// Runs tests inside the Bluetooth VM, and tells a test whether it runs
/// there.
public enum BluetoothVM {
  /// The environment variable that marks a test process inside the VM.
  public static let marker = "ACCESSORYD_IN_BLUETOOTH_VM"

  /// Whether this process runs inside the VM: the runner set the marker
  /// and the controllers' addresses.
  public static var isInside: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment[marker] == "1" && environment["BT_ADDR_B"] != nil
  }

  /// The address of the first controller, hci0: the host's adapter.
  public static var hostAdapter: String {
    ProcessInfo.processInfo.environment["BT_ADDR_A"] ?? ""
  }

  /// The address of the second controller, hci1: where the emulated
  /// headphones listen.
  public static var headphones: String {
    ProcessInfo.processInfo.environment["BT_ADDR_B"] ?? ""
  }

  /// The runner, in the package's scripts.
  public static let runner =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/run-in-vm").path

  /// Runs this test binary inside the VM with a filter, and returns what
  /// it printed.
  ///
  /// The runner itself boots the VM once more when it could not be made
  /// ready (its controllers down through three btvirt starts); what the
  /// failed boot showed comes first on the standard error.
  ///
  /// - Parameters:
  ///   - filter: The Swift Testing filter, such as a suite's name.
  ///   - modules: More kernel modules to load, such as `snd-dummy`.
  ///   - limit: How long the run may take.
  /// - Throws: ``FixtureError`` if the run takes longer than `limit`.
  public static func runTests(
    matching filter: String, modules: [String] = [],
    within limit: Duration = .seconds(900)
  ) async throws -> ProgramResult {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).standardized
      .path
    var environment = ProcessInfo.processInfo.environment
    environment[marker] = "1"
    environment["BTVM_VERBOSE"] = "1"
    if !modules.isEmpty {
      environment["BTVM_MODULES"] = modules.joined(separator: " ")
    }
    // Each of the runner's boots has its own time-out: two fit the limit.
    environment["BTVM_TIMEOUT"] = "\((Int(limit.components.seconds) - 10) / 2)"
    return try await runProgram(
      "/bin/bash",
      [
        runner, binary, "--testing-library", "swift-testing", "--filter",
        filter,
      ],
      environment: environment, within: limit)
  }
}

extension BluetoothVM {
  /// Runs one test of this binary inside the VM, and returns why it did
  /// not pass there, or nil when it passed.
  ///
  /// A test passed when the run exits 0, says it passed under its name,
  /// and skipped nothing.
  ///
  /// - Parameters:
  ///   - filter: The Swift Testing filter that selects it.
  ///   - name: The name it passes under.
  ///   - modules: More kernel modules to load, such as `snd-dummy`.
  public static func failure(
    ofTest filter: String, named name: String, modules: [String] = []
  ) async throws -> String? {
    let run = try await runTests(matching: filter, modules: modules)
    let output = run.stdout + run.stderr
    if run.status != 0 { return "inside the VM, '\(name)' failed:\n\(output)" }
    // "Test "…" passed after", or "… with 2 test cases passed after".
    let lines = output.split(separator: "\n").filter {
      $0.contains("Test \"\(name)\"")
    }
    guard lines.contains(where: { $0.contains(" passed after ") }),
      !lines.contains(where: { $0.contains(" failed") })
    else {
      return "inside the VM, '\(name)' did not pass:\n\(output)"
    }
    if output.contains("skipped") { return "a test was skipped:\n\(output)" }
    return nil
  }
}

/// Makes the emulated controllers pair afresh whenever no link is up.
///
/// Once the ACL link between hci0 and hci1 drops (about 2 s after its last
/// channel closes), `btvirt`'s controllers sometimes refuse every new one
/// ("Connection reset by peer", or "No route to host") while they keep
/// the old link key; forgetting the keys on both sides (`btmgmt unpair`)
/// lets the next connection pair again, as real headphones do. Measured
/// here with a plain L2CAP client: without it, a connect that races the
/// link's end fails from then on; with it, the next try succeeds.
public final class LinkKeyJanitor: Sendable {
  private let task: Task<Void, Never>

  private init(task: Task<Void, Never>) {
    self.task = task
  }

  /// Starts watching the controllers' links, every 300 ms.
  public static func start() -> LinkKeyJanitor {
    let environment = ["PATH": SoundServer.searchPath]
    let host = BluetoothVM.hostAdapter
    let headphones = BluetoothVM.headphones
    return LinkKeyJanitor(
      task: Task {
        var forgotten = ContinuousClock.now
        while !Task.isCancelled {
          let links = try? await runProgram(
            "/usr/bin/hcitool", ["con"], environment: environment,
            within: .seconds(20))
          let up = links?.stdout.contains("ACL") ?? false
          // No link: forget the keys, at most every 2 s, so that the next
          // connection pairs afresh (also after a first one that failed).
          if !up, ContinuousClock.now - forgotten >= .seconds(2) {
            forgotten = .now
            _ = try? await runProgram(
              "/usr/bin/btmgmt", ["--index", "0", "unpair", headphones],
              environment: environment, within: .seconds(20))
            _ = try? await runProgram(
              "/usr/bin/btmgmt", ["--index", "1", "unpair", host],
              environment: environment, within: .seconds(20))
          }
          try? await Task.sleep(for: .milliseconds(300))
        }
      })
  }

  /// Stops watching.
  public func stop() {
    task.cancel()
  }
}
