// The daemon's lifecycle without the daemon: services stop in reverse
// order, each within a deadline; signals reload, stop, then abort.

import ConcurrencyHelpers
import DaemonLifecycle
import Logging
import Testing

/// A service that records its start and stop, and can refuse to stop
/// until released.
private final class RecordingService: Service {
  let name: String
  private let log: SharedLog
  private let stubborn: Bool
  private let released = Mutex<CheckedContinuation<Void, Never>?>(nil)
  private let wasReleased = Atomic<Bool>(false)

  init(_ name: String, log: SharedLog, stubborn: Bool = false) {
    self.name = name
    self.log = log
    self.stubborn = stubborn
  }

  func run() async throws {
    log.append("start \(name)")
    // Runs until cancelled.
    try? await Task.sleep(for: .seconds(3600))
    if stubborn {
      // Ignores the cancellation until released.
      await withCheckedContinuation { continuation in
        if wasReleased.load(ordering: .acquiring) {
          continuation.resume()
        } else {
          released.withLock { $0 = continuation }
        }
      }
    }
    log.append("stop \(name)")
  }

  /// Lets a stubborn service stop.
  func release() {
    wasReleased.store(true, ordering: .releasing)
    released.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }?.resume()
  }
}

/// A log shared by several tasks.
private final class SharedLog: Sendable {
  private let entries = Mutex<[String]>([])

  func append(_ entry: String) { entries.withLock { $0.append(entry) } }

  var all: [String] { entries.withLock { $0 } }
}

@Suite("Service group and signals")
struct ServiceGroupTests {
  let logger = Logger(label: "lifecycle-tests", logLevel: .critical)

  @Test("Services start in order and stop in reverse order")
  func reverseOrder() async throws {
    let log = SharedLog()
    let services = ["control", "link", "router"].map {
      RecordingService($0, log: log)
    }
    let (trigger, fire) = AsyncStream.makeStream(of: Void.self)
    let group = ServiceGroup(services: services, logger: logger)
    let running = Task {
      try await group.run { for await _ in trigger { return } }
    }
    while log.all.count < 3 { await Task.yield() }
    fire.yield()
    try await running.value
    #expect(
      log.all == [
        "start control", "start link", "start router", "stop router",
        "stop link", "stop control",
      ])
  }

  @Test("A service that does not stop by its deadline is reported by name")
  func stopDeadline() async throws {
    let log = SharedLog()
    let stubborn = RecordingService("link", log: log, stubborn: true)
    let reported = SharedLog()
    let group = ServiceGroup(
      services: [RecordingService("control", log: log), stubborn],
      // Long enough that a well-behaved service stops in time even on a
      // busy machine.
      logger: logger, stopDeadline: .seconds(1),
      onStopDeadline: { name in
        reported.append(name)
        // The daemon exits here; the test lets the service go instead.
        stubborn.release()
      })
    let running = Task { try await group.run {} }
    try await running.value
    #expect(reported.all == ["link"])
    #expect(log.all.suffix(2) == ["stop link", "stop control"])
  }

  @Test("SIGHUP reloads; the first SIGTERM stops; the next one aborts")
  func signals() async {
    let (signals, deliver) = AsyncStream.makeStream(of: UnixSignal.self)
    for signal in [UnixSignal.sighup, .sigterm, .sighup, .sigint, .sigterm] {
      deliver.yield(signal)
    }
    deliver.finish()
    let log = SharedLog()
    await DaemonSignals.follow(
      signals, reload: { log.append("reload") },
      stop: { log.append("stop \($0)") }, abort: { log.append("abort \($0)") })
    #expect(
      log.all == [
        "reload", "stop SIGTERM", "reload", "abort SIGINT", "abort SIGTERM",
      ])
  }
}
