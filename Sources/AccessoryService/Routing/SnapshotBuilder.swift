// Building the decision core's snapshot from the registry, the sound
// server's state and the router's memory.

import AccessoryBackend
import AudioAccessoryKit
import FoundationEssentials
import PulseAudio
import RoutingCore

/// Builds decision snapshots.
public enum SnapshotBuilder {
  /// Returns the snapshot for one decision.
  ///
  /// - Parameters:
  ///   - registry: The paired accessories and registrations.
  ///   - server: The server's identity and default.
  ///   - sinks: The outputs.
  ///   - sinkInputs: The playback streams.
  ///   - cards: The cards.
  ///   - tracking: The router's memory.
  ///   - hostAddresses: This host's Bluetooth addresses.
  ///   - now: The time of the decision.
  public static func snapshot(
    registry: AccessoryRegistry, server: ServerInfo, sinks: [Sink],
    sinkInputs: [SinkInput], cards: [PulseAudio.Card],
    tracking: RouteTracking, hostAddresses: [String], now: Instant
  ) -> Snapshot {
    var accessories: [Accessory] = []
    var registered = Set<String>()
    for registration in registry.registrations.values
    where !registration.isInvalidated {
      guard let paired = registry.accessories[registration.address] else {
        continue
      }
      let address = registration.address.description
      registered.insert(address)
      let configuration = registration.configuration
      let presence = tracking.presence[address]
      var connectionChangedAt = registration.sourcesChangedAt
        .timeIntervalSince1970
      if let connected = presence?.connectedAt {
        connectionChangedAt = max(connectionChangedAt, connected)
      }
      accessories.append(
        Accessory(
          address: address,
          name: paired.displayName,
          audioSwitching: configuration.deviceCapabilities.contains(
            .audioSwitching),
          reportsPlacement: configuration.deviceCapabilities.contains(
            .placement),
          placement: configuration.devicePlacement.flatMap {
            Accessory.Placement(rawValue: $0.rawValue)
          },
          primarySource: configuration.primaryAudioSourceDeviceIdentifier
            .flatMap { BluetoothAddress(data: $0)?.description },
          secondarySource: configuration.secondaryAudioSourceDeviceIdentifier
            .flatMap { BluetoothAddress(data: $0)?.description },
          placementChangedAt: registration.placementChangedAt
            .timeIntervalSince1970,
          connectionChangedAt: connectionChangedAt,
          outputMissingSince: presence?.missingSince,
          registeredAt: registration.registeredAt.timeIntervalSince1970,
          reportedWorn: registration.lastWornAt != nil))
    }
    let nameOfSink = Dictionary(
      sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first }
    )
    let outputs = sinks.map { sink in
      let address = bluetoothAddress(of: sink)
      return Output(
        name: sink.name,
        description: sink.description,
        properties: sink.properties,
        ports: sink.ports.map {
          Output.Port(
            name: $0.name, isAvailable: $0.availability != .unavailable)
        },
        activePort: sink.activePortName,
        accessory: address.flatMap { registered.contains($0) ? $0 : nil })
    }
    let snapshotCards: [RoutingCore.Card] = cards.compactMap { card in
      guard let address = bluetoothAddress(properties: card.properties),
        registered.contains(address)
      else { return nil }
      return RoutingCore.Card(
        name: card.name, accessory: address,
        activeProfile: card.activeProfileName,
        profiles: card.profiles.map {
          .init(
            name: $0.name, outputCount: Int($0.sinkCount),
            inputCount: Int($0.sourceCount),
            priority: Int(clamping: $0.priority), isAvailable: $0.isAvailable)
        })
    }
    let streams: [RoutingCore.Stream] = sinkInputs.compactMap { input in
      guard let sink = nameOfSink[input.sinkIndex] else { return nil }
      return RoutingCore.Stream(
        id: input.index, output: sink, role: input.mediaRole,
        application: input.applicationName ?? input.clientName,
        pinnedBy: tracking.pins[input.index])
    }
    return Snapshot(
      accessories: accessories,
      outputs: outputs,
      cards: snapshotCards,
      streams: streams,
      defaultOutput: server.defaultSinkName,
      manualChoice: tracking.manualChoice,
      hostAddresses: hostAddresses,
      outputHistory: tracking.history,
      now: now)
  }
}
