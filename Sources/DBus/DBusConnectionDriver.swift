// The owner of one private libdbus connection and of the one thread that
// touches it. Its rule: every libdbus call on the connection, its messages
// and its pending calls runs on that thread. Other threads hand work over
// through `submit`, which queues a closure and wakes the thread through a
// socket pair; the thread polls the bus socket and that wake socket.
//
// Call timeouts are kept here, not by libdbus: without main-loop
// integration libdbus never fires the timeouts of asynchronous calls.

internal import CDBus
import ConcurrencyHelpers
import Glibc
import SystemCalls

/// One method call in flight, found again through the `userdata` pointer of
/// its pending call.
///
/// The driver's `calls` table keeps it alive until it finishes; it is only
/// touched on the dispatch thread.
final class PendingCall {
  let id: Int
  unowned let driver: DBusConnectionDriver
  let deadline: ContinuousClock.Instant
  let timeout: Duration
  var pending: OpaquePointer?
  var completion: ((Result<DBusReply, DBusFailure>) -> Void)?
  /// Set when the caller's task may cancel the call.
  var cancellation: CallCancellation?

  package init(
    id: Int, driver: DBusConnectionDriver, timeout: Duration,
    completion: @escaping (Result<DBusReply, DBusFailure>) -> Void
  ) {
    self.id = id
    self.driver = driver
    self.timeout = timeout
    self.deadline = .now + timeout
    self.completion = completion
  }
}

