// headphones-benchmark: inside the Bluetooth VM (scripts/run-in-vm; the
// benchmark script runs it there), how long the AirPods' own ear-detection
// packet takes to move the output, beside an update on the control socket
// and `acctl update` for the same switch. Each is timed from its start (the
// emulator's send, the request's write, the process's spawn) to the moment
// an independent libpulse client sees the new default. Outside the VM, on
// this machine's own clock: what the AirPods' link adds before the update
// path, from a packet's send to its event, over a Unix socket pair.

import AccessoryControl
import BenchmarkSupport
import Foundation
import Glibc
import HeadphoneLinks
import HeadphoneProtocols
import PulseAudio
import SoundServerModel
import TestSupport

@main
struct HeadphonesBenchmark {
  static func main() async {
    let quick = CommandLine.arguments.contains("--quick")
    guard BluetoothVM.isInside else {
      // Outside the VM: the link's own share, natively, over a Unix pair.
      do {
        try await LinkLatency(packets: quick ? 200 : 2000).run()
        exit(0)
      } catch {
        print("headphones (native): benchmark failed: \(error)")
        exit(1)
      }
    }
    do {
      try await HeadphonesBenchmark(repetitions: quick ? 10 : 40).run()
      exit(0)
    } catch {
      print("headphones: benchmark failed: \(error)")
      exit(1)
    }
  }

  let repetitions: Int

  func run() async throws {
    progress(
      "starting BlueZ's mock, the AirPods emulator, PulseAudio, accessoryd")
    let policy = try DaemonFixture.policyText(offHeadGraceSeconds: 0)
    let rig = try await HeadphoneRig.start(policy: policy)
    defer { rig.stop() }
    let connection = try await PulseConnection.connect(
      .init(
        server: rig.server.serverAddress,
        applicationName: "headphones-benchmark"))
    let observer = await ServerObserver.start(connection: connection)
    let client = try ControlClient(path: rig.daemon.socketPath)
    _ = try client.call(
      "accessory.pair", params: .object(["address": .string(rig.address)]))
    try await rig.emulator.waitFor("notifications")
    try await observer.reach(
      Goal(defaultSink: "speaker"), timeout: .seconds(30))
    try await settle()

    progress("\(repetitions) switches by the AirPods' packet")
    var packet = Samples()
    for _ in 0..<repetitions {
      try rig.emulator.send("ear 02 02")
      try await observer.reach(
        Goal(defaultSink: "speaker"), timeout: .seconds(30))
      try await settle()
      let sent = rig.emulator.count(prefix: "sent 0400040006000000 at ")
      try await observer.arm(Goal(defaultSink: "buds"))
      try rig.emulator.send("ear 00 00")
      let seen = try await observer.wait(until: .now + .seconds(30))
      try await rig.emulator.waitFor(
        prefix: "sent 0400040006000000 at ", times: sent + 1)
      guard let seen, let at = rig.emulator.lastSendTime(of: "0400040006000000")
      else {
        packet.timeouts += 1
        continue
      }
      packet.append(BootClock.duration(from: at, to: seen))
    }

    progress("\(repetitions) packets through the kernel alone")
    let transit = try await measureTransit(rig)

    progress("\(repetitions) switches by an update on the control socket")
    let socket = try await measureSwitches(client, rig, observer) {
      try await place("inEar", with: client, rig)
    }
    progress("\(repetitions) switches by acctl update")
    let acctl = try await measureSwitches(client, rig, observer) {
      let result = try await rig.daemon.acctl([
        "update", rig.address, "--placement", "inEar",
      ])
      guard result.status == 0 else {
        throw BenchmarkError("acctl update failed: \(result)")
      }
    }
    await observer.stop()
    connection.close()
    report(packet: packet, transit: transit, socket: socket, acctl: acctl)
  }

  /// The same packet's way through the kernel and the emulated controllers
  /// alone: a second emulator on another PSM, and this process reading it
  /// on a thread of its own the moment it arrives.
  private func measureTransit(_ rig: HeadphoneRig) async throws -> Samples {
    let reference = try await HeadphoneEmulator.start(
      on: rig.mock.bus, address: rig.address, name: "reference", port: 0x1003)
    let socket = try await onOwnThread {
      try HeadphoneSocket.connectL2CAP(
        to: rig.address, psm: 0x1003, receiveBuffer: AAP.receiveBufferSize,
        from: BluetoothVM.hostAdapter)
    }
    defer { socket.shutDown() }
    for packet in AAP.opening { try socket.send(packet) }
    // The state it reports at once: where the buds are, and the battery.
    for _ in 0..<2 {
      _ = try await onOwnThread { try socket.receive(capacity: 4096) }
    }
    var transit = Samples()
    for round in 0..<repetitions {
      let hex =
        round.isMultiple(of: 2) ? "0400040006000000" : "0400040006000202"
      let reading = Task {
        try await onOwnThread { () throws -> Int64 in
          _ = try socket.receive(capacity: 4096)
          return BootClock.now()
        }
      }
      let sent = reference.count(prefix: "sent \(hex) at ")
      try reference.send(round.isMultiple(of: 2) ? "ear 00 00" : "ear 02 02")
      let arrived = try await reading.value
      try await reference.waitFor(prefix: "sent \(hex) at ", times: sent + 1)
      guard let at = reference.lastSendTime(of: hex) else {
        transit.timeouts += 1
        continue
      }
      transit.append(.nanoseconds(arrived - at))
    }
    return transit
  }

