// BlueZ without a Bluetooth adapter: a private D-Bus bus, and python-dbusmock's
// bluez5 template serving org.bluez on it as if it were the system bus.
// Adapters and devices are added and changed through the template's methods
// and the standard Properties interface, called with `gdbus`.

import ConcurrencyHelpers
import Foundation
import Glibc

/// BlueZ's D-Bus API without a Bluetooth adapter, for one test.
///
/// A ``PrivateBus`` stands in for the system bus, and python-dbusmock's
/// `bluez5` template owns `org.bluez` on it. It starts with no adapters:
///
/// ```swift
/// let mock = try await BlueZMock.start()
/// defer { mock.stop() }
/// try await mock.addAdapter(systemName: "host")
/// try await mock.addDevice(address: "AA:BB:CC:DD:EE:01", name: "Buds")
/// let client = try await BlueZClient.connect(busAddress: mock.busAddress)
/// ```
///
/// Tests that need the mock fail, never skip, when it cannot start (for
/// example without `python3-dbusmock`), as those that need a sound server
/// do.
///
/// - Important: Call ``stop()`` when done; `deinit` stops the mock too.
public final class BlueZMock: Sendable {
  /// A value of a BlueZ property, as ``setDeviceProperty(_:_:_:)`` sets it.
  public enum PropertyValue: Sendable, Hashable {
    /// A string (`s`), such as `Name` or `Icon`.
    case string(String)
    /// A boolean (`b`), such as `Paired`.
    case bool(Bool)
    /// A 16-bit signed integer (`n`), such as `RSSI`.
    case int16(Int16)
    /// A 32-bit unsigned integer (`u`), such as `Class`.
    case uint32(UInt32)
    /// An array of strings (`as`), such as `UUIDs`.
    case strings([String])
    /// Manufacturer data (`a{qv}` of `ay`), by company identifier.
    case manufacturerData([UInt16: [UInt8]])
    /// Service data (`a{sv}` of `ay`), by service UUID.
    case serviceData([String: [UInt8]])

    /// The value in GVariant text form, as a variant, for `gdbus`.
    var gvariantText: String {
      switch self {
      case .string(let text): "<\(quoted(text))>"
      case .bool(let flag): "<\(flag)>"
      case .int16(let number): "<int16 \(number)>"
      case .uint32(let number): "<uint32 \(number)>"
      case .strings(let texts):
        "<@as [\(texts.map(quoted).joined(separator: ", "))]>"
      case .manufacturerData(let entries):
        "<@a{qv} {"
          + entries.sorted { $0.key < $1.key }.map { key, bytes in
            "\(key): \(byteArray(bytes))"
          }.joined(separator: ", ") + "}>"
      case .serviceData(let entries):
        "<@a{sv} {"
          + entries.sorted { $0.key < $1.key }.map { key, bytes in
            "\(quoted(key)): \(byteArray(bytes))"
          }.joined(separator: ", ") + "}>"
      }
    }
  }

  /// The bus that stands in for the system bus.
  public let bus: PrivateBus

  /// The address of the bus, for `BlueZClient.connect(busAddress:)` or
  /// `DBUS_SYSTEM_BUS_ADDRESS`.
  public var busAddress: String { bus.address }

  /// The adapter of each device added, by address.
  private let deviceAdapters = Mutex<[String: String]>([:])

  /// The running mock.
  private let process: Mutex<ChildProcess>

  /// How many mocks of this process may be starting at once.
  private static let startSlots = ServerSlots(
    capacity: max(2, ProcessInfo.processInfo.activeProcessorCount),
    patience: .seconds(20))

  private init(bus: PrivateBus, process: ChildProcess) {
    self.bus = bus
    self.process = Mutex(process)
  }

  deinit {
    stop()
  }

  /// Starts a private bus and the mock, and returns once the mock owns
  /// `org.bluez`.
  ///
  /// - Throws: ``BlueZMockError`` with the logs if the bus or the mock does
  ///   not start within thirty seconds; nothing is left running.
  public static func start() async throws -> BlueZMock {
    // Many tests start mocks at once; starting a few at a time is faster
    // than starting all of them side by side on a small machine.
    await startSlots.acquire()
    defer { startSlots.release() }
    let bus = try await PrivateBus.start()
    let process: ChildProcess
    do {
      process = try await launch(on: bus)
    } catch {
      let failure = BlueZMockError(
        "the BlueZ mock did not start in \(bus.directory): "
          + "\((error as? BlueZMockError)?.message ?? "\(error)")",
        logTail: bus.logTail())
      bus.stop()
      throw failure
    }
    return BlueZMock(bus: bus, process: process)
  }

