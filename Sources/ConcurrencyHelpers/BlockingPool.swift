// Blocking work never runs on the shared task threads.
//
// Swift's tasks share one thread per core (two on a small machine), and on
// Linux Dispatch's global queues draw on the same threads: a socket read,
// an fsync or a wait on either holds one of them, and every other task of
// the process waits. So blocking steps run on the threads of one bounded
// pool, and long-lived loops (a connection's reader) on a thread of their
// own.

import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A bounded set of POSIX threads for blocking work, which a task awaits
/// without holding a shared task thread.
///
/// Threads start when work comes and none is idle, up to
/// ``maximumThreads``; beyond that, work waits its turn in order. A thread
/// idle for ``idleSeconds`` ends. Each thread takes the name of the work it
/// runs, as `top -H` and the journal show it.
///
/// ```swift
/// let bytes = try await BlockingPool.shared.run(named: "state.read") {
///   try readWholeFile(path)
/// }
/// ```
public final class BlockingPool: Sendable {
  /// The pool the daemon and its libraries share.
  public static let shared = BlockingPool(maximumThreads: 8)

  /// The most threads the pool runs at once.
  public let maximumThreads: Int
  /// How long a thread waits for work before it ends.
  public let idleSeconds: Double

  private struct Job {
    var name: String
    var body: @Sendable () -> Void
  }

  private struct State {
    var queue: [Job] = []
    var head = 0
    var threads = 0
    var idle = 0
    var peakThreads = 0
  }

  private let state = Mutex(State())
  /// Counts the queued jobs; the threads wait on it.
  private let jobs = DispatchSemaphore(value: 0)

  /// Creates a pool.
  ///
  /// - Parameters:
  ///   - maximumThreads: The most threads it runs at once, at least 1.
  ///   - idleSeconds: How long a thread waits for work before it ends.
  public init(maximumThreads: Int, idleSeconds: Double = 10) {
    precondition(maximumThreads >= 1, "a pool needs at least one thread")
    self.maximumThreads = maximumThreads
    self.idleSeconds = idleSeconds
  }

  /// Runs blocking work on one of the pool's threads and waits for its
  /// result without holding a shared task thread.
  ///
  /// - Parameters:
  ///   - name: The name the thread takes while it runs the work; the
  ///     kernel keeps its first 15 bytes.
  ///   - body: The blocking work.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw.
  public func run<T: Sendable, Failure: Error>(
    named name: String, _ body: @escaping @Sendable () throws(Failure) -> T
  ) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withHandover { handover in
      submit(named: name) {
        handover.resume(returning: Result { () throws(Failure) in try body() })
      }
    }
    return try result.get()
  }

  /// Queues work without waiting for it.
  ///
  /// - Parameters:
  ///   - name: The name the thread takes while it runs the work.
  ///   - body: The blocking work.
  public func submit(named name: String, _ body: @escaping @Sendable () -> Void)
  {
    let startsThread = state.withLock { state -> Bool in
      state.queue.append(Job(name: name, body: body))
      // The idle threads take the queued jobs first; a job beyond them
      // gets a new thread while the bound allows.
      let waitingJobs = state.queue.count - state.head
      guard waitingJobs > state.idle, state.threads < maximumThreads else {
        return false
      }
      state.threads += 1
      state.peakThreads = max(state.peakThreads, state.threads)
      return true
    }
    jobs.signal()
    if startsThread {
      startThread(named: name) { [self] in work() }
    }
  }

  /// How many threads run now, and the most that ran at once.
  public var threadCounts: (now: Int, peak: Int) {
    state.withLock { ($0.threads, $0.peakThreads) }
  }

  /// A thread's loop: takes jobs until none comes for ``idleSeconds``.
  private func work() {
    while true {
      state.withLock { $0.idle += 1 }
      let timeout = DispatchTime.now() + idleSeconds
      if jobs.wait(timeout: timeout) == .timedOut {
        let ends = state.withLock { state -> Bool in
          state.idle -= 1
          // A job that came as the wait ended has its own signal, which
          // another wait takes; this thread stays for it.
          guard state.head == state.queue.count else { return false }
          state.threads -= 1
          return true
        }
        if ends { return }
        continue
      }
      state.withLock { $0.idle -= 1 }
      guard let job = take() else { continue }
      nameCurrentThread(job.name)
      job.body()
    }
  }

  /// Takes the next job, if any.
  private func take() -> Job? {
    state.withLock { state -> Job? in
      guard state.head < state.queue.count else { return nil }
      let job = state.queue[state.head]
      state.head += 1
      if state.head > 64, state.head * 2 > state.queue.count {
        state.queue.removeFirst(state.head)
        state.head = 0
      }
      return job
    }
  }
}

/// Runs `body` on a new detached POSIX thread named `name`, as `top -H`
/// and the journal show it.
///
/// The thread ends when `body` returns. For a long-lived loop; blocking
/// steps go to ``BlockingPool``.
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

/// Names the calling thread through `/proc/thread-self/comm` (the kernel
/// keeps the first 15 bytes).
private func nameCurrentThread(_ name: String) {
  let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  let bytes = Array(name.utf8.prefix(15))
  _ = write(descriptor, bytes, bytes.count)
  close(descriptor)
}
