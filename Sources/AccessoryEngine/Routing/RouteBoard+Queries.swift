// The queries the daemon answers from what the loop published, without
// entering it: the history of route changes, the outputs and inputs with
// why, the accessories' outputs, the server and this host's addresses,
// the headphones the server shows, and what the media rules hold paused.
// Each reads the facts the loop published as it changed them.

import AccessoryControl
import AccessorySetupKit
import DaemonInputs
import FoundationEssentials
import PolicyFiles
import RoutingCore
import SoundServerModel

extension RouteBoard {
  /// Returns the last decisions that changed the route, newest first: the
  /// one whose changes are going out, if any, then those that went out.
  ///
  /// - Parameter limit: How many at most.
  public func history(limit: Int) -> [RouteHistory.Change] {
    let facts = self.facts
    let inFlight =
      facts.changeInFlight.map { [EngineLoop.historyChange(of: $0)] } ?? []
    return Array(
      (inFlight + facts.changes.suffix(max(0, limit)).reversed()).prefix(
        max(0, limit)))
  }

  /// The host's Bluetooth addresses in use, as the loop published them.
  public var hostAddresses: [String] { facts.hostAddresses }

  /// The outputs the server shows that are headphones (a Bluetooth
  /// headphone, headset or hands-free device), registered or not, with
  /// their address, name and description; from the state the loop
  /// published.
  public func headphoneOutputs() -> [(
    identity: HeadphonesIdentity, name: String, description: String
  )] {
    let classes = headphoneClasses.addresses
    return (facts.mirror?.sinks ?? []).compactMap { sink in
      guard isHeadphones(sink, byBlueZ: classes),
        let identity = headphonesIdentity(of: sink)
      else { return nil }
      return (identity, sink.name, sink.description)
    }
  }

  /// Returns the name of the output that carries an accessory's address,
  /// in the state the loop took in last.
  public func outputName(for address: BluetoothAddress) -> String? {
    facts.mirror?.sinks(forBluetoothAddress: address.description).first?.name
  }

  /// The state of the sound server the loop took in last; nil while it is
  /// away.
  public var mirror: ServerMirror? { facts.mirror }

  /// The connected sound server's identity, or nil.
  public var serverInfo: ServerInfo? { facts.mirror?.serverInfo }

  /// The outputs and inputs with the default and why, and the playback
  /// streams, as the loop last published them.
  public func audioDevices() -> AudioDevices {
    let now = clock.now().timeIntervalSince1970
    let facts = self.facts
    let mirror = facts.mirror
    guard mirror != nil, let latest = facts.snapshot else {
      return AudioDevices(
        soundServer: mirror == nil ? .disconnected : .connected, outputs: [],
        inputs: [], streams: [])
    }
    // The route the loop published: the output's "default" note says why
    // as `acctl route` does.
    let route = report(explaining: false)
    let names = Dictionary(
      latest.accessories.map { ($0.address, $0) },
      uniquingKeysWith: { a, _ in a })
    func device(
      name: String, description: String, accessory: String?,
      isAvailable: Bool, isDefault: Bool, choice: ManualChoice?,
      defaultWhy: String
    ) -> AudioDevices.Device {
      let owner = accessory.flatMap { names[$0] }
      let isChoice = choice?.output == name
      var notes: [String] = []
      if isDefault { notes.append(defaultWhy) }
      if let choice, isChoice {
        notes.append(
          "your choice \(ElapsedTime.ago(now - choice.at))"
            + (isDefault
              ? "" : ", set aside now (acctl route --explain says why)"))
      }
      if let owner {
        notes.append(
          "belongs to \(owner.name)"
            + (owner.isRegistered ? "" : " (headphones nobody registered)"))
      }
      if !isAvailable { notes.append("unavailable: nothing is plugged in") }
      return AudioDevices.Device(
        name: name, description: description, isDefault: isDefault,
        isPersonsChoice: isChoice, isAvailable: isAvailable,
        accessory: accessory, accessoryName: owner?.name,
        why: notes.joined(separator: "; "))
    }
    let outputs = latest.outputs.map {
      device(
        name: $0.name, description: $0.description, accessory: $0.accessory,
        isAvailable: $0.isAvailable, isDefault: $0.name == route.output,
        choice: latest.manualChoice, defaultWhy: "default: " + route.summary)
    }
    let inputs = latest.inputs.filter {
      $0.monitorOf == nil || $0.name == route.input
        || $0.name == latest.manualInputChoice?.output
    }.map {
      device(
        name: $0.name, description: $0.description, accessory: $0.accessory,
        isAvailable: $0.isAvailable, isDefault: $0.name == route.input,
        choice: latest.manualInputChoice, defaultWhy: "default")
    }
    let muted = Set(
      (mirror?.sinkInputs ?? []).filter(\.isMuted).map(\.index))
    let streams = latest.streams.map {
      AudioDevices.Stream(
        index: $0.id, application: $0.application, output: $0.output,
        isPinned: $0.pinnedBy != nil, isMuted: muted.contains($0.id))
    }
    return AudioDevices(
      soundServer: .connected, outputs: outputs, inputs: inputs,
      streams: streams)
  }

  /// What is paused and muted now, for `route --explain`, as the loop
  /// published it.
  ///
  /// - Parameter window: How long after a pause putting the accessory
  ///   back on resumes it; zero never.
  public func pausedMedia(
    resumingWithin window: Double
  ) -> [PausedMedia] {
    let facts = self.facts
    let policy = policies.policy
    let resumesOnReconnect = policy.resumeOnReconnect
    let paused = facts.pauses.map { accessory, pause in
      let resumes =
        window > 0 && !pause.players.isEmpty
        && (!pause.disconnected || resumesOnReconnect)
      var paused = PausedMedia(
        accessory: accessory, players: EngineLoop.players(pause.players),
        pausedAt: pause.at,
        resumeUntil: resumes ? pause.awayFrom + window : nil,
        mutedStreams: pause.muted.sorted(),
        cause: pause.disconnected || pause.cause == .disconnected
          ? .disconnected : .takenOff)
      // A resume that waits for the reconnect to settle, when one will come.
      if resumes,
        let resumesAt = pause.resumesAt,
        resumesAt - policy.reconnectSettleSeconds
          <= pause.awayFrom + window
      {
        paused.resumesAt = resumesAt
      }
      return paused
    }
    let away = facts.absences.map { accessory, absence in
      PausedMedia(
        accessory: accessory, players: [], pausedAt: absence.since,
        resumeUntil: nil, mutedStreams: absence.streams.sorted(),
        cause: .outputAway)
    }
    return (paused + away).sorted {
      ($0.accessory, $0.pausedAt) < ($1.accessory, $1.pausedAt)
    }
  }
}