  /// Starts the mock on a bus and waits until it owns `org.bluez`.
  private static func launch(on bus: PrivateBus) async throws -> ChildProcess {
    // Debian's interpreter: the first python3 on PATH may lack the module.
    let mock = try await bus.spawn(
      "/usr/bin/python3",
      arguments: ["-m", "dbusmock", "--template", "bluez5"],
      environment: bus.environment, output: "\(bus.directory)/dbusmock.log",
      errorOutput: "\(bus.directory)/dbusmock.log")
    do {
      try await bus.waitUntil("the mock to own org.bluez", watching: [mock]) {
        try await bus.nameHasOwner("org.bluez")
      }
    } catch {
      await ChildProcess.terminate([mock])
      throw error
    }
    return mock
  }

  /// Stops the mock as if BlueZ had exited, waits until `org.bluez` has no
  /// owner, then starts a fresh mock with no adapters.
  ///
  /// - Throws: ``BlueZMockError`` with the logs if the new mock does not
  ///   start within thirty seconds.
  public func restartBlueZ() async throws {
    let old = process.withLock { $0 }
    await ChildProcess.terminate([old])
    deviceAdapters.withLock { $0 = [:] }
    do {
      try await bus.waitUntil("org.bluez to lose its owner", watching: []) {
        try await !bus.nameHasOwner("org.bluez")
      }
      let new = try await Self.launch(on: bus)
      process.withLock { $0 = new }
    } catch {
      throw BlueZMockError(
        "the BlueZ mock did not restart: "
          + "\((error as? BlueZMockError)?.message ?? "\(error)")",
        logTail: bus.logTail())
    }
  }

  /// Stops the mock and the bus, and removes their directory.
  ///
  /// Safe to call more than once.
  public func stop() {
    // A suspended mock would sit out SIGTERM until the grace period ends.
    process.withLock { $0 }.send(SIGCONT)
    bus.stop()
  }

  /// Freezes the mock with SIGSTOP: it keeps `org.bluez` but answers
  /// nothing, like a hung daemon, until ``resumeBlueZ()``.
  public func suspendBlueZ() {
    process.withLock { $0 }.send(SIGSTOP)
  }

  /// Lets a mock frozen by ``suspendBlueZ()`` run again with SIGCONT.
  public func resumeBlueZ() {
    process.withLock { $0 }.send(SIGCONT)
  }

  /// The last lines of the logs of the bus and of the mock.
  public func logTail(lines: Int = 20) -> String {
    bus.logTail(lines: lines)
  }

  // MARK: - Adapters and devices

  /// Adds a powered adapter, with the `org.bluez.Mock.AddAdapter` method,
  /// and clears its discovery filter so that discovery can start.
  ///
  /// The template derives the adapter's address from the last digit of its
  /// name: `hci0` is `00:01:02:03:04:05`, `hci1` is `01:02:03:04:05:06`.
  ///
  /// - Parameters:
  ///   - name: The adapter's name, ending in a digit, such as `hci0`.
  ///   - systemName: The host name it reports (`Name` and `Alias`).
  /// - Returns: The adapter's object path, such as `/org/bluez/hci0`.
  @discardableResult
  public func addAdapter(
    _ name: String = "hci0", systemName: String
  ) async throws -> String {
    let output = try await callMock(
      "/org/bluez", "org.bluez.Mock.AddAdapter",
      [quoted(name), quoted(systemName)])
    let path = try Self.objectPath(in: output)
    // The template's StartDiscovery reads a `DiscoveryFilter` that only
    // SetDiscoveryFilter creates (KeyError otherwise, in dbusmock 0.28.7);
    // an empty filter is BlueZ's "no filter".
    _ = try await callMock(
      path, "org.bluez.Adapter1.SetDiscoveryFilter", ["@a{sv} {}"])
    return path
  }

