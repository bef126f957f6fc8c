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
private final class PendingCall {
  package let id: Int
  unowned let driver: DBusConnectionDriver
  package let deadline: ContinuousClock.Instant
  package let timeout: Duration
  package var pending: OpaquePointer?
  package var completion: ((Result<DBusReply, DBusFailure>) -> Void)?

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
  private struct Shared {
    var work: [@Sendable () -> Void] = []
    var isClosing = false
    var hasEnded = false
    var isJoined = false
  }

  private let address: String
  private let matchRules: [String]
  private let signalHandler: SignalHandler
  private let onEnd: @Sendable () -> Void
  private let shared = Mutex(Shared())
  /// Held, off the dispatch thread, for the whole of a close, so that a
  /// second close waits for the first to join the thread.
  private let closing = Mutex(())
  /// The wake socket pair: other threads write to 1, the thread polls 0.
  private let wakeDescriptors: [Int32]
  private var thread = pthread_t()

  // Touched only on the dispatch thread.
  private var connection: OpaquePointer?
  private var calls: [Int: PendingCall] = [:]
  private var nextCallID = 0
  private var isDisconnected = false
  /// The objects this connection serves, by path.
  private var exported: [String: MethodHandler] = [:]

  private init(
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
  private func startThread(
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
  private final class ThreadContext {
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
  private func threadMain(
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
  private func setUpConnection() -> Result<Void, DBusFailure> {
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
  private func runLoop() {
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
  private func runSubmittedWork() {
    let work = shared.withLock { shared in
      defer { shared.work = [] }
      return shared.work
    }
    work.forEach { $0() }
  }

  /// Dispatch thread: sleeps until the bus socket or the wake socket is
  /// ready, or the next call expires.
  private func waitForActivity(on connection: OpaquePointer) {
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
  private func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
    let isAccepted = shared.withLock { shared in
      guard !shared.isClosing, !shared.hasEnded else { return false }
      shared.work.append(work)
      return true
    }
    if isAccepted { wake() }
    return isAccepted
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeDescriptors[1], &byte, 1)
  }

  // MARK: - Method calls

  /// Calls a method and returns its reply.
  ///
  /// - Parameters:
  ///   - call: The method and its arguments.
  ///   - timeout: How long to wait for the reply.
  ///   - onReply: Runs on the dispatch thread with the result before it is
  ///     returned, so it sees the reply in order with the signals.
  package func call(
    _ call: DBusMethodCall, timeout: Duration,
    onReply: (@Sendable (Result<DBusReply, DBusFailure>) -> Void)? = nil
  ) async -> Result<DBusReply, DBusFailure> {
    await withHandover { handover in
      let isAccepted = submit { [self] in
        self.start(call, timeout: timeout) { result in
          onReply?(result)
          handover.resume(returning: result)
        }
      }
      if !isAccepted {
        handover.resume(returning: .failure(Self.closedFailure))
      }
    }
  }

  /// Dispatch thread: calls a method; `completion` runs on the dispatch
  /// thread.
  package func start(
    _ call: DBusMethodCall, timeout: Duration,
    completion: @escaping (Result<DBusReply, DBusFailure>) -> Void
  ) {
    guard let connection, !isDisconnected else {
      return completion(.failure(Self.closedFailure))
    }
    guard isValidObjectPath(call.path) else {
      return completion(
        .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "'\(call.path)' is not a valid object path")))
    }
    guard
      let message = dbus_message_new_method_call(
        call.destination, call.path, call.interface, call.member)
    else {
      return completion(.failure(Self.outOfMemory))
    }
    defer { dbus_message_unref(message) }
    guard DBusValue.append(call.arguments, to: message) else {
      return completion(.failure(Self.outOfMemory))
    }
    var pending: OpaquePointer? = nil
    let isQueued = dbus_connection_send_with_reply(
      connection, message, &pending, DBUS_TIMEOUT_INFINITE)
    guard isQueued != 0 else {
      return completion(.failure(Self.outOfMemory))
    }
    // libdbus returns no pending call once the connection is lost.
    guard let pending else {
      return completion(.failure(Self.disconnectedFailure))
    }
    let record = PendingCall(
      id: nextCallID, driver: self, timeout: timeout, completion: completion)
    nextCallID += 1
    record.pending = pending
    calls[record.id] = record
    let userdata = Unmanaged.passUnretained(record).toOpaque()
    guard
      dbus_pending_call_set_notify(pending, pendingCallCompleted, userdata, nil)
        != 0
    else {
      return finish(record, .failure(Self.outOfMemory))
    }
  }

  /// Dispatch thread: the pending call of a record has its reply.
  fileprivate func replyArrived(for record: PendingCall) {
    guard let pending = record.pending,
      let reply = dbus_pending_call_steal_reply(pending)
    else {
      return finish(record, .failure(Self.disconnectedFailure))
    }
    defer { dbus_message_unref(reply) }
    let sender = dbus_message_get_sender(reply).map { String(cString: $0) }
    if dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR {
      let name =
        dbus_message_get_error_name(reply).map { String(cString: $0) }
        ?? "org.freedesktop.DBus.Error.Failed"
      let message = DBusValue.arguments(of: reply).first?.string ?? ""
      finish(record, .failure(DBusFailure(name: name, message: message)))
    } else {
      let arguments = DBusValue.arguments(of: reply)
      finish(
        record, .success(DBusReply(sender: sender ?? "", arguments: arguments)))
    }
  }

  /// Dispatch thread: ends a call once, releasing its pending call.
  private func finish(
    _ record: PendingCall, _ result: Result<DBusReply, DBusFailure>
  ) {
    guard let completion = record.completion else { return }
    record.completion = nil
    if let pending = record.pending {
      dbus_pending_call_cancel(pending)
      dbus_pending_call_unref(pending)
      record.pending = nil
    }
    calls[record.id] = nil
    completion(result)
  }

  /// Dispatch thread: fails the calls whose deadline has passed.
  private func expireCalls() {
    let now = ContinuousClock.now
    for record in calls.values.sorted(by: { $0.id < $1.id })
    where record.deadline <= now {
      finish(
        record,
        .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.NoReply",
            message: "no reply within \(record.timeout)")))
    }
  }

  // MARK: - Exported objects

  /// Serves an object.
  ///
  /// Method calls on `path` go to `handler`, on the dispatch thread, and
  /// its result is the reply. Calls on paths not exported get libdbus's
  /// `UnknownMethod`.
  ///
  /// - Returns: Whether the connection is still open to take it.
  package func export(
    _ path: String, handler: @escaping MethodHandler
  ) async -> Bool {
    await withHandover { handover in
      let isAccepted = submit { [self] in
        self.exported[path] = handler
        handover.resume(returning: true)
      }
      if !isAccepted { handover.resume(returning: false) }
    }
  }

  /// Stops serving an object.
  package func unexport(_ path: String) {
    _ = submit { [self] in self.exported[path] = nil }
  }

  /// Dispatch thread: answers a method call on an exported object.
  ///
  /// - Returns: Whether it was one.
  private func answer(_ message: OpaquePointer) -> Bool {
    let path = dbus_message_get_path(message).map { String(cString: $0) }
    guard let connection, let path, let handler = exported[path] else {
      return false
    }
    let call = DBusIncomingCall(reading: message, keepingDescriptors: true)
    let reply: OpaquePointer?
    switch handler(call) {
    case .success(let arguments):
      reply = dbus_message_new_method_return(message)
      if let reply, !DBusValue.append(arguments, to: reply) {
        dbus_message_unref(reply)
        return true
      }
    case .failure(let failure):
      reply = dbus_message_new_error(message, failure.name, failure.message)
    }
    guard let reply else { return true }
    if dbus_message_get_no_reply(message) == 0 {
      dbus_connection_send(connection, reply, nil)
    }
    dbus_message_unref(reply)
    return true
  }

  // MARK: - Signals

  /// Dispatch thread: handles one incoming message that is not a reply.
  ///
  /// - Returns: Whether it answered it (a call on an exported object).
  fileprivate func handle(message: OpaquePointer) -> Bool {
    if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL {
      return answer(message)
    }
    guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else {
      return false
    }
    let signal = DBusSignal(reading: message)
    if signal.interface == "org.freedesktop.DBus.Local",
      signal.member == "Disconnected"
    {
      isDisconnected = true
      return false
    }
    signalHandler(signal, self)
    return false
  }

  // MARK: - Closing

  /// Closes the connection: calls in flight fail, the thread ends and, unless
  /// this is the dispatch thread itself, is waited for.
  ///
  /// Safe to call more than once and from any thread; a call made, off the
  /// dispatch thread, while another closes returns once the thread ended.
  package func close() {
    if pthread_equal(pthread_self(), thread) != 0 {
      closeAndJoin()
    } else {
      closing.withLock { _ in closeAndJoin() }
    }
  }

  private func closeAndJoin() {
    let shouldJoin = shared.withLock { shared in
      shared.isClosing = true
      guard !shared.isJoined else { return false }
      shared.isJoined = true
      return true
    }
    wake()
    guard shouldJoin else { return }
    if pthread_equal(pthread_self(), thread) != 0 {
      pthread_detach(thread)
    } else {
      pthread_join(thread, nil)
    }
  }

  /// Dispatch thread: fails what is left, closes the connection and tells
  /// the owner.
  private func tearDown() {
    let failure = isDisconnected ? Self.disconnectedFailure : Self.closedFailure
    let leftover = shared.withLock { shared in
      shared.hasEnded = true
      defer { shared.work = [] }
      return shared.work
    }
    // Work queued before the end may start calls; they fail at once.
    isDisconnected = true
    leftover.forEach { $0() }
    for record in calls.values.sorted(by: { $0.id < $1.id }) {
      finish(record, .failure(failure))
    }
    if let connection {
      // Nothing is dispatched after this, so the filter need not be removed;
      // the last unref frees it.
      dbus_connection_close(connection)
      dbus_connection_unref(connection)
      self.connection = nil
    }
    onEnd()
  }

  // MARK: - Failures

  private static let outOfMemory = DBusFailure(
    name: "org.freedesktop.DBus.Error.NoMemory",
    message: "libdbus ran out of memory")

  private static let closedFailure = DBusFailure(
    name: "org.freedesktop.DBus.Error.Disconnected",
    message: "the connection was closed")

  private static let disconnectedFailure = DBusFailure(
    name: "org.freedesktop.DBus.Error.Disconnected",
    message: "the connection to the bus was lost")

  /// Moves a set libdbus error into a failure and frees it.
  private static func takeFailure(_ error: inout DBusError) -> DBusFailure {
    defer { dbus_error_free(&error) }
    guard dbus_error_is_set(&error) != 0 else {
      return DBusFailure(
        name: "org.freedesktop.DBus.Error.Failed",
        message: "libdbus failed without saying why")
    }
    return DBusFailure(
      name: error.name.map { String(cString: $0) }
        ?? "org.freedesktop.DBus.Error.Failed",
      message: error.message.map { String(cString: $0) } ?? "")
  }
}

/// Returns a duration in whole milliseconds, rounded down, within `Int32`.
private func milliseconds(_ duration: Duration) -> Int32 {
  let (seconds, attoseconds) = duration.components
  let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
  return Int32(clamping: total)
}

// MARK: - Callback trampolines

private func pendingCallCompleted(
  _ pending: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?
) {
  let record = Unmanaged<PendingCall>.fromOpaque(userdata!)
    .takeUnretainedValue()
  record.driver.replyArrived(for: record)
}

private func messageFilter(
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
