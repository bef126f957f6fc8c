// One way to wait for an answer with a time limit: the first of the
// operation's answer and the deadline wins, and the loser is cancelled and
// never awaited, so an operation that does not stop on cancellation (a
// call to another process, a wait for a peer) cannot hold the caller past
// the limit.

/// Returns what `operation` answers, or what `onTimeout` gives if it has
/// not answered within `limit`.
///
/// The operation runs in a task of its own, cancelled when the deadline
/// wins; its late answer is dropped. The wait for the deadline is
/// cancelled when the operation answers first. A calling task that is
/// cancelled gets `onTimeout`'s answer at once, and both are cancelled.
///
/// ```swift
/// let state = await withDeadline(.seconds(1)) {
///   await bluez.report()
/// } onTimeout: {
///   .notAnswering
/// }
/// ```
///
/// - Parameters:
///   - limit: How long to wait for the answer.
///   - operation: What answers.
///   - onTimeout: The answer when the deadline comes first.
/// - Returns: The first answer.
public func withDeadline<Value: Sendable>(
  _ limit: Duration,
  _ operation: @escaping @Sendable () async -> Value,
  onTimeout: @escaping @Sendable () -> Value
) async -> Value {
  let state = Mutex(DeadlineState<Value>())
  /// Gives the first answer, or keeps it for the wait that has not begun;
  /// returns the tasks to cancel then, or nil when another answer came
  /// first.
  let answer = { @Sendable (value: Value) -> [Task<Void, Never>]? in
    let (waiting, tasks) = state.withLock {
      state -> (CheckedContinuation<Value, Never>?, [Task<Void, Never>]?) in
      guard state.answer == nil else { return (nil, nil) }
      state.answer = value
      defer { state.waiting = nil }
      return (state.waiting, state.tasks)
    }
    waiting?.resume(returning: value)
    return tasks
  }
  return await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      // Answered already: the caller was cancelled before it waited.
      if let early = state.withLock({ state in
        if state.answer == nil { state.waiting = continuation }
        return state.answer
      }) {
        continuation.resume(returning: early)
        return
      }
      let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        for task in answer(onTimeout()) ?? [] { task.cancel() }
      }
      let work = Task {
        _ = answer(await operation())
        timer.cancel()
      }
      // Answered before the tasks were known (the deadline came, or the
      // caller was cancelled): they are cancelled now.
      let isAnswered = state.withLock { state in
        state.tasks = [work, timer]
        return state.answer != nil
      }
      if isAnswered {
        work.cancel()
        timer.cancel()
      }
    }
  } onCancel: {
    for task in answer(onTimeout()) ?? [] { task.cancel() }
  }
}

/// What ``withDeadline(_:_:onTimeout:)`` keeps under one lock: the
/// caller's wait, the first answer, and the two tasks, so that whatever
/// order they come in, the first answer is the one given and the loser is
/// cancelled.
private struct DeadlineState<Value: Sendable> {
  var waiting: CheckedContinuation<Value, Never>?
  var answer: Value?
  var tasks: [Task<Void, Never>] = []
}
