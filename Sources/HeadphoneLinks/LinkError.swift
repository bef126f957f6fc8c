// Why a link to a pair of headphones failed.

import Glibc

/// A failure of a socket to headphones.
public enum LinkError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kernel has no Bluetooth sockets (`EAFNOSUPPORT`).
  case noBluetoothSockets
  /// Not a Bluetooth address.
  case badAddress(String)
  /// The socket could not be made.
  case socket(errno: Int32)
  /// The socket could not take the adapter's address.
  case bind(errno: Int32)
  /// The connection failed.
  case connect(errno: Int32)
  /// The headphones did not answer the connection in time: out of range,
  /// or off.
  case connectTimedOut(seconds: Int)
  /// A packet could not be sent.
  case send(errno: Int32)
  /// A packet could not be received.
  case receive(errno: Int32)
  /// BlueZ did not open the link (a Galaxy Buds' RFCOMM link, which BlueZ
  /// opens and hands over), and why.
  case bluez(String)

  /// What failed, and the system's words for why.
  public var description: String {
    switch self {
    case .noBluetoothSockets:
      "this kernel has no Bluetooth sockets (AF_BLUETOOTH is not supported)"
    case .badAddress(let text):
      "'\(text)' is not a Bluetooth address; expected six pairs of hex "
        + "digits such as AA:BB:CC:DD:EE:01"
    case .socket(let code): "cannot make a socket: \(Self.text(code))"
    case .bind(let code):
      "cannot connect from the adapter: \(Self.text(code))"
    case .connect(let code): "cannot connect: \(Self.text(code))"
    case .connectTimedOut(let seconds):
      "cannot connect: no answer within \(seconds) s (out of range, or off)"
    case .send(let code): "cannot send: \(Self.text(code))"
    case .receive(let code): "cannot receive: \(Self.text(code))"
    case .bluez(let why): why
    }
  }

  private static func text(_ code: Int32) -> String {
    String(cString: strerror(code)) + " (errno \(code))"
  }
}
