// Accessories' updates in the engine's loop: each is staged in the order
// it came; one that takes off the headphones that have the output waits
// for their media to pause before it is staged (everything else goes on),
// and later updates of the same accessory wait behind it. Once routed, the
// answer waits for the state file: a change not saved is undone and routed
// again, and what was paused for it is given back; a change saved that
// puts the headphones back on resumes their media once the route is back.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Logging
import RoutingCore
import SoundServerModel

extension EngineLoop {
  // MARK: - For callers

  /// Changes an accessory's configuration through the loop: its media is
  /// paused first if this takes it off while it has the output; the
  /// change is staged, routed and saved; its media is resumed if this
  /// puts it back on.
  ///
  /// The answer comes once the save is done too, so the save's encoding
  /// and `fsync`s neither delay the switch nor compete with the sound
  /// server while it moves the streams. A change that is not saved is
  /// undone, the route follows the undone registry, and what was paused
  /// for it is given back. Once the engine has stopped, the change is
  /// staged and saved at once, and the route is pending.
  ///
  /// - Parameters:
  ///   - address: A registered accessory.
  ///   - source: Who reports the change.
  ///   - edit: Changes its configuration.
  ///   - whenStaged: Told once the change is staged, before it is routed:
  ///     where its event is published, ahead of the route's.
  /// - Returns: The change as staged and routed.
  /// - Throws: ``AccessoryControlFailure`` naming a refused value, or why
  ///   the change could not be saved.
  @discardableResult
  public nonisolated func update(
    _ address: BluetoothAddress, by source: PlacementSource,
    _ edit:
      @escaping @Sendable (inout AccessoryControlDevice.Configuration) -> Void,
    whenStaged: @escaping @Sendable () -> Void = {}
  ) async throws(AccessoryControlFailure) -> StagedUpdate {
    let engine = self.engine
    let result = await withCheckedContinuation { continuation in
      let update = AccessoryUpdate(
        address: address, source: source, edit: edit, whenStaged: whenStaged,
        reply: continuation)
      if !inbox.post(.update(update)) {
        continuation.resume(returning: Self.stageAlone(update, on: engine))
      }
    }
    let staged = try result.get()
    // Saved already when the loop answered; staged alone, saved now.
    try await engine.saved(through: staged.generation)
    return staged
  }

  /// Makes a change to what routing reads in the loop, routes it, and
  /// saves it: one order for every request (make, route, save, answer).
  ///
  /// `make` runs in the loop, in the order requests came, so that no pass
  /// sees half a change and the route covers it. A change to the registry
  /// returns its generation, and the answer waits for the state file
  /// after the route, as an update's does; a change not saved is undone
  /// and routed again before the error is thrown. Once the engine has
  /// stopped, the change is made at once and the route is pending.
  ///
  /// - Parameters:
  ///   - reason: Why it routes, for the log and `route --explain`.
  ///   - leavingFollowersToTheDefault: On PulseAudio, whether to leave the
  ///     streams that follow the default to the default change.
  ///   - forgettingMediaOf: An accessory whose paused and muted media the
  ///     change forgets, its mutes undone, before the route (an
  ///     unpairing).
  ///   - whenUndone: Told once a change the state file did not take is
  ///     undone and routed again, before the error is thrown: where what
  ///     was announced is announced again as it is now.
  ///   - make: Makes the change: what it made, and the registry
  ///     generation to save through, or nil when nothing is saved.
  /// - Returns: What `make` made, and whether the route is pending.
  /// - Throws: ``AccessoryControlFailure`` from `make` (nothing is routed
  ///   then), or why the change could not be saved.
  public nonisolated func change<Made: Sendable>(
    because reason: RouteReason, leavingFollowersToTheDefault: Bool = false,
    forgettingMediaOf: BluetoothAddress? = nil,
    whenUndone: @escaping @Sendable () -> Void = {},
    _ make:
      @escaping @Sendable (isolated EngineLoop)
      throws(AccessoryControlFailure) -> (made: Made, saving: UInt64?)
  ) async throws(AccessoryControlFailure) -> (made: Made, pending: Bool) {
    typealias Outcome = Result<
      (made: Made, saving: UInt64?), AccessoryControlFailure
    >
    let outcome = Mutex<Outcome?>(nil)
    let request = { @Sendable (router: isolated EngineLoop) -> Bool in
      do throws(AccessoryControlFailure) {
        let made = try make(router)
        outcome.withLock { $0 = .success(made) }
        return true
      } catch {
        outcome.withLock { $0 = .failure(error) }
        return false
      }
    }
    var pending = await withCheckedContinuation { continuation in
      let change = RequestedChange(
        reason: reason,
        leavingFollowersToTheDefault: leavingFollowersToTheDefault,
        forgetsMediaOf: forgettingMediaOf, make: request, reply: continuation)
      if !inbox.post(.change(change)) {
        continuation.resume(returning: true)
      }
    }
    if outcome.withLock({ $0 }) == nil {
      // The engine had stopped: made here, and not routed.
      _ = await makeAlone(request)
      pending = true
    }
    guard let result = outcome.withLock({ $0 }) else {
      throw .unknown(reason: "the change was neither made nor refused")
    }
    let made = try result.get()
    if let generation = made.saving {
      do throws(AccessoryControlFailure) {
        try await engine.saved(through: generation)
      } catch {
        // Undone: the route follows the registry as the file holds it.
        await reconcile(because: .updateNotSaved)
        whenUndone()
        throw error
      }
    }
    return (made.made, pending)
  }

