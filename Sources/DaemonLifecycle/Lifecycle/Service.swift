// A small service lifecycle in the shape of swift-service-lifecycle: each
// long-running part of the daemon is a Service; a ServiceGroup starts them
// in order and stops them in reverse.

import Logging

/// A long-running part of the daemon.
///
/// `run()` keeps running until its task is cancelled, then cleans up and
/// returns. Returning or throwing before that counts as a failure and stops
/// the whole group.
public protocol Service: Sendable {
  /// The service's name, for logs.
  var name: String { get }

  /// Runs the service until its task is cancelled.
  func run() async throws
}

/// The error of a group whose service ended on its own.
public struct ServiceGroupError: Error, CustomStringConvertible {
  /// The service that ended.
  public let service: String
  /// What it threw, if anything.
  public let underlying: (any Error)?

  /// A message naming the service and its error.
  public var description: String {
    if let underlying {
      return "the \(service) service failed: \(underlying)"
    }
    return "the \(service) service stopped on its own"
  }
}

/// Runs services in order and stops them in reverse order.
///
/// Services with a higher index may depend on those with a lower one: when
/// ``run(until:)``'s trigger fires, the last service is cancelled and
/// awaited first, then the one before it, and so on. Each has
/// ``stopDeadline`` to stop; one that takes longer is reported to
/// `onStopDeadline`, which the daemon ends the process with.
public struct ServiceGroup: Sendable {
  private let services: [any Service]
  private let logger: Logger
  /// How long each service may take to stop once cancelled.
  public let stopDeadline: Duration
  private let onStopDeadline: @Sendable (String) -> Void

  /// Creates a group.
  ///
  /// - Parameters:
  ///   - services: The services, in start order.
  ///   - logger: Where to report starts and stops.
  ///   - stopDeadline: How long each service may take to stop.
  ///   - onStopDeadline: Called with a service's name when it has not
  ///     stopped within the deadline; the group goes on waiting for it.
  public init(
    services: [any Service], logger: Logger,
    stopDeadline: Duration = .seconds(5),
    onStopDeadline: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.services = services
    self.logger = logger
    self.stopDeadline = stopDeadline
    self.onStopDeadline = onStopDeadline
  }

  /// Runs every service until `shutdown` returns, then stops them in
  /// reverse order.
  ///
  /// - Parameter shutdown: Returns when the group should stop, for example
  ///   on SIGTERM.
  /// - Throws: ``ServiceGroupError`` if a service ends on its own.
  public func run(
    until shutdown: @escaping @Sendable () async -> Void
  )
    async throws
  {
    try await run(from: 0, until: shutdown)
    logger.notice("All services stopped")
  }

  private enum Outcome: Sendable {
    case laterServicesStopped
    case serviceEnded(String)
  }

  /// Reports a service that has not stopped by the deadline.
  ///
  /// Cancel the returned watchdog once the service has stopped. It runs
  /// apart from the group, whose tasks are cancelled by now.
  private func watchStop(of name: String) -> Task<Void, Never> {
    let deadline = stopDeadline
    let onStopDeadline = self.onStopDeadline
    let logger = self.logger
    return Task.detached {
      do {
        try await Task.sleep(for: deadline)
      } catch {
        return
      }
      logger.error(
        "A service did not stop in time",
        metadata: ["service.name": name, "service.deadline": "\(deadline)"])
      onStopDeadline(name)
    }
  }

  private func run(
    from index: Int, until shutdown: @escaping @Sendable () async -> Void
  ) async throws {
    guard index < services.count else {
      await shutdown()
      logger.notice("Shutting down")
      return
    }
    let service = services[index]
    let logger = self.logger
    try await withThrowingTaskGroup(of: Outcome.self) { group in
      logger.debug("Starting service", metadata: ["service.name": service.name])
      group.addTask {
        do {
          try await service.run()
        } catch is CancellationError {
        } catch {
          if !Task.isCancelled {
            throw ServiceGroupError(service: service.name, underlying: error)
          }
        }
        return .serviceEnded(service.name)
      }
      group.addTask {
        try await self.run(from: index + 1, until: shutdown)
        return .laterServicesStopped
      }
      let first: Outcome
      do {
        first = try await group.next()!
      } catch {
        // A service failed: the others stop within the deadline too.
        group.cancelAll()
        let watchdog = watchStop(of: service.name)
        defer { watchdog.cancel() }
        while true {
          do {
            guard try await group.next() != nil else { break }
          } catch {}
        }
        throw error
      }
      group.cancelAll()
      // Wait for the other child: the service stops after the later ones,
      // within its deadline.
      let watchdog = watchStop(of: service.name)
      defer { watchdog.cancel() }
      while try await group.next() != nil {}
      logger.debug("Stopped service", metadata: ["service.name": service.name])
      if case .serviceEnded(let name) = first, !Task.isCancelled {
        throw ServiceGroupError(service: name, underlying: nil)
      }
    }
  }
}
