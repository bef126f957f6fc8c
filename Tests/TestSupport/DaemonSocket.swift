import Foundation
import Glibc
import SystemCalls

/// A bare client of the daemon's control socket, independent of the code
/// under test: it sends bytes as they are and reads the answer.
enum DaemonSocket {
  /// Sends one JSON-RPC request without params and returns the answer
  /// line.
  static func request(
    _ path: String, method: String, timeout: Double
  ) throws -> String {
    let line = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)"}"# + "\n"
    return try exchange(path, Data(line.utf8), lines: 1, timeout: timeout)
      .first ?? ""
  }

  /// Connects, sends bytes, and returns the first `lines` lines of the
  /// answer, or those that came before the daemon closed the connection
  /// (a last line without its newline included).
  ///
  /// A failure to send is ignored: a daemon that refuses an oversized line
  /// answers and closes the connection while the rest is still being sent,
  /// and its answer is still there to read.
  static func exchange(
    _ path: String, _ bytes: Data, lines: Int, timeout: Double
  ) throws -> [String] {
    requireOwnThread("DaemonSocket.exchange")
    let descriptor = try connect(path, timeout: timeout)
    defer { close(descriptor) }
    sendAll(descriptor, bytes)
    return try readLines(descriptor, lines: lines, path: path, timeout: timeout)
  }

  /// Sends bytes until all are sent or sending fails.
  static func sendAll(_ descriptor: Int32, _ bytes: Data) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Errno.retryingInterrupts {
          send(
            descriptor, buffer.baseAddress! + offset, buffer.count - offset,
            Int32(MSG_NOSIGNAL))
        }
        if written < 0 { return }
        offset += written
      }
    }
  }

  /// Reads `lines` lines, or those that came before the connection closed.
  static func readLines(
    _ descriptor: Int32, lines: Int, path: String, timeout: Double
  ) throws -> [String] {
    var answer = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while answer.count(where: { $0 == 0x0A }) < lines {
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count > 0 {
        answer.append(contentsOf: chunk[0..<count])
      } else if count == 0 {
        break
      } else if errno == EINTR {
        continue
      } else if errno == EAGAIN || errno == EWOULDBLOCK {
        throw DaemonFixtureError(
          "no answer on \(path) within \(timeout) s; got so far: "
            + String(decoding: answer, as: UTF8.self))
      } else {
        if answer.isEmpty {
          throw DaemonFixtureError(
            "reading \(path): \(Errno.current)")
        }
        break
      }
    }
    let text = String(decoding: answer, as: UTF8.self)
    var result = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    if result.last == "" { result.removeLast() }
    return Array(result.prefix(lines))
  }

  /// Connects to a Unix socket with receive and send timeouts.
  static func connect(_ path: String, timeout: Double) throws -> Int32 {
    let descriptor: Int32
    do {
      descriptor = try UnixSocket.connected(
        .stream, to: UnixSocketAddress(path: path))
    } catch {
      throw DaemonFixtureError("cannot connect to \(path): \(error)")
    }
    var interval = timeval(
      tv_sec: Int(timeout),
      tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
      setsockopt(
        descriptor, SOL_SOCKET, option, &interval,
        socklen_t(MemoryLayout<timeval>.size))
    }
    return descriptor
  }
}

/// A connection to the daemon's control socket that a test drives byte by
/// byte, such as a client that sends half a line and waits.
public final class RawConnection: Sendable {
  /// The socket's path.
  public let path: String
  private let descriptor: Int32
  private let timeout: Double

  /// Connects, with `timeout` seconds for each read.
  public init(_ path: String, timeout: Double = 30) throws {
    self.path = path
    self.timeout = timeout
    descriptor = try DaemonSocket.connect(path, timeout: timeout)
  }

  deinit {
    close(descriptor)
  }

  /// Sends bytes as they are; a failure to send is ignored.
  public func send(_ bytes: Data) async {
    let descriptor = descriptor
    await onOwnThread { DaemonSocket.sendAll(descriptor, bytes) }
  }

  /// Sends pieces one after the other, `interval` apart, from a thread of
  /// its own: the pace holds however busy the shared task threads are.
  public func send(_ pieces: [Data], every interval: Duration) async {
    let descriptor = descriptor
    let microseconds = useconds_t(
      interval.components.seconds * 1_000_000
        + interval.components.attoseconds / 1_000_000_000_000)
    await onOwnThread {
      for (index, piece) in pieces.enumerated() {
        if index > 0 { usleep(microseconds) }
        DaemonSocket.sendAll(descriptor, piece)
      }
    }
  }

  /// Reads `lines` lines, or those that came before the daemon closed the
  /// connection.
  public func readLines(_ lines: Int = 1) async throws -> [String] {
    let (descriptor, path, timeout) = (descriptor, path, timeout)
    return try await onOwnThread {
      try DaemonSocket.readLines(
        descriptor, lines: lines, path: path, timeout: timeout)
    }
  }

  /// Whether the daemon has closed the connection: a read finds its end.
  public func isClosedByDaemon() async -> Bool {
    let descriptor = descriptor
    return await onOwnThread {
      var byte: UInt8 = 0
      while true {
        let count = recv(descriptor, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0, errno == EINTR { continue }
        if count < 0 { return errno == ECONNRESET }
      }
    }
  }
}
