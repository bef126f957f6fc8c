// Apple's ASAccessorySession on Linux: a client of accessoryd. The picker
// it shows is answered by a person with `acctl pair`, the system picker of
// this platform; the session hears the events in Apple's order.

import AccessoryControl
import ConcurrencyHelpers
import CoreBluetooth
import Dispatch
import FoundationEssentials

/// Coordinates accessory discovery and authorization for an app.
///
/// Activate it with an event handler, then show the picker:
///
/// ```swift
/// let session = ASAccessorySession()
/// session.activate(on: .main) { event in
///   if event.eventType == .accessoryAdded { … }
/// }
/// session.showPicker(for: [item]) { error in … }
/// ```
///
/// The session talks to accessoryd over its control socket. Its picker
/// waits for a person to choose an accessory with `acctl pair` (or for a
/// script to answer with `acctl pair --select ADDRESS`); the events come in
/// Apple's order: `pickerDidPresent`, `pickerSetupPairing`,
/// `pickerSetupRename` if renamed, `accessoryAdded`, `pickerDidDismiss`.
/// An invalidated session cannot be used again.
public final class ASAccessorySession: Sendable {
  enum Phase {
    case idle, activating, active, invalidated
  }

  struct State {
    var phase = Phase.idle
    /// Where the app's handlers run.
    var queue: DispatchQueue?
    var deliver: (@Sendable (ASAccessoryEvent) -> Void)?
    var accessories: [ASAccessory] = []
    var events: ControlClient?
    var calls: ControlClient?
    /// The completion of the open picker, called at `pickerDidDismiss`.
    var pickerCompletion: (@Sendable ((any Error)?) -> Void)?
    /// The app's picker settings.
    var pickerDisplaySettings: ASPickerDisplaySettings?
    /// While a picker that filters discovery results is open: its items'
    /// descriptors, and the connection that follows discovery for it.
    var filtering:
      (descriptors: [ASDiscoveryDescriptor], client: ControlClient?)?
  }

  let state = Mutex(State())
  /// accessoryd's control socket.
  public let socketPath: String
  /// Names this session's pickers in the daemon's events.
  let token = UUID().uuidString
  /// The app's declared identifiers (the Info.plist analogue); when set, a
  /// picker item whose descriptor uses an undeclared one is refused.
  public let setupConfiguration: ASAccessorySetupConfiguration?
  /// Why the setup configuration file could not be read, if it could not.
  let configurationProblem: String?

  /// Linux addition: the socket that sessions created by `init()` in this
  /// task use, instead of the usual one; for tests and tools that run
  /// their own accessoryd.
  @TaskLocal public static var defaultSocketPath: String?

  /// Linux addition: the app's setup configuration file (the Info.plist
  /// analogue, see ``ASAccessorySetupConfiguration/load(from:)``) that
  /// sessions created by `init()` in this task read, instead of the usual
  /// one.
  @TaskLocal public static var defaultSetupConfigurationPath: String?

  /// The environment variable that names the app's setup configuration
  /// file.
  public static let setupConfigurationVariable =
    "ACCESSORY_SETUP_CONFIGURATION"

  /// Creates a session with accessoryd at its usual socket
  /// (`ACCESSORYD_SOCKET`, else `$XDG_RUNTIME_DIR/accessoryd/control.sock`).
  ///
  /// The app's declared identifiers, the analogue of its Info.plist keys,
  /// come from the JSON file `$ACCESSORY_SETUP_CONFIGURATION` names, else
  /// from `AccessorySetup.json` beside the executable, if there is one; a
  /// picker item that uses an undeclared identifier is then refused. A file
  /// that cannot be read makes every picker fail with its error.
  public convenience init() {
    let path =
      Self.defaultSetupConfigurationPath
      ?? ProcessInfo.processInfo.environment[Self.setupConfigurationVariable]
      ?? Self.configurationBesideExecutable()
    var configuration: ASAccessorySetupConfiguration?
    var problem: String?
    if let path {
      do {
        configuration = try ASAccessorySetupConfiguration.load(
          from: URL(fileURLWithPath: path))
      } catch {
        problem = "\(error)"
      }
    }
    self.init(
      socketPath: Self.defaultSocketPath ?? ControlSocketPath.resolve(),
      setupConfiguration: configuration, configurationProblem: problem)
  }

