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
  /// - Parameters:
  ///   - filter: The Swift Testing filter, such as a suite's name.
  ///   - limit: How long the whole run may take.
  /// - Throws: ``FixtureError`` if the run takes longer than `limit`.
  public static func runTests(
    matching filter: String, within limit: Duration = .seconds(900)
  ) async throws -> ProgramResult {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).standardized
      .path
    var environment = ProcessInfo.processInfo.environment
    environment[marker] = "1"
    environment["BTVM_VERBOSE"] = "1"
    environment["BTVM_TIMEOUT"] = "\(Int(limit.components.seconds) - 10)"
    return try await runProgram(
      "/bin/bash",
      [
        runner, binary, "--testing-library", "swift-testing", "--filter",
        filter,
      ],
      environment: environment, within: limit)
  }
}
