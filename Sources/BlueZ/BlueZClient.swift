// A client of BlueZ, the Linux Bluetooth daemon, over D-Bus: its adapters,
// the devices they see, their changes, and discovery.

import DBus

/// A connection to BlueZ (`org.bluez`) on a D-Bus bus, usually the system
/// bus.
///
/// The client keeps a copy of BlueZ's adapters and devices, current from
/// BlueZ's signals, and reports their changes through ``changes()``.
/// One dedicated thread drives the connection; every call has a timeout and
/// fails with a ``BlueZError``, never hangs.
///
/// ```swift
/// let client = try await BlueZClient.connect()
/// let changes = client.changes()
/// for adapter in try await client.adapters() where adapter.isPowered {
///   try await client.startDiscovery(on: adapter)
/// }
/// for await change in changes {
///   if case .deviceAdded(let device) = change { print(device.displayName) }
/// }
/// ```
///
/// Connecting succeeds even when BlueZ is not running: the client follows
/// `org.bluez` coming and going, reporting its objects as added and removed.
///
/// - Important: Call ``close()`` when done; `deinit` closes the connection
///   too. A closed client cannot be reopened.
public final class BlueZClient: Sendable {
  let driver: DBusConnectionDriver
  let tracker: BlueZObjectTracker

  /// The address of the bus the client is connected to.
  public let busAddress: String

  /// How long one call may wait for its reply.
  public let callTimeout: Duration

  private init(
    driver: DBusConnectionDriver, tracker: BlueZObjectTracker,
    busAddress: String, callTimeout: Duration
  ) {
    self.driver = driver
    self.tracker = tracker
    self.busAddress = busAddress
    self.callTimeout = callTimeout
  }

  deinit {
    driver.close()
  }

  /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard
  /// socket.
  public static var systemBusAddress: String {
    if let address = environmentVariable("DBUS_SYSTEM_BUS_ADDRESS"),
      !address.isEmpty
    {
      return address
    }
    return "unix:path=/var/run/dbus/system_bus_socket"
  }

  /// Connects to a bus, subscribes to BlueZ's signals and reads BlueZ's
  /// objects if it is running.
  ///
  /// The connection is private to this client. The corresponding C
  /// functions are `dbus_connection_open_private`, `dbus_bus_register` and
  /// `dbus_bus_add_match`.
  ///
  /// - Parameters:
  ///   - busAddress: A D-Bus address such as `unix:path=/run/dbus/bus`;
  ///     nil means the system bus (``systemBusAddress``).
  ///   - callTimeout: How long one call may wait for its reply.
  /// - Returns: A connected client.
  /// - Throws: ``BlueZError`` if the bus cannot be reached or refuses the
  ///   client, for example ``BlueZError/Name-swift.struct/noServer`` or
  ///   ``BlueZError/Name-swift.struct/fileNotFound``. BlueZ not running is
  ///   not an error.
  public static func connect(
    busAddress: String? = nil, callTimeout: Duration = .seconds(10)
  ) async throws(BlueZError) -> BlueZClient {
    let address = busAddress ?? systemBusAddress
    let tracker = BlueZObjectTracker()
    let opened = await DBusConnectionDriver.open(
      address: address, matchRules: matchRules,
      signalHandler: { signal, driver in
        if tracker.handle(signal) == .refresh {
          driver.start(getManagedObjects, timeout: callTimeout) { result in
            tracker.apply(result)
          }
        }
      },
      onEnd: { tracker.finish() })
    let driver: DBusConnectionDriver
    switch opened {
    case .success(let opened): driver = opened
    case .failure(let failure):
      tracker.finish()
      throw BlueZError(
        failure, operation: "connecting to the D-Bus bus at \(address)")
    }
    let client = BlueZClient(
      driver: driver, tracker: tracker, busAddress: address,
      callTimeout: callTimeout)
    // BlueZ may not be running; the client then waits for it to appear.
    _ = await driver.call(getManagedObjects, timeout: callTimeout) {
      tracker.apply($0)
    }
    return client
  }

  /// Closes the connection.
  ///
  /// Calls in flight fail with ``BlueZError/Name-swift.struct/disconnected``
  /// and every stream from ``changes()`` ends. Safe to call more than once.
  public func close() {
    driver.close()
  }

  // MARK: - Objects

  /// Returns BlueZ's adapters, read from BlueZ now.
  ///
  /// The corresponding D-Bus method is
  /// `org.freedesktop.DBus.ObjectManager.GetManagedObjects` on `org.bluez`
  /// at `/`.
  ///
  /// - Returns: The adapters, in object path order.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/serviceUnknown`` if BlueZ is not
  ///   running.
  public func adapters() async throws(BlueZError) -> [BlueZAdapter] {
    try await refresh(doing: "listing BlueZ adapters")
    return tracker.adapters()
  }

