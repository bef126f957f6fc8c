// Handing a value from another thread to a waiting task, in a form
// ThreadSanitizer follows. On Linux, Swift's runtime does not tell it that
// a continuation's resume happens before the awaiting task goes on, so
// whatever the resuming thread wrote (a D-Bus reply it decoded, a
// libpulse result) reads as raced once the task reads it. A handover
// passes the value through a Mutex, whose lock it sees.

/// The resuming side of ``withHandover(isolation:_:)``: a continuation whose
/// value passes through a lock.
public struct Handover<Value: Sendable>: Sendable {
  fileprivate let box: Mutex<Value?>
  fileprivate let continuation: CheckedContinuation<Void, Never>

  /// Hands the value over and resumes the waiting task.
  ///
  /// Call it exactly once, from any thread.
  public func resume(returning value: Value) {
    box.withLock { $0 = value }
    continuation.resume()
  }
}

/// Suspends until the handover `body` is given is resumed, on any thread,
/// and returns its value: `withCheckedContinuation`, with a ``Handover`` in
/// place of the continuation.
///
/// - Parameters:
///   - isolation: The caller's isolation, kept across the suspension.
///   - body: Starts the work that resumes the handover.
/// - Returns: The value handed over.
public func withHandover<Value: Sendable>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: (Handover<Value>) -> Void
) async -> Value {
  let box = Mutex<Value?>(nil)
  await withCheckedContinuation(isolation: isolation) {
    (continuation: CheckedContinuation<Void, Never>) in
    body(Handover(box: box, continuation: continuation))
  }
  return box.withLock { value -> Value in
    guard let handed = value.take() else {
      fatalError("a handover resumed without a value")
    }
    return handed
  }
}
