import BenchmarkSupport
import TestSupport

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
  var neverHappened: Bool { samples.neverHappened }
}

extension Array where Element == Figure {
  /// The figure of a kind with a stream count, if it was measured.
  func first(_ kind: FigureKind, streams: Int) -> Figure? {
    first { $0.kind == kind && $0.streams == streams }
  }
}
