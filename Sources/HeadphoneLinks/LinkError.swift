// Why a link to a pair of headphones failed.

import SystemCalls

/// A failure of a socket to headphones.
public enum LinkError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kernel has no Bluetooth sockets (`EAFNOSUPPORT`).
  case noBluetoothSockets
  /// Not a Bluetooth address.
  case badAddress(String)
  /// The socket could not be made.
  case socket(errno: Errno)
  /// The socket could not take the adapter's address.
  case bind(errno: Errno)
  /// The connection failed.
  case connect(errno: Errno)
  /// The headphones did not answer the connection in time: out of range,
  /// or off.
  case connectTimedOut(seconds: Int)
  /// A packet could not be sent.
  case send(errno: Errno)
  /// A packet could not be received.
  case receive(errno: Errno)
  /// BlueZ did not open the link (a Galaxy Buds' RFCOMM link, which BlueZ
  /// opens and hands over), and why.
  case bluez(String)
  /// The device's SDP server could not be asked, or its answer not read.
  case serviceDiscovery(String)

  /// What failed, and the system's words for why.
  public var description: String {
    switch self {
    case .noBluetoothSockets:
      "this kernel has no Bluetooth sockets (AF_BLUETOOTH is not supported)"
    case .badAddress(let text):
      "'\(text)' is not a Bluetooth address; expected six pairs of hex "
        + "digits such as AA:BB:CC:DD:EE:01"
    case .socket(let code): "cannot make a socket: \(code)"
    case .bind(let code):
      "cannot connect from the adapter: \(code)"
    case .connect(let code): "cannot connect: \(code)"
    case .connectTimedOut(let seconds):
      "cannot connect: no answer within \(seconds) s (out of range, or off)"
    case .send(let code): "cannot send: \(code)"
    case .receive(let code): "cannot receive: \(code)"
    case .bluez(let why): why
    case .serviceDiscovery(let why): "cannot read the service records: \(why)"
    }
  }
}
