// The client side of the control socket: a blocking Unix-socket connection
// that sends one request line and reads lines until its response.

import ConcurrencyHelpers
import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Why a call to the service failed.
public enum ControlClientError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// No service listens at the path.
  case unreachable(path: String, reason: String)
  /// The socket belongs to another user.
  case permissionDenied(path: String)
  /// The service at the path runs as another user than this process, so
  /// it is not this user's daemon: a client tells it nothing.
  case servedByAnotherUser(path: String, owner: String, pid: Int32)
  /// The service answered with an error.
  case remote(ControlError)
  /// The connection broke or the answer could not be read.
  case connectionLost(String)
  /// No answer came in time.
  case timedOut(seconds: Double)
  /// The answer is not the message the method answers with, as from a
  /// daemon of another version.
  case unexpectedAnswer(method: String, reason: String)

  /// A message a person can act on.
  public var description: String {
    switch self {
    case .unreachable(let path, let reason):
      "accessoryd is not running: cannot connect to '\(path)' (\(reason)); "
        + "start it with 'accessoryd' or 'systemctl --user start accessoryd', "
        + "or point to its socket with --socket or ACCESSORYD_SOCKET"
    case .permissionDenied(let path):
      "permission denied: '\(path)' belongs to another user"
    case .servedByAnotherUser(let path, let owner, let pid):
      "the socket '\(path)' is served by another user, \(owner)"
        + (pid > 0 ? " (pid \(pid))" : "")
        + "; expected a daemon of this user, \(userName(getuid())): point "
        + "to your own daemon's socket with --socket or ACCESSORYD_SOCKET"
    case .remote(let error): error.message
    case .connectionLost(let detail):
      "the connection to accessoryd broke: \(detail)"
    case .timedOut(let seconds):
      "accessoryd did not answer within \(seconds) s"
    case .unexpectedAnswer(let method, let reason):
      "accessoryd's answer to \(method) is not what this version expects: "
        + reason
    }
  }
}

/// A connection to the service's control socket.
///
/// Calls are serialized: one request is in flight at a time. Notifications
/// that arrive while waiting for a response are kept for
/// ``nextNotification()``.
public final class ControlClient: Sendable {
  private struct State {
    var descriptor: Int32
    var buffer = Data()
    var nextID = 1
    var pending: [ControlResponse] = []
  }

  private let state: Mutex<State>
  /// The socket's path.
  public let path: String
  /// The socket, for ``interrupt()``; closing it is the state's business.
  private let socketDescriptor: Int32
  /// How long a call waits for its answer.
  public let timeout: Double

  /// The longest line read from the service.
  public static let maximumLineLength = 4 << 20

  /// Connects to the service.
  ///
  /// - Parameters:
  ///   - path: The socket's path; see ``ControlSocketPath``.
  ///   - timeout: How long each call waits for its answer, in seconds.
  /// The service's user id is checked (`SO_PEERCRED`): a socket served by
  /// another user is refused before anything is sent, as its answers
  /// could be anything and what is sent could be kept.
  ///
  /// - Throws: ``ControlClientError/unreachable(path:reason:)``,
  ///   ``ControlClientError/permissionDenied(path:)`` or
  ///   ``ControlClientError/servedByAnotherUser(path:owner:pid:)``.
  public init(path: String, timeout: Double = 30) throws(ControlClientError) {
    self.path = path
    self.timeout = timeout
    let address: UnixSocketAddress
    do {
      address = try UnixSocketAddress(path: path)
    } catch {
      throw .unreachable(path: path, reason: "the path is too long")
    }
    let descriptor: Int32
    do {
      descriptor = try UnixSocket.connected(.stream, to: address)
    } catch {
      if error == .permissionDenied || error == .notPermitted {
        throw .permissionDenied(path: path)
      }
      throw .unreachable(path: path, reason: error.message)
    }
    let peer = PeerCredentials(socket: descriptor)
    if peer?.uid != getuid() {
      Glibc.close(descriptor)
      throw .servedByAnotherUser(
        path: path, owner: peer.map { userName($0.uid) } ?? "an unknown user",
        pid: peer?.pid ?? 0)
    }
    var interval = timeval(
      tv_sec: Int(timeout),
      tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval,
      socklen_t(MemoryLayout<timeval>.size))
    socketDescriptor = descriptor
    state = Mutex(State(descriptor: descriptor))
  }

  deinit {
    state.withLock { state in
      if state.descriptor >= 0 { Glibc.close(state.descriptor) }
    }
  }

  /// Wakes a thread blocked in ``nextNotification()`` or ``call(_:params:)``
  /// on this connection, which then fails with
  /// ``ControlClientError/connectionLost(_:)``; the caller then closes it.
  ///
  /// Unlike ``close()`` it does not wait for that thread.
  public func interrupt() {
    let descriptor = socketDescriptor
    if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
  }

  /// Closes the connection.
  public func close() {
    state.withLock { state in
      if state.descriptor >= 0 {
        Glibc.close(state.descriptor)
        state.descriptor = -1
      }
    }
  }

