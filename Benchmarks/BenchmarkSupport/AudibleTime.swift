// How long the streams of some processes play audibly on an output, as an
// independent libpulse client sees it: the media benchmarks' "audible"
// figure, whose target is 0 ms.

import ConcurrencyHelpers
import PulseAudio
import SoundServerModel
import TestSupport

/// An independent libpulse client that adds up the time any stream of some
/// processes plays audibly (not corked, not muted) on a sink: it lists
/// the streams at every change the server reports.
public final class AudibleTime: Sendable {
  private struct State {
    var since: ContinuousClock.Instant?
    var total = Duration.zero
  }

  private let connection: PulseConnection
  private let state = Mutex(State())
  private let task = Mutex<Task<Void, Never>?>(nil)

  private init(connection: PulseConnection) {
    self.connection = connection
  }

  /// Starts watching.
  ///
  /// - Parameters:
  ///   - server: The server.
  ///   - sink: The output the streams must not be heard on.
  ///   - processes: Whose streams count.
  public static func start(
    server: SoundServer, sink: String, processes: Set<Int32>
  ) async throws -> AudibleTime {
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "bench-audible"))
    let watch = AudibleTime(connection: connection)
    let events = connection.events
    let sinkIndex = try await connection.sink(named: sink).index
    watch.task.withLock {
      $0 = Task {
        for await event in events
        where event.facility == .sinkInput || event.facility == .sink {
          guard let inputs = try? await connection.sinkInputs() else {
            continue
          }
          let audible = inputs.contains {
            $0.sinkIndex == sinkIndex && !$0.isCorked && !$0.isMuted
              && processes.contains($0.processID ?? -1)
          }
          watch.note(audible: audible, at: .now)
        }
      }
    }
    return watch
  }

  private func note(audible: Bool, at instant: ContinuousClock.Instant) {
    state.withLock { state in
      if audible, state.since == nil { state.since = instant }
      if !audible, let since = state.since {
        state.total += instant - since
        state.since = nil
      }
    }
  }

  /// Starts a new count.
  public func reset() {
    state.withLock { $0 = State() }
  }

  /// The audible time since the last reset, an ongoing stretch included.
  public func total() -> Duration {
    state.withLock { state in
      state.total + (state.since.map { ContinuousClock.now - $0 } ?? .zero)
    }
  }

  /// Stops watching.
  public func stop() {
    task.withLock { $0?.cancel() }
    connection.close()
  }
}
