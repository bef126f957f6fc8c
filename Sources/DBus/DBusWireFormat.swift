// D-Bus messages read from their wire format, as a connection reads them
// off the bus: for the fuzzer, which hands the driver's decoding bytes no
// bus would have checked first. libdbus validates each message, then the
// module decodes it exactly as the driver does.

internal import CDBus

/// A message read from D-Bus's wire format.
package struct DBusWireMessage: Sendable {
  /// What kind of message it is.
  package enum Kind: Sendable, Hashable {
    /// A method call.
    case methodCall
    /// A method's reply.
    case methodReturn
    /// An error reply.
    case error
    /// A signal.
    case signal
  }

  /// Its kind.
  package var kind: Kind
  /// Its header fields and arguments, as the driver hands them on.
  package var message: DBusIncomingMessage

  /// Reads the messages that fill the start of `bytes`, one after another
  /// as a connection would; stops at the first that is incomplete or that
  /// libdbus refuses.
  package static func messages(in bytes: [UInt8]) -> [DBusWireMessage] {
    var messages: [DBusWireMessage] = []
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let start = UnsafeRawPointer(base + offset)
          .assumingMemoryBound(to: CChar.self)
        let available = Int32(clamping: buffer.count - offset)
        let needed = Int(dbus_message_demarshal_bytes_needed(start, available))
        guard needed > 0, needed <= buffer.count - offset else { return }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let message = dbus_message_demarshal(start, Int32(needed), &error)
        else { return }
        defer { dbus_message_unref(message) }
        if let kind = Kind(code: dbus_message_get_type(message)) {
          messages.append(
            DBusWireMessage(
              kind: kind, message: DBusIncomingMessage(reading: message)))
        }
        offset += needed
      }
    }
    return messages
  }
}

extension DBusWireMessage {
  /// A signal in the wire format, with its arguments appended as the
  /// driver appends them: with this signature, or inferred when nil.
  ///
  /// - Returns: Nil when the arguments do not fit the signature.
  package static func signal(
    path: String, interface: String, member: String,
    arguments: [DBusValue], signature: String? = nil
  ) -> [UInt8]? {
    guard isValidObjectPath(path),
      let message = dbus_message_new_signal(path, interface, member)
    else { return nil }
    defer { dbus_message_unref(message) }
    let appended = DBusValue.append(
      arguments, signature: signature, to: message)
    guard appended else { return nil }
    // A serial, as a connection would give it before sending.
    dbus_message_set_serial(message, 1)
    var bytes: UnsafeMutablePointer<CChar>? = nil
    var count: Int32 = 0
    guard dbus_message_marshal(message, &bytes, &count) != 0, let bytes else {
      return nil
    }
    defer { dbus_free(bytes) }
    return Array(
      UnsafeRawBufferPointer(start: bytes, count: Int(count)).bindMemory(
        to: UInt8.self))
  }
}

extension DBusWireMessage.Kind {
  fileprivate init?(code: Int32) {
    switch code {
    case DBUS_MESSAGE_TYPE_METHOD_CALL: self = .methodCall
    case DBUS_MESSAGE_TYPE_METHOD_RETURN: self = .methodReturn
    case DBUS_MESSAGE_TYPE_ERROR: self = .error
    case DBUS_MESSAGE_TYPE_SIGNAL: self = .signal
    default: return nil
    }
  }
}

extension DBusIncomingMessage {
  /// Reads a message's header fields and arguments.
  ///
  /// - Parameters:
  ///   - message: A `DBusMessage *`.
  ///   - keepingDescriptors: Whether the copies of Unix file descriptors
  ///     among the arguments stay open for the caller, who must close them.
  init(reading message: OpaquePointer, keepingDescriptors: Bool = false) {
    let text = { (value: UnsafePointer<CChar>?) in
      value.map { String(cString: $0) } ?? ""
    }
    self.init(
      sender: text(dbus_message_get_sender(message)),
      path: text(dbus_message_get_path(message)),
      interface: text(dbus_message_get_interface(message)),
      member: text(dbus_message_get_member(message)),
      arguments: DBusValue.arguments(
        of: message, keepingDescriptors: keepingDescriptors),
      signature: text(dbus_message_get_signature(message)))
  }
}
