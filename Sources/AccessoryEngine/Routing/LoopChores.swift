// The work the engine loop starts and does not wait for: pausing players,
// resuming them, waiting for the state file to hold a change. Each runs as
// a child task of the loop's own task group, so that nothing the engine
// starts outlives it: stopping the loop cancels the chores in flight and
// waits for them.

import ConcurrencyHelpers

/// Work the loop hands off, run as child tasks of one task group.
final class LoopChores: Sendable {
  /// One piece of work.
  typealias Work = @Sendable () async -> Void

  private struct State {
    /// Work started and not yet taken by ``run()``.
    var queued: [Work] = []
    /// ``run()`` waiting for work.
    var waiting: CheckedContinuation<(Work, finished: Bool)?, Never>?
    /// Whether ``finish()`` was called.
    var finished = false
  }

  private let state = Mutex(State())

  /// Creates the chores; nothing runs until ``run()``.
  init() {}

  /// Starts `work` as a child of ``run()``'s group.
  ///
  /// - Returns: Whether it was taken: false once ``finish()`` was called,
  ///   and the work is then not run.
  @discardableResult
  func start(_ work: @escaping Work) -> Bool {
    state.withLock { state in
      guard !state.finished else { return false }
      if let waiting = state.waiting {
        state.waiting = nil
        waiting.resume(returning: (work, false))
      } else {
        state.queued.append(work)
      }
      return true
    }
  }

  /// Runs each piece of work started, as a child task, until ``finish()``;
  /// then cancels the work in flight and returns when all of it has
  /// returned.
  ///
  /// Run it once, beside the loop. Cancelling the task that runs it does
  /// not end it, so that no work started before ``finish()`` is lost: it
  /// ends only after ``finish()``.
  func run() async {
    await withDiscardingTaskGroup { group in
      while let (work, finished) = await next() {
        // Work taken after finish starts cancelled, as the rest is.
        if finished { group.cancelAll() }
        group.addTask(operation: work)
      }
      group.cancelAll()
    }
  }

  /// Takes no more work: what was started still runs, cancelled.
  func finish() {
    state.withLock { state in
      state.finished = true
      if let waiting = state.waiting, state.queued.isEmpty {
        state.waiting = nil
        waiting.resume(returning: nil)
      }
    }
  }

  /// The next work started, with whether ``finish()`` was called; nil
  /// once finished and none is left.
  private func next() async -> (Work, finished: Bool)? {
    await withCheckedContinuation { continuation in
      state.withLock { state in
        if !state.queued.isEmpty {
          continuation.resume(
            returning: (state.queued.removeFirst(), state.finished))
        } else if state.finished {
          continuation.resume(returning: nil)
        } else {
          state.waiting = continuation
        }
      }
    }
  }
}