  /// Returns the devices BlueZ knows, paired or discovered, read from BlueZ
  /// now.
  ///
  /// Each record maps `org.bluez.Device1`: `Address`, `Name`, `Alias`,
  /// `UUIDs`, `ManufacturerData`, `ServiceData`, `RSSI`, `Icon`, `Paired`,
  /// `Connected` and the address of its `Adapter`. A device seen by two adapters appears twice.
  ///
  /// The corresponding D-Bus method is
  /// `org.freedesktop.DBus.ObjectManager.GetManagedObjects` on `org.bluez`
  /// at `/`.
  ///
  /// - Returns: The devices, in object path order.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/serviceUnknown`` if BlueZ is not
  ///   running.
  public func devices() async throws(BlueZError) -> [BlueZDevice] {
    try await refresh(doing: "listing BlueZ devices")
    return tracker.devices()
  }

  /// Returns a new stream of the changes to BlueZ's adapters and devices,
  /// from now on.
  ///
  /// Each call returns a stream of its own; each stream has one consumer.
  /// Streams buffer without limit, so consume them or drop them. They end
  /// when the client is closed or the bus connection is lost.
  public func changes() -> AsyncStream<BlueZChange> {
    tracker.subscribe()
  }

  // MARK: - Discovery

  /// Asks an adapter to start searching for devices.
  ///
  /// Found devices arrive as ``BlueZChange/deviceAdded(_:)`` and
  /// ``BlueZChange/deviceChanged(_:)``. BlueZ keeps searching until
  /// ``stopDiscovery(on:)`` or until this client disconnects.
  ///
  /// The corresponding D-Bus method is `org.bluez.Adapter1.StartDiscovery`.
  ///
  /// - Parameter adapter: The adapter.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/notReady`` if the adapter is off.
  public func startDiscovery(on adapter: BlueZAdapter) async throws(BlueZError)
  {
    try await callAdapter(
      adapter, "StartDiscovery", doing: "starting discovery")
  }

  /// Asks an adapter to stop the search this client started.
  ///
  /// The corresponding D-Bus method is `org.bluez.Adapter1.StopDiscovery`.
  ///
  /// - Parameter adapter: The adapter.
  /// - Throws: ``BlueZError``, for example
  ///   ``BlueZError/Name-swift.struct/notAuthorized`` if this client did not
  ///   start a search.
  public func stopDiscovery(on adapter: BlueZAdapter) async throws(BlueZError) {
    try await callAdapter(adapter, "StopDiscovery", doing: "stopping discovery")
  }

  // MARK: - Calls

  /// Reads every object from BlueZ into the tracker.
  private func refresh(doing attempt: String) async throws(BlueZError) {
    let call = Self.getManagedObjects
    let operation = "\(attempt) (\(call.summary))"
    // The reply handler runs on the dispatch thread: it must not keep the
    // client alive there.
    let tracker = self.tracker
    let result = await driver.call(call, timeout: callTimeout) { result in
      tracker.apply(result)
    }
    switch result {
    case .failure(let failure):
      throw BlueZError(failure, operation: operation)
    case .success(let reply):
      guard BlueZObjectTracker.parseManagedObjects(reply.arguments) != nil
      else {
        throw BlueZError(
          name: .invalidSignature,
          message: "the reply is not a{oa{sa{sv}}}",
          operation: operation)
      }
    }
  }

  /// Calls a method without arguments or results on an adapter.
  private func callAdapter(
    _ adapter: BlueZAdapter, _ method: String, doing attempt: String
  ) async throws(BlueZError) {
    let call = DBusMethodCall(
      destination: BlueZNames.service, path: adapter.objectPath,
      interface: BlueZNames.adapterInterface, member: method)
    let operation =
      "\(attempt) on \(adapter.interfaceName) (\(call.summary))"
    if case .failure(let failure) = await driver.call(
      call, timeout: callTimeout)
    {
      throw BlueZError(failure, operation: operation)
    }
  }

  /// `GetManagedObjects` on BlueZ's root object.
  private static let getManagedObjects = DBusMethodCall(
    destination: BlueZNames.service, path: "/",
    interface: BlueZNames.objectManager, member: "GetManagedObjects")

  /// The signals the client follows: BlueZ's objects coming and going,
  /// their properties, and the owner of `org.bluez`.
  private static let matchRules = [
    "type='signal',sender='org.bluez',path='/',"
      + "interface='org.freedesktop.DBus.ObjectManager'",
    "type='signal',sender='org.bluez',"
      + "interface='org.freedesktop.DBus.Properties',"
      + "member='PropertiesChanged',path_namespace='/org/bluez'",
    "type='signal',sender='org.freedesktop.DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
      + "arg0='org.bluez'",
  ]
}

extension BlueZError {
  /// Creates an error from a D-Bus failure and the attempt it stopped.
  init(_ failure: DBusFailure, operation: String) {
    self.init(
      name: Name(rawValue: failure.name), message: failure.message,
      operation: operation)
  }
}

extension BlueZObjectTracker {
  /// Applies a `GetManagedObjects` reply, if it is one; the dispatch thread
  /// calls it.
  func apply(_ result: Result<DBusReply, DBusFailure>) {
    guard case .success(let reply) = result,
      let objects = Self.parseManagedObjects(reply.arguments)
    else { return }
    replaceAll(with: objects, owner: reply.sender)
  }
}
