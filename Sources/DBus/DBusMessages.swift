// The messages the driver exchanges, as plain Swift values: calls to send,
// replies, signals and failures. Nothing here touches C.

/// A D-Bus error: its name and its human-readable message.
package struct DBusFailure: Error, Hashable, Sendable {
  /// The error name, such as `org.freedesktop.DBus.Error.ServiceUnknown`.
  package var name: String
  /// The message that came with it.
  package var message: String

  /// Creates a failure.
  package init(name: String, message: String) {
    self.name = name
    self.message = message
  }
}

/// One method call to send.
package struct DBusMethodCall: Sendable {
  /// The bus name of the peer, such as `org.bluez`.
  package var destination: String
  /// The object to call.
  package var path: String
  /// The interface of the method.
  package var interface: String
  /// The method's name.
  package var member: String
  /// The arguments, of basic types only.
  package var arguments: [DBusValue] = []
  /// Whether the bus may start the destination's service (D-Bus
  /// activation) when no one owns its name; false fails the call with
  /// `ServiceUnknown` instead.
  package var startsService = true

  /// Creates a call.
  package init(
    destination: String, path: String, interface: String, member: String,
    arguments: [DBusValue] = [], startsService: Bool = true
  ) {
    self.destination = destination
    self.path = path
    self.interface = interface
    self.member = member
    self.arguments = arguments
    self.startsService = startsService
  }

  /// The call in the form `interface.member on destination at path`.
  package var summary: String {
    "\(interface).\(member) on \(destination) at \(path)"
  }
}

/// The arguments of a method's reply and the unique name that sent it.
package struct DBusReply: Sendable {
  /// The sender of the reply.
  package var sender: String
  /// The reply's arguments.
  package var arguments: [DBusValue]

  /// Creates a reply.
  package init(sender: String, arguments: [DBusValue]) {
    self.sender = sender
    self.arguments = arguments
  }
}

/// A signal received.
package typealias DBusSignal = DBusIncomingMessage

/// A method call another peer made on an object this connection serves;
/// the Unix file descriptors among its arguments are the handler's to
/// close.
package typealias DBusIncomingCall = DBusIncomingMessage

/// A signal, or a method call on a served object, that arrived.
package struct DBusIncomingMessage: Sendable {
  /// The unique bus name of the connection that sent it.
  package var sender: String
  /// The object it was emitted from.
  package var path: String
  /// Its interface.
  package var interface: String
  /// Its name.
  package var member: String
  /// Its arguments.
  package var arguments: [DBusValue]
  /// The signature of its arguments, as the message carries it.
  package var signature: String

  /// Creates a signal.
  package init(
    sender: String, path: String, interface: String, member: String,
    arguments: [DBusValue], signature: String = ""
  ) {
    self.sender = sender
    self.path = path
    self.interface = interface
    self.member = member
    self.arguments = arguments
    self.signature = signature
  }
}

/// Returns whether text is a valid D-Bus object path: `/`, or `/`-separated
/// non-empty elements of ASCII letters, digits and `_`.
///
/// libdbus treats an invalid path as a programming error and may abort, so
/// paths are checked before they reach it.
package func isValidObjectPath(_ path: String) -> Bool {
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
