// The control methods for media players, the route and the policy, and
// the messages the methods share.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders
import Logging
import MPRIS
import PolicyFiles
import RoutingCore

extension DaemonMethods {
  // MARK: - Media

  /// Whether the session's players are followed, and if not, why.
  var mediaStatus: MediaStatus {
    switch media?.availability {
    case .following?: MediaStatus(following: true)
    case .off(let reason)?: MediaStatus(following: false, reason: reason)
    case nil: MediaStatus(following: false, reason: "not started")
    }
  }

  /// The players with their streams, found by process off the shared
  /// threads (it reads `/proc`).
  func mediaPlayers() async -> MediaPlayerList {
    let players = media?.players ?? []
    let paused = pausedMedia()
    let pausedPlayers = Set(paused.flatMap { $0.players.map(\.busName) })
    let mirror = router.board.mirror
    let inputs = mirror?.sinkInputs ?? []
    let listed = await BlockingPool.shared.run(named: "media.players") {
      players.map { player in
        MediaPlayerList.Player(
          busName: player.busName, name: player.displayName,
          playbackStatus: player.playbackStatus.rawValue,
          canPause: player.canPause, canPlay: player.canPlay,
          processID: player.processID, processName: player.processName,
          streams: PlayerStreams.system.streams(of: player, among: inputs).map {
            input in
            MediaPlayerList.Stream(
              index: input.index,
              output: mirror?.sink(index: input.sinkIndex)?.name,
              muted: input.isMuted)
          },
          pausedByAccessoryd: pausedPlayers.contains(player.busName))
      }
    }
    return MediaPlayerList(media: mediaStatus, players: listed, paused: paused)
  }

  /// What the media rules hold paused or muted now; nothing when the
  /// players are not followed.
  func pausedMedia() -> [PausedMedia] {
    guard media != nil else { return [] }
    return router.board.pausedMedia(
      resumingWithin: policies.loaded.policy.resumeWhenPutBackWithinSeconds)
  }

  // MARK: - Route and policy

  func routeHistory(_ request: RouteHistoryRequest) async -> RouteHistory {
    RouteHistory(decisions: router.board.history(limit: request.limit ?? 10))
  }

  /// `route.get`: the route, and with `explain` the decision and what
  /// the media rules hold paused or muted.
  func route(_ request: RouteGetRequest) async -> RouteReport {
    var report = router.board.report(explaining: request.explain)
    if request.explain, media != nil {
      report.paused = pausedMedia()
    }
    return report
  }

  /// Reads the policy again and routes by it.
  ///
  /// ``PolicyStore/reload()`` reads it; the log says which file is now in
  /// use; a bad file is refused and the old policy stays. SIGHUP and
  /// `policy.reload` both come here.
  ///
  /// - Parameter cause: What asked, for the log.
  /// - Returns: The policy now in force.
  /// - Throws: ``ControlError/invalidConfiguration(_:)`` with the error.
  public func reloadPolicy(
    because cause: String
  ) async throws(ControlError) -> PolicyStore.Loaded {
    let loaded: PolicyStore.Loaded
    do {
      loaded = try await switchPolicy { policies throws(PolicyError) in
        try policies.reload()
      }
    } catch {
      logger.error(
        "The new policy is refused; the old one stays: \(error)",
        metadata: ["policy.cause": cause])
      let kept =
        policies.loaded.path.map { "'\($0)' as read before" }
        ?? "the built-in default policy"
      throw ControlError.invalidConfiguration(
        "\(error.description); the daemon keeps the policy in force: \(kept)")
    }
    var metadata: Logger.Metadata = [
      "policy.path": "\(loaded.path ?? "built-in")", "policy.cause": "\(cause)",
    ]
    if !loaded.settings.isEmpty {
      // What acctl policy set changed still holds over the file.
      metadata["policy.settings"] =
        "\(loaded.settings.keys.sorted().map { key in "\(key)=\(loaded.settings[key] ?? false)" }.joined(separator: ","))"
    }
    logger.notice("Policy reloaded", metadata: metadata)
    return loaded
  }

  /// Switches the policy, and routes by it through the engine's loop.
  ///
  /// The file is read or written on the blocking pool, off the shared
  /// task threads and the loop; the loop then routes by the policy now in
  /// force, and the answer comes once it has.
  ///
  /// - Parameter change: Reads or changes the policy in force.
  /// - Returns: The policy now in force.
  /// - Throws: The error `change` threw; the policy stays, and nothing is
  ///   routed.
  func switchPolicy<Failure: Error>(
    _ change:
      @escaping @Sendable (PolicyStore) throws(Failure) -> PolicyStore.Loaded
  ) async throws(Failure) -> PolicyStore.Loaded {
    let policies = self.policies
    let loaded = try await BlockingPool.shared.run(named: "accessoryd.policy") {
      () throws(Failure) in try change(policies)
    }
    // Nothing to make: the loop's next pass reads the policy in force.
    _ = try? await router.change(because: .policyReloaded) { _ in ((), nil) }
    return loaded
  }

