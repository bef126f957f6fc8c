import ConcurrencyHelpers
import Foundation
import Glibc
import SystemCalls

/// A private, headless sound server for one test.
///
/// Each server lives in a fresh private directory, runs with a clean
/// environment (so the host's sound configuration never leaks in), and has
/// only null sinks. Everything it starts belongs to one process group, led by
/// a watchdog that cleans up even if the test process crashes.
///
/// ```swift
/// let server = try await SoundServer.start(
///   .pipeWire, sinks: [.speaker(name: "a", description: "Speakers")])
/// defer { server.stop() }
/// let sinks = try server.sinks()
/// ```
///
/// - Important: Call ``stop()`` when done; `deinit` stops the server too.
public final class SoundServer: Sendable {
  /// Which server this is.
  public let kind: SoundServerKind

  /// The address clients connect to, as for `PULSE_SERVER`, such as
  /// "unix:/tmp/accessoryd-pulse.Ab12Cd/native".
  public let serverAddress: String

  /// The server's private directory, removed by ``stop()``.
  public let directory: URL

  /// The variables a client process needs to reach this server.
  ///
  /// `PULSE_SERVER`, plus `PIPEWIRE_RUNTIME_DIR` for PipeWire (for tools such
  /// as `pw-cli` and `wpctl`). Merge them into the client's environment.
  public let environment: [String: String]

  /// The null sinks the server starts with.
  let initialSinks: [NullSinkSpec]

  /// The sink that is the default after every start.
  let initialDefaultSink: String?

  /// Whether `module-switch-on-connect` is loaded at start.
  let loadsSwitchOnConnect: Bool

  /// The real sound cards WirePlumber's ALSA monitor may open, with the
  /// properties it gives them; `nil` keeps the monitor off.
  let alsaCards: [ALSACardIdentity]?

  /// The directory names and paths of this server.
  let layout: Layout

  /// Absolute paths of the programs this server runs, by name.
  let programs: [String: String]

  /// The state that changes while the server runs.
  let state: Mutex<State>

  /// How long each step of a start may take before the start fails.
  ///
  /// A step is a socket appearing, the server answering, or WirePlumber
  /// taking a sink. The time is generous, because a PipeWire stack
  /// starting beside other tests' servers, BlueZ mocks and daemons on a
  /// 2-core machine can take many seconds, and only a step that never
  /// finishes is a failure. Each
  /// step has its own time, counted from its beginning: a test process
  /// whose shared threads are busy with hundreds of other tests (as under
  /// ThreadSanitizer) may reach a step late, and a budget for the whole
  /// start would then fail a server that was never slow itself.
  ///
  /// Inside the Bluetooth VM, which emulates its processor, a step may
  /// take three times as long: WirePlumber probes the VM's sound cards'
  /// profiles in its own main loop, and sees no new sink until it is done.
  static var startStepTimeout: Duration {
    BluetoothVM.isInside ? .seconds(90) : .seconds(30)
  }

  /// How long a `pactl` may take.
  static let commandTimeout = Duration.seconds(10)

  /// How long a wait for the server to show something may take: three
  /// commands' time, so that one `pactl` slowed for most of its timeout by
  /// a loaded machine still leaves time for more looks.
  static let pollTimeout = Duration.seconds(30)

  struct State {
    var daemons: [ChildProcess] = []
    var streams: [PacatStream] = []
    var watchdog: ProcessGroupWatchdog?
    var isStopped = false
    var nextStreamNumber = 1
    var nextCommandNumber = 1
    var startupDuration = Duration.zero
  }

  /// The paths inside a server directory.
  struct Layout {
    let directory: String
    let kind: SoundServerKind

    var home: String { "\(directory)/home" }
    var runtime: String { "\(directory)/runtime" }
    var state: String { "\(directory)/state" }
    var commands: String { "\(directory)/commands" }
    var streams: String { "\(directory)/streams" }
    var startupScript: String { "\(directory)/default.pa" }
    var busSocket: String { "\(runtime)/bus" }
    var busAddressFile: String { "\(directory)/dbus-daemon.address" }
    var pipeWireSocket: String { "\(runtime)/pipewire-0" }

