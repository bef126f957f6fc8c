// The server side of the control socket: JSON-RPC 2.0, one object per line,
// on a Unix socket that only the daemon's own user may use.

import AccessoryControl
import FoundationEssentials
import Locking
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// Answers the requests of one control connection.
public protocol ControlHandler: Sendable {
  /// Handles one request and returns its result.
  ///
  /// - Parameters:
  ///   - method: The method, such as `accessory.update`.
  ///   - params: The parameters, an object or nil.
  ///   - connection: The connection, to subscribe it to events.
  /// - Throws: ``ControlError``, sent to the client.
  func handle(
    method: String, params: JSONValue?, connection: ControlConnection
  ) async throws(ControlError) -> JSONValue
}

/// One client connection of the control socket.
public final class ControlConnection: Sendable {
  private let outbox: ControlOutbox
  private let events: EventHub
  private let subscription = Mutex<
    (done: Bool, stream: AsyncStream<JSONValue>?)
  >(
    (false, nil))
  /// What to do when the client goes away.
  private let closeActions = Mutex<[@Sendable () -> Void]>([])

  init(descriptor: Int32, events: EventHub, logger: Logger) {
    self.outbox = ControlOutbox(descriptor: descriptor, logger: logger)
    self.events = events
  }

  /// Runs `action` once the client has gone away (or the server stops),
  /// such as closing a picker the client showed.
  public func whenClosed(_ action: @escaping @Sendable () -> Void) {
    closeActions.withLock { $0.append(action) }
  }

  /// Runs the close actions, once, and lets the outbox write what is
  /// queued and close the socket.
  func closed() {
    let actions = closeActions.withLock { actions in
      defer { actions = [] }
      return actions
    }
    actions.forEach { $0() }
    outbox.finish()
  }

  /// Says that the reading thread is done with the socket.
  func readerFinished() {
    outbox.readerFinished()
  }

  /// Queues one message as a line, without blocking; returns false if the
  /// client is gone or was cut off for not reading (the reader then sees
  /// the end).
  @discardableResult
  func send(_ message: ControlResponse) -> Bool {
    outbox.enqueue(message.line())
  }

  /// Subscribes the connection to events from now on; returns false if it
  /// already was.
  ///
  /// Events published after this call reach the client, after the answer
  /// to the current request.
  public func subscribeToEvents() -> Bool {
    subscribe(to: events.subscribe())
  }

  /// Forwards `notifications` to the client as `event` notifications,
  /// after the answer to the current request; a connection carries one
  /// subscription.
  ///
  /// - Returns: False if this connection already has a subscription.
  public func subscribe(to notifications: AsyncStream<JSONValue>) -> Bool {
    subscription.withLock { state in
      guard !state.done else { return false }
      state = (true, notifications)
      return true
    }
  }

  /// Takes the new subscription, once, for the server to forward.
  func takeSubscription() -> AsyncStream<JSONValue>? {
    subscription.withLock { state in
      defer { state.stream = nil }
      return state.stream
    }
  }
}

/// The control socket service.
///
/// It creates the socket's directory with mode 0700 and the socket with
/// mode 0600, checks each peer's user id, reads requests of at most
/// ``maximumLineLength`` bytes, answers malformed input with a JSON-RPC
/// error, and never lets one client's input take the daemon down.
public final class ControlServer: Service {
  /// The service's name.
  public let name = "control server"
  /// The socket's path.
  public let path: String
  /// The longest request line accepted.
  public static let maximumLineLength = 1 << 20
  /// The most connections served at once; one more is answered with
  /// ``ControlError/busy(_:)`` and closed.
  public let maximumConnections: Int
  /// How long a connection may leave a line unfinished before it is
  /// answered with an error and closed.
  public let unfinishedLineTimeout: Duration
  /// The connections open now.
  private let openConnections = Mutex(0)

  private let handler: any ControlHandler
  private let events: EventHub
  private let logger: Logger
  private let onListening: @Sendable () -> Void

  /// Creates the service; the socket is made when it runs.
  ///
  /// - Parameters:
  ///   - path: The socket's path.
  ///   - handler: What answers requests.
  ///   - events: Where events for subscribers come from.
  ///   - logger: Where to report.
  ///   - maximumConnections: The most connections served at once.
  ///   - unfinishedLineTimeout: How long a line may stay unfinished.
  ///   - onListening: Called once the socket listens, before the first
  ///     connection is accepted: where the daemon tells its service
  ///     manager that it is ready.
  public init(
    path: String, handler: any ControlHandler, events: EventHub,
    logger: Logger, maximumConnections: Int = 256,
    unfinishedLineTimeout: Duration = .seconds(10),
    onListening: @escaping @Sendable () -> Void = {}
  ) {
    self.onListening = onListening
    self.maximumConnections = maximumConnections
    self.unfinishedLineTimeout = unfinishedLineTimeout
    self.path = path
    self.handler = handler
    self.events = events
    self.logger = logger
  }

