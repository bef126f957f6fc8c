// The driver's method calls, exported objects, signals, closing and
// failures: what runs on its dispatch thread once it is open.

internal import CDBus
import ConcurrencyHelpers
import Glibc

extension DBusConnectionDriver {
  // MARK: - Method calls

  /// Calls a method and returns its reply.
  ///
  /// - Parameters:
  ///   - call: The method and its arguments.
  ///   - timeout: How long to wait for the reply.
  ///   - cancellable: Whether cancelling the calling task ends the wait at
  ///     once, with a `NoReply` failure (the method may still run); else
  ///     the call is waited for whatever happens to the task, as a call
  ///     made while stopping must be.
  ///   - onReply: Runs on the dispatch thread with the result before it is
  ///     returned, so it sees the reply in order with the signals.
  package func call(
    _ call: DBusMethodCall, timeout: Duration, cancellable: Bool = false,
    onReply: (@Sendable (Result<DBusReply, DBusFailure>) -> Void)? = nil
  ) async -> Result<DBusReply, DBusFailure> {
    let cancellation = cancellable ? CallCancellation() : nil
    return await withTaskCancellationHandler {
      await withHandover { handover in
        let isAccepted = submit { [self] in
          if cancellation?.isCancelled == true {
            return handover.resume(returning: .failure(Self.cancelledFailure))
          }
          self.start(call, timeout: timeout, cancellation: cancellation) {
            result in
            onReply?(result)
            handover.resume(returning: result)
          }
        }
        if !isAccepted {
          handover.resume(returning: .failure(Self.closedFailure))
        }
      }
    } onCancel: {
      guard let cancellation else { return }
      cancellation.cancel()
      _ = submit { [self] in self.cancel(cancellation) }
    }
  }

  /// Dispatch thread: ends the call a cancelled task made, if it is still
  /// waiting for its reply; the reply, if one comes, is dropped.
  func cancel(_ cancellation: CallCancellation) {
    guard
      let record = calls.values.first(where: {
        $0.cancellation === cancellation
      })
    else { return }
    finish(record, .failure(Self.cancelledFailure))
  }

  /// Dispatch thread: calls a method; `completion` runs on the dispatch
  /// thread.
  package func start(
    _ call: DBusMethodCall, timeout: Duration,
    cancellation: CallCancellation? = nil,
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
    if !call.startsService { dbus_message_set_auto_start(message, 0) }
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
    record.cancellation = cancellation
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
  func replyArrived(for record: PendingCall) {
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
  func finish(
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
  func expireCalls() {
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
  func answer(_ message: OpaquePointer) -> Bool {
    let path = dbus_message_get_path(message).map { String(cString: $0) }
    guard let connection, let path else { return false }
    guard let handler = exported[path] else {
      return answerInTree(message)
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
  func handle(message: OpaquePointer) -> Bool {
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

  func closeAndJoin() {
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
  func tearDown() {
    let failure = isDisconnected ? Self.disconnectedFailure : Self.closedFailure
    let leftover = shared.withLock { shared in
      shared.hasEnded = true
      defer { shared.work = [] }
      return shared.work
    }
    // What was sent before the close (a last reply) leaves before the
    // connection closes.
    if let connection, !isDisconnected { dbus_connection_flush(connection) }
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

  static let outOfMemory = DBusFailure(
    name: "org.freedesktop.DBus.Error.NoMemory",
    message: "libdbus ran out of memory")

  static let closedFailure = DBusFailure(
    name: "org.freedesktop.DBus.Error.Disconnected",
    message: "the connection was closed")

  static let cancelledFailure = DBusFailure(
    name: "org.freedesktop.DBus.Error.NoReply",
    message: "the caller stopped waiting for the reply")

  static let disconnectedFailure = DBusFailure(
    name: "org.freedesktop.DBus.Error.Disconnected",
    message: "the connection to the bus was lost")

  /// Moves a set libdbus error into a failure and frees it.
  static func takeFailure(_ error: inout DBusError) -> DBusFailure {
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