    /// The PulseAudio-protocol socket.
    var pulseSocket: String {
      switch kind {
      case .pulseAudio: "\(directory)/native"
      case .pipeWire: "\(runtime)/pulse/native"
      }
    }

    /// The private directories to create, in order.
    var subdirectories: [String] {
      [
        home, "\(home)/.config", "\(home)/.local/state",
        "\(home)/.local/share", "\(home)/.cache", runtime, state, commands,
        streams,
      ]
    }
  }

  private init(
    kind: SoundServerKind,
    layout: Layout,
    sinks: [NullSinkSpec],
    defaultSink: String?,
    loadSwitchOnConnect: Bool,
    alsaCards: [ALSACardIdentity]?,
    programs: [String: String],
    watchdog: ProcessGroupWatchdog
  ) {
    self.kind = kind
    self.layout = layout
    self.serverAddress = "unix:\(layout.pulseSocket)"
    self.directory = URL(fileURLWithPath: layout.directory, isDirectory: true)
    var environment = ["PULSE_SERVER": "unix:\(layout.pulseSocket)"]
    if kind == .pipeWire {
      environment["PIPEWIRE_RUNTIME_DIR"] = layout.runtime
    }
    self.environment = environment
    self.initialSinks = sinks
    self.initialDefaultSink = defaultSink
    self.loadsSwitchOnConnect = loadSwitchOnConnect
    self.alsaCards = alsaCards
    self.programs = programs
    self.state = Mutex(State(watchdog: watchdog))
  }

  deinit {
    stop()
  }

  // MARK: - Starting and stopping

