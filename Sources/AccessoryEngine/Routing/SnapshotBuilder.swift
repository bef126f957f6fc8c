// Building the decision core's snapshot from the registry, the sound
// server's state and the router's memory.

import AccessoryBackend
import AudioAccessoryKit
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import RoutingCore
import SoundServerModel

/// The accessories that take part in routing.
///
/// They are paired, with a registration not invalidated. They change only
/// when one is paired, registered, unpaired or invalidated, so the router
/// keeps them between decisions.
public struct RegisteredAccessories: Sendable {
  /// Their addresses, sorted, each with its text form.
  public let addresses: [(address: BluetoothAddress, text: String)]
  /// The text forms of their addresses.
  public let texts: Set<String>

  /// Picks the accessories that take part from a registry.
  public init(_ registry: AccessoryRegistry) {
    addresses = registry.registrations.values.lazy
      .filter { !$0.isInvalidated && registry.accessories[$0.address] != nil }
      .map(\.address).sorted().map { ($0, $0.description) }
    texts = Set(addresses.lazy.map(\.text))
  }
}

/// Builds decision snapshots.
public enum SnapshotBuilder {
  /// Returns the snapshot for one decision.
  ///
  /// - Parameters:
  ///   - registry: The paired accessories and registrations.
  ///   - mirror: The sound server's state.
  ///   - tracking: The router's memory.
  ///   - headphonesByBlueZ: The Bluetooth devices BlueZ's class calls
  ///     headphones.
  ///   - hostAddresses: This host's Bluetooth addresses.
  ///   - now: The time of the decision.
  ///   - registered: The accessories of `registry` that take part, if the
  ///     caller keeps them; worked out here otherwise.
  ///   - accessories: What ``accessories(registry:registered:presence:)``
  ///     returns for `registry`, `registered` and the tracking's presence,
  ///     if the caller keeps it; worked out here otherwise.
  public static func snapshot(
    registry: AccessoryRegistry, registered: RegisteredAccessories? = nil,
    accessories: [Accessory]? = nil, mirror: ServerMirror,
    tracking: RouteTracking, headphonesByBlueZ: Set<String> = [],
    hostAddresses: [String], now: Instant
  ) -> Snapshot {
    let sinks = mirror.sinks
    let registered = registered ?? RegisteredAccessories(registry)
    let accessories =
      accessories
      ?? Self.accessories(
        registry: registry, registered: registered,
        presence: tracking.presence)
    let nameOfSink = Dictionary(
      sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first }
    )
    /// The registered accessory a device's properties name, if any.
    func owner(_ properties: [String: String]) -> String? {
      bluetoothAddress(properties: properties).flatMap {
        registered.texts.contains($0) ? $0 : nil
      }
    }
    let headphones = tracking.headphones
    let outputs = sinks.map { sink in
      let isHeadphones = isHeadphones(sink, byBlueZ: headphonesByBlueZ)
      // Headphones nobody registered are their own accessory.
      let accessory =
        owner(sink.properties)
        ?? (isHeadphones
          ? headphonesIdentity(of: sink).map(\.description).flatMap {
            headphones.takesPart($0) ? $0 : nil
          } : nil)
      return Output(
        name: sink.name, description: sink.description,
        properties: sink.properties, ports: ports(sink.ports),
        activePort: sink.activePortName, accessory: accessory,
        isHeadphones: isHeadphones)
    }
    let snapshotCards: [RoutingCore.Card] = mirror.cards.compactMap { card in
      guard let address = bluetoothAddress(properties: card.properties),
        registered.texts.contains(address)
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
    let nameOfSource = Dictionary(
      mirror.sources.map { ($0.index, $0.name) },
      uniquingKeysWith: { first, _ in first })
    let inputs = mirror.sources.map { source in
      Input(
        name: source.name, description: source.description,
        properties: source.properties, ports: ports(source.ports),
        activePort: source.activePortName,
        accessory: owner(source.properties),
        monitorOf: source.monitorOfSinkIndex.map { nameOfSink[$0] ?? "" })
    }
    let captureStreams: [CaptureStream] = mirror.sourceOutputs.compactMap {
      output in
      guard let source = nameOfSource[output.sourceIndex] else { return nil }
      return CaptureStream(
        id: output.index, input: source, role: output.mediaRole,
        application: output.applicationName ?? output.name,
        isCorked: output.isCorked, isPeakMeter: output.isPeakMeter,
        recordingSince: tracking.recordingSince[output.index] ?? now)
    }
    let streams: [RoutingCore.Stream] = mirror.sinkInputs.compactMap { input in
      guard let sink = nameOfSink[input.sinkIndex] else { return nil }
      return RoutingCore.Stream(
        id: input.index, output: sink, role: input.mediaRole,
        application: input.applicationName ?? input.clientName,
        pinnedBy: tracking.pins[input.index])
    }
    let unregistered = headphones.accessories
    var snapshot = Snapshot(
      accessories: unregistered.isEmpty
        ? accessories
        : (accessories + unregistered).sorted { $0.address < $1.address },
      outputs: outputs,
      cards: snapshotCards,
      streams: streams,
      defaultOutput: tracking.outputs.decidingOn(
        mirror.serverInfo.defaultSinkName),
      defaultOutputSince: tracking.outputs.decidingSince,
      manualChoice: tracking.outputs.manualChoice,
      hostAddresses: hostAddresses,
      outputHistory: tracking.outputs.history,
      goneConfiguredOutput: tracking.goneConfiguredOutput,
      defaultTakenOnArrival: tracking.outputs.takenOnArrival,
      forgottenAccessories: tracking.forgottenAccessories,
      inputs: inputs,
      captureStreams: captureStreams,
      defaultInput: tracking.inputs.decidingOn(mirror.defaultSourceName),
      manualInputChoice: tracking.inputs.manualChoice,
      inputHistory: tracking.inputs.history,
      now: now)
    snapshot.monitorFollowsTheDefault = !mirror.serverInfo.isPipeWire
    return snapshot
  }

  /// Returns the decision core's accessories: those that take part, sorted
  /// by address, the order the decision core keeps them in (it then finds
  /// them sorted and need not sort them again).
  ///
  /// They change only with the registry and the presence, so the router
  /// keeps them between the decisions the sound server's changes call for.
  ///
  /// - Parameters:
  ///   - registry: The paired accessories and registrations.
  ///   - registered: The accessories of `registry` that take part.
  ///   - presence: The router's memory of their outputs' presence.
  public static func accessories(
    registry: AccessoryRegistry, registered: RegisteredAccessories,
    presence: [String: RouteTracking.Presence]
  ) -> [Accessory] {
    var accessories: [Accessory] = []
    accessories.reserveCapacity(registered.addresses.count)
    for (typed, address) in registered.addresses {
      guard let registration = registry.registrations[typed],
        let paired = registry.accessories[typed]
      else { continue }
      let configuration = registration.configuration
      let presence: RouteTracking.Presence? = presence[address]
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
    return accessories
  }

  /// The decision core's ports: usable unless known to be unplugged.
  private static func ports(_ ports: [SinkPort]) -> [Output.Port] {
    ports.map {
      Output.Port(name: $0.name, isAvailable: $0.availability != .unavailable)
    }
  }
}
