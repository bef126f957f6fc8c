// The real BlueZ inside the Bluetooth VM: bluetoothd and upowerd on a
// private system bus, with the headphones at hci1's address already paired
// with the host's adapter at hci0's (their keys in BlueZ's storage, as
// after a pairing), and a link between the two controllers held up, so
// that BlueZ shows them paired and connected.

import ConcurrencyHelpers
import Foundation

/// bluetoothd and upowerd on a private bus, inside the Bluetooth VM.
public final class RealBlueZ: Sendable {
  /// The bus: BlueZ's and upower's system bus.
  public let bus: PrivateBus
  /// bluetoothd's version, such as `5.66`.
  public let version: String
  /// bluetoothd's process and the one holding the headphones' link, and
  /// how many links were held, replaced by ``restartBluetoothd()``.
  private let processes:
    Mutex<(bluetoothd: ChildProcess, link: ChildProcess, links: Int)>

  private init(
    bus: PrivateBus, version: String, bluetoothd: ChildProcess,
    link: ChildProcess
  ) {
    self.bus = bus
    self.version = version
    self.processes = Mutex((bluetoothd, link, 1))
  }

  /// BlueZ's daemon, where Debian installs it.
  static let bluetoothd = "/usr/libexec/bluetooth/bluetoothd"
  /// upower's daemon.
  static let upowerd = "/usr/libexec/upowerd"

