// Telling the service manager how the daemon is doing: systemd's notify
// protocol, a datagram of newline-separated assignments sent to the Unix
// socket named by $NOTIFY_SOCKET. With it, `Type=notify` units are active
// only once the control socket listens, and `systemctl --user status`
// shows the daemon's own status line.

import FoundationEssentials
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Sends the daemon's readiness, reloads, stop and status to the service
/// manager that started it, as systemd's `sd_notify(3)` does.
///
/// Without `NOTIFY_SOCKET` in the environment (started by hand, or by a
/// unit of `Type=simple`) every call does nothing.
///
/// ```swift
/// let notifier = try ServiceManagerNotifier(
///   environment: ProcessInfo.processInfo.environment)
/// notifier.send([.ready, .status("Listening on …")])
/// ```
public struct ServiceManagerNotifier: Sendable {
  /// One assignment of the notify protocol.
  public enum Notification: Sendable, Hashable {
    /// `READY=1`: start-up, or a reload, is finished.
    case ready
    /// `RELOADING=1`, with the `MONOTONIC_USEC` systemd 253 and later
    /// require: the daemon is reloading its configuration.
    case reloading
    /// `STOPPING=1`: the daemon is on its way out.
    case stopping
    /// `STATUS=…`: one line that `systemctl status` shows.
    case status(String)

    /// The assignment as the datagram carries it, without its newline.
    public var assignment: String {
      switch self {
      case .ready: "READY=1"
      case .reloading:
        "RELOADING=1\nMONOTONIC_USEC=\(ServiceManagerNotifier.monotonicMicroseconds())"
      case .stopping: "STOPPING=1"
      case .status(let text):
        "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
      }
    }
  }

  /// Why `NOTIFY_SOCKET` cannot be used.
  public struct AddressError: Error, CustomStringConvertible {
    /// The value of `NOTIFY_SOCKET`.
    public let value: String

    /// What a person reads.
    public var description: String {
      "NOTIFY_SOCKET is '\(value)'; expected an absolute path of a Unix "
        + "socket, or '@' followed by an abstract socket's name, of at most "
        + "107 bytes"
    }
  }

  /// The socket's address: a path, or an abstract name; nil when there is
  /// no service manager to tell.
  let address: UnixSocketAddress?

  /// Reads `NOTIFY_SOCKET` from an environment.
  ///
  /// - Parameter environment: The process's environment.
  /// - Throws: ``AddressError`` for a value that is neither an absolute
  ///   path nor an abstract name, or is too long.
  public init(environment: [String: String]) throws(AddressError) {
    guard let value = environment["NOTIFY_SOCKET"], !value.isEmpty else {
      address = nil
      return
    }
    guard value.hasPrefix("/") || value.hasPrefix("@"),
      let address = try? UnixSocketAddress(notation: value)
    else { throw AddressError(value: value) }
    self.address = address
  }

  /// Whether a service manager listens for notifications.
  public var isActive: Bool { address != nil }

  /// Sends notifications in one datagram, without waiting: a service
  /// manager that does not read its socket never holds the daemon up.
  ///
  /// - Parameter notifications: The assignments, in order.
  /// - Returns: nil when sent or when there is no service manager; else
  ///   the system's reason, for the log.
  @discardableResult
  public func send(_ notifications: [Notification]) -> String? {
    guard let address else { return nil }
    let message = notifications.map(\.assignment).joined(separator: "\n")
    let descriptor: Int32
    do {
      descriptor = try UnixSocket.make(.datagram)
    } catch {
      return error.description
    }
    defer { close(descriptor) }
    let sent = Array(message.utf8).withUnsafeBytes { bytes in
      address.withSockaddr { socketAddress, length in
        sendto(
          descriptor, bytes.baseAddress, bytes.count,
          Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), socketAddress, length)
      }
    }
    return sent < 0 ? Errno.current.description : nil
  }

  /// CLOCK_MONOTONIC in microseconds, the clock systemd compares a
  /// reload's time with.
  static func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
  }
}
