/// Durations measured for one figure, in milliseconds.
public struct Samples: Sendable {
  /// The measured durations, in the order taken.
  public private(set) var milliseconds: [Double] = []
  /// How many repetitions ended without the awaited state being seen.
  public var timeouts = 0

  /// Creates an empty series.
  public init() {}

  /// Adds a measured duration.
  public mutating func append(_ duration: Duration) {
    milliseconds.append(duration.milliseconds)
  }

  /// Adds every duration and timeout of another series, after this one's.
  public mutating func append(contentsOf other: Samples) {
    milliseconds += other.milliseconds
    timeouts += other.timeouts
  }

  /// How many durations were measured.
  public var count: Int { milliseconds.count }

  /// Whether every try timed out: the awaited change never happened.
  public var neverHappened: Bool { count == 0 && timeouts > 0 }

  /// The median; the mean of the two middle values for an even count.
  public var median: Double? {
    guard !milliseconds.isEmpty else { return nil }
    let sorted = milliseconds.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  /// The 99th percentile by nearest rank, as pabench computes it.
  ///
  /// For fewer than 100 samples it is the maximum.
  public var p99: Double? {
    guard !milliseconds.isEmpty else { return nil }
    let sorted = milliseconds.sorted()
    let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
    return sorted[max(rank - 1, 0)]
  }
}

extension Duration {
  /// The duration in milliseconds.
  public var milliseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
  }
}