/// Whether the task that made a call was cancelled; shared by the task and
/// the dispatch thread.
package final class CallCancellation: Sendable {
  private let cancelled = Atomic(false)

  /// Creates the flag, not cancelled.
  package init() {}

  /// Whether the task was cancelled.
  package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Marks the task cancelled.
  package func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// A private connection to a message bus and the thread that drives it.
package final class DBusConnectionDriver: @unchecked Sendable {
  /// Runs on the dispatch thread for each signal received, with the driver
  /// to start follow-up calls on.
  package typealias SignalHandler =
    @Sendable (DBusSignal, DBusConnectionDriver) -> ()

  /// Runs on the dispatch thread for each method call another peer makes
  /// on an exported object, and returns the reply's arguments or the
  /// error to answer with.
  package typealias MethodHandler =
    @Sendable (DBusIncomingCall) -> Result<[DBusValue], DBusFailure>

  /// What other threads share with the dispatch thread.
  struct Shared {
    var work: [@Sendable () -> Void] = []
    var isClosing = false
    var hasEnded = false
    var isJoined = false
  }

  let address: String
  let matchRules: [String]
  let signalHandler: SignalHandler
  let onEnd: @Sendable () -> Void
  let shared = Mutex(Shared())
  /// Held, off the dispatch thread, for the whole of a close, so that a
  /// second close waits for the first to join the thread.
  let closing = Mutex(())
  /// The wake socket pair: other threads write to 1, the thread polls 0.
  let wakeDescriptors: [Int32]
  var thread = pthread_t()

  // Touched only on the dispatch thread.
  var connection: OpaquePointer?
  var calls: [Int: PendingCall] = [:]
  var nextCallID = 0
  var isDisconnected = false
  /// The objects this connection serves, by path.
  var exported: [String: MethodHandler] = [:]
  /// What answers calls on every other path, when set.
  var treeHandler: TreeHandler?

  init(
    address: String, matchRules: [String], wakeDescriptors: [Int32],
    signalHandler: @escaping SignalHandler,
    onEnd: @escaping @Sendable () -> Void
  ) {
    self.address = address
    self.matchRules = matchRules
    self.wakeDescriptors = wakeDescriptors
    self.signalHandler = signalHandler
    self.onEnd = onEnd
  }

  deinit {
    wakeDescriptors.forEach { _ = Glibc.close($0) }
  }

  // MARK: - Opening

  /// Opens a private connection to a bus, registers with it, adds the match
  /// rules and starts the dispatch thread.
  ///
  /// The corresponding C functions are `dbus_connection_open_private`,
  /// `dbus_bus_register` and `dbus_bus_add_match`. They block on the
  /// dispatch thread, bounded by libdbus's default reply timeout.
  ///
  /// - Parameters:
  ///   - address: A D-Bus address, such as `unix:path=/run/dbus/bus`.
  ///   - matchRules: The rules for the signals to receive.
  ///   - signalHandler: Called on the dispatch thread for each signal.
  ///   - onEnd: Called on the dispatch thread once the connection has ended,
  ///     whether closed or lost.
  package static func open(
    address: String, matchRules: [String],
    signalHandler: @escaping SignalHandler,
    onEnd: @escaping @Sendable () -> Void
  ) async -> Result<DBusConnectionDriver, DBusFailure> {
    var descriptors: [Int32] = [-1, -1]
    let type =
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
      return .failure(
        DBusFailure(
          name: "org.freedesktop.DBus.Error.Failed",
          message: "cannot create a socket pair: \(Errno.current.message)"))
    }
    let driver = DBusConnectionDriver(
      address: address, matchRules: matchRules, wakeDescriptors: descriptors,
      signalHandler: signalHandler, onEnd: onEnd)
    let setUp: Result<Void, DBusFailure> = await withHandover { handover in
      driver.startThread { handover.resume(returning: $0) }
    }
    switch setUp {
    case .success:
      return .success(driver)
    case .failure(let failure):
      driver.close()
      return .failure(failure)
    }
  }

  /// Starts the dispatch thread; it reports the set-up's outcome first.
  func startThread(
    reportSetUp: @escaping @Sendable (Result<Void, DBusFailure>) -> Void
  ) {
    let context = Unmanaged.passRetained(
      ThreadContext(driver: self, reportSetUp: reportSetUp))
    let status = pthread_create(
      &thread, nil,
      { raw in
        let context = Unmanaged<ThreadContext>.fromOpaque(raw!)
          .takeRetainedValue()
        context.driver.threadMain(reportSetUp: context.reportSetUp)
        return nil
      }, context.toOpaque())
    if status != 0 {
      context.release()
      shared.withLock {
        $0.hasEnded = true
        $0.isJoined = true
      }
      reportSetUp(
        .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.Failed",
            message: "cannot start the D-Bus thread: "
              + Errno(rawValue: status).message)))
    }
  }

  /// The driver and the set-up reporter, handed to the new thread.
  final class ThreadContext {
    let driver: DBusConnectionDriver
    let reportSetUp: @Sendable (Result<Void, DBusFailure>) -> Void

    init(
      driver: DBusConnectionDriver,
      reportSetUp: @escaping @Sendable (Result<Void, DBusFailure>) -> Void
    ) {
      self.driver = driver
      self.reportSetUp = reportSetUp
    }
  }

  /// The body of the dispatch thread.
  func threadMain(
    reportSetUp: @Sendable (Result<Void, DBusFailure>) -> Void
  ) {
    switch setUpConnection() {
    case .success:
      reportSetUp(.success(()))
      runLoop()
    case .failure(let failure):
      reportSetUp(.failure(failure))
    }
    tearDown()
  }

  /// Dispatch thread: connects, registers and adds the match rules.
  func setUpConnection() -> Result<Void, DBusFailure> {
    var error = DBusError()
    dbus_error_init(&error)
    guard let connection = dbus_connection_open_private(address, &error) else {
      return .failure(Self.takeFailure(&error))
    }
    self.connection = connection
    dbus_connection_set_exit_on_disconnect(connection, 0)
    guard dbus_bus_register(connection, &error) != 0 else {
      return .failure(Self.takeFailure(&error))
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    guard dbus_connection_add_filter(connection, messageFilter, me, nil) != 0
    else {
      return .failure(Self.outOfMemory)
    }
    for rule in matchRules {
      dbus_bus_add_match(connection, rule, &error)
      if dbus_error_is_set(&error) != 0 {
        return .failure(Self.takeFailure(&error))
      }
    }
    return .success(())
  }

  // MARK: - The dispatch loop

  /// Dispatch thread: runs submitted work, moves bytes, dispatches messages
  /// and expires calls until the connection is closed or lost.
  func runLoop() {
    while true {
      runSubmittedWork()
      if shared.withLock({ $0.isClosing }) { return }
      guard let connection, !isDisconnected else { return }
      _ = dbus_connection_read_write(connection, 0)
      while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {
      }
      expireCalls()
      if isDisconnected { return }
      if shared.withLock({ !$0.work.isEmpty || $0.isClosing }) { continue }
      if dbus_connection_get_dispatch_status(connection)
        == DBUS_DISPATCH_DATA_REMAINS
      {
        continue
      }
      waitForActivity(on: connection)
    }
  }

  /// Dispatch thread: runs the closures other threads submitted.
  func runSubmittedWork() {
    let work = shared.withLock { shared in
      defer { shared.work = [] }
      return shared.work
    }
    work.forEach { $0() }
  }

  /// Dispatch thread: sleeps until the bus socket or the wake socket is
  /// ready, or the next call expires.
  func waitForActivity(on connection: OpaquePointer) {
    var socket: Int32 = -1
    guard dbus_connection_get_socket(connection, &socket) != 0 else {
      isDisconnected = true
      return
    }
    var busEvents = Int16(POLLIN)
    if dbus_connection_has_messages_to_send(connection) != 0 {
      busEvents |= Int16(POLLOUT)
    }
    var descriptors = [
      pollfd(fd: socket, events: busEvents, revents: 0),
      pollfd(fd: wakeDescriptors[0], events: Int16(POLLIN), revents: 0),
    ]
    var timeout: Int32 = 60_000
    if let deadline = calls.values.map(\.deadline).min() {
      let remaining = ContinuousClock.now.duration(to: deadline)
      timeout = max(0, min(timeout, milliseconds(remaining) + 1))
    }
    _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(wakeDescriptors[0], &buffer, buffer.count) > 0 {}
  }

  /// Queues work for the dispatch thread and wakes it.
  ///
  /// - Returns: False, without queueing, once the connection has ended or
  ///   is closing.
  @discardableResult
  func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
    let isAccepted = shared.withLock { shared in
      guard !shared.isClosing, !shared.hasEnded else { return false }
      shared.work.append(work)
      return true
    }
    if isAccepted { wake() }
    return isAccepted
  }

  func wake() {
    var byte: UInt8 = 1
    _ = write(wakeDescriptors[1], &byte, 1)
  }

}

/// Returns a duration in whole milliseconds, rounded down, within `Int32`.
func milliseconds(_ duration: Duration) -> Int32 {
  let (seconds, attoseconds) = duration.components
  let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
  return Int32(clamping: total)
}

// MARK: - Callback trampolines

func pendingCallCompleted(
  _ pending: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?
) {
  let record = Unmanaged<PendingCall>.fromOpaque(userdata!)
    .takeUnretainedValue()
  record.driver.replyArrived(for: record)
}

func messageFilter(
  _ connection: OpaquePointer?, _ message: OpaquePointer?,
  _ userdata: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
  if let message,
    Unmanaged<DBusConnectionDriver>.fromOpaque(userdata!)
      .takeUnretainedValue().handle(message: message)
  {
    return DBUS_HANDLER_RESULT_HANDLED
  }
  return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
