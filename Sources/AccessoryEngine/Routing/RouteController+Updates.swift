// Accessories' updates in the engine's loop: each is staged in the order
// it came; one that takes off the headphones that have the output waits,
// as a phase of the loop, for their media to pause before it is staged,
// and later updates of the same accessory wait behind it.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import PulseAudio
import RoutingCore

extension RouteController {
  // MARK: - For callers

  /// Changes an accessory's configuration through the loop: its media is
  /// paused first if this takes it off while it has the output; the
  /// change is staged and routed.
  ///
  /// Once the engine has stopped, the change is staged at once, and the
  /// route is pending.
  ///
  /// - Parameters:
  ///   - address: A registered accessory.
  ///   - source: Who reports the change.
  ///   - edit: Changes its configuration.
  /// - Returns: The staged change: the generation to wait for the save
  ///   of, and what happened around it.
  /// - Throws: ``AccessoryControlFailure`` naming a refused value.
  public nonisolated func update(
    _ address: BluetoothAddress, by source: PlacementSource,
    _ edit:
      @escaping @Sendable (inout AccessoryControlDevice.Configuration) -> Void
  ) async throws(AccessoryControlFailure) -> StagedUpdate {
    let engine = self.engine
    let result = await withCheckedContinuation { continuation in
      let update = AccessoryUpdate(
        address: address, source: source, edit: edit, reply: continuation)
      if !inbox.post(.update(update)) {
        continuation.resume(returning: Self.stageAlone(update, on: engine))
      }
    }
    return try result.get()
  }

  /// Undoes what the engine paused or muted before a change that was not
  /// saved.
  public nonisolated func undoPause(of address: BluetoothAddress) async {
    await post(.pauseUndone(accessory: address.description))
  }

  /// Forgets what was paused or muted for an unpaired accessory, and
  /// unmutes what it muted.
  public nonisolated func forgetMedia(of address: BluetoothAddress) async {
    await post(.unpaired(accessory: address.description))
  }

  /// Resumes what was paused for an accessory put back on.
  ///
  /// Called once the update is saved: it resumes once the route is back
  /// on the accessory and the server shows the moves (at most ``movesShownLimit`` later). Returns when it
  /// is done, or nothing is to be resumed.
  public nonisolated func resumeIfBack(_ address: BluetoothAddress) async {
    await withCheckedContinuation { continuation in
      if !inbox.post(.media(.resumeIfBack(address, reply: continuation))) {
        continuation.resume()
      }
    }
  }

  /// Posts a media event, and returns once the loop took it.
  nonisolated func post(_ input: MediaInput) async {
    await withCheckedContinuation { continuation in
      if !inbox.post(.media(.acknowledged(input, reply: continuation))) {
        continuation.resume()
      }
    }
  }

  /// How long a resume waits for the server to show the moves back on the
  /// accessory, in seconds.
  static let movesShownLimit = 2.0

  // MARK: - In the loop

  /// Takes an update in the loop: parks it behind a pause in flight of
  /// the same accessory; starts the pause if it takes off the headphones
  /// that have the output; stages it otherwise.
  ///
  /// - Returns: Whether it staged a change, to route.
  func take(_ update: AccessoryUpdate) async -> Bool {
    let address = update.address
    if updatesAwaitingPause[address] != nil {
      updatesAwaitingPause[address]?.append(update)
      return false
    }
    let before = engine.registry.registrations[address]
    var after = before?.configuration
    if after != nil { update.edit(&after!) }
    guard let output = outputTakenOff(address, before, after) else {
      return await stage(update, pausedFirst: false)
    }
    updatesAwaitingPause[address] = [update]
    await mediaTake(.takenOff(accessory: address.description, output: output))
    guard rules.media.pausing[address.description] == nil else {
      // The players' answer stages it.
      return false
    }
    updatesAwaitingPause[address] = nil
    return await stage(update, pausedFirst: false)
  }

