import TestSupport

/// Durations measured for one figure, in milliseconds.
struct Samples: Sendable {
  /// The measured durations, in the order taken.
  private(set) var milliseconds: [Double] = []
  /// How many repetitions ended without the awaited state being seen.
  var timeouts = 0

  mutating func append(_ duration: Duration) {
    milliseconds.append(duration.milliseconds)
  }

  var count: Int { milliseconds.count }

  /// The median; the mean of the two middle values for an even count.
  var median: Double? {
    guard !milliseconds.isEmpty else { return nil }
    let sorted = milliseconds.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  /// The 99th percentile by nearest rank (the maximum for fewer than 100
  /// samples), as pabench and pulse-benchmark compute it.
  var p99: Double? {
    guard !milliseconds.isEmpty else { return nil }
    let sorted = milliseconds.sorted()
    let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
    return sorted[max(rank - 1, 0)]
  }
}

/// What one switch figure measures.
enum FigureKind: String, Sendable, CaseIterable {
  case updateObserved = "update-observed"
  case updateReturned = "update-returned"
  case updateNoChange = "update-no-change"
  case currentRoundTrip = "current-round-trip"
  case switchOnConnect = "switch-on-connect"
  case switchOnConnectLoadAck = "switch-on-connect-load-ack"
  case followDefault = "set-default-follow-observed"
  case followDefaultAck = "set-default-ack"

  /// The row label in the table.
  var label: String {
    switch self {
    case .updateObserved: "accessoryd: update -> observed applied"
    case .updateReturned: "accessoryd: update call returned"
    case .updateNoChange: "accessoryd: update without a change"
    case .currentRoundTrip: "accessoryd: current(for:) round trip"
    case .switchOnConnect: "ref: switch-on-connect -> observed"
    case .switchOnConnectLoadAck: "ref: switch-on-connect load ack"
    case .followDefault: "ref: set-default, streams follow -> observed"
    case .followDefaultAck: "ref: set-default ack"
    }
  }
}

/// One measured figure of one server.
struct Figure: Sendable {
  var server: SoundServerKind
  var kind: FigureKind
  /// How many playing streams the server had.
  var streams: Int
  var samples: Samples
  /// For accessoryd figures: the routes the daemon applied (its `Route
  /// applied` log lines) per update, counted over the series.
  var routesPerUpdate: Double?

  /// Whether every try timed out: the awaited change never happened.
  var neverHappened: Bool { samples.count == 0 && samples.timeouts > 0 }
}

extension Array where Element == Figure {
  /// The figure of a kind on a server with a stream count, if measured.
  func first(
    _ kind: FigureKind, server: SoundServerKind, streams: Int
  ) -> Figure? {
    first { $0.kind == kind && $0.server == server && $0.streams == streams }
  }
}

extension Duration {
  /// The duration in milliseconds.
  var milliseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
  }
}
