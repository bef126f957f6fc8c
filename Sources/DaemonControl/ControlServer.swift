// The server side of the control socket: JSON-RPC 2.0, one object per line,
// on a Unix socket that only the daemon's own user may use.

import AccessoryControl
import AccessoryEngine
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneReaders
import Logging
import SystemCalls

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
    (done: Bool, stream: (any AsyncSequence<JSONValue, Never> & Sendable)?)
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
    subscribe(to: events.subscribeToWire())
  }

  /// Forwards `notifications` to the client as `event` notifications,
  /// after the answer to the current request; a connection carries one
  /// subscription.
  ///
  /// - Returns: False if this connection already has a subscription.
  public func subscribe(
    to notifications: some AsyncSequence<JSONValue, Never> & Sendable
  ) -> Bool {
    subscription.withLock { state in
      guard !state.done else { return false }
      state = (true, notifications)
      return true
    }
  }

  /// Takes the new subscription, once, for the server to forward.
  func takeSubscription() -> (
    any AsyncSequence<JSONValue, Never> & Sendable
  )? {
    subscription.withLock { state in
      defer { state.stream = nil }
      return state.stream
    }
  }
}

/// The control socket service.
///
/// It serves a ``ControlSocket`` (mode 0600, in a directory of the
/// daemon's user), checks each peer's user id, reads requests of at most
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
  /// The listening socket.
  private let socket: ControlSocket

  private let handler: any ControlHandler
  private let events: EventHub
  private let logger: Logger
  private let onListening: @Sendable () -> Void

  /// Creates the service on a socket that already listens.
  ///
  /// - Parameters:
  ///   - socket: The listening socket, made before any service starts;
  ///     the service closes and removes it when it stops.
  ///   - handler: What answers requests.
  ///   - events: Where events for subscribers come from.
  ///   - logger: Where to report.
  ///   - maximumConnections: The most connections served at once.
  ///   - unfinishedLineTimeout: How long a line may stay unfinished.
  ///   - onListening: Called once the socket listens, before the first
  ///     connection is accepted: where the daemon tells its service
  ///     manager that it is ready.
  public init(
    socket: ControlSocket, handler: any ControlHandler, events: EventHub,
    logger: Logger, maximumConnections: Int = 256,
    unfinishedLineTimeout: Duration = .seconds(10),
    onListening: @escaping @Sendable () -> Void = {}
  ) {
    self.onListening = onListening
    self.maximumConnections = maximumConnections
    self.unfinishedLineTimeout = unfinishedLineTimeout
    self.socket = socket
    self.path = socket.path
    self.handler = handler
    self.events = events
    self.logger = logger
  }

  /// Accepts and serves connections until cancelled, then removes the
  /// socket.
  public func run() async throws {
    let listener = socket.descriptor
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
    socket.remove()
  }

  /// Starts a thread that accepts connections and yields their
  /// descriptors; the stream ends when the listener is shut down.
  private func acceptConnections(on listener: Int32) -> AsyncStream<Int32> {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    startThread(named: "accessoryd.accept") {
      while true {
        let descriptor = Errno.retryingInterrupts { accept(listener, nil, nil) }
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
        } else if errno == ECONNABORTED {
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
      var buffer: [UInt8] = []
      // Where the unfinished line starts in `buffer`, and since when it
      // has been waiting for its end.
      var lineStart = 0
      var unfinishedSince: ContinuousClock.Instant?
      var chunk = [UInt8](repeating: 0, count: 65536)
      reading: while true {
        // poll(2) sleeps until the client writes or closes, or until an
        // unfinished line's time is up: an idle client costs no wake.
        var wait: Int32 = -1
        if let since = unfinishedSince {
          let left = timeout - since.duration(to: .now)
          guard left > .zero else {
            continuation.yield(.unfinished)
            break reading
          }
          let (seconds, attoseconds) = left.components
          wait =
            seconds >= Int64(Int32.max) / 1000
            ? Int32.max
            : Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        }
        var readable = pollfd(
          fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = Errno.retryingInterrupts { poll(&readable, 1, wait) }
        if ready == 0 { continue }
        guard ready > 0 else { break }
        let count = Errno.retryingInterrupts {
          recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { continue }
        guard count > 0 else { break }
        buffer.append(contentsOf: chunk[0..<count])
        // Each line is cut out where it stands; the bytes read are moved
        // to the front once per read, not once per line.
        var searchFrom = buffer.count - count
        while let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
          let line = buffer[lineStart..<newline]
          lineStart = newline + 1
          searchFrom = lineStart
          guard line.count <= Self.maximumLineLength else {
            continuation.yield(.tooLong)
            break reading
          }
          if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
            continuation.yield(.line(Data(line)))
          }
        }
        // A line ended in this read: what is left is a new line, whose
        // time starts now.
        let endedALine = lineStart > 0
        if endedALine {
          buffer.removeSubrange(0..<lineStart)
          lineStart = 0
        }
        if buffer.count > Self.maximumLineLength {
          continuation.yield(.tooLong)
          break reading
        }
        if buffer.isEmpty {
          unfinishedSince = nil
        } else if endedALine || unfinishedSince == nil {
          unfinishedSince = .now
        }
      }
      continuation.finish()
      done()
    }
    return stream
  }

  private func peerIsOwnUser(_ descriptor: Int32) -> Bool {
    PeerCredentials(socket: descriptor)?.uid == getuid()
  }
}
