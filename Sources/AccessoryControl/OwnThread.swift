// Blocking work never runs on the shared task threads.
//
// Swift's tasks share one thread per core (two on a small machine), and on
// Linux Dispatch's global queues draw on the same threads: a socket read,
// an fsync or a wait on either holds one of them, and every other task of
// the process waits. So each blocking step runs on a thread of its own.

import Locking

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` on a new detached POSIX thread named `name` (as `top -H`
/// and the journal show it); the thread ends when `body` returns.
///
/// - Parameters:
///   - name: The thread's name; the kernel keeps its first 15 bytes.
///   - body: The work, which may block.
package func startThread(
  named name: String, _ body: @escaping @Sendable () -> Void
) {
  final class Box: Sendable {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }
  let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
  var thread = pthread_t()
  let started = pthread_create(
    &thread, nil,
    { argument in
      let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
      nameCurrentThread(box.name)
      box.body()
      return nil
    }, box)
  precondition(started == 0, "cannot start thread \(name): error \(started)")
  pthread_detach(thread)
}

/// Runs blocking work on a new thread of its own and waits for its result
/// without holding a shared task thread.
///
/// - Parameters:
///   - name: The thread's name.
///   - body: The blocking work.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
package func onOwnThread<T: Sendable, Failure: Error>(
  named name: String, _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
  let result: Result<T, Failure> = await withHandover { handover in
    startThread(named: name) {
      handover.resume(returning: Result { () throws(Failure) in try body() })
    }
  }
  return try result.get()
}

/// Names the calling thread through `/proc/thread-self/comm` (the kernel
/// keeps the first 15 bytes).
private func nameCurrentThread(_ name: String) {
  let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  let bytes = Array(name.utf8.prefix(15))
  _ = write(descriptor, bytes, bytes.count)
  close(descriptor)
}
