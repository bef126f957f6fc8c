// A router over a scripted sound server and a manual clock, with an
// in-memory registry: triggers and server states in, batches out.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import Foundation
import Logging
import PolicyFiles
import SoundServerModel

/// The router under test with everything it talks to.
struct RouterRig: Sendable {
  let server: ScriptedSoundServer
  let clock: ManualEngineClock
  let engine: RegistryStore
  let router: EngineLoop
  let events: RouterEvents
  /// The scripted players, when the engine follows media.
  let players: ScriptedPlayers?

  /// The built-in speaker, the default at the start.
  static let speaker = "speaker"
  /// The first accessory's output.
  static let buds = "buds"
  /// A second accessory's output.
  static let headset = "headset"
  static let budsAddress = "AA:BB:CC:DD:EE:01"
  static let headsetAddress = "AA:BB:CC:DD:EE:02"

  /// Runs `body` with a router over a server with the speaker, the buds'
  /// and the headset's outputs and `streams` playing on the speaker, then
  /// stops the router.
  static func run(
    streams: [UInt32] = [1, 2],
    isPipeWire: Bool = false,
    defaultSink: String = speaker,
    policy: String? = nil,
    hostAddresses: [String] = [],
    withPlayers: Bool = false,
    stateFile: StateFile? = nil,
    _ body: (RouterRig) async throws -> Void
  ) async throws {
    let server = ScriptedSoundServer(
      sinks: [
        (speaker, nil), (buds, budsAddress), (headset, headsetAddress),
      ],
      defaultSink: defaultSink,
      streams: streams.map { ($0, defaultSink) }, isPipeWire: isPipeWire)
    let clock = ManualEngineClock()
    let engine = RegistryStore(
      stateFile: stateFile, clock: { clock.now() })
    let policies = try policyStore(policy)
    let hub = EventHub()
    let events = RouterEvents(hub.subscribe())
    let players = withPlayers ? ScriptedPlayers(server: server) : nil
    let router = EngineLoop(
      engine: engine, link: server, policies: policies,
      hostAddresses: hostAddresses, events: hub,
      logger: Logger(label: "router-tests", logLevel: .critical),
      clock: clock, players: players)
    let running = Task { try await router.run() }
    defer { running.cancel() }
    let rig = RouterRig(
      server: server, clock: clock, engine: engine, router: router,
      events: events, players: players)
    // The router has the server's first state.
    _ = await events.next { $0["kind"]?.stringValue == "soundServer" }
    try await body(rig)
  }

  private static func policyStore(_ text: String?) throws -> PolicyStore {
    guard let text else { return try PolicyStore(path: nil) }
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("router-policy-\(UUID().uuidString).json5")
    try text.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    return try PolicyStore(path: url.path)
  }

  /// Pairs and registers an accessory, as `acctl pair` and a companion's
  /// `register` do, and waits for the route.
  @discardableResult
  func register(
    _ address: String, placement: AccessoryControlDevice.Placement?,
    capabilities: AccessoryControlDevice.Capabilities = [
      .audioSwitching, .placement,
    ],
    primary: String? = nil
  ) async throws -> Bool {
    let engine = self.engine
    let accessory = try await router.change(because: .accessoryPaired) {
      _ throws(AccessoryControlFailure) in
      let paired = try engine.stagePairing(
        BluetoothAddress(address)!,
        displayName: "Accessory \(address.suffix(2))", formFactor: .headphone)
      return (paired.accessory, paired.generation)
    }.made
    return try await router.change(
      because: .accessoryRegistered, leavingFollowersToTheDefault: true
    ) { _ throws(AccessoryControlFailure) in
      (
        (),
        try engine.stageRegistration(
          accessory,
          .init(
            devicePlacement: placement, deviceCapabilities: capabilities,
            primaryAudioSourceDeviceIdentifier: primary.map(Self.identifier)),
          by: .update)
      )
    }.pending
  }

  /// Reports a new placement, as a companion's `update` does, and waits for
  /// the route.
  @discardableResult
  func place(
    _ address: String, _ placement: AccessoryControlDevice.Placement
  ) async throws -> Bool {
    _ = try await engine.update(BluetoothAddress(address)!) {
      $0.devicePlacement = placement
    }
    return await router.reconcile(
      because: "an accessory was updated", leavingFollowersToTheDefault: true)
  }

  /// Reports a new placement the way the daemon's `accessory.update`
  /// does, through the engine's loop: media paused first when taken off,
  /// the change staged, saved and routed, media resumed when put back on.
  ///
  /// - Returns: The staged update.
  @discardableResult
  func report(
    _ address: String, _ placement: AccessoryControlDevice.Placement
  ) async throws -> StagedUpdate {
    try await router.update(BluetoothAddress(address)!, by: .update) {
      $0.devicePlacement = placement
    }
  }

  /// Reports a new primary audio source, and waits for the route.
  @discardableResult
  func setPrimary(_ address: String, host: String) async throws -> Bool {
    _ = try await engine.update(BluetoothAddress(address)!) {
      $0.primaryAudioSourceDeviceIdentifier = Self.identifier(host)
    }
    return await router.reconcile(because: "an accessory was updated")
  }

  /// The 6 bytes of a Bluetooth address.
  static func identifier(_ address: String) -> Data {
    Data(address.split(separator: ":").map { UInt8($0, radix: 16)! })
  }

  /// Returns once the router has taken in the server's current state:
  /// a request may overtake the states the server published before it.
  func caughtUp() async {
    while await router.board.mirror != server.state { await Task.yield() }
    // The loop published the state as it took it in: once it is free,
    // it is done with it.
    _ = await router.decisionCount
  }

  /// The batches sent so far.
  var batches: [ServerBatch] { get async { await server.batches } }
}

/// Reads a router's events in order.
final class RouterEvents: @unchecked Sendable {
  // One test task reads; the iterator is never shared.
  private var iterator: AsyncStream<PublishedEvent>.Iterator

  init(_ stream: AsyncStream<PublishedEvent>) {
    iterator = stream.makeAsyncIterator()
  }

  /// Returns the next event that matches, skipping the others.
  func next(
    where matches: (JSONValue) -> Bool
  ) async -> JSONValue? {
    // Matched as the control protocol sends them.
    while let event = await iterator.next()?.json {
      if matches(event) { return event }
    }
    return nil
  }

  /// Returns the next route event that announces the person's own choice.
  func nextPersonsChoice() async -> JSONValue? {
    await next {
      $0["kind"]?.stringValue == "route"
        && $0["chosenBy"]?.stringValue == "person"
    }
  }
}
