// The engine's one queue of events: sound-server states, requests to
// route again, accessories' updates, and what the media rules follow
// (players, the players' answer to a pause; the link's mute reflex comes
// inside the state that caused it). The
// loop takes everything queued at once, so that events arriving while it
// reconciles are merged into the next pass.

import AccessoryBackend
import AccessorySetupKit
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import MPRIS
import RoutingCore

/// Something that makes the engine decide again.
enum RouterTrigger: Sendable {
  /// The sound server's state changed, or the link connected or lost it.
  case link(LinkUpdate)
  /// Something asks to route again and waits for the route.
  case request(RouteRequest)
  /// A request that changes what routing reads (the registry, the
  /// person's choice, the policy), made by the loop in order.
  case change(RequestedChange)
  /// A change to an accessory's configuration, to stage in order.
  case update(AccessoryUpdate)
  /// Something for the media rules.
  case media(MediaTrigger)
  /// The state file's answer for a staged update: saved, or why not.
  case saved(UpdateAwaitingSave, Result<Void, AccessoryControlFailure>)
}

/// A staged and routed update whose answer waits for the state file.
struct UpdateAwaitingSave: Sendable {
  /// The accessory.
  let address: BluetoothAddress
  /// The update as staged and routed.
  let staged: StagedUpdate
  /// Receives the update, or why it was not saved.
  let reply:
    CheckedContinuation<Result<StagedUpdate, AccessoryControlFailure>, Never>
}

/// An event for the media rules.
enum MediaTrigger: Sendable {
  /// A player appeared, changed or went away.
  case player(MediaPlayerChange)
  /// What the link's reflex did, told with a state that a phase took in:
  /// taken after the phase.
  case reflexes([LinkReflex])
  /// One of the rules' own inputs (the players' answer to a pause, an
  /// unpaired accessory, an undone change).
  case input(MediaInput)
}

/// A change to an accessory's configuration, from a companion, `acctl`
/// or the headphones themselves, staged by the engine's loop in the order
/// it came, after the media of an accessory taken off paused.
struct AccessoryUpdate: Sendable {
  /// The accessory.
  let address: BluetoothAddress
  /// Who reports the change.
  let source: PlacementSource
  /// The change.
  let edit: @Sendable (inout AccessoryControlDevice.Configuration) -> Void
  /// Told once the change is staged, before it is routed.
  let whenStaged: @Sendable () -> Void
  /// Receives the staged change, or why it was refused.
  let reply:
    CheckedContinuation<Result<StagedUpdate, AccessoryControlFailure>, Never>
}

/// An accessory's update as the engine staged and routed it.
public struct StagedUpdate: Sendable {
  /// The registry generation to wait for the save of.
  public var generation: UInt64
  /// Whether the route is pending: the server is away, or did not take it.
  public var pending: Bool
  /// Whether the engine paused or muted media before the change: undone
  /// if the change is not saved.
  public var pausedFirst: Bool
  /// Whether the accessory was put back on (worn after, not before).
  public var putOn: Bool
}

/// A request to route again, answered once a reconcile that started after
/// it has finished.
struct RouteRequest: Sendable {
  /// Why, for the log and `route --explain`.
  let reason: RouteReason
  /// Whether the reconcile may leave the streams that follow the default
  /// to the default change (see ``EngineLoop/reconcile(because:leavingFollowersToTheDefault:)``).
  let leavingFollowersToTheDefault: Bool
  /// Receives whether the route is pending.
  let reply: CheckedContinuation<Bool, Never>
}

/// A request that changes what routing reads.
///
/// An accessory paired, registered or unpaired, the person's choice of a
/// device made or forgotten, the policy switched: the loop makes the
/// change in the order it came, routes it in the same pass, and answers;
/// a change to the registry is saved after the route, as an update is.
struct RequestedChange: Sendable {
  /// Why it routes, for the log and `route --explain`.
  let reason: RouteReason
  /// Whether the route may leave the streams that follow the default to
  /// the default change.
  let leavingFollowersToTheDefault: Bool
  /// The accessory whose paused and muted media the change forgets (an
  /// unpairing), before it is routed.
  let forgetsMediaOf: BluetoothAddress?
  /// Makes the change, in the loop; false when it was refused (the
  /// caller has why), and nothing is routed for it.
  let make: @Sendable (isolated EngineLoop) -> Bool
  /// Receives whether the route is pending, or `true` when refused.
  let reply: CheckedContinuation<Bool, Never>
}

/// A queue with one consumer, the router's loop.
final class RouterInbox: Sendable {
  private struct State {
    var triggers: [RouterTrigger] = []
    var waiter: CheckedContinuation<Void, Never>?
    var isClosed = false
  }

  private let state = Mutex(State())

  /// Queues a trigger and wakes the loop.
  ///
  /// - Returns: `false` if the inbox is closed: the trigger was not taken.
  func post(_ trigger: RouterTrigger) -> Bool {
    let (taken, waiter) = state.withLock {
      state -> (Bool, CheckedContinuation<Void, Never>?) in
      guard !state.isClosed else { return (false, nil) }
      state.triggers.append(trigger)
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume()
    return taken
  }

  /// How many triggers are queued.
  var count: Int { state.withLock { $0.triggers.count } }

  /// Takes every queued trigger, oldest first.
  func take() -> [RouterTrigger] {
    state.withLock { state in
      defer { state.triggers = [] }
      return state.triggers
    }
  }

  /// Returns once a trigger is queued, the inbox is closed, or the task is
  /// cancelled.
  func waitForTriggers() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state in
          guard state.triggers.isEmpty, !state.isClosed, !Task.isCancelled
          else { return true }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { state in
        defer { state.waiter = nil }
        return state.waiter
      }?.resume()
    }
  }

  /// Closes the inbox: later posts are refused.
  ///
  /// - Returns: The triggers still queued.
  func close() -> [RouterTrigger] {
    let (left, waiter) = state.withLock {
      state -> ([RouterTrigger], CheckedContinuation<Void, Never>?) in
      state.isClosed = true
      defer {
        state.triggers = []
        state.waiter = nil
      }
      return (state.triggers, state.waiter)
    }
    waiter?.resume()
    return left
  }
}
