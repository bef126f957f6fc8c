// Media follows the wearer. The decisions are the media rules' in
// RoutingCore (`MediaRules.step`); this actor gives them the world as it
// is, carries out their effects in order (pause and wait for the players,
// mute, unmute, resume, call back at the end of a grace time), and feeds
// back what came of them.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import FoundationEssentials
import Logging
import MPRIS
import PulseAudio
import RoutingCore

/// Pauses and resumes media players as accessories are taken off and put
/// back on, as the media rules decide.
///
/// It remembers what it paused, per accessory, as KDE Connect does: a
/// player the person plays, stops or closes meanwhile is forgotten, and a
/// player that was paused already (by the headphones' own pause button,
/// say) is never recorded, so resuming touches only what accessoryd
/// paused.
public actor MediaController: Service {
  /// The service's name.
  public nonisolated let name = "media"

  let players: MediaPlayers
  let link: any RoutingLink
  let engine: InProcessAccessoryEngine
  let policies: PolicyStore
  let router: RouteController?
  let events: EventHub
  let logger: Logger
  let clock: any RouterClock
  /// What the media rules remember.
  var memory = MediaMemory() {
    didSet { recordMutes() }
  }
  /// The call backs at the end of grace times, by accessory.
  var wakes: [String: Task<Void, Never>] = [:]
  /// Where what it holds muted is kept as it changes, for the next daemon.
  let ledger: MutedStreamLedger?
  /// What a daemon before this one left muted, until the first state of
  /// the server shows what to do with it.
  var leftOver: MutedStreamLedger.LeftOver?
  /// Streams being given back, kept in the ledger until the server
  /// confirms: a daemon killed meanwhile leaves them to the next.
  var releasing: [UInt32: BluetoothAddress] = [:] {
    didSet { recordMutes() }
  }
  /// Whether ``run()`` has ended: nothing more is muted or paused.
  var stopped = false
  /// The sound server's state the controller last saw.
  var mirror: ServerMirror?

  /// How long it waits for the players to accept the pause and report
  /// Paused before the route may change, as Android and WirePlumber wait.
  public static let pauseWait = Duration.seconds(1)

  /// Creates a controller over the session's players.
  ///
  /// - Parameters:
  ///   - players: The session's players.
  ///   - link: The sound server, for its states and for muting streams.
  ///   - engine: The accessories: which are registered, and where they
  ///     are.
  ///   - policies: The policy in force.
  ///   - router: The router, which knows the streams the person moved.
  ///   - events: Where `mediaPaused`, `mediaResumed`, `streamMuted` and
  ///     `streamUnmuted` go.
  ///   - logger: Where what it does is logged.
  ///   - ledger: Where what it holds muted is kept, and what a daemon
  ///     before it left muted is read from; nil keeps nothing.
  ///   - clock: The time of pauses and grace times: the router's.
  public init(
    players: MediaPlayers, link: any RoutingLink,
    engine: InProcessAccessoryEngine, policies: PolicyStore,
    router: RouteController?, events: EventHub, logger: Logger,
    ledger: MutedStreamLedger? = nil, clock: (any RouterClock)? = nil
  ) {
    self.ledger = ledger
    self.players = players
    self.link = link
    self.engine = engine
    self.policies = policies
    self.router = router
    self.events = events
    self.logger = logger
    self.clock = clock ?? router?.clock ?? SystemRouterClock()
  }

  /// Follows the players' changes, to forget those the person plays,
  /// stops or closes, and the sound server's states, to unmute streams
  /// back on their accessory and to notice outputs that went away, until
  /// cancelled.
  public func run() async throws {
    if let ledger {
      switch await BlockingPool.shared.run(
        named: "accessoryd.muted", ledger.readLeftOver)
      {
      case .success(let found): leftOver = found
      case .failure(let error):
        logger.warning(
          "What an earlier accessoryd left muted is lost: \(error)")
        ledger.rewrite()
      }
    }
    let changes = players.changes()
    let updates = await link.updates()
    let engine = self.engine
    let ledger = self.ledger
    await link.muteStreams(
      whenTheirSinkVanishes: VanishingSinkMute(
        appliesTo: { sink in
          guard let address = Self.accessoryAddress(of: sink) else {
            return false
          }
          return engine.registry.registrations[address].map {
            !$0.isInvalidated
          } ?? false
        },
        muted: { [weak self] sink, streams in
          guard let address = Self.accessoryAddress(of: sink) else { return }
          // On the link's thread, before the task: a daemon killed now
          // leaves them muted, and the next one must know.
          ledger?.mutedAsTheirSinkVanished(streams, for: address)
          Task {
            await self?.outputWentAway(
              address, sink: sink.index, muted: streams)
          }
        }))
    let moves = await router?.streamsMovedByThePerson()
    await withDiscardingTaskGroup { group in
      group.addTask { [weak self] in
        for await change in changes { await self?.note(change) }
      }
      if let moves {
        group.addTask { [weak self] in
          for await stream in moves {
            await self?.take(.streamMovedByThePerson(stream))
          }
        }
      }
      group.addTask { [weak self] in
        for await update in updates { await self?.observe(update.mirror) }
      }
    }
    await stop()
  }

  /// Stops muting and pausing, and gives back what it muted.
  ///
  /// Nothing would unmute it once the daemon is gone. What it paused stays
  /// paused.
  func stop() async {
    stopped = true
    await link.muteStreams(whenTheirSinkVanishes: nil)
    for wake in wakes.values { wake.cancel() }
    wakes = [:]
    guard let mirror else { return }
    let muted = memory.heldMuted
    memory = MediaMemory()
    // What the server did not confirm given back stays in the ledger, for
    // the next daemon; so do the streams the link muted whose news has
    // not reached this controller yet.
    var byAccessory: [String: Set<UInt32>] = [:]
    for (stream, address) in muted {
      byAccessory[address, default: []].insert(stream)
    }
    var kept: [UInt32: BluetoothAddress] = [:]
    for (address, streams) in byAccessory.sorted(by: { $0.key < $1.key }) {
      guard let accessory = BluetoothAddress(address) else { continue }
      let failed = await unmute(
        streams, on: mirror, accessory, reason: "accessoryd is stopping")
      for stream in failed { kept[stream] = accessory }
    }
    ledger?.hold(kept)
    await ledger?.flush()
  }

  /// Keeps the ledger's copy of what is held muted, until the controller
  /// stops.
  func recordMutes() {
    guard let ledger, !stopped else { return }
    var held = releasing
    for (stream, address) in memory.heldMuted {
      if let accessory = BluetoothAddress(address) { held[stream] = accessory }
    }
    ledger.hold(held)
  }

  static func accessoryAddress(of sink: Sink) -> BluetoothAddress? {
    bluetoothAddress(of: sink).flatMap { BluetoothAddress($0) }
  }

  /// The players paused for an accessory now, by bus name.
  public func paused(for address: BluetoothAddress) -> [String: String] {
    memory.pauses[address.description]?.players ?? [:]
  }

  // MARK: - The requests

  /// Pauses every player that plays on the accessory's output, waits (at
  /// most ``pauseWait``) until each reports Paused, and, unless the policy
  /// says `move`, mutes the streams on it that no player paused.
  ///
  /// - Parameters:
  ///   - address: The accessory taken off.
  ///   - output: Its sink, the output it has.
  ///   - mirror: The sound server's state now, with its streams.
  ///   - policy: The policy in force.
  /// - Returns: Whether it paused or muted anything.
  @discardableResult
  public func takenOff(
    _ address: BluetoothAddress, output: String, on mirror: ServerMirror,
    policy: Policy
  ) async -> Bool {
    guard let sink = mirror.sink(named: output) else { return false }
    await take(
      .takenOff(accessory: address.description, output: sink.index),
      on: mirror, policy: policy)
    return memory.takingOff.contains(address.description)
  }

  /// Resumes the players paused for an accessory that are still Paused,
  /// if it was put back on within `window` of the pause, and unmutes the
  /// streams muted for it.
  ///
  /// Players paused because the accessory's output went away resume only
  /// when the policy's `resumeOnReconnect` is on.
  ///
  /// - Parameters:
  ///   - address: The accessory put back on.
  ///   - window: How long after the pause resuming is allowed; zero
  ///     never resumes.
  ///   - mirror: The sound server's state now; without it, everything is
  ///     kept for the next time.
  public func putBack(
    _ address: BluetoothAddress, within window: Duration,
    on mirror: ServerMirror? = nil
  ) async {
    let seconds =
      Double(window.components.seconds)
      + Double(window.components.attoseconds) / 1e18
    await take(
      .putBack(accessory: address.description, window: seconds),
      on: mirror)
  }

  /// Forgets what was paused for an accessory that is unpaired, and
  /// unmutes the streams it muted: nothing will put it back on.
  public func forget(_ address: BluetoothAddress, on mirror: ServerMirror?) {
    let (next, effects) = MediaRules.step(
      memory, view(of: mirror), .unpaired(accessory: address.description),
      policies.policy, now: now)
    memory = next
    Task { await self.carryOut(effects, on: mirror) }
  }

  /// What is paused and muted now, for `route --explain`.
  ///
  /// - Parameter window: How long after a pause putting the accessory
  ///   back on resumes it; zero never.
  public func report(resumingWithin window: Double) -> [PausedMedia] {
    let resumesOnReconnect = policies.policy.resumeOnReconnect
    let paused = memory.pauses.map { address, pause in
      let resumes =
        window > 0 && !pause.players.isEmpty
        && (!pause.disconnected || resumesOnReconnect)
      return PausedMedia(
        accessory: address, players: Self.players(pause.players),
        pausedAt: pause.at, resumeUntil: resumes ? pause.at + window : nil,
        mutedStreams: pause.muted.sorted(),
        cause: pause.disconnected || pause.cause == .disconnected
          ? .disconnected : .takenOff)
    }
    let away = memory.absences.map { address, absence in
      PausedMedia(
        accessory: address, players: [], pausedAt: absence.since,
        resumeUntil: nil, mutedStreams: absence.streams.sorted(),
        cause: .outputAway)
    }
    return (paused + away).sorted {
      ($0.accessory, $0.pausedAt) < ($1.accessory, $1.pausedAt)
    }
  }

  static func players(
    _ players: [String: String]
  ) -> [MediaEvent.Player] {
    players.sorted { $0.key < $1.key }.map {
      MediaEvent.Player(busName: $0.key, name: $0.value)
    }
  }
}
