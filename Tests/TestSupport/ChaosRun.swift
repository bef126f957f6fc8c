import ConcurrencyHelpers
import Foundation
import Glibc

/// Fault injection end to end: clients update their accessories as fast as
/// they can while the daemon is killed with SIGKILL and the sound server
/// is killed, each at random moments, one fault at a time.
///
/// Each client owns one accessory and keeps one connection, sending
/// `accessory.update` with a random placement and primary source, and
/// reconnecting when the daemon is gone. It tracks the values the daemon
/// may hold: the last one acknowledged and every one sent since that got
/// no answer. After each SIGKILL the state file must parse and hold, for
/// every accessory, one of those values; otherwise the update counts as
/// lost. After each return of the sound server the clients wait while the
/// run measures how long the server's default takes to be the output the
/// daemon decided.
///
/// The clients speak JSON-RPC on the socket directly, independent of the
/// code under test; the state file is read with Foundation's JSON parser.
public struct ChaosRun: Sendable {
  /// What a run counted and measured.
  public struct Figures: Sendable {
    /// Updates written to the daemon.
    public var sent = 0
    /// Updates the daemon answered with a result.
    public var acknowledged = 0
    /// Updates the daemon answered with an error.
    public var refused = 0
    /// Updates sent that got no answer, as the daemon was killed.
    public var unanswered = 0
    /// Acknowledged updates missing afterwards: the state file or the
    /// daemon held neither the last acknowledged value nor one in flight.
    public var lost = 0
    /// What was missing, for the message.
    public var losses: [String] = []
    /// The daemon's SIGKILLs.
    public var daemonKills = 0
    /// The sound server's kills.
    public var serverKills = 0
    /// From the server's return to its default on the daemon's output,
    /// once per server kill.
    public var convergences: [Duration] = []
    /// State files read after a kill; each parsed.
    public var stateFilesRead = 0
  }

  /// The daemon under fault.
  public let daemon: DaemonFixture
  /// Its sound server.
  public let server: SoundServer
  /// The registered accessories' addresses, one client each.
  public let accessories: [String]
  /// The source addresses the clients pick from.
  public let sources: [String]

  /// Creates a run; the accessories must be paired and registered with
  /// the placement capability.
  public init(
    daemon: DaemonFixture, server: SoundServer, accessories: [String],
    sources: [String]
  ) {
    self.daemon = daemon
    self.server = server
    self.accessories = accessories
    self.sources = sources
  }

  /// Starts a server of `kind` with a speaker and `count` Bluetooth
  /// headphones, a daemon on it, and pairs and registers each headphone
  /// (taken off), for a run.
  ///
  /// - Returns: The run; call ``shutDown()`` when done.
  public static func prepare(
    _ kind: SoundServerKind, accessories count: Int = 4
  ) async throws -> ChaosRun {
    let addresses = (1...count).map { "AA:BB:CC:DD:EE:\(10 + $0)" }
    let sinks =
      [NullSinkSpec.speaker(name: "speaker", description: "Built-in Speaker")]
      + addresses.enumerated().map { index, address in
        .bluetoothHeadphones(
          name: "buds\(index + 1)", address: address,
          description: "Buds \(index + 1)", deviceAPI: kind.bluetoothDeviceAPI)
      }
    let server = try await SoundServer.start(kind, sinks: sinks)
    let daemon: DaemonFixture
    do {
      daemon = try await DaemonFixture.start(on: server)
      for address in addresses {
        do {
          try await daemon.pairAndRegister(address, placement: "offHead")
        } catch {
          daemon.shutDown()
          throw error
        }
      }
    } catch {
      server.stop()
      throw error
    }
    return ChaosRun(
      daemon: daemon, server: server, accessories: addresses,
      sources: [DaemonFixture.defaultHostAddress, "66:55:44:33:22:11"])
  }

  /// Stops the daemon and the server.
  public func shutDown() {
    daemon.shutDown()
    server.stop()
  }