  /// Writes the pairing to BlueZ's storage, starts bluetoothd (with
  /// `--experimental` before 5.71, which needs it for battery providers)
  /// and upowerd on a private bus, and holds a link from the headphones to
  /// the host up.
  ///
  /// - Parameters:
  ///   - name: The headphones' name in BlueZ's storage.
  ///   - uuids: Their services, as BlueZ lists them.
  /// - Throws: ``FixtureError`` outside the VM, or if a part does not
  ///   start.
  public static func start(
    headphonesNamed name: String, uuids: [String]
  ) async throws -> RealBlueZ {
    guard BluetoothVM.isInside else {
      throw FixtureError("the real BlueZ runs only inside the Bluetooth VM")
    }
    let host = BluetoothVM.hostAdapter
    let headphones = BluetoothVM.headphones
    // One link key on both sides, as a pairing leaves it.
    let key = "00112233445566778899AABBCCDDEEFF"
    try writePairing(
      adapter: host, device: headphones, name: name, uuids: uuids, key: key)
    try writePairing(
      adapter: headphones, device: host, name: "laptop", uuids: [], key: key)
    let version = try await runProgram(
      bluetoothd, ["--version"], environment: [:]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let bus = try await PrivateBus.start()
    let bluetoothd: ChildProcess
    let link: ChildProcess
    do {
      bluetoothd = try await startBluetoothd(on: bus, version: version)
      _ = try await bus.startClient(upowerd, [])
      try await waitUntil("upowerd on the bus", within: .seconds(30)) {
        try await bus.nameHasOwner("org.freedesktop.UPower")
      }
      link = try await holdTheLink(on: bus, number: 1)
    } catch {
      bus.stop()
      throw error
    }
    return RealBlueZ(
      bus: bus, version: version, bluetoothd: bluetoothd, link: link)
  }

  /// Holds a link from the headphones to the host up: an L2CAP channel
  /// from the headphones to the host's SDP server keeps the ACL up, as a
  /// connected device's is.
  ///
  /// - Parameters:
  ///   - bus: The bus whose directory holds the script and its output.
  ///   - number: Which link of the bus's this is, for its file names.
  /// - Returns: The process holding the link.
  static func holdTheLink(
    on bus: PrivateBus, number: Int
  ) async throws -> ChildProcess {
    let host = BluetoothVM.hostAdapter
    let headphones = BluetoothVM.headphones
    let script = "\(bus.directory)/link.py"
    try """
    import socket, sys, time
    for attempt in range(40):
        link = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_SEQPACKET, socket.BTPROTO_L2CAP)
        link.bind(("\(headphones)", 0))
        try:
            link.connect(("\(host)", 1))
            break
        except OSError as error:
            print("retrying:", error, flush=True)
            link.close()
            time.sleep(0.5)
    else:
        sys.exit("no link after 40 attempts")
    print("linked", flush=True)
    time.sleep(100000)

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let output = "\(bus.directory)/link-\(number).out"
    let process = try await bus.spawn(
      HeadphoneEmulator.python, arguments: ["-u", script],
      environment: bus.environment, output: output,
      errorOutput: "\(bus.directory)/link-\(number).log")
    try await waitUntil("the link up", within: .seconds(30)) {
      SoundServer.readFile(output).contains("linked")
    }
    return process
  }

  /// Stops bluetoothd, as a restart of the Bluetooth service does (it
  /// powers the adapters off, which ends every link), starts it again, and
  /// once its adapters are up, brings the headphones' link back, as
  /// headphones that reconnect do.
  public func restartBluetoothd() async throws {
    let old = processes.withLock { $0 }
    await ChildProcess.terminate([old.bluetoothd, old.link])
    try await waitUntil("org.bluez to lose its owner", within: .seconds(30)) {
      try await !bus.nameHasOwner("org.bluez")
    }
    let bluetoothd = try await Self.startBluetoothd(on: bus, version: version)
    let link = try await Self.holdTheLink(on: bus, number: old.links + 1)
    processes.withLock { $0 = (bluetoothd, link, old.links + 1) }
  }

  /// Starts bluetoothd, with `--experimental` before 5.71, and returns
  /// its process once both adapters are up.
  static func startBluetoothd(
    on bus: PrivateBus, version: String
  ) async throws -> ChildProcess {
    let experimental =
      version.compare("5.71", options: .numeric) == .orderedAscending
      ? ["--experimental"] : []
    let process = try await bus.spawn(
      bluetoothd, arguments: ["--nodetach"] + experimental,
      environment: bus.environment, output: "\(bus.directory)/bluetoothd.out",
      errorOutput: "\(bus.directory)/bluetoothd.log")
    try await waitUntil("bluetoothd on the bus", within: .seconds(30)) {
      try await bus.nameHasOwner("org.bluez")
    }
    // bluetoothd owns its name before its adapters are up.
    for adapter in ["hci0", "hci1"] {
      try await waitUntil("\(adapter) powered", within: .seconds(30)) {
        try await bus.gdbus([
          "call", "--dest", "org.bluez", "--object-path",
          "/org/bluez/\(adapter)", "--method",
          "org.freedesktop.DBus.Properties.Get", "org.bluez.Adapter1",
          "Powered",
        ]).contains("<true>")
      }
    }
    return process
  }

  /// BlueZ's storage of one paired device of an adapter.
  static func writePairing(
    adapter: String, device: String, name: String, uuids: [String],
    key: String
  ) throws {
    let directory = "/var/lib/bluetooth/\(adapter)/\(device)"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    var lines = [
      "[General]", "Name=\(name)", "SupportedTechnologies=BR/EDR;",
      "Trusted=true", "Blocked=false",
    ]
    if !uuids.isEmpty {
      lines.append("Services=" + uuids.map { $0 + ";" }.joined())
    }
    lines += ["", "[LinkKey]", "Key=\(key)", "Type=4", "PINLength=0", ""]
    try lines.joined(separator: "\n").write(
      toFile: "\(directory)/info", atomically: true, encoding: .utf8)
  }

  /// What `upower --dump` prints.
  public func upowerDump() async throws -> String {
    try await bus.runClient("upower", ["--dump"])
  }

  /// The BlueZ object path of a device of the host's adapter.
  public static func devicePath(_ address: String) -> String {
    "/org/bluez/hci0/dev_" + address.replacingOccurrences(of: ":", with: "_")
  }

  /// Stops bluetoothd, upowerd and the link.
  public func stop() {
    bus.stop()
  }
}
