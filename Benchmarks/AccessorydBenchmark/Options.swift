import BenchmarkSupport
import Glibc
import TestSupport

/// What the command line asks for.
struct Options: Sendable, CommandLineOptions {
  /// Whether `--quick` was given.
  var isQuick = false
  /// Measured repetitions of each switch figure, per stream count.
  var repetitions = 30
  /// The stream counts to measure switches with.
  var streamCounts = [1, 10, 50]
  /// The servers whose switches are measured, in order.
  var servers: [SoundServerKind] = SoundServerKind.allCases
  /// Whole-process runs of `acctl update`.
  var acctlRuns = 100
  /// Measured repetitions of taking the headphones off with players on
  /// them, per player count.
  var mediaRepetitions = 10
  /// How many accessories the memory figure registers.
  var memoryAccessories = 100
  /// How long the idle CPU figure watches the daemon.
  var idleDuration = Duration.seconds(60)
  /// How long to let the server calm down after each repetition, once the
  /// observer has seen it finished.
  var settleInterval = Duration.milliseconds(20)
  /// The daemon's `--log-level`; `info` logs one line per applied route,
  /// which the report counts.
  var daemonLogLevel = "info"
  /// The accessoryd to measure instead of the one beside this program.
  var accessorydPath: String?
  /// Whether to keep the daemon logs (with the benchmark's timeline) and
  /// print where they are.
  var keepsLogs = false
  /// Whether to measure only the updates with 10 to 1,000 registered
  /// accessories (`--updates-only`).
  var updatesOnly = false
  /// Whether to measure only the daemon's memory (`--memory-only`).
  var memoryOnly = false
  /// Whether to measure only pausing and resuming the media players
  /// (`--media-only`).
  var mediaOnly = false
  /// Whether to print the usage and stop.
  var showsHelp = false

  static let usage = """
    usage: accessoryd-benchmark [--quick] [--repetitions K]
                                [--server pulseaudio|pipewire]
                                [--idle-seconds S] [--log-level LEVEL]
                                [--keep-logs] [--accessoryd PATH]
                                [--updates-only | --memory-only |
                                 --media-only]

    Measures the release accessoryd and acctl found next to this program
    against private PulseAudio and PipeWire servers: AccessoryControlDevice
    update until an independent observer sees the route applied, with 1, 10
    and 50 playing streams, beside the servers' own switching
    (module-switch-on-connect, WirePlumber following a default change);
    acctl update as a whole process; the daemon's memory with 100
    registered accessories, and with 41 and 3 streams beside WirePlumber in
    one PipeWire stack; its CPU time while idle; four clients updating
    as fast as they can while the daemon and the server are killed at
    random moments (40 faults per server): updates lost, slowest
    convergence; updates per second and update → applied with 10, 100
    and 1,000 registered accessories and 200 streams.
    Reads policies/default.json5 from the current directory.

      --quick            31 repetitions, 50 acctl runs, 3 media repetitions, 15 s
                         idle, 10 faults (for CI)
      --repetitions K    repetitions per switch figure (default 30)
      --server NAME      measure switches only on this server
      --idle-seconds S   how long the idle CPU figure watches (default 60)
      --log-level LEVEL  the daemon's log level (default info)
      --keep-logs        keep the daemon logs, each line stamped with its
                         arrival in ms, beside the benchmark's timeline
      --accessoryd PATH  measure this accessoryd build (default: the one
                         beside this program); acctl stays the one beside it
      --updates-only     measure only the updates with 10 to 1,000
                         registered accessories
      --memory-only      measure only the daemon's memory
      --media-only       measure only the media players' pauses and resumes
      -h, --help         show this text

    Exits with 1 only if the benchmark itself fails (a server or the daemon
    does not start, an operation errors), never because a target is missed;
    2 on a bad command line.
    """

  /// Parses the arguments, without the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Self {
    var options = Options()
    var repetitions: Int?
    var idleSeconds: Int?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick":
        options.isQuick = true
        options.repetitions = 31
        options.acctlRuns = 50
        options.mediaRepetitions = 3
        options.idleDuration = .seconds(15)
      case "--repetitions":
        repetitions = try remaining.popPositiveNumber(after: argument)
      case "--idle-seconds":
        idleSeconds = try remaining.popPositiveNumber(after: argument)
      case "--server":
        options.servers = [try remaining.popServerKind(after: argument)]
      case "--log-level":
        options.daemonLogLevel = try remaining.popValue(after: argument)
      case "--accessoryd":
        options.accessorydPath = try remaining.popValue(
          after: argument, what: "a path")
      case "--keep-logs":
        options.keepsLogs = true
      case "--updates-only":
        options.updatesOnly = true
      case "--memory-only":
        options.memoryOnly = true
      case "--media-only":
        options.mediaOnly = true
      case "-h", "--help":
        options.showsHelp = true
      default:
        throw UsageError("unknown argument '\(argument)'")
      }
    }
    // Explicit values win over --quick, wherever they stand.
    if let repetitions { options.repetitions = repetitions }
    if let idleSeconds { options.idleDuration = .seconds(idleSeconds) }
    return options
  }

  /// The accessoryd program to run.
  ///
  /// - Throws: ``BenchmarkError`` if it is missing.
  func accessorydExecutable() throws -> String {
    guard let accessorydPath else {
      return try ReleaseDirectory.program("accessoryd")
    }
    guard access(accessorydPath, X_OK) == 0 else {
      throw BenchmarkError("\(accessorydPath) is not an executable program")
    }
    return accessorydPath
  }
}