  /// Runs `faults` faults, alternating the daemon and the server (the
  /// daemon first), each after a random pause of 150 to 700 ms.
  ///
  /// - Parameter convergenceLimit: How long the route may take to
  ///   converge before the run fails.
  /// - Throws: ``FixtureError`` if the daemon or the server does not come
  ///   back, or the route does not converge within the limit.
  public func run(
    faults: Int, convergenceLimit: Duration = .seconds(10)
  ) async throws -> Figures {
    let control = Control()
    let clients = accessories.map {
      Client(
        address: $0, socketPath: daemon.socketPath, sources: sources,
        control: control)
    }
    for client in clients { client.start() }
    defer {
      control.stop()
      for client in clients { client.join() }
    }
    var figures = Figures()
    var killDaemon = true
    for _ in 0..<faults {
      try await Task.sleep(for: .milliseconds(Int.random(in: 150...700)))
      if killDaemon {
        await daemon.kill()
        figures.daemonKills += 1
        try check(stateFile(), against: clients, into: &figures)
        try await daemon.restart()
      } else {
        await server.kill()
        figures.serverKills += 1
        try await Task.sleep(for: .milliseconds(Int.random(in: 50...300)))
        figures.convergences.append(
          try await restartServerAndMeasure(
            pausing: clients, control: control, limit: convergenceLimit))
      }
      killDaemon.toggle()
    }
    control.stop()
    for client in clients { client.join() }
    for client in clients {
      figures.sent += client.counts.sent
      figures.acknowledged += client.counts.acknowledged
      figures.refused += client.counts.refused
      figures.unanswered += client.counts.unanswered
    }
    // The daemon that runs now holds an allowed value too.
    try check(stateFile(), against: clients, into: &figures)
    for client in clients {
      let answer = try await onOwnThread { [daemon] in
        try DaemonSocket.exchange(
          daemon.socketPath,
          Data(
            (#"{"jsonrpc":"2.0","id":1,"method":"accessory.current","params":"#
              + #"{"accessory":""# + client.address + #""}}"#
              + "\n").utf8), lines: 1, timeout: 10)
      }
      let configuration =
        ((try? Self.object(answer.first ?? ""))?["result"] as? [String: Any])?[
          "registration"
        ]
        .flatMap { ($0 as? [String: Any])?["configuration"] as? [String: Any] }
      let held = configuration.map(Self.value(of:))
      if held == nil || !client.possible.contains(held!) {
        figures.lost += 1
        figures.losses.append(
          "the daemon holds \(held ?? "nothing") for \(client.address); "
            + "allowed: \(client.possible.sorted())")
      }
    }
    return figures
  }

  /// Restarts the server with the clients held and the daemon frozen (as
  /// the restart sets the server's default the way a person would), then
  /// measures from the daemon's resumption until the server's default is
  /// the daemon's output.
  private func restartServerAndMeasure(
    pausing clients: [Client], control: Control, limit: Duration
  ) async throws -> Duration {
    control.setPaused(true)
    defer { control.setPaused(false) }
    try await waitUntil("the clients are idle", within: .seconds(30)) {
      clients.allSatisfy(\.isIdle)
    }
    daemon.pause()
    do {
      try await server.restart()
    } catch {
      daemon.resume()
      throw error
    }
    daemon.resume()
    let back = ContinuousClock.now
    let socketPath = daemon.socketPath
    try await waitUntil("the route converges", within: limit) {
      let answer = try await onOwnThread {
        try DaemonSocket.request(socketPath, method: "route.get", timeout: 5)
      }
      guard
        let route = try Self.object(answer)["result"] as? [String: Any],
        route["soundServer"] as? String == "connected",
        route["pending"] as? Bool == false,
        let output = route["output"] as? String
      else { return false }
      return try await server.defaultSinkName() == output
    }
    return back.duration(to: .now)
  }

  /// Reads the state file after a kill; it must parse.
  private func stateFile() throws -> [String: String] {
    let path = daemon.stateDirectory + "/state.json"
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard
      let registrations = try Self.object(data)["registrations"] as? [Any]
    else {
      throw FixtureError("the state file \(path) has no registrations")
    }
    var values: [String: String] = [:]
    for case let registration as [String: Any] in registrations {
      guard let address = registration["address"] as? String,
        let configuration = registration["configuration"] as? [String: Any]
      else { continue }
      values[address] = Self.value(of: configuration)
    }
    return values
  }

  /// Counts the accessories whose stored value is none the client allows.
  private func check(
    _ stored: [String: String], against clients: [Client],
    into figures: inout Figures
  ) throws {
    figures.stateFilesRead += 1
    for client in clients {
      let allowed = client.possible
      let held = stored[client.address]
      if held == nil || !allowed.contains(held!) {
        figures.lost += 1
        figures.losses.append(
          "the state file holds \(held ?? "nothing") for \(client.address); "
            + "allowed: \(allowed.sorted())")
      }
    }
  }

  /// A configuration's placement and primary source, as one value.
  static func value(of configuration: [String: Any]) -> String {
    let placement = configuration["devicePlacement"] as? String ?? "none"
    let source =
      configuration["primaryAudioSourceDeviceIdentifier"] as? String ?? "none"
    return placement + " from " + source
  }

  static func object(_ text: String) throws -> [String: Any] {
    try object(Data(text.utf8))
  }

