// Blocking work in the test support never runs on the shared task threads.
//
// Swift's cooperative pool has one thread per core: two on the machines the
// tests run on. A test that waits for a child process, sleeps or reads a
// socket on one of them holds it, and every other test's tasks wait. So the
// support's blocking waits run on threads of their own, and the primitives
// that block trap when a task calls them.

import ConcurrencyHelpers
import Foundation

/// Runs blocking work on a new thread of its own and waits for it without
/// holding a shared task thread.
///
/// - Parameter body: The blocking work, such as waiting for a process.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
public func onOwnThread<T: Sendable>(
  _ body: @escaping @Sendable () throws -> T
) async throws -> T {
  let result: Result<T, any Error> = await withHandover { handover in
    Thread.detachNewThread {
      handover.resume(returning: Result { try body() })
    }
  }
  return try result.get()
}

/// Runs blocking work that cannot fail on a new thread of its own and waits
/// for it without holding a shared task thread.
///
/// - Parameter body: The blocking work.
/// - Returns: What `body` returned.
public func onOwnThread<T: Sendable>(
  _ body: @escaping @Sendable () -> T
) async -> T {
  await withHandover { handover in
    Thread.detachNewThread {
      handover.resume(returning: body())
    }
  }
}

/// Starts blocking work on a new thread of its own and returns at once,
/// for clean-up that a synchronous caller (a `defer`, a `deinit`) must not
/// wait for.
///
/// - Parameter body: The work, such as reaping stopped processes.
func inBackground(_ body: @escaping @Sendable () -> Void) {
  Thread.detachNewThread(body)
}

/// Traps if the caller runs as part of a task, that is on a shared task
/// thread, where a blocking call starves every other test.
///
/// - Parameter what: The blocking call, for the message.
func requireOwnThread(_ what: String) {
  let isOnTask = withUnsafeCurrentTask { $0 != nil }
  precondition(
    !isOnTask,
    "\(what) blocks its thread and was called from a task; "
      + "await the async form, or run it through onOwnThread")
}