  /// Calls a method and returns its result.
  ///
  /// - Parameters:
  ///   - method: The method, such as `accessory.update`.
  ///   - params: The parameters, an object.
  /// - Throws: ``ControlClientError``; ``ControlClientError/remote(_:)``
  ///   carries the service's error.
  public func call(
    _ method: String, params: JSONValue? = nil
  ) throws(ControlClientError) -> JSONValue {
    try state.withLock { state throws(ControlClientError) in
      let id = state.nextID
      state.nextID += 1
      let request = ControlRequest(
        id: .number(Double(id)), method: method, params: params)
      var line = request.json.serialized()
      line.append(0x0A)
      do throws(ControlClientError) {
        try Self.send(Data(line), on: state.descriptor)
      } catch {
        // A daemon that refuses a connection (another user, too many
        // connections) answers and closes it before reading; its answer
        // says why.
        if let parting = try? Self.readMessage(&state, timeout: timeout),
          let refusal = parting.error
        {
          throw failure(for: refusal)
        }
        throw error
      }
      while true {
        let message = try Self.readMessage(&state, timeout: timeout)
        if message.isNotification {
          state.pending.append(message)
          continue
        }
        if message.id == .number(Double(id)) || message.id == .null
          || message.id == nil
        {
          if let error = message.error { throw failure(for: error) }
          return message.result ?? .null
        }
      }
    }
  }

  /// The client error for an error the service answered with.
  private func failure(for error: ControlError) -> ControlClientError {
    error.code == ControlError.permissionDenied.code
      ? .permissionDenied(path: path) : .remote(error)
  }

  /// Calls a method and decodes its result as the message it answers
  /// with, such as ``RouteReport`` for `route.get`.
  ///
  /// - Throws: ``ControlClientError/unexpectedAnswer(method:reason:)`` if
  ///   the result is not that message, or any error of
  ///   ``call(_:params:)``.
  public func call<Result: Decodable>(
    _ method: String, params: JSONValue? = nil, as type: Result.Type
  ) throws(ControlClientError) -> Result {
    try ControlClient.decode(call(method, params: params), as: type, of: method)
  }

  /// Decodes the result of a method as the message it answers with.
  ///
  /// - Throws: ``ControlClientError/unexpectedAnswer(method:reason:)``,
  ///   naming the member that does not fit.
  public static func decode<Result: Decodable>(
    _ result: JSONValue, as type: Result.Type, of method: String
  ) throws(ControlClientError) -> Result {
    do {
      return try result.decode(as: type)
    } catch let error as DecodingError {
      throw .unexpectedAnswer(method: method, reason: error.explained)
    } catch {
      throw .unexpectedAnswer(method: method, reason: "\(error)")
    }
  }

  /// Waits for the next notification from the service, such as an event
  /// after `events.subscribe`.
  ///
  /// - Throws: ``ControlClientError/connectionLost(_:)`` when the service
  ///   closes the connection.
  public func nextNotification() throws(ControlClientError) -> ControlResponse {
    try state.withLock { state throws(ControlClientError) in
      if !state.pending.isEmpty { return state.pending.removeFirst() }
      while true {
        let message = try Self.readMessage(&state, timeout: nil)
        if message.isNotification { return message }
      }
    }
  }

  /// Sends raw bytes, for tests of malformed input.
  ///
  /// - Returns: The next line the service answers, undecoded.
  public func sendRaw(_ bytes: Data) throws(ControlClientError) -> String {
    try state.withLock { state throws(ControlClientError) in
      try Self.send(bytes, on: state.descriptor)
      let line = try Self.readLine(&state, timeout: timeout)
      return String(decoding: line, as: UTF8.self)
    }
  }

  private static func send(
    _ data: Data, on descriptor: Int32
  ) throws(ControlClientError) {
    if let failure = sendAll(data, on: descriptor) {
      throw .connectionLost(failure.message)
    }
  }

  private static func readMessage(
    _ state: inout State, timeout: Double?
  ) throws(ControlClientError) -> ControlResponse {
    let line = try readLine(&state, timeout: timeout)
    let value: JSONValue
    do {
      value = try JSONValue(parsing: line)
    } catch {
      throw .connectionLost("an answer that is not JSON: \(error)")
    }
    guard let message = ControlResponse(json: value) else {
      throw .connectionLost("an answer that is not JSON-RPC 2.0")
    }
    return message
  }

  private static func readLine(
    _ state: inout State, timeout: Double?
  ) throws(ControlClientError) -> Data {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let newline = state.buffer.firstIndex(of: 0x0A) {
        let line = state.buffer[state.buffer.startIndex..<newline]
        state.buffer.removeSubrange(state.buffer.startIndex...newline)
        return Data(line)
      }
      guard state.buffer.count < maximumLineLength else {
        throw .connectionLost(
          "an answer longer than \(maximumLineLength) bytes")
      }
      let count = Errno.retryingInterrupts {
        recv(state.descriptor, &chunk, chunk.count, 0)
      }
      if count > 0 {
        state.buffer.append(contentsOf: chunk[0..<count])
      } else if count == 0 {
        throw .connectionLost("accessoryd closed the connection")
      } else if errno == EAGAIN || errno == EWOULDBLOCK {
        // SO_RCVTIMEO expired; notifications wait without a limit.
        if timeout == nil { continue }
        throw .timedOut(seconds: timeout!)
      } else {
        throw .connectionLost(Errno.current.message)
      }
    }
  }
}

/// Writes all of `data` to a connected socket, retrying after signals and
/// never raising SIGPIPE.
///
/// - Returns: nil once everything is written, or the reason of the
///   failure (the peer has gone, or a send timeout ran out).
package func sendAll(_ data: Data, on descriptor: Int32) -> Errno? {
  data.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = Errno.retryingInterrupts {
        Glibc.send(
          descriptor, buffer.baseAddress! + offset, buffer.count - offset,
          Int32(MSG_NOSIGNAL))
      }
      if written < 0 { return Errno.current }
      offset += written
    }
    return nil
  }
}