  static func object(_ data: Data) throws -> [String: Any] {
    guard
      let object = try JSONSerialization.jsonObject(with: data)
        as? [String: Any]
    else {
      throw FixtureError(
        "not a JSON object: \(String(decoding: data, as: UTF8.self))")
    }
    return object
  }

  /// Whether the clients run, and whether they hold.
  final class Control: Sendable {
    private let state = Mutex((stopped: false, paused: false))
    var isStopped: Bool { state.withLock { $0.stopped } }
    var isPaused: Bool { state.withLock { $0.paused } }
    func stop() { state.withLock { $0.stopped = true } }
    func setPaused(_ paused: Bool) { state.withLock { $0.paused = paused } }
  }

  /// One client on a thread of its own.
  final class Client: Sendable {
    struct Counts {
      var sent = 0
      var acknowledged = 0
      var refused = 0
      var unanswered = 0
    }

    private struct State {
      var counts = Counts()
      /// The values the daemon may hold: the last acknowledged one and
      /// every one sent since without an answer.
      var possible: Set<String> = []
      var idle = false
      var thread: Thread?
      var finished = false
    }

    let address: String
    private let socketPath: String
    private let sources: [String]
    private let control: Control
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    init(
      address: String, socketPath: String, sources: [String], control: Control
    ) {
      self.address = address
      self.socketPath = socketPath
      self.sources = sources
      self.control = control
    }

    var counts: Counts { state.withLock { $0.counts } }
    var possible: Set<String> { state.withLock { $0.possible } }
    var isIdle: Bool { state.withLock { $0.idle } }

    func start() {
      let thread = Thread { [self] in
        self.loop()
        self.done.signal()
      }
      thread.name = "chaos client \(address)"
      thread.start()
    }

    func join() {
      let wait = state.withLock { state in
        defer { state.finished = true }
        return !state.finished
      }
      if wait { done.wait() }
    }

    private func loop() {
      var descriptor: Int32 = -1
      var id = 0
      // What the daemon holds before the first update: the value it was
      // registered with, read on the first connection.
      var primed = false
      while !control.isStopped {
        if control.isPaused {
          state.withLock { $0.idle = true }
          usleep(2000)
          continue
        }
        state.withLock { $0.idle = false }
        if descriptor < 0 {
          guard
            let connected = try? DaemonSocket.connect(socketPath, timeout: 10)
          else {
            usleep(5000)
            continue
          }
          descriptor = connected
        }
        if !primed {
          id += 1
          let line =
            #"{"jsonrpc":"2.0","id":\#(id),"method":"accessory.current","params":"#
            + #"{"accessory":"\#(address)"}}"# + "\n"
          DaemonSocket.sendAll(descriptor, Data(line.utf8))
          guard
            let answer = try? DaemonSocket.readLines(
              descriptor, lines: 1, path: socketPath, timeout: 10
            ).first,
            let result = (try? ChaosRun.object(answer))?["result"]
              as? [String: Any],
            let registration = result["registration"] as? [String: Any],
            let configuration = registration["configuration"] as? [String: Any]
          else {
            close(descriptor)
            descriptor = -1
            continue
          }
          state.withLock { $0.possible = [ChaosRun.value(of: configuration)] }
          primed = true
        }
        let placement = ["inEar", "onHead", "offHead"].randomElement()!
        let source = sources.randomElement()!
        let value = placement + " from " + source
        id += 1
        let line =
          #"{"jsonrpc":"2.0","id":\#(id),"method":"accessory.update","params":"#
          + #"{"accessory":"\#(address)","changes":{"devicePlacement":"#
          + #""\#(placement)","primaryAudioSourceDeviceIdentifier":"#
          + #""\#(source)"}}}"# + "\n"
        state.withLock { state in
          state.counts.sent += 1
          state.possible.insert(value)
        }
        DaemonSocket.sendAll(descriptor, Data(line.utf8))
        let answer = try? DaemonSocket.readLines(
          descriptor, lines: 1, path: socketPath, timeout: 10
        ).first
        let object = answer.flatMap { try? ChaosRun.object($0) }
        if object?["result"] != nil {
          state.withLock { state in
            state.counts.acknowledged += 1
            state.possible = [value]
          }
        } else if object?["error"] != nil {
          // Refused, so not made; the same value may still be in flight
          // from an earlier try, so it stays allowed.
          state.withLock { $0.counts.refused += 1 }
        } else {
          state.withLock { $0.counts.unanswered += 1 }
          close(descriptor)
          descriptor = -1
        }
      }
      if descriptor >= 0 { close(descriptor) }
      state.withLock { $0.idle = true }
    }
  }
}
