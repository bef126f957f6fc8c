// Every libpulse call of the package lives in this folder. ContextDriver owns
// one pa_threaded_mainloop and one pa_context; its rule is that pa_* objects
// are touched only with the mainloop lock held or inside a libpulse callback
// (which runs on the mainloop thread with the lock held).

internal import CPulse
import ConcurrencyHelpers
import Dispatch
import FoundationEssentials
import SoundServerModel

/// A value produced by one libpulse callback.
enum Payload: @unchecked Sendable {
  case done
  case index(UInt32)
  case server(ServerInfo)
  case sink(Sink)
  case sinkInput(SinkInput)
  case source(Source)
  case sourceOutput(SourceOutput)
  case card(Card)
  case client(index: UInt32, name: String)
}

/// One libpulse operation in flight, found again through the `userdata`
/// pointer of its callbacks.
///
/// The driver's `pending` table keeps it alive until it finishes; it is only
/// touched with the mainloop lock held.
final class PendingOperation {
  let id: Int
  unowned let driver: ContextDriver
  var operation: OpaquePointer?
  var items: [Payload] = []
  var completion: ((Result<[Payload], PulseError>) -> Void)?

  init(id: Int, driver: ContextDriver) {
    self.id = id
    self.driver = driver
  }

  var userdata: UnsafeMutableRawPointer {
    Unmanaged.passUnretained(self).toOpaque()
  }

  static func from(_ userdata: UnsafeMutableRawPointer?) -> PendingOperation {
    Unmanaged<PendingOperation>.fromOpaque(userdata!).takeUnretainedValue()
  }

  /// Ends the operation with a result; later calls do nothing.
  func finish(_ result: Result<[Payload], PulseError>) {
    guard let completion else { return }
    self.completion = nil
    if let operation {
      pa_operation_unref(operation)
      self.operation = nil
    }
    driver.pending[id] = nil
    completion(result)
  }

  /// Ends the operation with the context's current error.
  func fail() {
    finish(.failure(driver.contextError()))
  }
}

/// The owner of a threaded mainloop and a context.
final class ContextDriver: @unchecked Sendable {
  private let mainloop: OpaquePointer
  private var context: OpaquePointer?
  /// Operations in flight, by id; touched with the lock held.
  fileprivate var pending: [Int: PendingOperation] = [:]
  private var nextOperationID = 0
  /// The waiter for the end of connecting; touched with the lock held.
  private var readyWaiter: ((Result<Void, PulseError>) -> Void)?
  private var lastState: ConnectionState = .connecting
  private var isClosed = false
  /// Held for the whole of a close, so that a second close waits for the
  /// first to stop the mainloop.
  private let closing = Mutex(())

  let events: AsyncStream<ServerEvent>
  private let eventSink: AsyncStream<ServerEvent>.Continuation
  /// Called on the mainloop thread for each event instead of yielding it
  /// to `events`; set before connecting.
  private let eventHandler: (@Sendable (ServerEvent) -> Void)?
  let states: AsyncStream<ConnectionState>
  private let stateSink: AsyncStream<ConnectionState>.Continuation

  init(
    applicationName: String,
    eventHandler: (@Sendable (ServerEvent) -> Void)? = nil
  ) {
    self.eventHandler = eventHandler
    mainloop = pa_threaded_mainloop_new()!
    (events, eventSink) = AsyncStream.makeStream(
      of: ServerEvent.self, bufferingPolicy: .unbounded)
    (states, stateSink) = AsyncStream.makeStream(
      of: ConnectionState.self, bufferingPolicy: .unbounded)
    let properties = pa_proplist_new()
    pa_proplist_sets(properties, "application.name", applicationName)
    pa_proplist_sets(properties, "application.id", "org.accessoryd")
    context = pa_context_new_with_proplist(
      pa_threaded_mainloop_get_api(mainloop), applicationName, properties)
    pa_proplist_free(properties)
    let me = Unmanaged.passUnretained(self).toOpaque()
    pa_context_set_state_callback(context, contextStateChanged, me)
    pa_context_set_subscribe_callback(context, subscriptionFired, me)
    stateSink.yield(.connecting)
  }

  deinit {
    close()
    pa_threaded_mainloop_free(mainloop)
  }

