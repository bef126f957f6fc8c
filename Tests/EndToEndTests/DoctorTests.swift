// acctl doctor against the real parts: a sound server, BlueZ's D-Bus API
// (python3-dbusmock) with paired AirPods, a session bus and the daemon.
// Each thing a person gets wrong is made wrong in turn, and the doctor must
// name it with its fix and exit 5. What BlueZ reports comes from the
// daemon, never from acctl on the system bus.

import AccessoryControl
import Foundation
import TestSupport
import Testing

/// What `acctl doctor --json` said.
private struct Checkup {
  let status: Int32
  /// Each check's result, detail and fix, by the check's name.
  let checks: [String: (result: String, detail: String, fix: String?)]
  /// The checks' names, in order.
  let order: [String]
}

/// Runs `acctl doctor --json` and reads what it said.
private func doctor(
  _ daemon: DaemonFixture, mainConf: String,
  environment: [String: String] = [:]
) async throws -> Checkup {
  let result = try await daemon.acctl(
    ["doctor", "--json"],
    environment: environment.merging([
      "ACCESSORYD_BLUETOOTH_CONFIG": mainConf
    ]) { $1 })
  let json = try decodeJSON(result.stdout)
  guard case .array(let list)? = json["checks"] else {
    throw RigFailure("doctor printed no checks:\n\(result)")
  }
  var checks: [String: (result: String, detail: String, fix: String?)] = [:]
  var order: [String] = []
  for check in list {
    let name = check["check"]?.stringValue ?? ""
    order.append(name)
    checks[name] = (
      check["result"]?.stringValue ?? "", check["detail"]?.stringValue ?? "",
      check["fix"]?.stringValue
    )
  }
  return Checkup(status: result.status, checks: checks, order: order)
}

@Suite("acctl doctor, end to end")
struct DoctorTests {
  @Test(
    "Everything right is ok; each wrong part is named with its fix",
    .timeLimit(.minutes(4)), arguments: SoundServerKind.allCases)
  func doctorNamesEachProblem(_ kind: SoundServerKind) async throws {
    let mock = try await BlueZMock.start()
    defer { mock.stop() }
    try await mock.addAdapter("hci0", systemName: "laptop")
    let airPods = "AA:BB:CC:DD:EE:0A"
    try await mock.addDevice(address: airPods, name: "AirPods Pro")
    try await mock.setDeviceProperty(
      airPods, "UUIDs", .strings(HeadphoneRig.uuids))
    try await mock.setDeviceProperty(airPods, "Paired", .bool(true))
    let session = try await PrivateBus.start()
    defer { session.stop() }
    let server = try await SoundServer.start(
      kind, sinks: sinks(kind, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(
      on: server, hostAddresses: [], systemBusAddress: mock.busAddress,
      sessionBusAddress: session.address)
    defer { daemon.shutDown() }
    let mainConf = daemon.directory + "/main.conf"
    try "[General]\nName = laptop\nDeviceID = bluetooth:004C:0000:0000\n"
      .write(toFile: mainConf, atomically: true, encoding: .utf8)

    // Everything right: every check is ok but the unit, which systemd
    // would manage and does not run here.
    var checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(
      checkup.order == [
        "daemon", "sound server", "bluez", "host addresses", "airpods",
        "session bus", "policy", "state directory", "unit",
      ])
    for name in checkup.order where name != "unit" {
      #expect(checkup.checks[name]?.result == "ok", "\(name): \(checkup)")
    }
    #expect(checkup.checks["unit"]?.result == "skipped")
    #expect(checkup.status == 0)
    #expect(checkup.checks["host addresses"]?.detail == "00:01:02:03:04:05")
    #expect(checkup.checks["bluez"]?.detail == "hci0 00:01:02:03:04:05")
    #expect(
      checkup.checks["airpods"]?.detail
        == "AirPods Pro: DeviceID is bluetooth:004C:0000:0000")
    #expect(
      checkup.checks["state directory"]?.detail.hasSuffix(
        "writable, locked by this daemon") == true)
    #expect(
      checkup.checks["policy"]?.detail.hasPrefix(daemon.policyPath) == true)