  /// The players answered the pause of an accessory taken off: stages the
  /// update that waited for it, and takes those behind it in order.
  ///
  /// - Parameter effects: What the media rules made of the answer: if they
  ///   paused or muted anything, the update paused first.
  /// - Returns: Whether it staged a change, to route.
  func stageAfterPause(
    of accessory: String, effects: [MediaEffect]
  ) async -> Bool {
    guard let address = BluetoothAddress(accessory),
      let waiting = updatesAwaitingPause.removeValue(forKey: address),
      let first = waiting.first
    else { return false }
    let pausedFirst = effects.contains {
      switch $0 {
      case .announcePaused, .mute: true
      default: false
      }
    }
    var staged = await stage(first, pausedFirst: pausedFirst)
    for update in waiting.dropFirst() {
      staged = await take(update) || staged
    }
    return staged
  }

  /// Stages an update; its answer waits for the route.
  ///
  /// - Returns: Whether it staged a change, to route.
  func stage(_ update: AccessoryUpdate, pausedFirst: Bool) async -> Bool {
    let before = engine.registry.registrations[update.address]?.configuration
    do {
      let generation = try engine.stageUpdate(
        update.address, by: update.source, changing: update.edit)
      let after = engine.registry.registrations[update.address]?.configuration
      stagedUpdates.append(
        (
          update.reply,
          StagedUpdate(
            generation: generation, pending: true, pausedFirst: pausedFirst,
            putOn: before?.devicePlacement?.isWorn == false
              && after?.devicePlacement?.isWorn == true)
        ))
      return true
    } catch {
      // Refused: the accessory is as it was, and so is its media.
      if pausedFirst {
        await mediaTake(.pauseUndone(accessory: update.address.description))
      }
      update.reply.resume(returning: .failure(error))
      return false
    }
  }

  /// Answers the updates staged in this pass, with whether the route is
  /// pending.
  func answerStagedUpdates() {
    let staged = stagedUpdates
    stagedUpdates = []
    for (reply, var update) in staged {
      update.pending = pending
      reply.resume(returning: .success(update))
    }
  }

  /// Stages an update without the loop, once it has stopped.
  nonisolated static func stageAlone(
    _ update: AccessoryUpdate, on engine: InProcessAccessoryEngine
  ) -> Result<StagedUpdate, AccessoryControlFailure> {
    do {
      let generation = try engine.stageUpdate(
        update.address, by: update.source, changing: update.edit)
      return .success(
        StagedUpdate(
          generation: generation, pending: true, pausedFirst: false,
          putOn: false))
    } catch {
      return .failure(error)
    }
  }

  /// The output index of an accessory this update takes off while it has
  /// the output and was worn, with `media.pauseWhenTakenOff` on: its media
  /// is paused before the route may change.
  func outputTakenOff(
    _ address: BluetoothAddress,
    _ before: AccessoryRegistry.Registration?,
    _ after: AccessoryControlDevice.Configuration?
  ) -> UInt32? {
    guard followsMedia, let before, !before.isInvalidated,
      before.configuration.deviceCapabilities.contains(.placement),
      before.configuration.devicePlacement?.isWorn == true,
      after?.devicePlacement == .offHead,
      policies.policy.pauseWhenTakenOff,
      let mirror, let output = outputName(for: address),
      let sink = mirror.sink(named: output)
    else { return nil }
    // The output is the accessory's by the server's default, or by the
    // router's decision when the server has not reported its default
    // (PipeWire 0.3.65 sometimes does not tell its clients).
    if mirror.defaultSinkName != output {
      guard reportedOutput == output else { return nil }
    }
    return sink.index
  }

  /// Once the loop has stopped: stages the updates that wait, and answers
  /// them and every other waiter.
  func answerAfterStopping(_ triggers: [RouterTrigger]) {
    var updates = updatesAwaitingPause.keys.sorted().flatMap {
      updatesAwaitingPause[$0] ?? []
    }
    updatesAwaitingPause = [:]
    for trigger in triggers {
      switch trigger {
      case .request(let request): request.reply.resume(returning: true)
      case .update(let update): updates.append(update)
      case .media(.resumeIfBack(_, let reply)),
        .media(.acknowledged(_, let reply)):
        reply.resume()
      case .media(.outputVanished(let address, _, let muted)):
        for stream in muted { media.mutedAfterTheLoop[stream] = address }
      case .link, .media: break
      }
    }
    for update in updates {
      update.reply.resume(returning: Self.stageAlone(update, on: engine))
    }
    answerStagedUpdates()
  }
}
