// What the media controller does when an accessory's output goes away,
// how it follows the server, what a daemon before it left muted, and the
// person's own changes.

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
  // MARK: - The output goes away

  /// The link muted the streams the server moved off an accessory's
  /// output that went away: they stay muted until they are back on it, or
  /// the reappear grace time ends.
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
    startAbsence(of: address)
    absences[address]?.streams.formUnion(muted)
    absences[address]?.played.formUnion(muted)
    absences[address]?.gone.insert(sink)
    let list = muted.sorted().map { "#\($0)" }.joined(separator: ",")
    logger.notice(
      "Muted the streams moved off an accessory's output that went away",
      metadata: ["accessory.address": "\(address)", "pulse.streams": "\(list)"])
    events.publish(
      .media(
        MediaEvent(
          eventType: .streamMuted, accessory: address.description,
          players: [], streams: muted.sorted(),
          reason: "the accessory's output went away and the sound server "
            + "moved them to another output; muted while it is expected back")
      ))
    if let mirror { await observe(mirror) }
  }

  /// Starts the reappear grace time of an accessory's output that went
  /// away, unless it runs.
  func startAbsence(of address: BluetoothAddress) {
    guard absences[address] == nil, !stopped else { return }
    nextAbsence += 1
    var absence = Absence(id: nextAbsence)
    absence.timer = timer(
      address, absence.id,
      after: .seconds(policies.policy.reappearGraceSeconds) + Self.graceMargin)
    absences[address] = absence
  }

  /// A task that ends an absence's grace time after a delay.
  func timer(
    _ address: BluetoothAddress, _ id: Int, after delay: Duration
  ) -> Task<Void, Never> {
    Task { [weak self] in
      do {
        try await Task.sleep(for: delay)
      } catch {
        return
      }
      await self?.graceEnded(address, id)
    }
  }

  /// The reappear grace time of an output that went away has ended: back,
  /// its streams that are elsewhere play where the router put them; gone
  /// for good, its players are paused (`media.pauseWhenDisconnected`).
  func graceEnded(_ address: BluetoothAddress, _ id: Int) async {
    guard !stopped, absences[address]?.id == id else { return }
    guard let mirror else {
      // The sound server is away: decide once it is back.
      absences[address]?.timer = timer(address, id, after: .seconds(1))
      return
    }
    guard let absence = absences.removeValue(forKey: address) else { return }
    let policy = policies.policy
    let streams = absence.streams.filter { index in
      mirror.sinkInputs.contains { $0.index == index }
    }
    let present = mirror.sinks.contains {
      bluetoothAddress(of: $0) == address.description
    }
    if present, isOffHead(address), policy.whenUnpausable == .mute,
      !streams.isEmpty
    {
      // Back, but off the head: what the router left elsewhere stays
      // silent until it is worn again, as when it was taken off.
      var pause = pauses[address] ?? Pause(players: [:], at: .now)
      pause.muted.formUnion(streams)
      pauses[address] = pause
      return
    }
    guard !present, policy.pauseWhenDisconnected else {
      await unmute(
        streams, on: mirror, address,
        reason: present
          ? "the accessory's output is back, and the router left them where "
            + "they are"
          : "the accessory's output did not come back, and "
            + "media.pauseWhenDisconnected is false")
      return
    }
    pauses[address]?.disconnected = true
    let inputs = mirror.sinkInputs.filter {
      streams.contains($0.index) || absence.played.contains($0.index)
    }
    let (paused, pausedStreams) = await pausePlayers(among: inputs, address)
    // The paused players' streams are silent now, and so are the corked
    // ones (a player paused meanwhile): unmuted, so that what the person
    // plays again is heard where it is. What still sounds stays muted.
    let current = self.mirror ?? mirror
    let sounding = Set(
      current.sinkInputs.filter { !$0.isCorked }.map(\.index))
    let keepMuted =
      policy.whenUnpausable == .mute
      ? streams.subtracting(pausedStreams).intersection(sounding) : []
    let reason = "the accessory's output went away and did not come back"
    _ = record(
      paused, muted: keepMuted, for: address, cause: .disconnected,
      reason: reason)
    await unmute(
      streams.subtracting(keepMuted), on: current, address, reason: reason)
    // A state that came while the players paused was settled without
    // this record.
    if let latest = self.mirror { await settle(address, on: latest) }
  }

  /// Whether an accessory with the placement capability is reported off
  /// the head.
  func isOffHead(_ address: BluetoothAddress) -> Bool {
    let registration = engine.registry.registrations[address]
    let registered =
      registration?.configuration.deviceCapabilities.contains(.placement)
      == true && registration?.configuration.devicePlacement == .offHead
    // Until the registry shows it taken off, it is being taken off.
    if registered { takingOff.remove(address) }
    return registered || takingOff.contains(address)
  }

  /// The person moved a stream accessoryd muted because no player could
  /// pause it: it is theirs now, and heard where they put it. (The
  /// streams muted while an output is expected back are left to the
  /// grace time: the server's and the router's moves come fast then.)
  func personMoved(_ stream: UInt32) async {
    guard let mirror,
      let address = pauses.first(where: { $0.value.muted.contains(stream) })?
        .key
    else { return }
    pauses[address]?.muted.remove(stream)
    if let pause = pauses[address], pause.players.isEmpty, pause.muted.isEmpty {
      pauses[address] = nil
    }
    await unmute(
      [stream], on: mirror, address, reason: "the person moved it")
  }

  // MARK: - Following the server

  /// Takes in a state of the server: unmutes the streams muted for an
  /// accessory once they play on its output again while it is not off the
  /// head; an output back after a disconnect resumes its players if the
  /// policy says so.
  func observe(_ mirror: ServerMirror?) async {
    let previous = self.mirror
    self.mirror = mirror
    guard let mirror else { return }
    ledger?.useServer(MutedStreamLedger.Server(mirror.serverInfo))
    // A new server dropped the old one's streams from the ledger.
    recordMutes()
    if let leftOver = leftOver.take() {
      await takeOver(leftOver, on: mirror)
    }
    if let previous { noteVanishedOutputs(from: previous, to: mirror) }
    for address in Set(pauses.keys).union(absences.keys).sorted() {
      // The state may have moved on while the one before awaited.
      await settle(address, on: self.mirror ?? mirror)
    }
  }

  /// Starts the grace time of every registered accessory's output that
  /// the new state no longer shows, with the streams that played on it
  /// (the link muted them already if it could): the players among them
  /// are paused if it does not come back.
  func noteVanishedOutputs(
    from previous: ServerMirror, to mirror: ServerMirror
  ) {
    let present = Set(mirror.sinks.map(\.index))
    for sink in previous.sinks where !present.contains(sink.index) {
      guard let address = Self.accessoryAddress(of: sink),
        let registration = engine.registry.registrations[address],
        !registration.isInvalidated
      else { continue }
      let streams = previous.sinkInputs.filter {
        $0.sinkIndex == sink.index && !$0.isCorked
      }.map(\.index)
      startAbsence(of: address)
      absences[address]?.gone.insert(sink.index)
      absences[address]?.played.formUnion(streams)
    }
  }

  func settle(
    _ address: BluetoothAddress, on mirror: ServerMirror
  ) async {
    let outputs = Set(
      mirror.sinks.filter { bluetoothAddress(of: $0) == address.description }
        .map(\.index))
    let offHead = isOffHead(address)
    let sinkOf = Dictionary(
      mirror.sinkInputs.map { ($0.index, $0.sinkIndex) },
      uniquingKeysWith: { first, _ in first })
    let isBack = { (stream: UInt32) in
      !offHead && sinkOf[stream].map(outputs.contains) == true
    }
    // The state may change while this awaits: take what it acts on first.
    var back: Set<UInt32> = []
    if var absence = absences[address] {
      for stream in absence.streams {
        if let sink = sinkOf[stream], !absence.gone.contains(sink) {
          absence.seenAway.insert(stream)
        }
      }
      back.formUnion(
        absence.streams.filter { absence.seenAway.contains($0) && isBack($0) })
      absence.streams = absence.streams.filter {
        sinkOf[$0] != nil && !back.contains($0)
      }
      if absence.streams.isEmpty, !outputs.subtracting(absence.gone).isEmpty {
        // Back, with nothing left muted: no disconnect.
        absence.timer?.cancel()
        absences[address] = nil
      } else {
        absences[address] = absence
      }
    } else if outputs.isEmpty, let pause = pauses[address],
      !pause.disconnected
    {
      // Paused when taken off, and now its output is gone: a disconnect
      // if it does not come back.
      startAbsence(of: address)
    }
    var reconnected: Pause?
    if var pause = pauses[address] {
      let unmuting = pause.muted.filter(isBack)
      back.formUnion(unmuting)
      pause.muted = pause.muted.filter {
        sinkOf[$0] != nil && !unmuting.contains($0)
      }
      // Back after a disconnect, worn, with the output on it.
      if pause.disconnected, !offHead,
        let output = mirror.defaultSink, outputs.contains(output.index)
      {
        reconnected = pause
        pause.players = [:]
      }
      pauses[address] =
        pause.players.isEmpty && pause.muted.isEmpty ? nil : pause
    }
    if !back.isEmpty {
      await unmute(
        back, on: mirror, address,
        reason: "they play on the accessory again")
    }
    if let reconnected {
      let window = policies.policy.resumeWhenPutBackWithinSeconds
      _ = await resume(
        reconnected, address, within: .seconds(window),
        reason: "the accessory connected again")
    }
  }

  // MARK: - What a daemon before this one left muted

  /// Takes over the streams a daemon that died left muted: those it would
  /// keep muted now stay so, under its own rules (an accessory off the
  /// head, an output expected back), and the state that follows settles
  /// them; the others are given back at once.
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
    let inputs = Dictionary(
      mirror.sinkInputs.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    var giveBack: [BluetoothAddress: Set<UInt32>] = [:]
    var kept: [UInt32] = []
    for entry in leftOver.streams {
      guard let input = inputs[entry.stream], input.isMuted else { continue }
      let address = entry.accessory
      let registered =
        engine.registry.registrations[address].map { !$0.isInvalidated }
        ?? false
      if !registered || input.isCorked {
        giveBack[address, default: []].insert(entry.stream)
      } else if isOffHead(address) {
        // Taken off: silent until it is put back on, as before.
        pauses[address, default: Pause(players: [:], at: .now)].muted.insert(
          entry.stream)
        kept.append(entry.stream)
      } else {
        // Its output went away: muted while it is expected back.
        startAbsence(of: address)
        absences[address]?.streams.insert(entry.stream)
        absences[address]?.played.insert(entry.stream)
        kept.append(entry.stream)
      }
    }
    let list = leftOver.streams.map { "#\($0.stream)" }.joined(separator: ",")
    logger.notice(
      "Took over the streams an earlier accessoryd left muted",
      metadata: [
        "pulse.streams": "\(list)",
        "media.kept-muted": kept.map { "#\($0)" }.joined(separator: ","),
      ])
    for (address, streams) in giveBack.sorted(by: { $0.key < $1.key }) {
      await unmute(
        streams, on: mirror, address,
        reason: "an earlier accessoryd left them muted, and nothing keeps "
          + "them muted now")
    }
    // The file still lists what the earlier daemon left: from now on, it
    // lists what this one holds.
    ledger?.rewrite()
  }

  // MARK: - The person's own changes

  func note(_ change: MediaPlayerChange) {
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

  static func players(
    _ players: [String: String]
  ) -> [MediaEvent.Player] {
    players.sorted { $0.key < $1.key }.map {
      MediaEvent.Player(busName: $0.key, name: $0.value)
    }
  }
}
