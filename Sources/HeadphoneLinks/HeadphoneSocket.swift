// A connected socket to headphones: L2CAP SOCK_SEQPACKET to a pair of
// AirPods or a device's SDP server (message boundaries kept), RFCOMM
// SOCK_STREAM to Galaxy Buds (a byte stream, handed over by BlueZ or
// connected to the channel their SDP record names), or a Unix socket pair
// for tests.
// Every call blocks: run them on a thread of their own, never on the
// shared task threads.

import Glibc
import SystemCalls

/// A connected socket to headphones.
///
/// On a `SOCK_SEQPACKET` socket each ``receive(capacity:)`` is one packet;
/// on a `SOCK_STREAM` socket it is whatever bytes have arrived.
public final class HeadphoneSocket: Sendable {
  /// The file descriptor; -1 once closed.
  private let descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    Glibc.close(descriptor)
  }

  /// Takes a connected socket, such as the RFCOMM socket BlueZ hands
  /// over; the socket closes it when released.
  ///
  /// - Parameter descriptor: A connected socket's descriptor, which the
  ///   caller gives up.
  public convenience init(adopting descriptor: Int32) {
    self.init(descriptor: descriptor)
  }

  /// Two connected Unix sockets, for tests that play the headphones' side.
  ///
  /// - Parameter streaming: `SOCK_STREAM` rather than `SOCK_SEQPACKET`.
  public static func pair(
    streaming: Bool = false
  ) throws(LinkError) -> (HeadphoneSocket, HeadphoneSocket) {
    var descriptors: [Int32] = [-1, -1]
    let type = streaming ? SOCK_STREAM : SOCK_SEQPACKET
    guard
      socketpair(
        AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0,
        &descriptors) == 0
    else { throw .socket(errno: .current) }
    return (
      HeadphoneSocket(descriptor: descriptors[0]),
      HeadphoneSocket(descriptor: descriptors[1])
    )
  }

  /// How long a connect may wait for the headphones, in seconds.
  public static let connectTimeoutSeconds = 10

  /// Connects to an L2CAP PSM of a Bluetooth device.
  ///
  /// - Parameters:
  ///   - address: The device's address, such as `AA:BB:CC:DD:EE:01`.
  ///   - psm: The protocol/service multiplexer, such as ``AAP/psm``.
  ///   - receiveBuffer: The receive buffer to ask for, so that no packet
  ///     is cut short.
  ///   - adapter: The address of the host's adapter to connect from (the
  ///     one BlueZ connected the device on); nil lets the kernel choose.
  ///   - receiveTimeoutSeconds: How long a receive may wait before it
  ///     fails, for a peer that may never answer; nil waits.
  /// - Throws: ``LinkError/noBluetoothSockets`` on a kernel without
  ///   Bluetooth, or why the connection failed.
  public static func connectL2CAP(
    to address: String, psm: UInt16, receiveBuffer: Int,
    from adapter: String? = nil, receiveTimeoutSeconds: Int? = nil
  ) throws(LinkError) -> HeadphoneSocket {
    try connect(
      SOCK_SEQPACKET, l2capProtocol, to: address, from: adapter,
      receiveBuffer: receiveBuffer, receiveTimeoutSeconds: receiveTimeoutSeconds
    ) { bytes, isTarget in
      SocketAddressL2(
        family: sa_family_t(bluetoothFamily),
        psm: (isTarget ? psm : 0).littleEndian, address: bytes, channel: 0,
        addressType: 0)
    }
  }

  /// Connects to an RFCOMM channel of a Bluetooth device, a byte stream.
  ///
  /// - Parameters:
  ///   - address: The device's address, such as `AA:BB:CC:DD:EE:01`.
  ///   - channel: The channel, 1 to 30, as the device's SDP record says.
  ///   - adapter: The address of the host's adapter to connect from; nil
  ///     lets the kernel choose.
  /// - Throws: ``LinkError/noBluetoothSockets`` on a kernel without
  ///   Bluetooth, or why the connection failed.
  public static func connectRFCOMM(
    to address: String, channel: UInt8, from adapter: String? = nil
  ) throws(LinkError) -> HeadphoneSocket {
    try connect(
      SOCK_STREAM, rfcommProtocol, to: address, from: adapter,
      receiveBuffer: nil
    ) { bytes, isTarget in
      SocketAddressRFCOMM(
        family: sa_family_t(bluetoothFamily), address: bytes,
        channel: isTarget ? channel : 0)
    }
  }

  /// Opens a Bluetooth socket, binds it to the adapter if one is named,
  /// and connects it, waiting at most ``connectTimeoutSeconds``.
  ///
  /// - Parameters:
  ///   - type: The socket type.
  ///   - proto: The Bluetooth protocol.
  ///   - address: The device's address.
  ///   - adapter: The adapter's address, or nil.
  ///   - receiveBuffer: The receive buffer to ask for, or nil.
  ///   - receiveTimeoutSeconds: How long a receive may wait, or nil.
  ///   - socketAddress: The kernel's address for an address's bytes: the
  ///     device's with its port (true), or the adapter's without (false).
  private static func connect<Address>(
    _ type: __socket_type, _ proto: Int32, to address: String,
    from adapter: String?, receiveBuffer: Int?,
    receiveTimeoutSeconds: Int? = nil,
    socketAddress: (
      (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8), _ isTarget: Bool
    ) -> Address
  ) throws(LinkError) -> HeadphoneSocket {
    guard let bytes = bluetoothAddressBytes(address) else {
      throw .badAddress(address)
    }
    let local = try adapter.map { adapter throws(LinkError) in
      guard let bytes = bluetoothAddressBytes(adapter) else {
        throw .badAddress(adapter)
      }
      return bytes
    }
    let descriptor = socket(
      bluetoothFamily, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
      proto)
    guard descriptor >= 0 else {
      let code = Errno.current
      throw code == .addressFamilyNotSupported
        ? .noBluetoothSockets : .socket(errno: code)
    }
    let socket = HeadphoneSocket(descriptor: descriptor)
    if var size = receiveBuffer.map(Int32.init) {
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVBUF, &size,
        socklen_t(MemoryLayout<Int32>.size))
    }
    if let seconds = receiveTimeoutSeconds {
      var wait = timeval(tv_sec: seconds, tv_usec: 0)
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait,
        socklen_t(MemoryLayout<timeval>.size))
    }
    // A Bluetooth connect waits as long as the send timeout: headphones
    // out of range then fail in seconds, not after the kernel's 40.
    var wait = timeval(tv_sec: Self.connectTimeoutSeconds, tv_usec: 0)
    _ = setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait,
      socklen_t(MemoryLayout<timeval>.size))
    // The stride is C's size, with its padding.
    let length = socklen_t(MemoryLayout<Address>.stride)
    if let local {
      var source = socketAddress(local, false)
      let bound = withUnsafePointer(to: &source) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.bind(descriptor, $0, length)
        }
      }
      guard bound == 0 else { throw .bind(errno: .current) }
    }
    var target = socketAddress(bytes, true)
    let connected = withUnsafePointer(to: &target) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, length)
      }
    }
    guard connected == 0 else {
      // The kernel gives up waiting after the send timeout set above.
      let code = Errno.current
      throw code == .inProgress || code == .wouldBlock
        ? .connectTimedOut(seconds: Self.connectTimeoutSeconds)
        : .connect(errno: code)
    }
    return socket
  }

  /// Sends one packet.
  public func send(_ packet: [UInt8]) throws(LinkError) {
    let sent = packet.withUnsafeBytes {
      Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard sent == packet.count else { throw .send(errno: .current) }
  }

  /// Waits for the next packet, or on a stream for the next bytes.
  ///
  /// - Parameter capacity: The largest packet expected; a longer one is
  ///   cut, as the kernel does. On a stream, the most bytes to take.
  /// - Returns: The packet or bytes, or nil once the other side closed (or
  ///   ``shutDown()`` was called).
  public func receive(capacity: Int) throws(LinkError) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: capacity)
    let count = Errno.retryingInterrupts {
      buffer.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, $0.count, 0)
      }
    }
    if count > 0 { return Array(buffer[..<count]) }
    if count == 0 { return nil }
    throw .receive(errno: .current)
  }

  /// Ends both directions, so that a blocked ``receive(capacity:)`` returns
  /// nil; the descriptor is closed when the socket is released.
  public func shutDown() {
    Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
  }
}

/// `AF_BLUETOOTH`, from BlueZ's `bluetooth.h`.
let bluetoothFamily: Int32 = 31
/// `BTPROTO_L2CAP`.
let l2capProtocol: Int32 = 0
/// `BTPROTO_RFCOMM`.
let rfcommProtocol: Int32 = 3

/// `struct sockaddr_l2`: the family, the PSM (little-endian), the address
/// with its last byte first, the channel id and the address type.
struct SocketAddressL2 {
  var family: sa_family_t
  var psm: UInt16
  var address: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
  var channel: UInt16
  var addressType: UInt8

}

/// `struct sockaddr_rc`: the family, the address with its last byte first,
/// and the channel.
struct SocketAddressRFCOMM {
  var family: sa_family_t
  var address: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
  var channel: UInt8
}

/// A Bluetooth address's six bytes in the kernel's order (the last byte of
/// the text first), or nil when it is not one.
func bluetoothAddressBytes(
  _ text: String
) -> (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)? {
  let parts = text.split(separator: ":")
  guard parts.count == 6 else { return nil }
  let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
  guard bytes.count == 6 else { return nil }
  return (bytes[5], bytes[4], bytes[3], bytes[2], bytes[1], bytes[0])
}
