// Headphones for the headphone tests: Tests/Emulators/airpods.py (an AAP
// peer on a real L2CAP socket) and galaxybuds.py (the buds' frames on
// RFCOMM), run with Debian's Python (which has Bluetooth sockets) inside
// the Bluetooth VM, and driven line by line.

import Foundation
import Glibc
import SystemCalls

/// One emulator: AirPods listening on an L2CAP PSM (0x1001), or Galaxy
/// Buds on an RFCOMM channel, of a controller.
///
/// ```swift
/// let airpods = try await HeadphoneEmulator.start(on: mock.bus, address: b)
/// try await airpods.waitFor("notifications")
/// try airpods.send("ear 00 01")
/// ```
public final class HeadphoneEmulator: Sendable {
  private let process: ChildProcess
  private let commands: Int32
  private let outputPath: String

  /// Debian's Python, which has `socket.AF_BLUETOOTH`.
  public static let python = "/usr/bin/python3"

  /// Which headphones.
  public enum Kind: String, Sendable {
    /// AirPods: AAP on L2CAP.
    case airPods = "airpods"
    /// Galaxy Buds2: their frames on RFCOMM.
    case galaxyBuds = "galaxybuds"
    /// Galaxy Buds Pro: their frames on RFCOMM channel 2, and an SDP
    /// server with three serial-port records, the manager's the second.
    case galaxyBudsPro = "galaxybuds-pro"

    /// The emulator program, beside the tests.
    var script: String {
      let program = self == .airPods ? "airpods" : "galaxybuds"
      return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Emulators/\(program).py").path
    }

    /// The RFCOMM channel the Galaxy Buds' manager listens on.
    public var managerChannel: UInt8 { self == .galaxyBudsPro ? 2 : 1 }
  }

  private init(process: ChildProcess, commands: Int32, outputPath: String) {
    self.process = process
    self.commands = commands
    self.outputPath = outputPath
  }

  deinit {
    close(commands)
    process.send(SIGKILL)
  }

  /// Starts the emulator in the bus's process group and waits until it
  /// listens.
  ///
  /// - Parameters:
  ///   - bus: The private bus whose processes it lives and dies with.
  ///   - address: The controller address it listens on (`BT_ADDR_B`).
  ///   - kind: AirPods or Galaxy Buds.
  ///   - name: A name for its output file; the kind's when nil.
  ///   - port: The AirPods' PSM (AAP's by default, another for a second
  ///     emulator) or the Galaxy Buds' RFCOMM channel (1 by default).
  /// - Throws: ``FixtureError`` with its output if it does not listen.
  public static func start(
    _ kind: Kind = .airPods, on bus: PrivateBus, address: String,
    name: String? = nil, port: UInt16? = nil
  ) async throws -> HeadphoneEmulator {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else {
      throw FixtureError("cannot make a pipe: \(Errno.current)")
    }
    // Only the child's copy of the reading end stays open in it.
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    let outputPath = "\(bus.directory)/\(name ?? kind.rawValue).log"
    let portOption =
      switch kind {
      case .airPods: ["--psm", "\(port ?? 0x1001)"]
      case .galaxyBuds: ["--channel", "\(port ?? UInt16(kind.managerChannel))"]
      case .galaxyBudsPro:
        ["--channel", "\(port ?? UInt16(kind.managerChannel))", "--sdp"]
      }
    let process: ChildProcess
    do {
      process = try await bus.spawn(
        python,
        arguments: ["-u", kind.script, "--address", address] + portOption,
        environment: ["PATH": SoundServer.searchPath],
        input: .descriptor(descriptors[0]), output: outputPath,
        errorOutput: outputPath)
    } catch {
      close(descriptors[0])
      close(descriptors[1])
      throw error
    }
    close(descriptors[0])
    let emulator = HeadphoneEmulator(
      process: process, commands: descriptors[1], outputPath: outputPath)
    try await emulator.waitFor("listening")
    return emulator
  }

  /// Ends the emulator at once, as headphones that go out of range: its
  /// socket closes and nothing listens any more.
  public func vanish() {
    process.send(SIGKILL)
  }

  /// Sends the emulator one command line, such as `ear 00 01`.
  public func send(_ command: String) throws {
    let line = Array((command + "\n").utf8)
    let written = line.withUnsafeBytes {
      write(commands, $0.baseAddress, $0.count)
    }
    guard written == line.count else {
      throw FixtureError(
        "cannot send '\(command)' to the AirPods emulator: \(Errno.current)",
        logTail: output)
    }
  }

  /// Everything it said so far.
  public var output: String { SoundServer.readFile(outputPath) }

  /// How many of its lines are exactly `line`.
  public func count(_ line: String) -> Int {
    output.split(separator: "\n").count { $0 == line }
  }

  /// How many of its lines begin with `prefix`.
  public func count(prefix: String) -> Int {
    output.split(separator: "\n").count { $0.hasPrefix(prefix) }
  }

  /// When it last sent a packet, from its `sent HEX at NS` line: in
  /// nanoseconds of CLOCK_BOOTTIME.
  ///
  /// - Parameter hex: The packet, in lower-case hexadecimal.
  public func lastSendTime(of hex: String) -> Int64? {
    let prefix = "sent \(hex) at "
    return output.split(separator: "\n").last { $0.hasPrefix(prefix) }
      .flatMap { Int64($0.dropFirst(prefix.count)) }
  }

  /// Waits until at least `times` of its lines begin with `prefix`.
  ///
  /// - Throws: ``FixtureError`` with its output after `limit`.
  public func waitFor(
    prefix: String, times: Int, within limit: Duration = .seconds(60)
  ) async throws {
    do {
      try await waitUntil(
        "the AirPods emulator to say '\(prefix)…' \(times) times",
        within: limit
      ) { count(prefix: prefix) >= times }
    } catch {
      throw FixtureError("\(error)", logTail: output)
    }
  }

  /// Waits until it has said `line` at least `times` times.
  ///
  /// - Throws: ``FixtureError`` with its output after `limit`.
  public func waitFor(
    _ line: String, times: Int = 1, within limit: Duration = .seconds(60)
  ) async throws {
    do {
      try await waitUntil(
        "the AirPods emulator to say '\(line)'", within: limit
      ) {
        count(line) >= times
      }
    } catch {
      throw FixtureError("\(error)", logTail: output)
    }
  }
}
