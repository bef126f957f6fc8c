// calls-benchmark: inside the Bluetooth VM with snd-dummy and snd-aloop
// (scripts/run-in-vm; the benchmark script runs it there), how long a call
// takes to get the worn headset's profile and microphone, and to give the
// profile back after it, against the fixed delays (calls.startDelaySeconds
// 0.5 s, calls.endDelaySeconds 2 s). Each is timed by an independent
// libpulse client: from the moment it sees the call's recording appear (or
// go) to the moment it sees the card's profile and the default input as
// they should be.

import AccessoryControl
import BenchmarkSupport
import Foundation
import Glibc
import PulseAudio
import TestSupport

@main
struct CallsBenchmark {
  static func main() async {
    let quick = CommandLine.arguments.contains("--quick")
    guard BluetoothVM.isInside else {
      print(
        "calls-benchmark: runs inside the Bluetooth VM; "
          + "scripts/benchmark starts it there")
      exit(64)
    }
    do {
      try await CallsBenchmark(repetitions: quick ? 5 : 20).run()
      exit(0)
    } catch {
      print("calls: benchmark failed: \(error)")
      exit(1)
    }
  }

  let repetitions: Int
  /// The policy's delays, the defaults.
  let startDelay = Duration.milliseconds(500)
  let endDelay = Duration.seconds(2)
  typealias Headset = ALSAHeadset
  let address = "AA:BB:CC:DD:EE:01"

  func run() async throws {
    progress("starting PulseAudio with the ALSA headset, and accessoryd")
    let (server, headset) = try await ALSAHeadset.start(
      .pulseAudio, address: address)
    defer { server.stop() }
    // On PulseAudio the headset's devices keep their names.
    let sink = "alsa_output.buds.stereo-fallback"
    let microphone = "alsa_input.buds.stereo-fallback"
    guard headset.isSink(sink), headset.isMicrophone(microphone) else {
      throw BenchmarkError("the headset's devices are not named as expected")
    }
    let daemon = try await DaemonFixture.start(on: server, policy: nil)
    defer { daemon.shutDown() }
    for arguments in [
      ["pair", address],
      [
        "register", address, "--capabilities", "audioSwitching,placement",
        "--placement", "inEar",
      ],
    ] {
      let result = try await daemon.acctl(arguments)
      guard result.status == 0 else {
        throw BenchmarkError("acctl \(arguments[0]) failed: \(result)")
      }
    }
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "calls-benchmark"))
    let observer = await ServerObserver.start(connection: connection)
    try await observer.reach(
      Goal(defaultSink: sink), timeout: .seconds(30))

    let inCall = Goal(
      defaultSource: microphone, cardProfile: (headset.card, Headset.duplex))
    let afterCall = Goal(
      defaultSource: headset.laptopMicrophone,
      cardProfile: (headset.card, Headset.outputOnly))
    progress("\(repetitions) calls")
    var start = Samples()
    var end = Samples()
    for _ in 0..<repetitions {
      try await observer.reach(afterCall, timeout: .seconds(30))
      try await observer.arm(Goal(recordings: 1))
      let call = try await server.startRecording(
        from: headset.laptopMicrophone, properties: ["media.role": "phone"])
      guard let began = try await observer.wait(until: .now + .seconds(30))
      else { throw BenchmarkError("the call's recording never showed") }
      try await observer.arm(inCall)
      if let switched = try await observer.wait(until: .now + .seconds(30)) {
        start.append(switched - began - startDelay)
      } else {
        start.timeouts += 1
      }
      try await observer.arm(Goal(recordings: 0))
      call.stop()
      guard let ended = try await observer.wait(until: .now + .seconds(30))
      else { throw BenchmarkError("the call's recording never went") }
      try await observer.arm(afterCall)
      if let restored = try await observer.wait(until: .now + .seconds(30)) {
        end.append(restored - ended - endDelay)
      } else {
        end.timeouts += 1
      }
    }
    await observer.stop()
    connection.close()
    report(start: start, end: end)
  }

  private func report(start: Samples, end: Samples) {
    print("")
    print(
      "calls (inside the Bluetooth VM: qemu, software-emulated; PulseAudio "
        + "with snd-dummy as the headset; \(repetitions) calls)")
    print(
      "  beyond the fixed delay, as an independent libpulse client sees it")
    let rows: [(String, Samples, String)] = [
      (
        "call starts: headset profile and microphone", start,
        "after the 0.5 s start delay"
      ),
      (
        "call ends: music profile and input back", end,
        "after the 2 s end delay"
      ),
    ]
    for (label, samples, delay) in rows {
      let median = samples.median.map { format($0, digits: 1) } ?? "-"
      let worst = samples.p99.map { format($0, digits: 1) } ?? "-"
      print(
        "  \(pad(label, 46)) median \(leftPad(median, 7)) ms  "
          + "worst \(leftPad(worst, 7)) ms  \(delay)"
          + (samples.timeouts > 0 ? "  (\(samples.timeouts) timed out)" : ""))
    }
    fflush(nil)
  }

  private func progress(_ message: String) {
    printProgress(message, program: "calls-benchmark")
  }
}
