// AudibilityWatch: an independent libpulse client that records how the
// streams of some processes are seen on a sink (audible, corked, muted, or
// elsewhere), for the media tests.

import ConcurrencyHelpers
import PulseAudio
import SoundServerModel
import TestSupport

/// An independent libpulse client that checks, at every change of the
/// streams, that no stream of the watched processes plays audibly (not
/// corked, not muted) on a sink.
final class AudibilityWatch: Sendable {
  private let connection: PulseConnection
  private let moments = Mutex<[String]>([])
  /// How a watched stream was seen: on another sink, on none (unlinked),
  /// or on the watched sink, audible, corked or muted.
  enum Sighting { case elsewhere, nowhere, audible, corked, muted }
  /// Each sighting of a watched stream, in order.
  private let sightings = Mutex<[(stream: UInt32, seen: Sighting)]>([])
  private let task = Mutex<Task<Void, Never>?>(nil)

  private init(connection: PulseConnection) {
    self.connection = connection
  }

  /// Starts watching a sink for the streams of some processes.
  ///
  /// - Parameters:
  ///   - server: The server.
  ///   - sink: The sink whose streams are heard.
  ///   - processes: The processes whose streams are watched.
  ///   - headphonePort: A port of the sink that is headphones: while it is
  ///     the active one, what plays on the sink is not heard out loud, and
  ///     counts as elsewhere.
  static func start(
    _ server: SoundServer, sink: String, processes: Set<Int32>,
    headphonePort: String? = nil
  ) async throws -> AudibilityWatch {
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "audibility-watch"))
    let watch = AudibilityWatch(connection: connection)
    let events = connection.events
    let check: @Sendable () async -> Void = {
      guard let sinks = try? await connection.sinks(),
        let watched = sinks.first(where: { $0.name == sink }),
        let inputs = try? await connection.sinkInputs()
      else { return }
      let onHeadphones =
        headphonePort != nil && watched.activePortName == headphonePort
      for input in inputs where processes.contains(input.processID ?? -1) {
        guard input.sinkIndex == watched.index, !onHeadphones else {
          let linked = sinks.contains { $0.index == input.sinkIndex }
          watch.sightings.withLock {
            $0.append((input.index, linked ? .elsewhere : .nowhere))
          }
          continue
        }
        let audible = !input.isCorked && !input.isMuted
        watch.sightings.withLock {
          $0.append(
            (input.index, input.isMuted ? .muted : audible ? .audible : .corked)
          )
        }
        guard audible else { continue }
        watch.moments.withLock {
          $0.append("stream #\(input.index) of \(input.clientName ?? "?")")
        }
      }
    }
    let task = await following(events, of: [.sinkInput, .sink], check)
    watch.task.withLock { $0 = task }
    return watch
  }

  /// The playback streams of a process now.
  func streams(of process: Int32) async throws -> [SinkInput] {
    try await streams(of: [process])
  }

  /// The playback streams of some processes now.
  func streams(of processes: Set<Int32>) async throws -> [SinkInput] {
    try await connection.sinkInputs().filter {
      processes.contains($0.processID ?? -1)
    }
  }

  /// Where the streams of some processes play now, by sink name, and
  /// whether they are muted.
  func placements(
    of processes: Set<Int32>
  ) async throws -> [(sink: String?, muted: Bool)] {
    let sinks = try await connection.sinks()
    return try await connection.sinkInputs().filter {
      processes.contains($0.processID ?? -1)
    }.map { input in
      (sinks.first { $0.index == input.sinkIndex }?.name, input.isMuted)
    }
  }

  /// The streams seen audible on the sink after they were seen muted
  /// there, in one stay on it: a mute that did not hold. (PipeWire may
  /// show a stream it moves corked for a moment before it plays.)
  func audibleAfterMuted() -> Set<UInt32> {
    var muted: Set<UInt32> = []
    var again: Set<UInt32> = []
    for (stream, seen) in sightings.withLock({ $0 }) {
      switch seen {
      case .elsewhere, .nowhere: muted.remove(stream)
      case .muted: muted.insert(stream)
      case .corked: continue
      case .audible: if muted.contains(stream) { again.insert(stream) }
      }
    }
    return again
  }

  /// The streams seen on the sink and never muted or corked there.
  func neverSilenced() -> Set<UInt32> {
    let all = sightings.withLock { $0 }.filter {
      $0.seen != .elsewhere && $0.seen != .nowhere
    }
    return Set(all.map(\.stream)).subtracting(
      all.filter { $0.seen == .muted || $0.seen == .corked }.map(\.stream))
  }

  /// Whether a watched stream was seen on no sink, as WirePlumber 0.5
  /// holds the streams of a sink that went.
  var sawAStreamOnNoSink: Bool {
    sightings.withLock { $0.contains { $0.seen == .nowhere } }
  }

  /// Every audible moment seen so far.
  var audibleMoments: [String] { moments.withLock { $0 } }

  /// Stops watching and returns every audible moment seen.
  func stop() -> [String] {
    task.withLock { $0?.cancel() }
    connection.close()
    return moments.withLock { $0 }
  }
}

/// Checks once, then again at each of a server's events of some kinds,
/// until the returned task is cancelled.
func following(
  _ events: AsyncStream<ServerEvent>, of facilities: Set<ServerEvent.Facility>,
  _ check: @escaping @Sendable () async -> Void
) async -> Task<Void, Never> {
  await check()
  return Task {
    for await event in events where facilities.contains(event.facility) {
      await check()
    }
  }
}
