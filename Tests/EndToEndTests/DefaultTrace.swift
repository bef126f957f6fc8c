// An independent libpulse client that records every default output the
// sound server reports, in order: what a test that checks the default never
// went somewhere reads, instead of sleeping.

import ConcurrencyHelpers
import PulseAudio
import SoundServerModel
import TestSupport

/// The defaults an independent client saw the server report, and how many
/// sinks it saw made since it started (a marker a test makes last, so that
/// every default change before it has been seen).
final class DefaultTrace: Sendable {
  private let state = Mutex<(seen: [String?], marks: Int)>(([], 0))
  private let tracing = Mutex<(PulseConnection, Task<Void, Never>)?>(nil)

  private init() {}

  /// Connects to the server and traces its defaults until ``stop()``.
  static func start(_ server: SoundServer) async throws -> DefaultTrace {
    let observer = try await PulseConnection.connect(
      .init(server: server.serverAddress))
    let trace = DefaultTrace()
    let events = observer.events
    let task = Task {
      for await event in events {
        if event.facility == .server {
          trace.record(try? await observer.serverInfo().defaultSinkName)
        }
        if event.facility == .sink, event.kind == .new { trace.mark() }
      }
    }
    trace.tracing.withLock { $0 = (observer, task) }
    return trace
  }

  /// Stops tracing and closes the connection.
  func stop() {
    guard let (observer, task) = tracing.withLock({ $0.take() }) else {
      return
    }
    task.cancel()
    observer.close()
  }

  private func record(_ name: String?) {
    state.withLock { $0.seen.append(name) }
  }
  private func mark() { state.withLock { $0.marks += 1 } }

  /// The defaults seen, oldest first.
  var seen: [String?] { state.withLock { $0.seen } }
  /// Whether a sink was made since the trace started.
  var hasMark: Bool { marks > 0 }
  /// How many sinks were made since the trace started.
  var marks: Int { state.withLock { $0.marks } }
}
