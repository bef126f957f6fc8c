// The parts of SoundServerLink: the lists of its mirror and how each is
// refetched, and the facilities with events not yet refetched.

import AccessoryControl
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import Logging
import PulseAudio
import SoundServerModel

/// One list of a ``ServerMirror``.
enum MirrorList: CaseIterable, Sendable {
  case serverInfo, sinks, sinkInputs, sources, sourceOutputs, cards

  /// The list that events of a facility change, if any.
  init?(_ facility: ServerEvent.Facility) {
    switch facility {
    case .server: self = .serverInfo
    case .sink: self = .sinks
    case .sinkInput: self = .sinkInputs
    case .source: self = .sources
    case .sourceOutput: self = .sourceOutputs
    case .card: self = .cards
    default: return nil
    }
  }

  /// Fetches the list.
  func fetch(
    from connection: PulseConnection
  ) async -> Result<MirrorPart, PulseError> {
    do throws(PulseError) {
      let part: MirrorPart =
        switch self {
        case .serverInfo: .serverInfo(try await connection.serverInfo())
        case .sinks: .sinks(try await connection.sinks())
        case .sinkInputs: .sinkInputs(try await connection.sinkInputs())
        case .sources: .sources(try await connection.sources())
        case .sourceOutputs:
          .sourceOutputs(try await connection.sourceOutputs())
        case .cards: .cards(try await connection.cards())
        }
      return .success(part)
    } catch {
      return .failure(error)
    }
  }
}

/// One fetched list of a ``ServerMirror``.
enum MirrorPart: Sendable {
  case serverInfo(ServerInfo)
  case sinks([Sink])
  case sinkInputs([SinkInput])
  case sources([Source])
  case sourceOutputs([SourceOutput])
  case cards([Card])

  /// Replaces the list in a mirror.
  func apply(to mirror: inout ServerMirror) {
    switch self {
    case .serverInfo(let info): mirror.serverInfo = info
    case .sinks(let sinks): mirror.sinks = sinks
    case .sinkInputs(let inputs): mirror.sinkInputs = inputs
    case .sources(let sources): mirror.sources = sources
    case .sourceOutputs(let outputs): mirror.sourceOutputs = outputs
    case .cards(let cards): mirror.cards = cards
    }
  }
}

extension PulseConnection {
  /// The error the connection failed with, read from its ended states.
  ///
  /// - Important: Read it only after the connection ended.
  var failure: PulseError? {
    get async {
      var failure: PulseError?
      for await state in states {
        if case .failed(let error) = state { failure = error }
      }
      return failure
    }
  }
}

/// The facilities with events not yet refetched; shared with the task that
/// reads events.
final class PendingChanges: Sendable {
  private let facilities = Mutex<Set<ServerEvent.Facility>>([])
  private let eventCount = Atomic<Int>(0)

  /// Records a facility; returns whether it was not recorded yet.
  func insert(_ facility: ServerEvent.Facility) -> Bool {
    eventCount.add(1, ordering: .relaxed)
    return facilities.withLock { $0.insert(facility).inserted }
  }

  /// Waits until no event has arrived for `quiet`, or for `limit` in all.
  func settle(
    quiet: Duration, limit: Duration, on clock: any EngineClock
  ) async {
    let deadline = clock.now().addingTimeInterval(limit.seconds)
    var seen = eventCount.load(ordering: .relaxed)
    while clock.now() < deadline {
      try? await clock.sleep(for: quiet)
      let now = eventCount.load(ordering: .relaxed)
      if now == seen { return }
      seen = now
    }
  }

  /// Returns the recorded facilities and forgets them.
  func take() -> Set<ServerEvent.Facility> {
    facilities.withLock { facilities in
      defer { facilities = [] }
      return facilities
    }
  }
}
