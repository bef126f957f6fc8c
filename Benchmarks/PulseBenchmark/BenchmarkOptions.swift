import BenchmarkSupport
import TestSupport

/// What the command line asks for.
struct BenchmarkOptions: Sendable, CommandLineOptions {
  /// Repetitions of each stream scenario, per stream count.
  var repetitions = 30
  /// Repetitions of the set-default round trip.
  var roundTrips = 200
  /// The stream counts to measure moves and switch-on-connect with.
  var streamCounts = [1, 10, 50]
  /// The servers to measure, in order.
  var servers: [SoundServerKind] = SoundServerKind.allCases
  /// How long to let the server calm down between repetitions, after the
  /// observer has seen the previous one finished.
  var settleInterval = Duration.milliseconds(20)
  /// Whether to print the usage and stop.
  var showsHelp = false

  static let usage = """
    usage: pulse-benchmark [--quick] [--repetitions K] [--round-trips M]
                           [--server pulseaudio|pipewire]

    Starts private PulseAudio and PipeWire servers and measures setting the
    default sink, moving playing streams (sequential and pipelined) and the
    server's own module-switch-on-connect, with 1, 10 and 50 streams.

      --quick            few repetitions (5 per figure, 40 round trips), for CI
      --repetitions K    repetitions per stream figure (default 30)
      --round-trips M    set-default round trips (default 200)
      --server NAME      measure only this server (pulseaudio or pipewire)
      -h, --help         show this text

    Exits with 1 only if the benchmark itself fails (a server does not start,
    an operation errors), never because a target is missed; 2 on a bad
    command line.
    """

  /// Parses the arguments, without the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Self {
    var options = BenchmarkOptions()
    var repetitions: Int?
    var roundTrips: Int?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick":
        options.repetitions = 5
        options.roundTrips = 40
      case "--repetitions":
        repetitions = try remaining.popPositiveNumber(after: argument)
      case "--round-trips":
        roundTrips = try remaining.popPositiveNumber(after: argument)
      case "--server":
        options.servers = [try remaining.popServerKind(after: argument)]
      case "-h", "--help":
        options.showsHelp = true
      default:
        throw UsageError("unknown argument '\(argument)'")
      }
    }
    // Explicit counts win over --quick, wherever they stand.
    if let repetitions { options.repetitions = repetitions }
    if let roundTrips { options.roundTrips = roundTrips }
    return options
  }
}
