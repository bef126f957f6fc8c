// The router's one queue of triggers: sound-server states and requests to
// route again. The router's loop takes everything queued at once, so that
// triggers arriving while it reconciles are merged into the next pass.

import ConcurrencyHelpers

/// Something that makes the router decide again.
enum RouterTrigger: Sendable {
  /// The sound server's state changed, or the link connected or lost it.
  case link(LinkUpdate)
  /// A caller changed something and waits for the route that covers it.
  case request(RouteRequest)
}

/// A request to route again, answered once a reconcile that started after
/// it has finished.
struct RouteRequest: Sendable {
  /// Why, for the log and `route --explain`.
  let reason: String
  /// Whether the reconcile may leave the streams that follow the default
  /// to the default change (see ``RouteController/reconcile(because:leavingFollowersToTheDefault:)``).
  let leavingFollowersToTheDefault: Bool
  /// Receives whether the route is pending.
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