  /// The policy in force as the protocol sends it, with its settings and,
  /// for `policy.show`, its text.
  static func document(
    _ loaded: PolicyStore.Loaded, withText: Bool = false
  ) -> PolicyDocument {
    PolicyDocument(
      path: loaded.path, description: loaded.policy.description,
      text: withText ? loaded.text : nil, settings: loaded.settings)
  }

  /// `policy.set`: changes a switch while the daemon runs, and routes
  /// again under the policy it makes.
  func setPolicy(
    _ request: PolicySetRequest
  ) async throws(ControlError) -> PolicyStore.Loaded {
    let loaded: PolicyStore.Loaded
    do {
      loaded = try await switchPolicy { policies throws(PolicySettingError) in
        try policies.set(request.key, to: request.value)
      }
    } catch {
      switch error {
      case .notASwitch: throw ControlError.invalidParams(error.description)
      case .cannotWrite: throw ControlError.internalError(error.description)
      }
    }
    logger.notice(
      "Policy setting changed",
      metadata: [
        "policy.key": request.key,
        "policy.value": request.value.map { String($0) } ?? "the file's",
      ])
    return loaded
  }

  func checkPolicy(_ request: PolicyCheckRequest) throws -> PolicyDocument {
    let path = request.path
    do {
      let loaded = try PolicyStore.load(path)
      return PolicyDocument(
        path: path, description: loaded.policy.description)
    } catch {
      throw ControlError.invalidConfiguration(error.description)
    }
  }

  // MARK: - Messages

  /// The Accessory value for an address.
  func accessoryRecord(
    _ address: BluetoothAddress, routePending: Bool? = nil
  ) async -> DaemonAccessory {
    // Only this address's records: a copy of the registry held across the
    // wait for the router would make the engine's next change copy it all.
    let records = engine.registry.records(at: address)
    let paired = records.accessory
    let registration = records.registration
    return DaemonAccessory(
      address: address.description,
      displayName: paired?.displayName
        ?? registration?.displayName ?? address.description,
      formFactor: paired?.formFactor?.rawValue,
      state: paired == nil ? .unauthorized : .authorized,
      registration: registration.map {
        .init(configuration: $0.configuration, invalidated: $0.isInvalidated)
      },
      output: router.board.outputName(for: address),
      routePending: routePending,
      placementSource: registration?.placementSource?.rawValue,
      placementSourceChoice: registration.map {
        $0.readsHeadphones == false ? "none" : "auto"
      },
      headphones: headphoneLinks?.link(at: address),
      knownFrom: await knownFrom(
        address, registered: registration != nil, paired: paired != nil))
  }

  /// Where accessoryd's knowledge of an accessory comes from: its
  /// registration, its pairing, the headphones' own link, BlueZ, the
  /// sound server.
  func knownFrom(
    _ address: BluetoothAddress, registered: Bool = false,
    paired: Bool = false
  ) async -> [String] {
    let sources = await discovery.device(at: address)?.sources ?? []
    var known: [String] = []
    if registered { known.append("registration") }
    if paired { known.append("pairing") }
    if headphoneLinks?.link(at: address) != nil { known.append("headphones") }
    if sources.contains(.bluez) { known.append("bluez") }
    if sources.contains(.soundServer) { known.append("soundServer") }
    return known
  }

  func publishAccessory(
    _ change: AccessoryEvent<AccessoryControlDevice.Configuration>.Change,
    _ address: BluetoothAddress, displayName: String? = nil
  ) {
    let registry = engine.registry
    let registration = registry.registrations[address]
    let accessory = AccessoryEvent<AccessoryControlDevice.Configuration>
      .Accessory(
        address: address.description,
        displayName: displayName ?? registry.accessory(at: address).displayName,
        formFactor: registry.accessories[address]?.formFactor?.rawValue,
        configuration: registration?.configuration,
        invalidated: registration?.isInvalidated)
    events.publish(.accessory(.init(change: change, accessory: accessory)))
    // One line each at the default level, but for placement and source
    // updates, which come as often as a companion sends them.
    logger.log(
      level: change == .updated ? .info : .notice,
      "Accessory \(change.rawValue)",
      metadata: [
        "accessory.address": accessory.address,
        "accessory.name": accessory.displayName,
      ])
  }
}