  /// Removes an adapter, and only the adapter, with the
  /// `org.bluez.Mock.RemoveAdapter` method: its devices stay, as when
  /// BlueZ crashes without reporting them gone.
  ///
  /// - Parameter name: The adapter's name, such as `hci0`.
  public func removeAdapter(_ name: String) async throws {
    _ = try await callMock(
      "/org/bluez", "org.bluez.Mock.RemoveAdapter", [quoted(name)])
  }

  /// Adds an unpaired, unconnected device, with the
  /// `org.bluez.Mock.AddDevice` method.
  ///
  /// The device starts with `RSSI` -79, an empty `Icon` and no advertisement
  /// data; its `Name` and `Alias` are `name`.
  ///
  /// - Parameters:
  ///   - adapter: The name of an adapter added before, such as `hci0`.
  ///   - address: The device address, such as `AA:BB:CC:DD:EE:01`.
  ///   - name: The device's name.
  /// - Returns: The device's object path.
  @discardableResult
  public func addDevice(
    adapter: String = "hci0", address: String, name: String
  ) async throws -> String {
    let output = try await callMock(
      "/org/bluez", "org.bluez.Mock.AddDevice",
      [quoted(adapter), quoted(address), quoted(name)])
    deviceAdapters.withLock { $0[address.uppercased()] = adapter }
    return try Self.objectPath(in: output)
  }

  /// Sets one property of a device and emits `PropertiesChanged`, with the
  /// standard `org.freedesktop.DBus.Properties.Set` method.
  ///
  /// dbusmock 0.28.7 has no `org.freedesktop.DBus.Mock.SetProperty`, and its
  /// `UpdateProperties` fails on dictionary values (`ManufacturerData`,
  /// `ServiceData`); `Properties.Set` handles every type, one property at a
  /// time.
  ///
  /// - Parameters:
  ///   - address: The address of a device added with
  ///     ``addDevice(adapter:address:name:)``.
  ///   - name: The `org.bluez.Device1` property, such as `RSSI`.
  ///   - value: The new value.
  public func setDeviceProperty(
    _ address: String, _ name: String, _ value: PropertyValue
  ) async throws {
    guard
      let adapter = deviceAdapters.withLock({ $0[address.uppercased()] })
    else {
      throw BlueZMockError("no device \(address) was added to the mock")
    }
    try await setProperty(
      on: Self.devicePath(adapter: adapter, address: address),
      interface: "org.bluez.Device1", name, value)
  }

  /// Sets one property of an adapter and emits `PropertiesChanged`, with
  /// the standard `org.freedesktop.DBus.Properties.Set` method.
  ///
  /// - Parameters:
  ///   - adapter: The name of an adapter added before, such as `hci0`.
  ///   - name: The `org.bluez.Adapter1` property, such as `Powered`.
  ///   - value: The new value.
  public func setAdapterProperty(
    _ adapter: String, _ name: String, _ value: PropertyValue
  ) async throws {
    try await setProperty(
      on: "/org/bluez/\(adapter)", interface: "org.bluez.Adapter1", name,
      value)
  }

  /// Removes a device and emits `InterfacesRemoved`, with the adapter's
  /// `org.bluez.Adapter1.RemoveDevice` method, as BlueZ does.
  ///
  /// - Parameters:
  ///   - adapter: The name of the device's adapter, such as `hci0`.
  ///   - address: The device address.
  public func removeDevice(
    adapter: String = "hci0", address: String
  ) async throws {
    let path = Self.devicePath(adapter: adapter, address: address)
    _ = try await callMock(
      "/org/bluez/\(adapter)", "org.bluez.Adapter1.RemoveDevice",
      ["objectpath \(quoted(path))"])
    deviceAdapters.withLock { $0[address.uppercased()] = nil }
  }

