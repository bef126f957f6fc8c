// The engine's media part: it gives the media rules (RoutingCore's
// `MediaRules.step`) the world as the loop sees it, carries out their
// effects in order (mute and unmute on the loop's link; pause and resume
// in tasks that answer with events), and feeds back what came of them.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import MPRIS
import RoutingCore
import SoundServerModel

extension EngineLoop {
  /// The time on the engine's clock, in seconds since 1970.
  var mediaNow: Double { clock.now().timeIntervalSince1970 }

  /// Whether the engine follows media players.
  var followsMedia: Bool { players != nil && !media.stopped }

  /// Takes one event for the media rules on the current server state,
  /// and carries out their effects.
  ///
  /// - Returns: The effects carried out.
  @discardableResult
  func mediaTake(_ input: MediaInput) async -> [MediaEffect] {
    guard followsMedia else { return [] }
    let mirror = self.mirror
    let effects = step(
      .media(input), EngineView(media: mediaView(input)), now: mediaNow)
    holdMutes()
    let mediaEffects = effects.compactMap {
      if case .media(let effect) = $0 { effect } else { nil }
    }
    await carryOut(mediaEffects, on: mirror)
    return mediaEffects
  }

  /// What the rules see: the server's state, the players, and the
  /// registrations of the accessories that take part.
  func mediaView(_ input: MediaInput) -> MediaView {
    var involved = Set(rules.media.pauses.keys).union(
      rules.media.absences.keys
    ).union(rules.media.pausing.keys)
    let server = mediaServerNow()
    for output in server?.outputs ?? [] {
      if let accessory = output.accessory { involved.insert(accessory) }
    }
    switch input {
    case .takenOff(let accessory, _), .putBack(let accessory, _),
      .pauseUndone(let accessory), .outputWentAway(let accessory, _, _, _),
      .graceEnded(let accessory, _), .unpaired(let accessory),
      .playersPaused(let accessory, _, _), .jackBack(let accessory, _),
      .bluetoothDisconnected(let accessory), .backSettled(let accessory):
      involved.insert(accessory)
    case .leftOverMutes(let streams):
      involved.formUnion(streams.values)
    case .serverChanged(let previous):
      for output in previous?.outputs ?? [] {
        if let accessory = output.accessory { involved.insert(accessory) }
      }
    case .playerChanged, .streamMovedByThePerson:
      break
    }
    let registrations = engine.registry.registrations
    var registered = Set<String>()
    var offHead = Set<String>()
    for accessory in involved {
      guard let address = BluetoothAddress(accessory),
        let registration = registrations[address]
      else { continue }
      if !registration.isInvalidated { registered.insert(accessory) }
      let configuration = registration.configuration
      if configuration.deviceCapabilities.contains(.placement),
        configuration.devicePlacement == .offHead
      {
        offHead.insert(accessory)
      }
    }
    var statuses: [String: MediaView.PlayerStatus] = [:]
    for player in players?.players ?? [] {
      statuses[player.busName] =
        MediaView.PlayerStatus(rawValue: player.playbackStatus.rawValue)
        ?? .stopped
    }
    return MediaView(
      server: server, players: statuses, registered: registered,
      reportedOffHead: offHead, bluetoothConnected: rules.bluetooth.connected)
  }

  /// The server's state the router last took in, as the media rules see
  /// it: converted once for each state.
  func mediaServerNow() -> MediaView.Server? {
    if media.converted.number != mirrorNumber {
      let classes = headphoneClasses.addresses
      media.converted = (
        mirrorNumber, mirror.map { Self.mediaServer($0, byBlueZ: classes) }
      )
    }
    return media.converted.server
  }

  /// The server's state as the media rules see it.
  ///
  /// - Parameters:
  ///   - mirror: The server's state.
  ///   - byBlueZ: The Bluetooth devices BlueZ's class calls headphones.
  static func mediaServer(
    _ mirror: ServerMirror, byBlueZ: Set<String> = []
  ) -> MediaView.Server {
    MediaView.Server(
      outputs: mirror.sinks.map {
        .init(
          index: $0.index,
          accessory: headphonesIdentity(of: $0)?.description,
          isHeadphones: isHeadphones($0, byBlueZ: byBlueZ))
      },
      streams: mirror.sinkInputs.map {
        .init(
          index: $0.index, output: $0.sinkIndex, isMuted: $0.isMuted,
          isCorked: $0.isCorked)
      }, defaultOutput: mirror.defaultSink?.index)
  }

