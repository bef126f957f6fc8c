// acctl doctor's Bluetooth checks against a fake daemon: acctl asks the
// daemon what BlueZ reports (`bluetooth.status`) and never the system bus
// itself, and says so when no daemon answers.

import AccessoryControl
import Foundation
import Testing

/// The AirPods' services: A2DP sink and Apple's AAP.
private let airPodsUUIDs = [
  "0000110b-0000-1000-8000-00805f9b34fb",
  "74ec2172-0bad-4d01-8f77-997b2be0722a",
]

/// A daemon of acctl's version, connected, using hci0's address.
private let status = DaemonStatus(
  version: ProjectVersion.number,
  soundServer: .init(state: .connected, name: "PulseAudio", version: "17.0"),
  policyPath: "built-in default", statePath: "/nonexistent/state.json",
  socketPath: "/nonexistent/control.sock",
  hostAddresses: ["00:01:02:03:04:05"])

/// What one check found.
private struct Finding: Equatable {
  let result: String
  let detail: String
  var fix: String? = nil
}

/// Runs `acctl doctor --json` against a fake daemon that answers with
/// these results (none: no daemon), with a system bus acctl cannot reach,
/// and returns the Bluetooth checks, the exit status and the methods
/// called.
private func doctor(
  results: [String: String]?
) async throws -> (checks: [String: Finding], status: Int32, methods: [String])
{
  let daemon = try results.map { try FakeDaemon(results: $0) }
  defer { daemon?.stop() }
  let socket = daemon?.path ?? "/nonexistent/accessoryd/control.sock"
  let transcript = try await acctl(
    ["doctor", "--json", "--socket", socket],
    environment: [
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket",
      "ACCESSORYD_BLUETOOTH_CONFIG": "/nonexistent/main.conf",
    ])
  let json = try JSONValue(parsing: Array(transcript.output.utf8))
  guard case .array(let list)? = json["checks"] else {
    throw CocoaError(.coderReadCorrupt)
  }
  var checks: [String: Finding] = [:]
  for check in list {
    guard let name = check["check"]?.stringValue,
      ["bluez", "host addresses", "airpods"].contains(name)
    else { continue }
    checks[name] = Finding(
      result: check["result"]?.stringValue ?? "",
      detail: check["detail"]?.stringValue ?? "",
      fix: check["fix"]?.stringValue)
  }
  return (
    checks, transcript.status, daemon?.requests.map(\.method) ?? []
  )
}

/// The fake daemon's answers, with this answer to `bluetooth.status`.
private func answers(_ bluetooth: BluetoothStatus?) -> [String: String] {
  var results = ["daemon.status": FakeDaemon.text(status)]
  results["bluetooth.status"] = bluetooth.map { FakeDaemon.text($0) }
  return results
}

