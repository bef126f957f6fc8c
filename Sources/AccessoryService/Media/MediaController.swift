// Media follows the wearer: the players that play on the accessory that
// has the output are paused when it is taken off, before the route
// changes, and exactly those are resumed when it is put back on, once the
// route is back.

import AccessoryControl
import AccessorySetupKit
import FoundationEssentials
import Logging
import MPRIS
import PulseAudio
import RoutingCore

/// Pauses and resumes media players as accessories are taken off and put
/// back on.
///
/// It remembers what it paused, per accessory, as KDE Connect does: a
/// player the person plays, stops or closes meanwhile is forgotten, and a
/// player that was paused already (by the headphones' own pause button,
/// say) is never recorded, so resuming touches only what accessoryd
/// paused.
public actor MediaController {
  /// What was paused for one accessory.
  struct Pause {
    /// The players, by bus name, with their names.
    var players: [String: String]
    /// Those of them seen Paused since: only a later change to another
    /// status is the person's.
    var seenPaused: Set<String> = []
    /// When they were paused.
    var at: ContinuousClock.Instant
    /// When they were paused, by the wall clock, for people.
    var date = Date()
    /// The streams it muted, which no player could pause.
    var muted: Set<UInt32> = []
  }

  private let players: MediaPlayers
  private let link: any RoutingLink
  private let events: EventHub
  private let logger: Logger
  private var pauses: [BluetoothAddress: Pause] = [:]
  private var following: Task<Void, Never>?

  /// How long it waits for the players to accept the pause and report
  /// Paused before the route may change, as Android and WirePlumber wait.
  public static let pauseWait = Duration.seconds(1)

  /// Creates a controller over the session's players.
  ///
  /// - Parameters:
  ///   - players: The session's players.
  ///   - link: The sound server, for muting streams.
  ///   - events: Where `mediaPaused`, `mediaResumed`, `streamMuted` and
  ///     `streamUnmuted` go.
  ///   - logger: Where what it does is logged.
  public init(
    players: MediaPlayers, link: any RoutingLink, events: EventHub,
    logger: Logger
  ) {
    self.players = players
    self.link = link
    self.events = events
    self.logger = logger
  }

  /// Starts following the players' changes, to forget those the person
  /// plays, stops or closes; the first pause starts it.
  public func start() {
    guard following == nil else { return }
    let changes = players.changes()
    following = Task { [weak self] in
      for await change in changes {
        await self?.note(change)
      }
    }
  }

  /// The players paused for an accessory now, by bus name.
  public func paused(for address: BluetoothAddress) -> [String: String] {
    pauses[address]?.players ?? [:]
  }

  // MARK: - Taken off

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
    start()
    guard let sink = mirror.sink(named: output) else { return false }
    let inputs = mirror.sinkInputs.filter { $0.sinkIndex == sink.index }
    let candidates = players.players.filter {
      $0.playbackStatus == .playing && $0.canPause
    }
    // Which stream is whose reads /proc: off the shared threads, and only
    // when some player plays.
    let owned =
      candidates.isEmpty
      ? []
      : await onOwnThread(named: "media.streams") {
        candidates.map {
          ($0, PlayerStreams.system.streams(of: $0, among: inputs).map(\.index))
        }.filter { !$0.1.isEmpty }
      }
    // One deadline for the calls and the wait for Paused.
    let deadline = ContinuousClock.now + Self.pauseWait
    let paused = await pause(owned.map(\.0), until: deadline)
    await waitForPaused(Set(paused.keys), address, until: deadline)
    let pausedStreams = Set(
      owned.filter { paused[$0.0.busName] != nil }.flatMap(\.1))
    // What still sounds: streams no player paused, a game or `pacat`.
    let unpausable = inputs.filter {
      !$0.isCorked && !$0.isMuted && !pausedStreams.contains($0.index)
    }.map(\.index)
    let muted =
      policy.whenUnpausable == .mute
      ? await setMute(unpausable, muted: true, address) : []
    guard !paused.isEmpty || !muted.isEmpty else { return false }
    var pause = pauses[address] ?? Pause(players: [:], at: .now)
    pause.players.merge(paused) { $1 }
    pause.muted.formUnion(muted)
    pause.at = .now
    pause.date = Date()
    // Those that reported Paused while this waited: a later change to
    // another status is the person's.
    for busName in paused.keys
    where players.player(named: busName)?.playbackStatus == .paused {
      pause.seenPaused.insert(busName)
    }
    pauses[address] = pause
    if !paused.isEmpty {
      logger.notice(
        "Paused media players",
        metadata: [
          "accessory.address": "\(address)",
          "media.players": "\(paused.keys.sorted().joined(separator: ","))",
        ])
      events.publish(
        .media(
          MediaEvent(
            eventType: .mediaPaused, accessory: address.description,
            players: Self.players(paused),
            reason: "the accessory that had the output was taken off")))
    }
    return true
  }

  /// Pauses players at once, all together.
  ///
  /// - Returns: Those that accepted, by bus name, with their names.
  private func pause(
    _ targets: [MediaPlayer], until deadline: ContinuousClock.Instant
  ) async -> [String: String] {
    let timeout = max(deadline - .now, .milliseconds(1))
    var paused: [String: String] = [:]
    await withTaskGroup(of: (String, String, MPRISError?).self) { group in
      for player in targets {
        group.addTask { [players] in
          do throws(MPRISError) {
            try await players.pause(player.busName, timeout: timeout)
            return (player.busName, player.displayName, nil)
          } catch {
            return (player.busName, player.displayName, error)
          }
        }
      }
      for await (busName, name, error) in group {
        if let error {
          logger.warning(
            "A player did not pause: \(error)",
            metadata: ["media.player": busName])
        } else {
          paused[busName] = name
        }
      }
    }
    return paused
  }

  /// Waits, until the deadline, for the players to report Paused.
  private func waitForPaused(
    _ names: Set<String>, _ address: BluetoothAddress,
    until deadline: ContinuousClock.Instant
  ) async {
    guard !names.isEmpty else { return }
    let allPaused = await players.waitUntil(deadline) { players in
      names.allSatisfy { players[$0]?.playbackStatus != .playing }
    }
    if !allPaused {
      logger.warning(
        "Not every paused player reported Paused within \(Self.pauseWait)",
        metadata: ["accessory.address": "\(address)"])
    }
  }

  /// Mutes or unmutes streams in one batch.
  ///
  /// - Returns: The streams the server muted or unmuted.
  private func setMute(
    _ streams: [UInt32], muted: Bool, _ address: BluetoothAddress
  ) async -> Set<UInt32> {
    guard !streams.isEmpty else { return [] }
    let batch = PulseBatch(
      mutes: streams.map { .init(sinkInput: $0, muted: muted) })
    guard let result = try? await link.apply(batch) else { return [] }
    let done = Set(
      zip(streams, result.mutes).compactMap { stream, outcome in
        (try? outcome.get()) == nil ? nil : stream
      })
    guard !done.isEmpty else { return [] }
    let list = done.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      muted ? "Muted streams no player can pause" : "Unmuted streams",
      metadata: ["accessory.address": "\(address)", "pulse.streams": "\(list)"])
    events.publish(
      .media(
        MediaEvent(
          eventType: muted ? .streamMuted : .streamUnmuted,
          accessory: address.description, players: [],
          streams: done.sorted(),
          reason: muted
            ? "no player can pause them, and the accessory that had the "
              + "output was taken off"
            : "the accessory was put back on")))
    return done
  }

  // MARK: - Put back on

  /// Resumes the players paused for an accessory that are still Paused,
  /// if it was put back on within `window` of the pause.
  ///
  /// - Parameters:
  ///   - address: The accessory put back on.
  ///   - window: How long after the pause resuming is allowed; zero
  ///     never resumes.
  /// - Returns: The players resumed, by bus name.
  @discardableResult
  public func putBack(
    _ address: BluetoothAddress, within window: Duration,
    on mirror: ServerMirror? = nil
  ) async -> [String: String] {
    // Without the server's state, keep everything for the next time.
    guard let mirror, let pause = pauses.removeValue(forKey: address) else {
      return [:]
    }
    // Muted streams are unmuted whatever the time.
    await unmute(pause, on: mirror, address)
    let elapsed = ContinuousClock.now - pause.at
    guard !pause.players.isEmpty else { return [:] }
    guard window > .zero, elapsed <= window else {
      logger.info(
        "Not resuming media players: put back on after \(elapsed)",
        metadata: ["accessory.address": "\(address)"])
      return [:]
    }
    var resumed: [String: String] = [:]
    for (busName, name) in pause.players.sorted(by: { $0.key < $1.key })
    where players.player(named: busName)?.playbackStatus == .paused {
      do {
        try await players.play(busName)
        resumed[busName] = name
      } catch {
        logger.warning(
          "A player did not resume: \(error)",
          metadata: ["media.player": busName])
      }
    }
    guard !resumed.isEmpty else { return [:] }
    logger.notice(
      "Resumed media players",
      metadata: [
        "accessory.address": "\(address)",
        "media.players": "\(resumed.keys.sorted().joined(separator: ","))",
      ])
    events.publish(
      .media(
        MediaEvent(
          eventType: .mediaResumed, accessory: address.description,
          players: Self.players(resumed),
          reason: "the accessory was put back on"
            + " within \(Int(window.components.seconds)) s")))
    return resumed
  }

  /// What is paused now, for `route --explain`.
  ///
  /// - Parameter window: How long after a pause putting the accessory
  ///   back on resumes it; zero never.
  public func report(resumingWithin window: Double) -> [PausedMedia] {
    pauses.sorted { $0.key < $1.key }.map { address, pause in
      let pausedAt = pause.date.timeIntervalSince1970
      return PausedMedia(
        accessory: address.description, players: Self.players(pause.players),
        pausedAt: pausedAt, resumeUntil: window > 0 ? pausedAt + window : nil)
    }
  }

  /// Forgets what was paused for an accessory that is unpaired, and
  /// unmutes the streams it muted: nothing will put it back on.
  public func forget(_ address: BluetoothAddress, on mirror: ServerMirror?) {
    guard let mirror, let pause = pauses.removeValue(forKey: address) else {
      return
    }
    Task { await self.unmute(pause, on: mirror, address) }
  }

  /// Unmutes the streams a pause muted that are still there and still
  /// muted (one the person unmuted is theirs).
  private func unmute(
    _ pause: Pause, on mirror: ServerMirror, _ address: BluetoothAddress
  ) async {
    let stillMuted = pause.muted.filter { index in
      mirror.sinkInputs.first { $0.index == index }?.isMuted ?? false
    }
    _ = await setMute(stillMuted.sorted(), muted: false, address)
  }

  // MARK: - The person's own changes

  private func note(_ change: MediaPlayerChange) {
    switch change {
    case .vanished(let busName):
      for address in pauses.keys { pauses[address]?.players[busName] = nil }
    case .appeared(let player), .changed(let player):
      // The change may be older than what this controller saw when it
      // paused: judge by the player's status now.
      let status =
        players.player(named: player.busName)?.playbackStatus
        ?? player.playbackStatus
      for (address, pause) in pauses where pause.players[player.busName] != nil
      {
        if status == .paused {
          pauses[address]?.seenPaused.insert(player.busName)
        } else if pause.seenPaused.contains(player.busName) {
          // Played or stopped by the person (or another program): theirs.
          pauses[address]?.players[player.busName] = nil
          logger.info(
            "A paused player was played or stopped meanwhile; it will not "
              + "be resumed",
            metadata: ["media.player": player.busName])
        }
      }
    }
  }

  private static func players(
    _ players: [String: String]
  ) -> [MediaEvent.Player] {
    players.sorted { $0.key < $1.key }.map {
      MediaEvent.Player(busName: $0.key, name: $0.value)
    }
  }
}
