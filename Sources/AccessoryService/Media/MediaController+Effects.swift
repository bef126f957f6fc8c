// How the media controller feeds the media rules and carries out their
// effects: the view it gives them, the order it acts in, and what it
// feeds back (the players' answer to a pause, the end of a grace time).

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import FoundationEssentials
import Logging
import MPRIS
import PulseAudio
import RoutingCore

extension MediaController {
  /// The time on the engine's clock, in seconds since 1970.
  var now: Double { clock.now().timeIntervalSince1970 }

  /// Takes one event with the last state of the server.
  func take(_ input: MediaInput) async {
    await take(input, on: mirror)
  }

  /// Takes one event: the media rules decide, and the effects are carried
  /// out in order.
  ///
  /// - Parameters:
  ///   - input: The event.
  ///   - mirror: The server's state the rules decide on.
  ///   - policy: The policy, if not the one in force.
  func take(
    _ input: MediaInput, on mirror: ServerMirror?, policy: Policy? = nil
  ) async {
    guard !stopped else { return }
    let (next, effects) = MediaRules.step(
      memory, view(of: mirror, input), input, policy ?? policies.policy,
      now: now)
    memory = next
    await carryOut(effects, on: mirror)
  }

  /// What the rules see: the server's state, the players, and the
  /// registrations of the accessories that take part.
  func view(
    of mirror: ServerMirror?, _ input: MediaInput? = nil,
    previous: ServerMirror? = nil
  ) -> MediaView {
    var server: MediaView.Server?
    var involved = Set(memory.pauses.keys).union(memory.absences.keys)
      .union(memory.pausing.keys).union(memory.takingOff)
    if let mirror {
      let outputs = mirror.sinks.map {
        MediaView.Server.Output(
          index: $0.index,
          accessory: Self.accessoryAddress(of: $0)?.description)
      }
      involved.formUnion(outputs.compactMap(\.accessory))
      server = .init(
        outputs: outputs,
        streams: mirror.sinkInputs.map {
          .init(
            index: $0.index, output: $0.sinkIndex, isMuted: $0.isMuted,
            isCorked: $0.isCorked)
        }, defaultOutput: mirror.defaultSink?.index)
    }
    for sink in previous?.sinks ?? [] {
      if let address = Self.accessoryAddress(of: sink) {
        involved.insert(address.description)
      }
    }
    switch input {
    case .takenOff(let accessory, _), .putBack(let accessory, _),
      .outputWentAway(let accessory, _, _), .graceEnded(let accessory, _),
      .unpaired(let accessory), .playersPaused(let accessory, _, _):
      involved.insert(accessory)
    case .leftOverMutes(let streams):
      involved.formUnion(streams.values)
    default: break
    }
    let registrations = engine.registry.registrations
    var registered = Set<String>()
    var offHead = Set<String>()
    for address in involved {
      guard let key = BluetoothAddress(address),
        let registration = registrations[key]
      else { continue }
      if !registration.isInvalidated { registered.insert(address) }
      let configuration = registration.configuration
      if configuration.deviceCapabilities.contains(.placement),
        configuration.devicePlacement == .offHead
      {
        offHead.insert(address)
      }
    }
    let statuses = Dictionary(
      players.players.map {
        (
          $0.busName,
          MediaView.PlayerStatus(rawValue: $0.playbackStatus.rawValue)
            ?? .stopped
        )
      }, uniquingKeysWith: { a, _ in a })
    return MediaView(
      server: server, players: statuses, registered: registered,
      reportedOffHead: offHead)
  }

