// The messages the driver exchanges, as plain Swift values: calls to send,
// replies, signals and failures. Nothing here touches C.

/// A D-Bus error: its name and its human-readable message.
struct DBusFailure: Error, Hashable, Sendable {
  /// The error name, such as `org.freedesktop.DBus.Error.ServiceUnknown`.
  var name: String
  /// The message that came with it.
  var message: String
}

/// One method call to send.
struct DBusMethodCall: Sendable {
  /// The bus name of the peer, such as `org.bluez`.
  var destination: String
  /// The object to call.
  var path: String
  /// The interface of the method.
  var interface: String
  /// The method's name.
  var member: String
  /// The arguments, of basic types only.
  var arguments: [DBusValue] = []

  /// The call in the form `interface.member on destination at path`.
  var summary: String {
    "\(interface).\(member) on \(destination) at \(path)"
  }
}

/// The arguments of a method's reply and the unique name that sent it.
struct DBusReply: Sendable {
  /// The sender of the reply.
  var sender: String
  /// The reply's arguments.
  var arguments: [DBusValue]
}

/// One signal received.
struct DBusSignal: Sendable {
  /// The unique bus name of the connection that sent it.
  var sender: String
  /// The object it was emitted from.
  var path: String
  /// Its interface.
  var interface: String
  /// Its name.
  var member: String
  /// Its arguments.
  var arguments: [DBusValue]
}

/// Returns whether text is a valid D-Bus object path: `/`, or `/`-separated
/// non-empty elements of ASCII letters, digits and `_`.
///
/// libdbus treats an invalid path as a programming error and may abort, so
/// paths are checked before they reach it.
func isValidObjectPath(_ path: String) -> Bool {
  let bytes = Array(path.utf8)
  guard bytes.first == UInt8(ascii: "/") else { return false }
  if bytes.count == 1 { return true }
  guard bytes.last != UInt8(ascii: "/") else { return false }
  var previousWasSlash = false
  for byte in bytes {
    if byte == UInt8(ascii: "/") {
      if previousWasSlash { return false }
      previousWasSlash = true
      continue
    }
    previousWasSlash = false
    let isAllowed =
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || byte == UInt8(ascii: "_")
    if !isAllowed { return false }
  }
  return true
}
