// Serving objects beyond the fixed handlers of `export`: replies given
// later, from any thread (a method that awaits the daemon), a handler for
// every path not exported on its own (an object tree), and signals sent.

internal import CDBus
import ConcurrencyHelpers
import Glibc

/// The answer still owed to one method call: ``send(_:signature:)`` or
/// ``fail(_:)`` answers it once, from any thread.
///
/// It holds a reference to the call's message, taken on the dispatch
/// thread; the answer hands it back there, where it is released once the
/// reply is sent.
package final class DBusPendingReply: Sendable {
  private let driver: DBusConnectionDriver
  /// The call's `DBusMessage *`, referenced until the answer is sent.
  private nonisolated(unsafe) let message: OpaquePointer
  private let isAnswered = Mutex(false)

  /// Dispatch thread: takes a reference to the call.
  init(driver: DBusConnectionDriver, message: OpaquePointer) {
    self.driver = driver
    self.message = message
    dbus_message_ref(message)
  }

  deinit {
    if !isAnswered.withLock({ $0 }) {
      answer(
        .failure(
          DBusFailure(
            name: "org.freedesktop.DBus.Error.Failed",
            message: "the call was dropped without an answer")),
        signature: nil)
    }
  }

  /// Answers with these values, of this signature (inferred from the
  /// values when nil).
  package func send(_ values: [DBusValue], signature: String? = nil) {
    answer(.success(values), signature: signature)
  }

  /// Answers with an error.
  package func fail(_ failure: DBusFailure) {
    answer(.failure(failure), signature: nil)
  }

  /// Answers with a result.
  package func answer(
    _ result: Result<[DBusValue], DBusFailure>, signature: String?
  ) {
    let isFirst = isAnswered.withLock { answered in
      defer { answered = true }
      return !answered
    }
    guard isFirst else { return }
    // The reference goes with the work, released on the dispatch thread;
    // once the connection has ended there is no such thread left.
    let message = MessageReference(pointer: self.message)
    let accepted = driver.submit { [driver] in
      driver.sendAnswer(result, signature: signature, to: message.pointer)
      dbus_message_unref(message.pointer)
    }
    if !accepted { dbus_message_unref(message.pointer) }
  }
}

/// A referenced `DBusMessage *` handed to the dispatch thread; libdbus's
/// reference counts are atomic, and only that thread reads it.
private struct MessageReference: @unchecked Sendable {
  let pointer: OpaquePointer
}

extension DBusConnectionDriver {
  /// A handler for method calls on any path `export` does not serve; it
  /// runs on the dispatch thread and answers through the pending reply,
  /// then or later.
  package typealias TreeHandler =
    @Sendable (DBusIncomingCall, DBusPendingReply) -> Void

  /// Sends method calls on paths not exported one by one to `handler`.
  package func serveTree(_ handler: @escaping TreeHandler) async -> Bool {
    await withHandover { handover in
      let isAccepted = submit { [self] in
        self.treeHandler = handler
        handover.resume(returning: true)
      }
      if !isAccepted { handover.resume(returning: false) }
    }
  }

  /// Dispatch thread: gives a method call to the tree handler.
  ///
  /// - Returns: Whether there is one.
  func answerInTree(_ message: OpaquePointer) -> Bool {
    guard let treeHandler else { return false }
    let call = DBusIncomingCall(reading: message)
    treeHandler(call, DBusPendingReply(driver: self, message: message))
    return true
  }

  /// Dispatch thread: sends a method call's answer, unless its caller
  /// asked for none.
  func sendAnswer(
    _ result: Result<[DBusValue], DBusFailure>, signature: String?,
    to message: OpaquePointer
  ) {
    guard let connection, !isDisconnected,
      dbus_message_get_no_reply(message) == 0
    else { return }
    var reply: OpaquePointer?
    switch result {
    case .success(let values):
      reply = dbus_message_new_method_return(message)
      if let built = reply {
        let appended = DBusValue.append(values, signature: signature, to: built)
        if !appended {
          dbus_message_unref(built)
          reply = dbus_message_new_error(
            message, "org.freedesktop.DBus.Error.Failed",
            "the reply does not fit its signature \(signature ?? "")")
        }
      }
    case .failure(let failure):
      reply = dbus_message_new_error(message, failure.name, failure.message)
    }
    guard let reply else { return }
    dbus_connection_send(connection, reply, nil)
    dbus_message_unref(reply)
  }

  // MARK: - Signals

  /// Sends a signal from an object.
  ///
  /// - Parameters:
  ///   - signature: The arguments' signature; nil infers it from them.
  ///   - destination: A unique name to send it to alone; nil broadcasts.
  /// - Returns: False when the connection has ended or the arguments do
  ///   not fit the signature.
  @discardableResult
  package func emit(
    path: String, interface: String, member: String,
    arguments: [DBusValue], signature: String? = nil,
    destination: String? = nil
  ) async -> Bool {
    await withHandover { handover in
      let isAccepted = submit { [self] in
        handover.resume(
          returning: self.sendSignal(
            path: path, interface: interface, member: member,
            arguments: arguments, signature: signature,
            destination: destination))
      }
      if !isAccepted { handover.resume(returning: false) }
    }
  }

  /// Dispatch thread: builds and queues a signal.
  func sendSignal(
    path: String, interface: String, member: String,
    arguments: [DBusValue], signature: String?, destination: String?
  ) -> Bool {
    guard let connection, !isDisconnected, isValidObjectPath(path),
      let message = dbus_message_new_signal(path, interface, member)
    else { return false }
    defer { dbus_message_unref(message) }
    if let destination {
      dbus_message_set_destination(message, destination)
    }
    let appended = DBusValue.append(
      arguments, signature: signature, to: message)
    guard appended else { return false }
    return dbus_connection_send(connection, message, nil) != 0
  }
}

extension DBusConnectionDriver {
  /// What became of a request for a well-known name.
  package enum NameRequest: Sendable, Equatable {
    /// The connection owns the name.
    case owned
    /// Another connection owns it; the request was not queued.
    case taken
  }

  /// Asks the bus for a well-known name, without queueing for it.
  package func requestName(
    _ name: String, timeout: Duration = .seconds(5)
  ) async -> Result<NameRequest, DBusFailure> {
    // DBUS_NAME_FLAG_DO_NOT_QUEUE; replies 1 (primary owner) and 4
    // (already owner) mean the name is ours.
    let reply = await call(
      DBusMethodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "RequestName",
        arguments: [.string(name), .uint32(4)]),
      timeout: timeout)
    return reply.map { reply in
      switch reply.arguments.first?.integer {
      case 1, 4: .owned
      default: .taken
      }
    }
  }
}