@Suite("acctl doctor asks the daemon about BlueZ")
struct AcctlDoctorTests {
  @Test func reportsTheAdaptersAndDevicesTheDaemonSees() async throws {
    let bluetooth = BluetoothStatus(
      state: .running,
      adapters: [
        .init(interface: "hci0", address: "00:01:02:03:04:05", powered: true),
        .init(interface: "hci1", address: "01:02:03:04:05:06", powered: false),
      ],
      devices: [
        .init(
          address: "AA:BB:CC:DD:EE:0A", name: "AirPods Pro", paired: true,
          connected: false, serviceUUIDs: airPodsUUIDs),
        .init(
          address: "AA:BB:CC:DD:EE:0B", name: "Not paired", paired: false,
          connected: false, serviceUUIDs: airPodsUUIDs),
      ])
    let (checks, exitStatus, methods) = try await doctor(
      results: answers(bluetooth))
    #expect(methods.contains("bluetooth.status"))
    #expect(
      checks["bluez"]
        == Finding(
          result: "ok",
          detail: "hci0 00:01:02:03:04:05, hci1 01:02:03:04:05:06 (off)"))
    // The daemon uses only hci0 of the two: a problem.
    #expect(checks["host addresses"]?.result == "problem")
    #expect(
      checks["airpods"]?.detail
        == "AirPods Pro: /nonexistent/main.conf cannot be read, so DeviceID "
        + "is unset")
    #expect(exitStatus == 5)
  }

  @Test func namesAnAdapterThatIsOff() async throws {
    let bluetooth = BluetoothStatus(
      state: .running,
      adapters: [
        .init(interface: "hci0", address: "00:01:02:03:04:05", powered: false)
      ])
    let (checks, exitStatus, _) = try await doctor(results: answers(bluetooth))
    #expect(
      checks["bluez"]
        == Finding(
          result: "problem",
          detail: "no adapter is powered: hci0 "
            + "00:01:02:03:04:05", fix: "bluetoothctl power on"))
    #expect(checks["host addresses"]?.result == "ok")
    #expect(
      checks["airpods"]?.detail
        == "none paired, so BlueZ's DeviceID does not matter")
    #expect(exitStatus == 5)
  }

  @Test func namesBlueZNotRunning() async throws {
    let bluetooth = BluetoothStatus(
      state: .notRunning,
      reason: "The name org.bluez was not provided by any .service files")
    let (checks, exitStatus, _) = try await doctor(results: answers(bluetooth))
    #expect(
      checks["bluez"]
        == Finding(
          result: "problem",
          detail: "not running on the system bus (The name org.bluez was "
            + "not provided by any .service files)",
          fix: systemdManages
            ? "sudo apt install bluez; sudo systemctl enable --now bluetooth"
            : "sudo apt install bluez; sudo service bluetooth start"
        ))
    #expect(
      checks["host addresses"]
        == Finding(result: "skipped", detail: "BlueZ is not running"))
    #expect(
      checks["airpods"]
        == Finding(result: "skipped", detail: "BlueZ is not running"))
    #expect(exitStatus == 5)
  }

  @Test func namesASystemBusTheDaemonCannotReach() async throws {
    let bluetooth = BluetoothStatus(
      state: .busUnreachable, reason: "no such file")
    let (checks, exitStatus, _) = try await doctor(results: answers(bluetooth))
    #expect(checks["bluez"]?.result == "problem")
    #expect(
      checks["bluez"]?.detail
        == "the daemon cannot reach the system bus: no such file")
    #expect(
      checks["bluez"]?.fix?.hasPrefix(
        systemdManages
          ? "sudo systemctl start dbus"
          : "start the system bus (sudo service dbus start)") == true)
    #expect(
      checks["airpods"]
        == Finding(result: "skipped", detail: "BlueZ is not reachable"))
    #expect(exitStatus == 5)
  }

  @Test func skipsWhatAnOlderDaemonDoesNotReport() async throws {
    let (checks, _, methods) = try await doctor(results: answers(nil))
    #expect(methods.contains("bluetooth.status"))
    for name in ["bluez", "host addresses", "airpods"] {
      #expect(checks[name]?.result == "skipped", "\(name)")
      #expect(
        checks[name]?.detail.hasPrefix(
          "this accessoryd does not report BlueZ") == true, "\(name)")
    }
  }

  @Test func saysTheDaemonIsNeededWhenNoneRuns() async throws {
    let (checks, exitStatus, _) = try await doctor(results: nil)
    for name in ["bluez", "host addresses", "airpods"] {
      #expect(
        checks[name]
          == Finding(
            result: "skipped",
            detail: "the daemon is not running to ask; acctl asks it about "
              + "BlueZ"), "\(name)")
    }
    #expect(exitStatus == 5)
  }
}

/// Whether systemd manages the machine the tests run on: acctl doctor names
/// `systemctl` in its fixes only then.
private let systemdManages = FileManager.default.fileExists(
  atPath: "/run/systemd/system")