  /// Carries out the rules' effects, in their order.
  func carryOut(_ effects: [MediaEffect], on mirror: ServerMirror?) async {
    for effect in effects {
      switch effect {
      case .pause(let accessory, let streams, _):
        startPause(accessory, of: streams, on: mirror)
      case .announcePaused(let accessory, let paused, let reason):
        logger.notice(
          "Paused media players",
          metadata: [
            "accessory.address": "\(accessory)",
            "media.players": "\(paused.keys.sorted().joined(separator: ","))",
            "media.reason": "\(reason)",
          ])
        events.publish(
          .media(
            MediaEvent(
              eventType: .mediaPaused, accessory: accessory,
              players: Self.players(paused), reason: reason)))
      case .mute(let accessory, let streams, let reason):
        await setMute(streams, muted: true, accessory, reason: reason) {
          done in
          // What the server did not mute is not held muted: forgotten
          // before the mute is told.
          let failed = Set(streams).subtracting(done)
          if !failed.isEmpty {
            rules.media.pauses[accessory]?.muted.subtract(failed)
            holdMutes()
          }
        }
      case .announceMuted(let accessory, let streams, let reason):
        logger.notice(
          "Muted the streams moved off an accessory's output that went away",
          metadata: [
            "accessory.address": "\(accessory)",
            "pulse.streams":
              "\(streams.map { "#\($0)" }.joined(separator: ","))",
          ])
        events.publish(
          .media(
            MediaEvent(
              eventType: .streamMuted, accessory: accessory, players: [],
              streams: streams, reason: reason)))
      case .unmute(let accessory, let streams, let reason):
        guard let current = mirror ?? self.mirror else { continue }
        await unmute(streams, on: current, accessory, reason: reason)
      case .resume(let accessory, let paused, let reason):
        startResume(accessory, paused, reason: reason)
      case .note(let accessory, let text):
        logger.info(
          "\(text)", metadata: ["accessory.address": "\(accessory ?? "none")"])
      }
    }
  }

  /// Pauses the players of some streams in a chore of the loop, which
  /// answers with ``MediaInput/playersPaused(accessory:players:streams:)``
  /// in the inbox: the loop goes on meanwhile.
  func startPause(
    _ accessory: String, of streams: Set<UInt32>, on mirror: ServerMirror?
  ) {
    guard let players else { return }
    let hands = MediaHands(players: players, logger: logger, clock: clock)
    let inputs = (mirror?.sinkInputs ?? []).filter {
      streams.contains($0.index)
    }
    let inbox = self.inbox
    chores.start {
      let (paused, pausedStreams) = await hands.pausePlayers(
        among: inputs, accessory)
      // Stopped meanwhile: nothing will record, or resume, them.
      guard !Task.isCancelled else { return }
      _ = inbox.post(
        .media(
          .input(
            .playersPaused(
              accessory: accessory, players: paused, streams: pausedStreams))
        ))
    }
  }

  /// Resumes players in a chore of the loop, and tells which did.
  func startResume(
    _ accessory: String, _ paused: [String: String], reason: String
  ) {
    guard let players else { return }
    let hands = MediaHands(players: players, logger: logger, clock: clock)
    let events = self.events
    let logger = self.logger
    // One resume of an accessory at a time, in order: each waits for the
    // one before (a cancelled wait ends at once; the chores are cancelled
    // together).
    let earlier = media.resumesDone[accessory]
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    let started = chores.start {
      defer { finished.finish() }
      if let earlier { for await _ in earlier {} }
      // Stopped meanwhile: nothing is resumed after the engine.
      guard !Task.isCancelled else { return }
      let resumed = await hands.resume(paused)
      guard !resumed.isEmpty else { return }
      logger.notice(
        "Resumed media players",
        metadata: [
          "accessory.address": "\(accessory)",
          "media.players": "\(resumed.keys.sorted().joined(separator: ","))",
        ])
      events.publish(
        .media(
          MediaEvent(
            eventType: .mediaResumed, accessory: accessory,
            players: Self.players(resumed), reason: reason)))
    }
    if started { media.resumesDone[accessory] = done }
  }

  static func players(_ players: [String: String]) -> [MediaEvent.Player] {
    players.sorted { $0.key < $1.key }.map {
      MediaEvent.Player(busName: $0.key, name: $0.value)
    }
  }
}