  /// `AccessorySetup.json` beside the running executable, if it exists.
  static func configurationBesideExecutable() -> String? {
    guard
      let executable = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/exe")
    else { return nil }
    let path =
      URL(fileURLWithPath: executable).deletingLastPathComponent().path
      + "/AccessorySetup.json"
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// Creates a session with accessoryd at a socket, checking descriptors
  /// against the app's setup configuration if one is given.
  public convenience init(
    socketPath: String,
    setupConfiguration: ASAccessorySetupConfiguration? = nil
  ) {
    self.init(
      socketPath: socketPath, setupConfiguration: setupConfiguration,
      configurationProblem: nil)
  }

  init(
    socketPath: String, setupConfiguration: ASAccessorySetupConfiguration?,
    configurationProblem: String?
  ) {
    self.socketPath = socketPath
    self.setupConfiguration = setupConfiguration
    self.configurationProblem = configurationProblem
  }

  /// The settings of the pickers this session shows; with
  /// ``ASPickerDisplaySettings/Options/filterDiscoveryResults`` the app
  /// receives ``ASAccessoryEventType/accessoryDiscovered`` and offers
  /// accessories with ``updatePicker(showing:completionHandler:)``.
  public var pickerDisplaySettings: ASPickerDisplaySettings? {
    get { state.withLock { $0.pickerDisplaySettings } }
    set { state.withLock { $0.pickerDisplaySettings = newValue } }
  }

  /// The accessories authorized so far, kept up to date by the session's
  /// events.
  public var accessories: [ASAccessory] {
    state.withLock { $0.accessories }
  }

  // MARK: - Life cycle

  /// Activates the session: connects to accessoryd, loads ``accessories``
  /// and delivers ``ASAccessoryEventType/activated``, then every event, on
  /// `queue`.
  ///
  /// If accessoryd cannot be reached, the handler receives
  /// ``ASAccessoryEventType/invalidated`` with an ``ASError`` of code
  /// ``ASError/Code/activationFailed``; an invalidated session receives
  /// `invalidated` again. A second activation of an active session does
  /// nothing.
  ///
  /// - Parameters:
  ///   - queue: Where the handler runs, one event at a time.
  ///   - eventHandler: Receives the events.
  public func activate(
    on queue: DispatchQueue,
    eventHandler: @escaping (ASAccessoryEvent) -> Void
  ) {
    let handler = UncheckedHandler(eventHandler)
    // Nothing but `invalidated` itself is delivered once the session is
    // invalidated; the queue keeps the order of what was delivered before.
    let deliver: @Sendable (ASAccessoryEvent) -> Void = { [weak self] event in
      let live = self?.state.withLock { $0.phase != .invalidated } ?? false
      guard live || event.eventType == .invalidated else { return }
      queue.async { handler.call(event) }
    }
    let phase = state.withLock { state -> Phase in
      let phase = state.phase
      if phase == .idle {
        state.phase = .activating
        state.queue = queue
        state.deliver = deliver
      }
      return phase
    }
    switch phase {
    case .idle:
      startThread { self.connect() }
    case .invalidated:
      deliver(
        ASAccessoryEvent(
          eventType: .invalidated,
          error: ASError(
            .invalidated, "the session was invalidated; create a new one")))
    case .activating, .active:
      return
    }
  }

  /// Ends the session: a shown picker is dismissed, and the handler
  /// receives ``ASAccessoryEventType/invalidated``, its last event.
  public func invalidate() {
    let taken = state.withLock { state -> State? in
      guard state.phase != .invalidated else { return nil }
      let taken = state
      state.phase = .invalidated
      state.pickerCompletion = nil
      state.events = nil
      state.calls = nil
      return taken
    }
    guard let taken else { return }
    if let completion = taken.pickerCompletion {
      _ = try? taken.calls?.call(
        PickerCancelRequest(.session(token), reason: .invalidated))
      completion(ASError(.invalidated, "the session was invalidated"))
    }
    taken.events?.interrupt()
    taken.calls?.close()
    taken.deliver?(ASAccessoryEvent(eventType: .invalidated))
  }

  // MARK: - Picker

  /// Shows the picker with these items; `completionHandler` runs when it
  /// is dismissed, with nil once an accessory was set up (or migrated), or
  /// the error: ``ASError/Code/userCancelled`` if the person cancelled.
  ///
  /// Showing the picker before ``activate(on:eventHandler:)`` finished, or
  /// on an invalidated session, fails with ``ASError/Code/invalidRequest``
  /// or ``ASError/Code/invalidated``; an item whose descriptor breaks
  /// Apple's rules, or uses an identifier the ``setupConfiguration`` does
  /// not declare, with ``ASError/Code/invalidRequest`` naming it.
  public func showPicker(
    for displayItems: [ASPickerDisplayItem],
    completionHandler: @escaping ((any Error)?) -> Void
  ) {
    let completion = UncheckedCompletion(completionHandler)
    if let configurationProblem {
      finish(completion, ASError(.invalidRequest, configurationProblem))
      return
    }
    let items: [PickerItem]
    do {
      items = try displayItems.map(pickerItem)
    } catch {
      finish(completion, error)
      return
    }
    let calls = state.withLock { state -> Result<ControlClient, ASError> in
      switch state.phase {
      case .idle, .activating:
        return .failure(
          ASError(
            .invalidRequest,
            "activate the session, and wait for the activated event, before "
              + "showing the picker"))
      case .invalidated:
        return .failure(
          ASError(.invalidated, "the session was invalidated; create a new one")
        )
      case .active:
        guard state.pickerCompletion == nil, let calls = state.calls else {
          return .failure(
            ASError(.pickerAlreadyActive, "this session's picker is shown"))
        }
        let queue = state.queue ?? .global()
        state.pickerCompletion = { error in
          queue.async { completion.call(error) }
        }
        let filters =
          state.pickerDisplaySettings?.options.contains(.filterDiscoveryResults)
          ?? false
        state.filtering =
          filters ? (displayItems.map(\.descriptor), nil) : nil
        return .success(calls)
      }
    }
    guard case .success(let client) = calls else {
      if case .failure(let error) = calls { finish(completion, error) }
      return
    }
    let filters = state.withLock { $0.filtering != nil }
    startThread {
      do {
        _ = try client.call(
          PickerShowRequest(
            items: items, session: self.token, filtersDiscoveryResults: filters
          ))
      } catch {
        let failed = self.state.withLock { state in
          defer { state.pickerCompletion = nil }
          return state.pickerCompletion
        }
        failed?(Self.sessionError(error))
      }
    }
  }

  /// Shows the picker and returns when it is dismissed; see
  /// ``showPicker(for:completionHandler:)``.
  public func showPicker(for displayItems: [ASPickerDisplayItem]) async throws {
    let items = displayItems
    try await completion { showPicker(for: items, completionHandler: $0) }
  }

  /// Offers discovered accessories in the open picker, in the
  /// ``ASPickerDisplaySettings/Options/filterDiscoveryResults`` mode: the
  /// person sees these, by the names the app gave them.
  public func updatePicker(
    showing displayItems: [ASDiscoveredDisplayItem],
    completionHandler: @escaping ((any Error)?) -> Void
  ) {
    let completion = UncheckedCompletion(completionHandler)
    var items: [OfferedDevice] = []
    for item in displayItems {
      guard let address = item.accessory.bluetoothAddress else {
        finish(
          completion,
          ASError(
            .invalidRequest,
            "picker item '\(item.name)' offers an accessory without a "
              + "Bluetooth address"))
        return
      }
      items.append(
        OfferedDevice(
          address: address.description, name: item.name,
          productImage: item.productImage.reference))
    }
    call(PickerUpdateRequest(session: token, items: items), completion)
  }

  /// Offers discovered accessories; see
  /// ``updatePicker(showing:completionHandler:)``.
  public func updatePicker(
    showing displayItems: [ASDiscoveredDisplayItem]
  )
    async throws
  {
    try await completion {
      updatePicker(showing: displayItems, completionHandler: $0)
    }
  }

  /// Ends discovery for a picker that filters its results: if the app
  /// offered nothing, the picker is dismissed with
  /// ``ASError/Code/discoveryTimeout``.
  public func finishPickerDiscovery(
    completionHandler: @escaping ((any Error)?) -> Void
  ) {
    call(
      PickerFinishDiscoveryRequest(session: token),
      UncheckedCompletion(completionHandler))
  }

  /// Ends discovery; see ``finishPickerDiscovery(completionHandler:)``.
  public func finishPickerDiscovery() async throws {
    try await completion { finishPickerDiscovery(completionHandler: $0) }
  }

  // MARK: - Accessories

  /// Removes an accessory: its authorization ends and its registration is
  /// invalidated; the handler receives ``ASAccessoryEventType/accessoryRemoved``.
  public func removeAccessory(
    _ accessory: ASAccessory,
    completionHandler: @escaping ((any Error)?) -> Void
  ) {
    call(
      AccessoryUnpairRequest(accessory: selector(accessory)),
      UncheckedCompletion(completionHandler))
  }

  /// Removes an accessory; see ``removeAccessory(_:completionHandler:)``.
  public func removeAccessory(_ accessory: ASAccessory) async throws {
    try await completion { removeAccessory(accessory, completionHandler: $0) }
  }

  /// Linux addition: renames an accessory to `name`.
  ///
  /// On Apple's platforms the system asks the person for the name; here
  /// `acctl rename` is the person's way. The handler receives
  /// ``ASAccessoryEventType/accessoryChanged``.
  public func renameAccessory(
    _ accessory: ASAccessory, to name: String,
    completionHandler: @escaping ((any Error)?) -> Void
  ) {
    call(
      AccessoryRenameRequest<JSONValue>(
        accessory: selector(accessory), name: name),
      UncheckedCompletion(completionHandler))
  }

  /// Renames an accessory; see ``renameAccessory(_:to:completionHandler:)``.
  public func renameAccessory(
    _ accessory: ASAccessory, to name: String
  )
    async throws
  {
    try await completion {
      renameAccessory(accessory, to: name, completionHandler: $0)
    }
  }

}

extension ASAccessory {
  /// An accessory as accessoryd's answers describe it.
  convenience init?(record: AccessoryRecord<JSONValue>) {
    guard let address = BluetoothAddress(record.address) else { return nil }
    self.init(
      displayName: record.displayName, bluetoothAddress: address,
      formFactor: record.formFactor.flatMap(AudioFormFactor.init(rawValue:)))
  }