  /// Carries out the rules' effects, in their order.
  func carryOut(_ effects: [MediaEffect], on mirror: ServerMirror?) async {
    for effect in effects {
      switch effect {
      case .pause(let accessory, let streams, let cause):
        guard let address = BluetoothAddress(accessory) else { continue }
        let inputs = (mirror?.sinkInputs ?? []).filter {
          streams.contains($0.index)
        }
        let (paused, pausedStreams) = await pausePlayers(
          among: inputs, address)
        // Taken off, the streams are judged as they were when it was;
        // gone, as they are now.
        let after = cause == .takenOff ? mirror : (self.mirror ?? mirror)
        await take(
          .playersPaused(
            accessory: accessory, players: paused, streams: pausedStreams),
          on: after)
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
        guard let address = BluetoothAddress(accessory) else { continue }
        _ = await setMute(streams, muted: true, address, reason: reason)
      case .announceMuted(let accessory, let streams, let reason):
        let list = streams.map { "#\($0)" }.joined(separator: ",")
        logger.notice(
          "Muted the streams moved off an accessory's output that went away",
          metadata: [
            "accessory.address": "\(accessory)", "pulse.streams": "\(list)",
          ])
        events.publish(
          .media(
            MediaEvent(
              eventType: .streamMuted, accessory: accessory, players: [],
              streams: streams, reason: reason)))
      case .unmute(let accessory, let streams, let reason):
        guard let address = BluetoothAddress(accessory),
          let current = mirror ?? self.mirror
        else { continue }
        await unmute(streams, on: current, address, reason: reason)
      case .resume(let accessory, let paused, let reason):
        await resume(paused, accessory, reason: reason)
      case .wake(let accessory, let absence, let at):
        wakes[accessory]?.cancel()
        let clock = self.clock
        wakes[accessory] = Task { [weak self] in
          do {
            try await clock.sleep(until: Date(timeIntervalSince1970: at))
          } catch {
            return
          }
          await self?.take(.graceEnded(accessory: accessory, absence: absence))
        }
      case .cancelWake(let accessory):
        wakes.removeValue(forKey: accessory)?.cancel()
      case .note(let accessory, let text):
        logger.info(
          "\(text)", metadata: ["accessory.address": "\(accessory ?? "none")"])
      }
    }
  }

  // MARK: - Following the server and the players

  /// The link muted the streams the server moved off an accessory's
  /// output that went away.
  func outputWentAway(
    _ address: BluetoothAddress, sink: UInt32, muted: [UInt32]
  ) async {
    defer { ledger?.takeOver(muted) }
    guard !stopped else {
      if let mirror {
        await unmute(
          Set(muted), on: mirror, address, reason: "accessoryd is stopping")
      }
      return
    }
    await take(
      .outputWentAway(
        accessory: address.description, output: sink, muted: Set(muted)))
  }

  /// Takes in a state of the server.
  func observe(_ mirror: ServerMirror?) async {
    let previous = self.mirror
    self.mirror = mirror
    guard let mirror, !stopped else { return }
    ledger?.useServer(MutedStreamLedger.Server(mirror.serverInfo))
    // A new server dropped the old one's streams from the ledger.
    recordMutes()
    if let leftOver = leftOver.take() {
      await takeOver(leftOver, on: mirror)
    }
    let input = MediaInput.serverChanged(
      previous: previous.flatMap { view(of: $0).server })
    let (next, effects) = MediaRules.step(
      memory, view(of: mirror, input, previous: previous), input,
      policies.policy, now: now)
    memory = next
    await carryOut(effects, on: mirror)
  }

  /// Takes over the streams a daemon that died left muted, on the server
  /// it left them on.
  func takeOver(
    _ leftOver: MutedStreamLedger.LeftOver, on mirror: ServerMirror
  ) async {
    guard leftOver.server == MutedStreamLedger.Server(mirror.serverInfo) else {
      logger.notice(
        "An earlier accessoryd left streams muted on a sound server that has "
          + "restarted since; they went with it",
        metadata: ["pulse.server": "\(leftOver.server)"])
      ledger?.rewrite()
      return
    }
    var streams: [UInt32: String] = [:]
    for entry in leftOver.streams {
      streams[entry.stream] = entry.accessory.description
    }
    await take(.leftOverMutes(streams), on: mirror)
    let held = memory.heldMuted
    logger.notice(
      "Took over the streams an earlier accessoryd left muted",
      metadata: [
        "pulse.streams":
          "\(leftOver.streams.map { "#\($0.stream)" }.joined(separator: ","))",
        "media.kept-muted":
          "\(streams.keys.filter { held[$0] != nil }.sorted().map { "#\($0)" }.joined(separator: ","))",
      ])
    // The file still lists what the earlier daemon left: from now on, it
    // lists what this one holds.
    ledger?.rewrite()
  }

  /// A player changed: judged by its status now, since the change may be
  /// older than what the rules saw when they paused it.
  func note(_ change: MediaPlayerChange) async {
    switch change {
    case .vanished(let busName):
      await take(.playerChanged(busName: busName, status: nil))
    case .appeared(let player), .changed(let player):
      let status =
        players.player(named: player.busName)?.playbackStatus
        ?? player.playbackStatus
      await take(
        .playerChanged(
          busName: player.busName,
          status: MediaView.PlayerStatus(rawValue: status.rawValue)
            ?? .stopped))
    }
  }
}