  /// Makes the mock's `ProfileManager1.RegisterProfile` remember each
  /// profile, and the device's `Device1.ConnectProfile` open a real
  /// RFCOMM connection to it and hand the socket to the registered
  /// profile with `org.bluez.Profile1.NewConnection`, as BlueZ does.
  ///
  /// The mock must run with Debian's Python (it does), which has
  /// Bluetooth sockets; the kernel must have them (the Bluetooth VM).
  ///
  /// - Parameters:
  ///   - address: A device added with ``addDevice(adapter:address:name:)``.
  ///   - channel: The RFCOMM channel its service listens on.
  ///   - adapter: The local controller's address to connect from.
  public func handOverRFCOMM(
    of address: String, channel: Int, from adapter: String
  ) async throws {
    guard
      let adapterName = deviceAdapters.withLock({ $0[address.uppercased()] })
    else {
      throw BlueZMockError("no device \(address) was added to the mock")
    }
    let register = """
      bluez = objects['/org/bluez']
      if not hasattr(bluez, 'profiles'):
          bluez.profiles = {}
      bluez.profiles[str(args[1]).lower()] = str(args[0])
      """
    _ = try await callMock(
      "/org/bluez", "org.freedesktop.DBus.Mock.AddMethod",
      [
        quoted("org.bluez.ProfileManager1"), quoted("RegisterProfile"),
        quoted("osa{sv}"), quoted(""), quoted(register),
      ])
    // The profile's owner is whichever connection serves its object: the
    // mock tries each peer but itself, as BlueZ knows the one that
    // registered it.
    let connect = """
      import socket
      profiles = getattr(objects['/org/bluez'], 'profiles', {})
      path = profiles.get(str(args[0]).lower())
      if path is None:
          raise dbus.exceptions.DBusException(
              'no profile for ' + str(args[0]), name='org.bluez.Error.NotAvailable')
      link = socket.socket(
          socket.AF_BLUETOOTH, socket.SOCK_STREAM, socket.BTPROTO_RFCOMM)
      link.bind(('\(adapter)', 0))
      link.connect(('\(address.uppercased())', \(channel)))
      bus = self.connection
      me = bus.get_unique_name()
      names = dbus.Interface(
          bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus'),
          'org.freedesktop.DBus').ListNames()
      handed = False
      for name in names:
          if not name.startswith(':') or name == me:
              continue
          try:
              bus.call_blocking(
                  name, path, 'org.bluez.Profile1', 'NewConnection', 'oha{sv}',
                  [dbus.ObjectPath(self.__dbus_object_path__),
                   dbus.types.UnixFd(link), {}], timeout=10)
              handed = True
              break
          except dbus.exceptions.DBusException:
              continue
      link.close()
      if not handed:
          raise dbus.exceptions.DBusException(
              'nobody took the connection', name='org.bluez.Error.Failed')
      """
    _ = try await callMock(
      Self.devicePath(adapter: adapterName, address: address),
      "org.freedesktop.DBus.Mock.AddMethod",
      [
        quoted("org.bluez.Device1"), quoted("ConnectProfile"), quoted("s"),
        quoted(""), quoted(connect),
      ])
  }

  // MARK: - Calls

  private func setProperty(
    on path: String, interface: String, _ name: String,
    _ value: PropertyValue
  ) async throws {
    _ = try await callMock(
      path, "org.freedesktop.DBus.Properties.Set",
      [quoted(interface), quoted(name), value.gvariantText])
  }

  /// Calls a method on `org.bluez` with arguments in GVariant text form.
  private func callMock(
    _ path: String, _ method: String, _ arguments: [String]
  ) async throws -> String {
    try await bus.gdbus(
      [
        "call", "--dest", "org.bluez", "--object-path", path, "--method",
        method, "--timeout", "30",
      ] + arguments)
  }

  /// The object path of a device: `dev_` and the address with `_`.
  private static func devicePath(adapter: String, address: String) -> String {
    let element = address.uppercased().replacingOccurrences(of: ":", with: "_")
    return "/org/bluez/\(adapter)/dev_\(element)"
  }

  /// The object path in `gdbus call` output such as
  /// `(objectpath '/org/bluez/hci0',)` or `('/org/bluez/hci0',)`.
  private static func objectPath(in output: String) throws -> String {
    let parts = output.split(separator: "'")
    guard parts.count >= 2, parts[1].hasPrefix("/") else {
      throw BlueZMockError("no object path in '\(output)'")
    }
    return String(parts[1])
  }
}

/// A string in GVariant text form: single-quoted, with `\` and `'` escaped.
func quoted(_ text: String) -> String {
  let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
    .replacingOccurrences(of: "'", with: "\\'")
    .replacingOccurrences(of: "\n", with: "\\n")
  return "'\(escaped)'"
}

/// Bytes in GVariant text form, as a variant holding an `ay`.
private func byteArray(_ bytes: [UInt8]) -> String {
  "<@ay [\(bytes.map { "0x" + String($0, radix: 16) }.joined(separator: ", "))]>"
}