  // MARK: - Locking

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pa_threaded_mainloop_lock(mainloop)
    defer { pa_threaded_mainloop_unlock(mainloop) }
    return try body()
  }

  func contextError() -> PulseError {
    guard let context else { return .connectionTerminated }
    let code = pa_context_errno(context)
    return code == 0 ? .unknown : PulseError(rawValue: code)
  }

  // MARK: - Connecting

  /// Starts the mainloop, connects, waits until the context is ready and,
  /// if `subscribing`, subscribes to events.
  func connect(
    server: String?, timeout: Duration, subscribing: Bool
  ) async throws(PulseError) {
    let result: Result<Void, PulseError> = await withHandover { handover in
      if pa_threaded_mainloop_start(mainloop) < 0 {
        handover.resume(returning: .failure(.internalError))
        return
      }
      withLock {
        readyWaiter = { handover.resume(returning: $0) }
        let status = pa_context_connect(
          context, server, PA_CONTEXT_NOAUTOSPAWN, nil)
        if status < 0 {
          finishConnecting(.failure(contextError()))
        }
      }
      scheduleTimeout(timeout) { [weak self] in
        self?.finishConnecting(.failure(.timeout))
      }
    }
    try result.get()
    guard subscribing else { return }
    _ = try await perform(timeout: timeout) { context, userdata in
      let mask =
        PA_SUBSCRIPTION_MASK_SINK.rawValue
        | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
        | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
        | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue
        | PA_SUBSCRIPTION_MASK_CARD.rawValue
        | PA_SUBSCRIPTION_MASK_SERVER.rawValue
      return pa_context_subscribe(
        context, pa_subscription_mask_t(mask), successCallback, userdata)
    }
  }

  /// Lock held.
  private func finishConnecting(_ result: Result<Void, PulseError>) {
    guard let waiter = readyWaiter else { return }
    readyWaiter = nil
    waiter(result)
  }

  /// Runs `action` with the lock held after `timeout`.
  private func scheduleTimeout(
    _ timeout: Duration, _ action: @escaping @Sendable () -> Void
  ) {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .nanoseconds(Int(nanoseconds))
    ) { [weak self] in
      self?.withLock { action() }
    }
  }

  // MARK: - Operations

  /// Starts operations together under one lock, pipelined on the
  /// connection, and returns each one's result in order.
  ///
  /// - Parameter starts: Each issues one libpulse call with the context and
  ///   the userdata its callback must receive, and returns the operation.
  func performMany(
    timeout: Duration,
    _ starts: [(OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?]
  ) async -> [Result<[Payload], PulseError>] {
    if starts.isEmpty { return [] }
    return await withHandover { handover in
      startMany(timeout: timeout, starts) { handover.resume(returning: $0) }
    }
  }

  /// Starts operations together under one lock, pipelined on the
  /// connection, at once, from any thread but the mainloop's, and calls
  /// `completion` with each one's result in order: on the mainloop thread,
  /// on the caller's (with the lock held) when the context is not ready,
  /// or on a timer's at the timeout.
  ///
  /// - Parameters:
  ///   - starts: Each issues one libpulse call with the context and the
  ///     userdata its callback must receive, and returns the operation.
  ///   - completion: Called once, when every operation has ended.
  func startMany(
    timeout: Duration,
    _ starts: [(OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?],
    completion: @escaping ([Result<[Payload], PulseError>]) -> Void
  ) {
    if starts.isEmpty {
      completion([])
      return
    }
    let ids = withLock { () -> [Int] in
      var ids: [Int] = []
      var results = [Result<[Payload], PulseError>?](
        repeating: nil, count: starts.count)
      var remaining = starts.count
      for (position, start) in starts.enumerated() {
        let operation = PendingOperation(id: nextOperationID, driver: self)
        nextOperationID += 1
        ids.append(operation.id)
        pending[operation.id] = operation
        operation.completion = { result in
          results[position] = result
          remaining -= 1
          if remaining == 0 { completion(results.map { $0! }) }
        }
        guard let context, lastState == .ready else {
          operation.finish(.failure(lastStateError()))
          continue
        }
        guard let started = start(context, operation.userdata) else {
          operation.fail()
          continue
        }
        operation.operation = started
      }
      return ids
    }
    scheduleTimeout(timeout) { [weak self] in
      guard let self else { return }
      for id in ids {
        guard let operation = self.pending[id] else { continue }
        if let started = operation.operation {
          pa_operation_cancel(started)
        }
        operation.finish(.failure(.timeout))
      }
    }
  }

  /// Starts one operation and returns its result.
  func perform(
    timeout: Duration,
    _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
  ) async throws(PulseError) -> [Payload] {
    try await withoutActuallyEscaping(start) { start in
      await performMany(timeout: timeout, [start])
    }[0].get()
  }

  /// Lock held.
  private func lastStateError() -> PulseError {
    if case .failed(let error) = lastState { return error }
    return lastState == .terminated ? .connectionTerminated : .badState
  }

  // MARK: - State and events

  /// Lock held: called on the mainloop thread.
  fileprivate func contextStateDidChange() {
    guard let context else { return }
    let state = pa_context_get_state(context)
    switch state {
    case PA_CONTEXT_READY:
      publish(.ready)
      finishConnecting(.success(()))
    case PA_CONTEXT_FAILED:
      let error = contextError()
      publish(.failed(error))
      failEverything(error)
    case PA_CONTEXT_TERMINATED:
      failEverything(.connectionTerminated)
    default:
      break
    }
  }

  /// Lock held.
  private func publish(_ state: ConnectionState) {
    guard lastState != state, !lastState.isFinal else { return }
    lastState = state
    stateSink.yield(state)
  }

  /// Lock held: fails everything in flight and ends the streams.
  private func failEverything(_ error: PulseError) {
    finishConnecting(.failure(error))
    for operation in pending.values {
      if let started = operation.operation {
        pa_operation_cancel(started)
      }
      operation.finish(.failure(error))
    }
    if case .failed = lastState {} else { lastState = .terminated }
    stateSink.yield(.terminated)
    stateSink.finish()
    eventSink.finish()
  }

  /// Lock held: called on the mainloop thread.
  fileprivate func subscriptionDidFire(
    _ type: pa_subscription_event_type_t, index: UInt32
  ) {
    let facilityCode =
      type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kindCode = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    let facility: ServerEvent.Facility
    switch facilityCode {
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue: facility = .sink
    case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: facility = .source
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue: facility = .sinkInput
    case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue: facility = .sourceOutput
    case PA_SUBSCRIPTION_EVENT_MODULE.rawValue: facility = .module
    case PA_SUBSCRIPTION_EVENT_CLIENT.rawValue: facility = .client
    case PA_SUBSCRIPTION_EVENT_SAMPLE_CACHE.rawValue: facility = .sampleCache
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: facility = .server
    case PA_SUBSCRIPTION_EVENT_CARD.rawValue: facility = .card
    default: return
    }
    let kind: ServerEvent.Kind
    switch kindCode {
    case PA_SUBSCRIPTION_EVENT_NEW.rawValue: kind = .new
    case PA_SUBSCRIPTION_EVENT_CHANGE.rawValue: kind = .change
    case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue: kind = .remove
    default: return
    }
    let event = ServerEvent(facility: facility, kind: kind, index: index)
    if let eventHandler {
      eventHandler(event)
    } else {
      eventSink.yield(event)
    }
  }

  // MARK: - Closing

  /// Disconnects and stops the mainloop; safe to call more than once, and
  /// a call made while another closes returns once that one is done.
  ///
  /// - Important: Never call it from a libpulse callback.
  func close() {
    closing.withLock { _ in closeOnce() }
  }

  private func closeOnce() {
    let wasOpen = withLock { () -> Bool in
      guard !isClosed else { return false }
      isClosed = true
      if let context {
        pa_context_disconnect(context)
        failEverything(.connectionTerminated)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_unref(context)
        self.context = nil
      }
      return true
    }
    if wasOpen {
      pa_threaded_mainloop_stop(mainloop)
    }
  }
}

// MARK: - Callback trampolines

private func contextStateChanged(
  _ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?
) {
  Unmanaged<ContextDriver>.fromOpaque(userdata!).takeUnretainedValue()
    .contextStateDidChange()
}

private func subscriptionFired(
  _ context: OpaquePointer?, _ type: pa_subscription_event_type_t,
  _ index: UInt32, _ userdata: UnsafeMutableRawPointer?
) {
  Unmanaged<ContextDriver>.fromOpaque(userdata!).takeUnretainedValue()
    .subscriptionDidFire(type, index: index)
}

/// The callback of operations that report success or failure.
func successCallback(
  _ context: OpaquePointer?, _ success: Int32,
  _ userdata: UnsafeMutableRawPointer?
) {
  let operation = PendingOperation.from(userdata)
  if success != 0 {
    operation.finish(.success([.done]))
  } else {
    operation.fail()
  }
}

/// The callback of operations that return an index.
func indexCallback(
  _ context: OpaquePointer?, _ index: UInt32,
  _ userdata: UnsafeMutableRawPointer?
) {
  let operation = PendingOperation.from(userdata)
  if index == UInt32.max {
    operation.fail()
  } else {
    operation.finish(.success([.index(index)]))
  }
}

/// Handles one call of a list callback: an item, the end, or an error.
func listCallback(
  _ userdata: UnsafeMutableRawPointer?, endOfList: Int32,
  _ item: () -> Payload
) {
  let operation = PendingOperation.from(userdata)
  if endOfList > 0 {
    operation.finish(.success(operation.items))
  } else if endOfList < 0 {
    operation.fail()
  } else {
    operation.items.append(item())
  }
}