  /// Switches the AirPods on, from off the head, by a companion's path:
  /// taken off by a socket update, then `switchOn` timed until the
  /// default is theirs.
  private func measureSwitches(
    _ client: ControlClient, _ rig: HeadphoneRig, _ observer: ServerObserver,
    switchOn: () async throws -> Void
  ) async throws -> Samples {
    var samples = Samples()
    for _ in 0..<repetitions {
      try await place("offHead", with: client, rig)
      try await observer.reach(
        Goal(defaultSink: "speaker"), timeout: .seconds(30))
      try await settle()
      try await observer.arm(Goal(defaultSink: "buds"))
      let start = ContinuousClock.now
      try await switchOn()
      guard let seen = try await observer.wait(until: .now + .seconds(30))
      else {
        samples.timeouts += 1
        continue
      }
      samples.append(seen - start)
    }
    return samples
  }

  /// Lets the daemon finish the change before (its state file written),
  /// so that each switch is timed from an idle daemon, as a person's
  /// would be.
  private func settle() async throws {
    try await Task.sleep(for: .milliseconds(300))
  }

  /// Sends `accessory.update` with a placement, on a thread of its own.
  private func place(
    _ placement: String, with client: ControlClient, _ rig: HeadphoneRig
  ) async throws {
    let params: JSONValue = .object([
      "accessory": .string(rig.address),
      "changes": .object(["devicePlacement": .string(placement)]),
    ])
    _ = try await onOwnThread {
      try client.call("accessory.update", params: params)
    }
  }

  private func report(
    packet: Samples, transit: Samples, socket: Samples, acctl: Samples
  ) {
    print("")
    print(
      "headphones (inside the Bluetooth VM: qemu, software-emulated; "
        + "\(repetitions) each)")
    print(
      "  from the start of each to the new default seen by a libpulse client")
    let rows: [(String, Samples)] = [
      ("the AirPods' ear-detection packet (L2CAP)", packet),
      ("  of which the kernel and btvirt alone", transit),
      ("accessory.update on the control socket", socket),
      ("acctl update (a process)", acctl),
    ]
    for (label, samples) in rows {
      print(medianAndWorstLine(label, samples, width: 44, digits: 2))
    }
    if let packetMedian = packet.median, let socketMedian = socket.median,
      let transitMedian = transit.median
    {
      print(
        "  accessoryd's own path from the packet, beside the socket's: "
          + "\(format(packetMedian - transitMedian - socketMedian, digits: 2)) "
          + "ms at the median (the packet's, less the kernel's, less the "
          + "socket's)")
    }
    fflush(nil)
  }

  private func progress(_ message: String) {
    printProgress(message, program: "headphones-benchmark")
  }
}

/// CLOCK_BOOTTIME, the clock of the emulator's send times, against the
/// clock of the observer's instants.
enum BootClock {
  /// Now, in nanoseconds of CLOCK_BOOTTIME.
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  /// The time from a CLOCK_BOOTTIME moment to an instant of the
  /// continuous clock, by one reading of both clocks.
  static func duration(
    from boot: Int64, to instant: ContinuousClock.Instant
  ) -> Duration {
    let instantNow = ContinuousClock.now
    let bootNow = now()
    return .nanoseconds(bootNow - boot) - (instantNow - instant)
  }
}

/// The AirPods' link on its own, natively.
///
/// Each sample is a packet written to one end of a Unix `SOCK_SEQPACKET`
/// pair until `AAPLink`'s event for it comes out of its stream to an async
/// consumer. This, and one hop to the headphones service, is all the packet
/// path does before the update path a companion's request also takes.
struct LinkLatency {
  let packets: Int

  func run() async throws {
    let (host, airPods) = try HeadphoneSocket.pair()
    var reports = AAPLink.run(on: host, answerTimeout: .seconds(3600))
      .makeAsyncIterator()
    for _ in AAP.opening {
      _ = try await onOwnThread { try airPods.receive(capacity: 4096) }
    }
    var samples = Samples()
    for round in 0..<packets {
      // Alternate, so that each packet is a change the session reports.
      let packet: [UInt8] =
        AAP.header + [0x06, 0x00]
        + (round.isMultiple(of: 2) ? [0x00, 0x00] : [0x02, 0x02])
      let start = ContinuousClock.now
      try airPods.send(packet)
      guard case .event = await reports.next() else {
        throw BenchmarkError("the link did not report packet \(round)")
      }
      samples.append(.now - start)
    }
    airPods.shutDown()
    let median = samples.median.map { format($0 * 1000, digits: 1) } ?? "-"
    let worst = samples.p99.map { format($0 * 1000, digits: 1) } ?? "-"
    print("")
    print("headphones, natively on this machine (\(packets) packets)")
    print(
      "  the AirPods' link, from a packet's send to its event: median "
        + "\(median) µs, p99 \(worst) µs")
    fflush(nil)
  }
}
