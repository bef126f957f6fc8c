// The service manager's end of systemd's notify protocol, for tests: a
// Unix datagram socket that a daemon is pointed at with NOTIFY_SOCKET, and
// the messages it received, in order.

import ConcurrencyHelpers
import Foundation
import Glibc
import SystemCalls

/// A Unix datagram socket that collects what a daemon sends to
/// `NOTIFY_SOCKET`, as systemd would receive it.
///
/// ```swift
/// let listener = try NotifySocketListener(path: directory + "/notify")
/// defer { listener.close() }
/// // start the daemon with NOTIFY_SOCKET=listener.path
/// try await listener.waitForMessage { $0.contains("READY=1") }
/// ```
public final class NotifySocketListener: Sendable {
  /// The socket's path, the daemon's `NOTIFY_SOCKET`.
  public let path: String
  private let shared = Shared()
  private let ownsDirectory: Bool

  /// What the reading thread and the test share.
  private final class Shared: Sendable {
    let received = Mutex<[String]>([])
    let closed = Mutex(false)
  }

  /// Binds the socket and starts reading it on a thread of its own.
  ///
  /// - Parameter path: Where to bind; a file there is replaced. A path
  ///   that starts with `@` names an abstract socket, as `NOTIFY_SOCKET`
  ///   may.
  /// - Throws: ``FixtureError`` naming the path and the system error.
  public convenience init(path: String) throws {
    try self.init(path: path, ownsDirectory: false)
  }

  private init(path: String, ownsDirectory: Bool) throws {
    self.path = path
    self.ownsDirectory = ownsDirectory
    // "@name" is an abstract socket: a NUL, then the name, no file.
    let descriptor: Int32
    do {
      let address = try UnixSocketAddress(notation: path)
      if !address.isAbstract { unlink(path) }
      descriptor = try UnixSocket.bound(.datagram, to: address)
    } catch {
      throw FixtureError("cannot bind '\(path)': \(error)")
    }
    // A receive timeout lets the reader see close() without a signal.
    var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout,
      socklen_t(MemoryLayout<timeval>.size))
    let shared = shared
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !shared.closed.withLock({ $0 }) {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { continue }
        let message = String(decoding: buffer[..<count], as: UTF8.self)
        shared.received.withLock { $0.append(message) }
      }
      Glibc.close(descriptor)
    }
  }

  /// Binds the socket as `notify` in a private directory of its own,
  /// which ``close()`` removes.
  ///
  /// - Throws: ``FixtureError`` naming the path and the system error.
  public convenience init() throws {
    let directory = try SoundServer.makePrivateDirectory(prefix: "notify")
    do {
      try self.init(path: directory + "/notify", ownsDirectory: true)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  /// The datagrams received so far, each as its text.
  public var messages: [String] { shared.received.withLock { $0 } }

  /// Waits until a received datagram satisfies `condition`.
  ///
  /// - Parameters:
  ///   - what: What is awaited, for the message.
  ///   - index: Only datagrams after this index count.
  ///   - condition: Checked against each datagram's text.
  /// - Returns: The index of the first datagram that satisfies it.
  /// - Throws: ``FixtureError`` after 20 s, with what was received.
  @discardableResult
  public func waitForMessage(
    _ what: String, after index: Int = -1,
    where condition: @escaping @Sendable (String) -> Bool
  ) async throws -> Int {
    let found = try await waitFor(
      what, within: .seconds(20),
      observing: { () -> (Int?, [String]) in
        let messages = self.messages
        let found = messages.indices.first {
          $0 > index && condition(messages[$0])
        }
        return (found, messages)
      },
      until: { $0.0 != nil })
    return found.0!
  }

  /// Stops reading and closes the socket; its file, or the private
  /// directory it made, is removed.
  public func close() {
    let wasClosed = shared.closed.withLock { closed in
      defer { closed = true }
      return closed
    }
    guard !wasClosed else { return }
    if ownsDirectory {
      try? FileManager.default.removeItem(
        atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    } else if !path.hasPrefix("@") {
      unlink(path)
    }
  }

  deinit { close() }
}