    // The text says the same, one line per check.
    let text = try await daemon.acctl(
      ["doctor"], environment: ["ACCESSORYD_BLUETOOTH_CONFIG": mainConf])
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("ok       daemon "), "\(text)")
    #expect(text.stdout.hasSuffix("No problem found.\n"), "\(text)")

    // acctl never reaches the system bus itself: with none it can reach,
    // it reports what the daemon sees.
    checkup = try await doctor(
      daemon, mainConf: mainConf,
      environment: [
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"
      ])
    #expect(checkup.status == 0, "\(checkup)")
    #expect(checkup.checks["bluez"]?.detail == "hci0 00:01:02:03:04:05")

    // The adapter switched off: the daemon sees it, and the doctor names
    // it with its fix.
    try await mock.setAdapterProperty("hci0", "Powered", .bool(false))
    try await waitUntil("the doctor to see hci0 off", within: .seconds(30)) {
      try await doctor(daemon, mainConf: mainConf).checks["bluez"]?.result
        == "problem"
    }
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(checkup.status == 5)
    #expect(
      checkup.checks["bluez"]?.detail
        == "no adapter is powered: hci0 00:01:02:03:04:05")
    #expect(checkup.checks["bluez"]?.fix == "bluetoothctl power on")
    try await mock.setAdapterProperty("hci0", "Powered", .bool(true))

    // AirPods paired and BlueZ not presenting the host as Apple's.
    try "[General]\nName = laptop\n#DeviceID = bluetooth:004C:0000:0000\n"
      .write(toFile: mainConf, atomically: true, encoding: .utf8)
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(checkup.status == 5)
    #expect(checkup.checks["airpods"]?.result == "problem")
    #expect(
      checkup.checks["airpods"]?.fix?.contains(
        "set DeviceID = bluetooth:004C:0000:0000") == true)
    try "[General]\nDeviceID = usb:1D6B:0246:0540\n".write(
      toFile: mainConf, atomically: true, encoding: .utf8)
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(
      checkup.checks["airpods"]?.detail.contains("'usb:1D6B:0246:0540'")
        == true)
    try "[General]\nDeviceID = bluetooth:004C:0000:0000\n".write(
      toFile: mainConf, atomically: true, encoding: .utf8)

    // A policy file made invalid: the daemon keeps its policy; the doctor
    // names the key path and the fix.
    let policy = try String(contentsOfFile: daemon.policyPath, encoding: .utf8)
    try daemon.writePolicy(
      "{ version: 1, placement: { offHeadGraceSeconds: -1 } }")
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(checkup.status == 5)
    #expect(checkup.checks["policy"]?.result == "problem")
    #expect(
      checkup.checks["policy"]?.detail.contains(
        "placement.offHeadGraceSeconds: is the number -1") == true,
      "\(checkup)")
    #expect(
      checkup.checks["policy"]?.fix?.contains("acctl policy check") == true)
    try daemon.writePolicy(policy)

    // The adapter gone.
    try await mock.removeAdapter("hci0")
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(checkup.checks["bluez"]?.result == "problem")
    #expect(
      checkup.checks["bluez"]?.detail == "running, with no Bluetooth adapter")
    #expect(checkup.checks["bluez"]?.fix?.contains("rfkill") == true)

    // The daemon stopped: named first, with how to start it; what only it
    // can say is skipped (BlueZ too: acctl asks the daemon about it), and
    // the state directory is free.
    #expect(await daemon.stop() == 0)
    checkup = try await doctor(daemon, mainConf: mainConf)
    #expect(checkup.status == 5)
    #expect(checkup.checks["daemon"]?.result == "problem")
    // systemctl only where systemd manages the machine.
    let systemdManages = FileManager.default.fileExists(
      atPath: "/run/systemd/system")
    #expect(
      checkup.checks["daemon"]?.fix?.contains(
        systemdManages
          ? "systemctl --user enable --now accessoryd"
          : "start accessoryd: in a terminal") == true)
    if !systemdManages {
      let naming = checkup.checks.filter {
        $0.value.fix?.contains("systemctl") == true
      }
      #expect(naming.isEmpty, "fixes name systemctl without systemd: \(naming)")
    }
    #expect(checkup.checks["sound server"]?.result == "skipped")
    for name in ["bluez", "host addresses", "airpods"] {
      #expect(checkup.checks[name]?.result == "skipped", "\(name)")
      #expect(
        checkup.checks[name]?.detail
          == "the daemon is not running to ask; acctl asks it about BlueZ",
        "\(name)")
    }
    #expect(checkup.checks["state directory"]?.result == "ok")
  }
}