  /// An accessory as accessoryd's accessory events describe it.
  convenience init?(
    event accessory: AccessoryEvent<JSONValue>.Accessory
  ) {
    guard let address = BluetoothAddress(accessory.address) else { return nil }
    self.init(
      displayName: accessory.displayName, bluetoothAddress: address,
      formFactor: accessory.formFactor.flatMap(AudioFormFactor.init(rawValue:)))
  }
}

extension ASAccessoryEventType {
  /// The event type Apple names `name`, as the daemon's events carry it.
  init?(name: String) {
    guard let match = Self.allCases.first(where: { "\($0)" == name }) else {
      return nil
    }
    self = match
  }
}

/// Waits for an operation that reports to a completion handler, and
/// throws its error.
func completion(
  _ start: (@escaping ((any Error)?) -> Void) -> Void
) async throws {
  try await withCheckedThrowingContinuation {
    (continuation: CheckedContinuation<Void, any Error>) in
    start { error in
      if let error {
        continuation.resume(throwing: error)
      } else {
        continuation.resume()
      }
    }
  }
}

/// An app's event handler: it runs only on the queue the app chose, one
/// event at a time, as on Apple's platforms, so it need not be Sendable.
struct UncheckedHandler: @unchecked Sendable {
  let call: (ASAccessoryEvent) -> Void
  init(_ call: @escaping (ASAccessoryEvent) -> Void) { self.call = call }
}

/// An app's completion handler, called once.
struct UncheckedCompletion: @unchecked Sendable {
  let call: ((any Error)?) -> Void
  init(_ call: @escaping ((any Error)?) -> Void) { self.call = call }
}

/// Runs `body`, which blocks on the daemon's socket, on a thread of its
/// own.
func startThread(_ body: @escaping @Sendable () -> Void) {
  ConcurrencyHelpers.startThread(named: "ASAccessorySes", body)
}
