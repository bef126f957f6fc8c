// The project's lock: Synchronization's Mutex in shape, on a pthread
// mutex underneath. On Linux, Synchronization's Mutex waits on a futex
// that ThreadSanitizer cannot see, so under `swift test --sanitize=thread`
// every value it guards reads as raced; a pthread mutex is one
// ThreadSanitizer follows. Modules import ConcurrencyHelpers instead of
// Synchronization, which it re-exports for Atomic, and get this Mutex.

@_exported import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value that one thread at a time may use, behind a lock.
///
/// The same calls as Synchronization's `Mutex`: `Mutex(value)` and
/// `withLock`. The lock is not recursive: `withLock` inside `withLock` on
/// the same mutex deadlocks.
public final class Mutex<Value: ~Copyable>: @unchecked Sendable {
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  /// The value, in memory of its own rather than a stored property: the
  /// exclusivity check of an inout access to a zero-sized property (a
  /// `Mutex(())`) lands on the object's header, which ThreadSanitizer
  /// then reports as raced.
  private let value: UnsafeMutablePointer<Value>

  /// Creates a mutex around a value.
  public init(_ initialValue: consuming sending Value) {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(lock)
    lock.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  ///
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return try body(&value.pointee)
  }
}
