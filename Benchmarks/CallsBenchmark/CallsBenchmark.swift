// calls-benchmark: inside the Bluetooth VM with snd-dummy and snd-aloop
// (scripts/run-in-vm; the benchmark script runs it there), on PulseAudio
// and on PipeWire (ALSAHeadset in TestSupport), how long a call
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
import SoundServerModel
import TestSupport

@main
struct CallsBenchmark {
  static func main() async {
    await runInsideTheBluetoothVM("calls-benchmark", label: "calls") { quick in
      try await CallsBenchmark(repetitions: quick ? 5 : 20).run()
    }
  }

  let repetitions: Int
  /// The policy's delays, the defaults.
  let startDelay = Duration.milliseconds(500)
  let endDelay = Duration.seconds(2)
  typealias Headset = ALSAHeadset
  let address = "AA:BB:CC:DD:EE:01"

  func run() async throws {
    var figures: [Figures] = []
    for kind in SoundServerKind.allCases {
      figures.append(try await measure(kind))
    }
    report(figures)
  }

  /// One server's figures.
  struct Figures {
    let kind: SoundServerKind
    /// A call's start and end, beyond the delays.
    let start: Samples
    let end: Samples
    /// The server alone: from a profile change sent to the microphone
    /// there, and gone again.
    let serverOn: Samples
    let serverOff: Samples
  }

  /// Times `repetitions` calls on one server, then its own profile
  /// switches.
  private func measure(_ kind: SoundServerKind) async throws -> Figures {
    progress("starting \(kind) with the ALSA headset, and accessoryd")
    return try await ALSAHeadset.withServer(kind, address: address) {
      try await measure(on: $0, $1)
    }
  }

  /// Times the calls and the profile switches on a server with the
  /// headset card.
  private func measure(
    on server: SoundServer, _ headset: ALSAHeadset
  ) async throws -> Figures {
    let kind = server.kind
    let daemon = try await DaemonFixture.start(on: server, policy: nil)
    defer { daemon.shutDown() }
    try await daemon.pairAndRegister(address, placement: "inEar")
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "calls-benchmark"))
    let observer = await ServerObserver.start(connection: connection)
    try await observer.reach(
      Goal(defaultSinkPrefix: headset.sinkPrefix), timeout: .seconds(30))

    let inCall = Goal(
      cardProfile: (headset.card, Headset.duplex),
      defaultSourcePrefix: headset.microphonePrefix)
    let afterCall = Goal(
      defaultSource: headset.laptopMicrophone,
      cardProfile: (headset.card, Headset.outputOnly))
    progress("\(repetitions) calls on \(kind)")
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
    // The server alone, with the daemon stopped: the same profile
    // switches sent on a connection of their own.
    _ = await daemon.stop()
    let commander = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "calls-commander"))
    var serverOn = Samples()
    var serverOff = Samples()
    for _ in 0..<repetitions {
      for (profile, exists) in [
        (Headset.duplex, true), (Headset.outputOnly, false),
      ] {
        try await observer.arm(
          Goal(
            cardProfile: (headset.card, profile),
            source: (headset.microphonePrefix, exists)))
        let sent = ContinuousClock.now
        try await commander.setCardProfile(
          cardNamed: headset.card, profile: profile)
        let seen = try await observer.wait(until: .now + .seconds(30))
        if exists {
          if let seen {
            serverOn.append(seen - sent)
          } else {
            serverOn.timeouts += 1
          }
        } else {
          if let seen {
            serverOff.append(seen - sent)
          } else {
            serverOff.timeouts += 1
          }
        }
      }
    }
    commander.close()
    await observer.stop()
    connection.close()
    return Figures(
      kind: kind, start: start, end: end, serverOn: serverOn,
      serverOff: serverOff)
  }

  private func report(_ figures: [Figures]) {
    print("")
    print(
      "calls (inside the Bluetooth VM: qemu, software-emulated; snd-dummy "
        + "as the headset; \(repetitions) calls a server)")
    print(
      "  beyond the fixed delay, as an independent libpulse client sees it")
    for figure in figures {
      let kind = figure.kind
      let rows: [(String, Samples, String)] = [
        (
          "\(kind), call starts: headset profile and microphone",
          figure.start, "after the 0.5 s start delay"
        ),
        (
          "\(kind), call ends: music profile and input back", figure.end,
          "after the 2 s end delay"
        ),
        (
          "  the server alone: duplex profile and microphone",
          figure.serverOn, "from set-card-profile"
        ),
        (
          "  the server alone: output profile, no microphone",
          figure.serverOff, "from set-card-profile"
        ),
      ]
      for (label, samples, delay) in rows {
        print(
          medianAndWorstLine(
            label, samples, width: 56, digits: 1, note: delay))
      }
    }
    fflush(nil)
  }

  private func progress(_ message: String) {
    printProgress(message, program: "calls-benchmark")
  }
}
