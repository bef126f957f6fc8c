// jack-benchmark: wired headphones pulled while an mpv player plays on
// them, inside the Bluetooth VM with snd-dummy (scripts/run-in-vm; the
// benchmark script runs it there), on PulseAudio and on PipeWire, with the
// card's headphone jack of TestSupport's ALSAJack. Each repetition writes
// the jack's control, as the codec's driver does, and times from the
// moment the server plays on the card's speakers (an independent client
// sees the active port change): until every stream of the player is
// silent (muted, or corked), until the
// player is Paused (the default policy: after the 5 s reappear grace), and
// how long any of its streams played unmuted on the card while it played
// on its speakers (the target is 0 ms), as an independent libpulse client
// and an independent MPRIS client see them.

import BenchmarkSupport
import Foundation
import Glibc
import MPRIS
import PulseAudio
import SoundServerModel
import TestSupport

@main
struct JackBenchmark {
  static func main() async {
    await runInsideTheBluetoothVM("jack-benchmark", label: "jack") { quick in
      try await JackBenchmark(repetitions: quick ? 3 : 10).run()
    }
  }

  let repetitions: Int

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
    /// From the control written until the server played on the speakers:
    /// the kernel's and the server's share, not accessoryd's.
    var toSpeakers = Samples()
    var silent = Samples()
    var paused = Samples()
    var audible = Samples()
    /// Samples taken with the card on its speakers, and those of them
    /// with a stream of the player unmuted there.
    var samples = 0
    var audibleSamples = 0
    /// How fine the sampling was, per pull.
    var interval = Samples()
  }

  private func measure(_ kind: SoundServerKind) async throws -> Figures {
    progress("starting \(kind) with the card's headphone jack, and accessoryd")
    return try await ALSAJack.withServer(kind) { server, jack in
      let bus = try await PrivateBus.start()
      defer { bus.stop() }
      let daemon = try await DaemonFixture.start(
        on: server, policy: nil, sessionBusAddress: bus.address)
      defer { daemon.shutDown() }
      let player = try await MediaPlayerProcess.start(
        on: bus, server: server, clientName: "bench-player")
      do {
        let figures = try await measure(
          on: server, jack, player: player, busAddress: bus.address)
        await player.stop()
        return figures
      } catch {
        await player.stop()
        progress("the end of the daemon log:\n\(daemon.logTail())")
        throw error
      }
    }
  }

  /// Pulls the jack and plugs it back `repetitions` times, after one
  /// repetition that warms up.
  private func measure(
    on server: SoundServer, _ jack: ALSAJack, player: MediaPlayerProcess,
    busAddress: String
  ) async throws -> Figures {
    var figures = Figures(kind: server.kind)
    let watcher = try await MPRISClient.connect(busAddress: busAddress)
    defer { watcher.close() }
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "jack-benchmark"))
    defer { connection.close() }
    let pids: Set = [player.processID]
    progress("\(repetitions) pulls on \(server.kind)")
    for repetition in 0...repetitions {
      try await waitForStatus(.playing, of: pids, on: watcher)
      try await waitForAudible(pids, on: jack.sink, connection)
      let changes = watcher.changes()
      // Sampled from before the control is written: amixer returns only
      // after the server has switched.
      let start = ContinuousClock.now
      let sampling = Task {
        try await samplePull(of: pids, on: jack.sink, connection)
      }
      try await jack.plug(false)
      let pull = try await sampling.value
      let pausedAt = try await firstTime(
        all: pids, reach: .paused, in: changes, on: watcher,
        within: .seconds(15))
      if repetition > 0 {
        figures.toSpeakers.append(pull.switchedAt - start)
        figures.silent.append(pull.silentAt - pull.switchedAt)
        figures.paused.append(pausedAt - pull.switchedAt)
        figures.audible.append(pull.audible)
        figures.samples += pull.samples
        figures.audibleSamples += pull.audibleSamples
        figures.interval.append(pull.interval)
      }
      // Plugged back, played again (the default policy does not resume
      // what a disconnect paused).
      try await jack.plug(true)
      try await jack.awaitActivePort(ALSAJack.headphonePort, on: server)
      for found in watcher.players() where pids.contains(found.processID ?? -1)
      {
        try await watcher.play(found.busName)
      }
    }
    return figures
  }

  /// What one pull looked like, sampled.
  struct Pull {
    /// The first sample with the card on its speakers.
    var switchedAt: ContinuousClock.Instant
    /// The first sample since then with every stream of the player muted
    /// (or corked).
    var silentAt: ContinuousClock.Instant
    /// The time between samples that showed a stream of the player
    /// unmuted on the card while it played on its speakers, and the next.
    var audible: Duration
    var samples: Int
    var audibleSamples: Int
    /// The time from the first sample to the last, over the samples
    /// taken in it: how fine the sampling is.
    var interval: Duration
  }

  /// Samples the card's port and the player's streams, one query of each
  /// after the other as fast as the server answers, from the pull until
  /// the card plays on its speakers with the player's streams silent.
  private func samplePull(
    of pids: Set<Int32>, on sink: String, _ connection: PulseConnection
  ) async throws -> Pull {
    let deadline = ContinuousClock.now + .seconds(15)
    var switchedAt: ContinuousClock.Instant?
    var audibleSince: ContinuousClock.Instant?
    var audible = Duration.zero
    var samples = 0
    var audibleSamples = 0
    let first = ContinuousClock.now
    var taken = 0
    while ContinuousClock.now < deadline {
      let at = ContinuousClock.now
      taken += 1
      let card = try await connection.sink(named: sink)
      let inputs = try await connection.sinkInputs().filter {
        pids.contains($0.processID ?? -1)
      }
      let onSpeakers = card.activePortName == ALSAJack.speakerPort
      if let since = audibleSince {
        audible += at - since
        audibleSince = nil
      }
      guard onSpeakers else { continue }
      samples += 1
      if switchedAt == nil { switchedAt = at }
      if inputs.contains(where: {
        $0.sinkIndex == card.index && !$0.isMuted && !$0.isCorked
      }) {
        audibleSamples += 1
        audibleSince = at
      } else if !inputs.isEmpty,
        inputs.allSatisfy({ $0.isMuted || $0.isCorked })
      {
        return Pull(
          switchedAt: switchedAt!, silentAt: at, audible: audible,
          samples: samples, audibleSamples: audibleSamples,
          interval: (at - first) / max(taken - 1, 1))
      }
    }
    throw BenchmarkError("the player's streams still play after 15 s")
  }

  /// Waits until the player's streams play unmuted on the sink.
  private func waitForAudible(
    _ pids: Set<Int32>, on sink: String, _ connection: PulseConnection
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    let index = try await connection.sink(named: sink).index
    while ContinuousClock.now < deadline {
      let playing = try await connection.sinkInputs().filter {
        pids.contains($0.processID ?? -1)
      }
      if !playing.isEmpty,
        playing.allSatisfy({
          $0.sinkIndex == index && !$0.isCorked && !$0.isMuted
        })
      {
        return
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw BenchmarkError("the player does not play unmuted on \(sink)")
  }

  private func report(_ figures: [Figures]) {
    print("")
    print(
      "wired headphones pulled (inside the Bluetooth VM: qemu, "
        + "software-emulated; snd-dummy with a headphone jack; one mpv "
        + "player; \(repetitions) pulls a server)")
    print(
      "  from the card switched to its speakers, as an independent libpulse "
        + "client sampling the port and the streams back to back sees it")
    for figure in figures {
      let kind = figure.kind
      let rows: [(String, Samples, String, Int)] = [
        (
          "\(kind), jack written to speakers", figure.toSpeakers,
          "kernel and server", 1
        ),
        ("\(kind), silent (muted)", figure.silent, "", 1),
        (
          "\(kind), paused", figure.paused,
          "at once: a jack has no profile switch", 0
        ),
        (
          "\(kind), audible on the speakers", figure.audible,
          "target 0 ms", 1
        ),
      ]
      for (label, samples, note, digits) in rows {
        print(
          medianAndWorstLine(
            label, samples, width: 44, digits: digits, note: note))
      }
      print(
        "    \(figure.audibleSamples) of \(figure.samples) samples on the "
          + "speakers heard a stream of the player unmuted (a sample every "
          + "\(milliseconds(figure.interval.median)) ms)")
      print(
        "figure scenario=jack-pulled server=\(kind.identifier) "
          + "silent-median-ms=\(milliseconds(figure.silent.median)) "
          + "paused-median-ms=\(milliseconds(figure.paused.median)) "
          + "audible-worst-ms=\(milliseconds(figure.audible.p99)) "
          + "audible-samples=\(figure.audibleSamples)/\(figure.samples)")
    }
    fflush(nil)
  }

  private func milliseconds(_ value: Double?) -> String {
    value.map { String(format: "%.1f", $0) } ?? "none"
  }

  private func progress(_ message: String) {
    printProgress(message, program: "jack-benchmark")
  }
}