  /// The error for a socket that cannot be made.
  public struct SocketError: Error, CustomStringConvertible {
    /// What failed and why.
    public let description: String
  }

  /// Makes the listening socket: directory 0700, socket 0600.
  ///
  /// A stale socket file of a daemon that died is replaced; a live one is
  /// an error.
  ///
  /// - Throws: ``SocketError`` naming the path and the system error.
  public func makeListeningSocket() throws(SocketError) -> Int32 {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw SocketError(
          description:
            "cannot create '\(directory)': \(systemReason(error))")
      }
    }
    chmod(directory, 0o700)
    if let client = try? ControlClient(path: path, timeout: 1) {
      client.close()
      throw SocketError(
        description: "another accessoryd is already listening on '\(path)'")
    }
    unlink(path)
    let descriptor = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw SocketError(description: "socket: \(systemError())")
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
      close(descriptor)
      throw SocketError(description: "the socket path '\(path)' is too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    // The socket is created with no permissions for others from the start.
    let oldMask = umask(0o177)
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    umask(oldMask)
    guard status == 0 else {
      let reason = systemError()
      close(descriptor)
      throw SocketError(description: "cannot bind '\(path)': \(reason)")
    }
    chmod(path, 0o600)
    guard listen(descriptor, 128) == 0 else {
      let reason = systemError()
      close(descriptor)
      throw SocketError(description: "cannot listen on '\(path)': \(reason)")
    }
    return descriptor
  }

  /// Accepts and serves connections until cancelled, then removes the
  /// socket.
  public func run() async throws {
    let listener = try makeListeningSocket()
    logger.notice("Listening", metadata: ["control.socket": path])
    onListening()
    let connections = acceptConnections(on: listener)
    await withTaskCancellationHandler {
      await withDiscardingTaskGroup { group in
        for await descriptor in connections {
          group.addTask { await self.serve(descriptor) }
        }
        group.cancelAll()
      }
    } onCancel: {
      // Unblocks accept(); the accept thread then ends the stream.
      shutdown(listener, Int32(SHUT_RDWR))
    }
    close(listener)
    unlink(path)
  }

  /// Starts a thread that accepts connections and yields their
  /// descriptors; the stream ends when the listener is shut down.
  private func acceptConnections(on listener: Int32) -> AsyncStream<Int32> {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    startThread(named: "accessoryd.accept") {
      while true {
        let descriptor = accept(listener, nil, nil)
        if descriptor >= 0 {
          _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
          let admitted = self.openConnections.withLock { count in
            guard count < self.maximumConnections else { return false }
            count += 1
            return true
          }
          guard admitted else {
            self.refuse(descriptor)
            continue
          }
          continuation.yield(descriptor)
        } else if errno == EINTR || errno == ECONNABORTED {
          continue
        } else {
          break
        }
      }
      continuation.finish()
    }
    return stream
  }

  /// Answers a connection over the bound with `busy` and closes it.
  ///
  /// The answer is short and the socket's buffer empty, so the write does
  /// not wait.
  private func refuse(_ descriptor: Int32) {
    let response = ControlResponse.failure(
      id: nil,
      .busy(
        "accessoryd serves at most \(maximumConnections) connections at "
          + "once; try again when others have closed"))
    var line = response.line()
    _ = line.withUnsafeMutableBytes {
      send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
    }
    close(descriptor)
    logger.warning(
      "Refused a connection over the bound",
      metadata: ["control.connections": "\(maximumConnections)"])
  }

  /// Serves one connection: checks the peer, then answers its requests in
  /// order, and forwards events once it subscribes.
  private func serve(_ descriptor: Int32) async {
    let connection = ControlConnection(
      descriptor: descriptor, events: events, logger: logger)
    defer {
      connection.closed()
      openConnections.withLock { $0 -= 1 }
    }
    guard peerIsOwnUser(descriptor) else {
      connection.send(.failure(id: nil, .permissionDenied))
      logger.warning("Refused a client of another user")
      connection.readerFinished()
      return
    }
    let lines = readLines(from: descriptor) { connection.readerFinished() }
    await withDiscardingTaskGroup { group in
      for await line in lines {
        switch line {
        case .tooLong:
          connection.send(
            .failure(
              id: nil,
              .invalidRequest(
                "the line is longer than \(Self.maximumLineLength) bytes")))
          // The reader has stopped; the outbox writes the answer, then
          // closes the connection.
          shutdown(descriptor, Int32(SHUT_RD))
        case .unfinished:
          connection.send(
            .failure(
              id: nil,
              .invalidRequest(
                "the line was not finished within "
                  + "\(unfinishedLineTimeout.components.seconds) s")))
          shutdown(descriptor, Int32(SHUT_RD))
        case .line(let data):
          if let response = await respond(to: data, on: connection) {
            connection.send(response)
          }
          // Later requests are still answered; events come in between.
          if let stream = connection.takeSubscription() {
            group.addTask {
              for await event in stream {
                guard connection.send(.notification(method: "event", event))
                else { break }
              }
            }
          }
        }
        if Task.isCancelled { break }
      }
      group.cancelAll()
    }
  }

  /// Returns the response to one request line, or nil for a notification.
  func respond(
    to data: Data, on connection: ControlConnection
  ) async -> ControlResponse? {
    let request: ControlRequest
    do throws(ControlRequestRejection) {
      request = try ControlRequest(line: data)
    } catch {
      return .failure(id: error.id, error.error)
    }
    let (id, method, params) = (request.id, request.method, request.params)
    do {
      let result = try await handler.handle(
        method: method, params: params, connection: connection)
      return id == nil ? nil : .success(id: id, result)
    } catch {
      logger.debug(
        "Request refused",
        metadata: ["control.method": method, "control.error": error.message])
      return id == nil ? nil : .failure(id: id, error)
    }
  }

  private enum Line: Sendable {
    case line(Data)
    case tooLong
    case unfinished
  }

  /// Starts a thread that reads lines from a connection; the stream ends
  /// when the client closes it (or the outbox shuts it down), and `done`
  /// runs once the thread no longer uses the descriptor.
  private func readLines(
    from descriptor: Int32, then done: @escaping @Sendable () -> Void
  ) -> AsyncStream<Line> {
    let (stream, continuation) = AsyncStream.makeStream(of: Line.self)
    let timeout = unfinishedLineTimeout
    startThread(named: "accessoryd.client") {
      // recv wakes each second, to time out an unfinished line.
      var wake = timeval(tv_sec: 1, tv_usec: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &wake,
        socklen_t(MemoryLayout<timeval>.size))
      var buffer = Data()
      var unfinishedSince: ContinuousClock.Instant?
      var chunk = [UInt8](repeating: 0, count: 65536)
      reading: while true {
        let count = recv(descriptor, &chunk, chunk.count, 0)
        defer {
          if buffer.isEmpty {
            unfinishedSince = nil
          } else if unfinishedSince == nil {
            unfinishedSince = .now
          }
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          if let since = unfinishedSince, since.duration(to: .now) >= timeout {
            continuation.yield(.unfinished)
            break reading
          }
          continue
        }
        if count > 0 {
          buffer.append(contentsOf: chunk[0..<count])
          while let newline = buffer.firstIndex(of: 0x0A) {
            let line = Data(buffer[buffer.startIndex..<newline])
            buffer.removeSubrange(buffer.startIndex...newline)
            guard line.count <= Self.maximumLineLength else {
              continuation.yield(.tooLong)
              break reading
            }
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
              continuation.yield(.line(line))
            }
          }
          if buffer.count > Self.maximumLineLength {
            continuation.yield(.tooLong)
            break reading
          }
        } else if count < 0, errno == EINTR {
          continue
        } else {
          break
        }
      }
      continuation.finish()
      done()
    }
    return stream
  }

  /// The layout of Linux's `struct ucred`, which Glibc hides without
  /// `_GNU_SOURCE`.
  private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = .max
    var gid: UInt32 = .max
  }

  private func peerIsOwnUser(_ descriptor: Int32) -> Bool {
    var credentials = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard
      getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        == 0
    else { return false }
    return credentials.uid == getuid()
  }
}

/// Returns the text of the current `errno`.
func systemError() -> String {
  String(cString: strerror(errno))
}

/// The system's words for a failed file operation ("Permission denied"),
/// or the error itself where it carries no system error number.
func systemReason(_ error: any Error) -> String {
  if let posix = (error as? CocoaError)?.underlying as? POSIXError {
    return String(cString: strerror(posix.code.rawValue))
  }
  return "\(error)"
}
