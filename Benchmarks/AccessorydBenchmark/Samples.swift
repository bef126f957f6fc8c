import BenchmarkSupport
import TestSupport

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
  var neverHappened: Bool { samples.neverHappened }
}

extension Figure {
  /// This figure with the samples of another series of the same kind, as
  /// one series; the routes per update weighed by each series' count.
  ///
  /// - Parameter other: The other series, of the same server, kind and
  ///   stream count.
  /// - Returns: The joined figure.
  func joined(with other: Figure) -> Figure {
    precondition(
      server == other.server && kind == other.kind && streams == other.streams)
    var joined = self
    joined.samples.append(contentsOf: other.samples)
    if let mine = routesPerUpdate, let theirs = other.routesPerUpdate {
      let total =
        samples.count + samples.timeouts + other.samples.count
        + other.samples.timeouts
      let weight = Double(samples.count + samples.timeouts)
      joined.routesPerUpdate =
        total == 0
        ? mine
        : (mine * weight + theirs * (Double(total) - weight)) / Double(total)
    }
    return joined
  }
}

extension Array where Element == Figure {
  /// The figure of a kind on a server with a stream count, if measured.
  func first(
    _ kind: FigureKind, server: SoundServerKind, streams: Int
  ) -> Figure? {
    first { $0.kind == kind && $0.server == server && $0.streams == streams }
  }
}
