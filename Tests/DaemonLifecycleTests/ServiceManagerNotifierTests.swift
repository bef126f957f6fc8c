// systemd's notify protocol, received by a socket of the test's own: the
// datagrams' text, both kinds of address, values that are refused, and
// the control server's "listening" moment that READY=1 is sent at.

import AccessoryControl
import ConcurrencyHelpers
import DaemonControl
import DaemonEvents
import DaemonLifecycle
import Foundation
import Logging
import TestSupport
import Testing

@Suite("Telling the service manager")
struct ServiceManagerNotifierTests {
  @Test("Without NOTIFY_SOCKET nothing is sent and nothing fails")
  func withoutASocket() throws {
    let notifier = try ServiceManagerNotifier(environment: [:])
    #expect(!notifier.isActive)
    #expect(notifier.send([.ready]) == nil)
    let empty = try ServiceManagerNotifier(environment: ["NOTIFY_SOCKET": ""])
    #expect(!empty.isActive)
  }

  @Test(
    "A path and an abstract name each receive the datagram",
    arguments: ["path", "abstract"])
  func sendsOneDatagram(kind: String) async throws {
    let listener =
      kind == "path"
      ? try NotifySocketListener()
      : try NotifySocketListener(
        path:
          "@accessoryd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    defer { listener.close() }
    let address = listener.path
    let notifier = try ServiceManagerNotifier(
      environment: ["NOTIFY_SOCKET": address])
    #expect(notifier.isActive)

    #expect(notifier.send([.ready, .status("Listening on\n/run/x")]) == nil)
    let first = try await listener.waitForMessage("READY") { _ in true }
    #expect(listener.messages[first] == "READY=1\nSTATUS=Listening on /run/x")

    let reloading: [ServiceManagerNotifier.Notification] = [.reloading]
    #expect(notifier.send(reloading) == nil)
    let second = try await listener.waitForMessage("RELOADING", after: first) {
      _ in true
    }
    let lines = listener.messages[second].split(separator: "\n")
    #expect(lines.first == "RELOADING=1")
    #expect(lines.count == 2)
    #expect(lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
    #expect(UInt64(lines.last?.dropFirst("MONOTONIC_USEC=".count) ?? "") != nil)

    let stopping: [ServiceManagerNotifier.Notification] = [.stopping]
    #expect(notifier.send(stopping) == nil)
    let third = try await listener.waitForMessage("STOPPING", after: second) {
      _ in true
    }
    #expect(listener.messages[third] == "STOPPING=1")
  }

  @Test(
    "A value that is no socket's address is refused, named",
    arguments: [
      "notify.sock", "run/user/1000/systemd/notify",
      "/" + String(repeating: "x", count: 120),
    ])
  func refusesABadValue(value: String) {
    #expect {
      _ = try ServiceManagerNotifier(environment: ["NOTIFY_SOCKET": value])
    } throws: { error in
      "\(error)"
        == "NOTIFY_SOCKET is '\(value)'; expected an absolute path of a Unix "
        + "socket, or '@' followed by an abstract socket's name, of at most "
        + "107 bytes"
    }
  }

  @Test("A socket nobody listens on is reported, not fatal")
  func nobodyListens() throws {
    let notifier = try ServiceManagerNotifier(
      environment: ["NOTIFY_SOCKET": "/nonexistent/accessoryd-notify"])
    let failure = notifier.send([.ready])
    #expect(failure?.isEmpty == false)
  }

  @Test("The control server says it listens when a client can connect")
  func listeningMeansConnectable() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-listening-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/control.sock"
    let connected = Mutex<Bool?>(nil)
    let (listening, listened) = AsyncStream.makeStream(of: Void.self)
    let server = ControlServer(
      socket: try ControlSocket.listen(at: path), handler: EchoHandler(),
      events: EventHub(),
      logger: Logger(label: "test", logLevel: .critical),
      onListening: {
        // At this moment, before any accept, a client's connect succeeds.
        let client = try? ControlClient(path: path, timeout: 2)
        connected.withLock { $0 = client != nil }
        client?.close()
        listened.yield()
        listened.finish()
      })
    let running = Task { try await server.run() }
    for await _ in listening {}
    #expect(connected.withLock { $0 } == true)
    running.cancel()
    try await running.value
  }
}

/// Answers every request with its method's name.
private struct EchoHandler: ControlHandler {
  func handle(
    method: String, params: JSONValue?, connection: ControlConnection
  ) async throws(ControlError) -> JSONValue {
    .string(method)
  }
}