  /// Makes a change once the loop has stopped.
  private func makeAlone(
    _ make: @escaping @Sendable (isolated EngineLoop) -> Bool
  ) -> Bool {
    make(self)
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
    let arriving = ArrivingUpdate(
      accessory: address.description,
      wasWorn: before.map {
        !$0.isInvalidated
          && $0.configuration.deviceCapabilities.contains(.placement)
          && $0.configuration.devicePlacement?.isWorn == true
      } ?? false,
      takesOff: after?.devicePlacement == .offHead,
      outputWithTheAudio: outputWithTheAudio(of: address),
      followsMedia: followsMedia)
    guard
      case .routing(.pauseBeforeStaging(_, let output))? = step(
        .updateArrives(arriving)
      ).first
    else {
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
      update.whenStaged()
      stagedUpdates.append(
        (
          update.address, update.reply,
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

  /// Hands the updates staged in this pass, with whether the route is
  /// pending, to the state file: each answer waits for its save.
  func answerStagedUpdates() {
    let staged = stagedUpdates
    stagedUpdates = []
    let engine = self.engine
    let inbox = self.inbox
    for (address, reply, var update) in staged {
      update.pending = pending
      let waiting = UpdateAwaitingSave(
        address: address, staged: update, reply: reply)
      let answer = update
      let wait: LoopChores.Work = {
        let saved: Result<Void, AccessoryControlFailure>
        do throws(AccessoryControlFailure) {
          try await engine.saved(through: answer.generation)
          saved = .success(())
        } catch {
          saved = .failure(error)
        }
        if !inbox.post(.saved(waiting, saved)) {
          reply.resume(returning: saved.map { answer })
        }
      }
      // The chores take no more once the engine has stopped; the answer
      // still waits for its save.
      if !chores.start(wait) { Task(operation: wait) }
    }
  }

  /// Takes the state file's answer for an update: answers it, once what
  /// was paused for it is resumed if it put the headphones back on.
  ///
  /// - Returns: Whether it was not saved: the registry was undone, to
  ///   route again; the answer waits for that route.
  func take(
    _ waiting: UpdateAwaitingSave,
    saved: Result<Void, AccessoryControlFailure>
  ) -> Bool {
    guard case .success = saved else {
      updatesNotSaved.append((waiting, saved))
      return true
    }
    let (staged, reply) = (waiting.staged, waiting.reply)
    guard staged.putOn, !staged.pending else {
      reply.resume(returning: .success(staged))
      return false
    }
    resumeWhenBack(waiting.address) {
      reply.resume(returning: .success(staged))
    }
    return false
  }

  /// Answers the updates that were not saved, once the route followed the
  /// undone registry, and gives back what was paused for them.
  func answerUpdatesNotSaved() async {
    let unsaved = updatesNotSaved
    updatesNotSaved = []
    for (waiting, saved) in unsaved {
      if waiting.staged.pausedFirst {
        await mediaTake(.pauseUndone(accessory: waiting.address.description))
      }
      waiting.reply.resume(returning: saved.map { waiting.staged })
    }
  }

  /// Stages an update without the loop, once it has stopped.
  nonisolated static func stageAlone(
    _ update: AccessoryUpdate, on engine: RegistryStore
  ) -> Result<StagedUpdate, AccessoryControlFailure> {
    do {
      let generation = try engine.stageUpdate(
        update.address, by: update.source, changing: update.edit)
      update.whenStaged()
      return .success(
        StagedUpdate(
          generation: generation, pending: true, pausedFirst: false,
          putOn: false))
    } catch {
      return .failure(error)
    }
  }

  /// The server's index of an accessory's output when that output has
  /// the audio: by the server's default, or by the route when the server
  /// has not reported its default (PipeWire 0.3.65 sometimes does not tell
  /// its clients).
  func outputWithTheAudio(of address: BluetoothAddress) -> UInt32? {
    guard let mirror, let output = outputName(for: address),
      let sink = mirror.sink(named: output),
      mirror.defaultSinkName == output || reportedOutput == output
    else { return nil }
    return sink.index
  }

  /// The name of the output that carries an accessory's address, in the
  /// state the loop took in last.
  func outputName(for address: BluetoothAddress) -> String? {
    mirror?.sinks(forBluetoothAddress: address.description).first?.name
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
      case .change(let change):
        // Made without routing: the route is pending.
        _ = change.make(self)
        change.reply.resume(returning: true)
      case .update(let update): updates.append(update)
      case .saved(let waiting, let saved):
        waiting.reply.resume(returning: saved.map { waiting.staged })
      case .link(.changed(_, let reflexes)), .media(.reflexes(let reflexes)):
        for case .muted(let muted, let sink) in reflexes {
          guard let identity = headphonesIdentity(of: sink) else { continue }
          for stream in muted { media.mutedAfterTheLoop[stream] = identity }
        }
      case .link, .media: break
      }
    }
    for update in updates {
      update.reply.resume(returning: Self.stageAlone(update, on: engine))
    }
    answerStagedUpdates()
    // Not saved, and undone: nothing is routed or resumed any more.
    for (waiting, saved) in updatesNotSaved {
      waiting.reply.resume(returning: saved.map { waiting.staged })
    }
    updatesNotSaved = []
  }
}
