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
  let waiting = Mutex<CheckedContinuation<Value, Never>?>(nil)
  let answer = { @Sendable (value: Value) -> Bool in
    guard
      let continuation = waiting.withLock({ waiting in
        defer { waiting = nil }
        return waiting
      })
    else { return false }
    continuation.resume(returning: value)
    return true
  }
  let tasks = Mutex<[Task<Void, Never>]>([])
  let cancelAll = { @Sendable in
    for task in tasks.withLock({ $0 }) { task.cancel() }
  }
  return await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      waiting.withLock { $0 = continuation }
      let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        if answer(onTimeout()) { cancelAll() }
      }
      let work = Task {
        _ = answer(await operation())
        timer.cancel()
      }
      tasks.withLock { $0 = [work, timer] }
    }
  } onCancel: {
    _ = answer(onTimeout())
    cancelAll()
  }
}
