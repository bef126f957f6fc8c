import TestSupport

/// Durations measured for one figure, in milliseconds.
struct Samples: Sendable {
  /// The measured durations, in the order taken.
  private(set) var milliseconds: [Double] = []
  /// How many repetitions ended without the awaited state being seen.
  var timeouts = 0

  mutating func append(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    milliseconds.append(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
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

  /// The 99th percentile by nearest rank, as pabench computes it (the
  /// maximum for fewer than 100 samples).
  var p99: Double? {
    guard !milliseconds.isEmpty else { return nil }
    let sorted = milliseconds.sorted()
    let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
    return sorted[max(rank - 1, 0)]
  }
}

/// What one figure measures.
enum FigureKind: String, Sendable, CaseIterable {
  case setDefaultAck = "set-default-ack"
  case setDefaultObserved = "set-default-observed"
  case moveSequential = "move-sequential"
  case movePipelined = "move-pipelined"
  case movePipelinedObserved = "move-pipelined-observed"
  case defaultAndMoveObserved = "set-default+move-pipelined-observed"
  case switchOnConnectLoadAck = "switch-on-connect-load-ack"
  case switchOnConnect = "switch-on-connect"

  /// The row label in the table.
  var label: String {
    switch self {
    case .setDefaultAck: "set-default, ack"
    case .setDefaultObserved: "set-default, until observed"
    case .moveSequential: "move sequential, all acks"
    case .movePipelined: "move pipelined, all acks"
    case .movePipelinedObserved: "move pipelined, until observed"
    case .defaultAndMoveObserved: "set-default + moves, until observed"
    case .switchOnConnectLoadAck: "switch-on-connect: load-module ack"
    case .switchOnConnect: "switch-on-connect, until observed"
    }
  }
}

/// One measured figure of one server.
struct Figure: Sendable {
  var server: SoundServerKind
  var kind: FigureKind
  /// How many playing streams the server had (and, for moves, were moved).
  var streams: Int
  var samples: Samples

  /// Whether every try timed out: the awaited change never happened.
  var neverHappened: Bool { samples.count == 0 && samples.timeouts > 0 }
}

extension Array where Element == Figure {
  /// The figure of a kind with a stream count, if it was measured.
  func first(_ kind: FigureKind, streams: Int) -> Figure? {
    first { $0.kind == kind && $0.streams == streams }
  }
}