  /// Starts a private server with the given null sinks.
  ///
  /// Returns once the server answers, has all the sinks and reports the
  /// default sink. For PipeWire that includes WirePlumber having seen the
  /// sinks.
  ///
  /// - Parameters:
  ///   - kind: Which server to run.
  ///   - sinks: The null sinks to create, in order.
  ///   - defaultSink: The name of the sink to make the default; `nil` means
  ///     the first of `sinks`, if any.
  ///   - loadSwitchOnConnect: Whether to load `module-switch-on-connect`
  ///     with `ignore_virtual=no`. (pipewire-pulse loads it, but it never
  ///     switches to null sinks.)
  ///   - alsaCards: For PipeWire, the machine's real sound cards that
  ///     WirePlumber's ALSA monitor may open, each with properties it
  ///     gives the card and its nodes; `nil`, the default, keeps the
  ///     monitor off. Only for a machine whose cards are the test's own,
  ///     as in the Bluetooth VM.
  /// - Returns: The running server.
  /// - Throws: ``FixtureError`` with the end of the server logs if the
  ///   server does not answer within thirty seconds; nothing is left running.
  public static func start(
    _ kind: SoundServerKind,
    sinks: [NullSinkSpec],
    defaultSink: String? = nil,
    loadSwitchOnConnect: Bool = false,
    alsaCards: [ALSACardIdentity]? = nil
  ) async throws -> SoundServer {
    SharedThreadWatchdog.start()
    for spec in sinks {
      _ = try spec.moduleArguments()
    }
    let names = sinks.map(\.name)
    guard Set(names).count == names.count else {
      throw FixtureError("duplicate sink names in \(names)")
    }
    if let defaultSink, !names.contains(defaultSink) {
      throw FixtureError(
        "default sink '\(defaultSink)' is not one of \(names)")
    }
    let programs = try resolvePrograms(for: kind)
    // Servers are heavy on a 2-core machine: a test waits for a slot rather
    // than starting its server beside every other test's.
    await ServerSlots.shared.acquire()
    let path: String
    do {
      path = try makePrivateDirectory(
        prefix: kind == .pulseAudio ? "accessoryd-pulse" : "accessoryd-pipewire"
      )
    } catch {
      ServerSlots.shared.release()
      throw error
    }
    let layout = Layout(directory: path, kind: kind)
    let watchdog: ProcessGroupWatchdog
    do {
      for subdirectory in layout.subdirectories {
        try FileManager.default.createDirectory(
          atPath: subdirectory, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      }
      watchdog = try ProcessGroupWatchdog.start(
        directory: path, shell: programs["sh"] ?? "/bin/sh",
        environment: ["PATH": searchPath])
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      ServerSlots.shared.release()
      throw error
    }
    let server = SoundServer(
      kind: kind, layout: layout, sinks: sinks,
      defaultSink: defaultSink ?? names.first,
      loadSwitchOnConnect: loadSwitchOnConnect, alsaCards: alsaCards,
      programs: programs, watchdog: watchdog)
    do {
      try await server.launch()
    } catch {
      let failure = server.startFailure(error)
      await server.stopAndWait()
      throw failure
    }
    return server
  }

  /// Stops the server: SIGTERM to every process at once, then, on a thread
  /// of its own, SIGKILL to those left after five seconds, and removes
  /// ``directory``.
  ///
  /// Returns without waiting, so it can run in a `defer`; the server's slot
  /// is given to the next test once its processes are gone. Safe to call
  /// more than once; later calls do nothing.
  public func stop() {
    guard let taken = takeForStopping() else { return }
    let directory = layout.directory
    ChildProcess.terminateInBackground(
      taken.streams.map(\.childProcess) + taken.daemons
    ) {
      Self.cleanUp(after: taken, directory: directory)
    }
  }

  /// Stops the server as ``stop()`` does, and returns once every process
  /// has exited and ``directory`` is gone.
  public func stopAndWait() async {
    guard let taken = takeForStopping() else { return }
    await ChildProcess.terminate(
      taken.streams.map(\.childProcess) + taken.daemons)
    Self.cleanUp(after: taken, directory: layout.directory)
  }

  /// Marks the server stopped and takes its processes, or returns nil if
  /// it was stopped already.
  private func takeForStopping() -> State? {
    state.withLock { state in
      if state.isStopped { return nil }
      state.isStopped = true
      let taken = state
      state.daemons = []
      state.streams = []
      state.watchdog = nil
      return taken
    }
  }

  /// Ends the process group, removes the directory and frees the slot,
  /// once the processes of a stopped server have exited.
  private static func cleanUp(after taken: State, directory: String) {
    taken.watchdog?.release()
    try? FileManager.default.removeItem(atPath: directory)
    ServerSlots.shared.release()
  }

  /// Kills the server processes at once with SIGKILL, as in a crash.
  ///
  /// The directory stays, so ``restart()`` can start the server again and
  /// ``logTail(lines:)`` still works.
  public func kill() async {
    let daemons = state.withLock { state in
      defer { state.daemons = [] }
      return state.daemons
    }
    await ChildProcess.killAndWait(daemons)
  }

  /// Starts the server again on the same socket with the initial sinks.
  ///
  /// Stops processes that still run first. Sinks loaded with
  /// ``loadNullSink(_:)`` are not restored; streams are not restarted.
  ///
  /// - Throws: ``FixtureError`` with the end of the logs if the server
  ///   does not answer within thirty seconds.
  public func restart() async throws {
    let daemons = try state.withLock { state in
      guard !state.isStopped else {
        throw FixtureError("\(kind) server was stopped")
      }
      defer { state.daemons = [] }
      return state.daemons
    }
    await ChildProcess.terminate(daemons)
    do {
      try await launch()
    } catch {
      throw startFailure(error)
    }
  }

  /// The process identifiers of the server daemons, in start order.
  ///
  /// One process for PulseAudio; dbus-daemon, pipewire, wireplumber and
  /// pipewire-pulse for PipeWire. Empty after ``stop()`` or ``kill()``.
  public var pids: [pid_t] {
    state.withLock { $0.daemons.map(\.processIdentifier) }
  }

  /// Whether all server daemons are running.
  public var isRunning: Bool {
    let daemons = state.withLock { $0.daemons }
    return !daemons.isEmpty && daemons.allSatisfy(\.isRunning)
  }

  /// How long the latest start or restart took until the server was ready.
  public var startupDuration: Duration {
    state.withLock { $0.startupDuration }
  }

  /// The last lines of each server log, for diagnostics.
  ///
  /// - Parameter lines: How many lines to show per log file.
  /// - Returns: One `==> file <==` section per log, or an empty string if
  ///   there are none.
  public func logTail(lines: Int = 20) -> String {
    Self.tailsOfLogs(in: layout.directory, lines: lines)
  }

  // MARK: - Environment and paths

  /// The environment every process of the server shares.
  private var baseEnvironment: [String: String] {
    [
      "PATH": Self.searchPath,
      "HOME": layout.home,
      "XDG_RUNTIME_DIR": layout.runtime,
      "XDG_CONFIG_HOME": "\(layout.home)/.config",
      "XDG_STATE_HOME": "\(layout.home)/.local/state",
      "XDG_DATA_HOME": "\(layout.home)/.local/share",
      "XDG_CACHE_HOME": "\(layout.home)/.cache",
      "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8",
    ]
  }

  /// The environment of the server daemons.
  var daemonEnvironment: [String: String] {
    var environment = baseEnvironment
    switch kind {
    case .pulseAudio:
      environment["PULSE_RUNTIME_PATH"] = layout.runtime
      environment["PULSE_STATE_PATH"] = layout.state
      environment["PULSE_CONFIG_PATH"] = layout.state
    case .pipeWire:
      environment["PIPEWIRE_RUNTIME_DIR"] = layout.runtime
      environment["PULSE_RUNTIME_PATH"] = "\(layout.runtime)/pulse"
      environment["DISABLE_RTKIT"] = "1"
      // The private bus also stands in for the system bus, so nothing
      // reaches the machine's BlueZ, logind or RealtimeKit.
      let bus = "unix:path=\(layout.busSocket)"
      environment["DBUS_SESSION_BUS_ADDRESS"] = bus
      environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
    }
    return environment
  }

  /// The environment of `pactl`, `pacat` and other clients.
  var clientEnvironment: [String: String] {
    baseEnvironment.merging(environment) { $1 }
  }

  /// The process group of the server, or an error once stopped.
  func processGroup() throws -> pid_t {
    try state.withLock { state in
      guard !state.isStopped, let watchdog = state.watchdog else {
        throw FixtureError("\(kind) server was stopped")
      }
      return watchdog.processGroup
    }
  }

  /// The absolute path of a program resolved at start.
  func path(of program: String) throws -> String {
    guard let path = programs[program] else {
      throw FixtureError("\(program) was not resolved")
    }
    return path
  }

  // MARK: - Streams (bookkeeping used by SoundServer+Clients.swift)

  /// Reserves the next stream number and returns the process group.
  func reserveStream() throws -> (number: Int, processGroup: pid_t) {
    let group = try processGroup()
    let number = state.withLock { state in
      defer { state.nextStreamNumber += 1 }
      return state.nextStreamNumber
    }
    return (number, group)
  }

  /// Records a stream, so ``stop()`` stops it.
  func register(_ stream: PacatStream) {
    let isStopped = state.withLock { state in
      if !state.isStopped { state.streams.append(stream) }
      return state.isStopped
    }
    if isStopped { stream.stop() }
  }

  /// Reserves the next number for a command's output files.
  func reserveCommandNumber() -> Int {
    state.withLock { state in
      defer { state.nextCommandNumber += 1 }
      return state.nextCommandNumber
    }
  }
}

extension SoundServer {
  /// The process that speaks the PulseAudio protocol: the PulseAudio daemon,
  /// or pipewire-pulse on PipeWire; nil when stopped.
  public var pulseProtocolServerPID: pid_t? { pids.last }
}
