// The BlueZ client against python-dbusmock's bluez5 template on a private
// bus, each test on its own bus. The mock is driven with gdbus, independently
// of the code under test.

import BlueZ
import Foundation
import TestSupport
import Testing

/// The address the bluez5 template gives `hci0`.
private let hci0Address = "00:01:02:03:04:05"
/// The address the bluez5 template gives `hci1`.
private let hci1Address = "01:02:03:04:05:06"
/// The address of the device most tests add.
private let budsAddress = "AA:BB:CC:DD:EE:01"

/// Starts a mock with the adapter `hci0` and connects a client to it.
private func startMockAndConnect() async throws -> (BlueZMock, BlueZClient) {
  let mock = try await BlueZMock.start()
  do {
    try await mock.addAdapter("hci0", systemName: "test-host")
    let client = try await BlueZClient.connect(busAddress: mock.busAddress)
    return (mock, client)
  } catch {
    mock.stop()
    throw error
  }
}

/// The record of a device just added to the mock with
/// `addDevice(address:name:)` on `hci0`.
private func freshDevice(_ address: String, name: String) -> BlueZDevice {
  BlueZDevice(
    address: address, name: name, alias: name, rssi: -79,
    adapterAddress: hci0Address)
}

/// Returns the next change, or nil if the stream ended.
private func nextChange(
  _ iterator: inout AsyncStream<BlueZChange>.Iterator
) async -> BlueZChange? {
  await iterator.next()
}

@Suite("BlueZClient against a BlueZ mock", .timeLimit(.minutes(3)))
struct BlueZClientTests {
  @Test func listsAdaptersWithAddressAndPower() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    try await mock.addAdapter("hci1", systemName: "second-host")
    try await mock.setAdapterProperty("hci1", "Powered", .bool(false))

    let adapters = try await client.adapters()

    #expect(
      adapters == [
        BlueZAdapter(
          objectPath: "/org/bluez/hci0", address: hci0Address,
          name: "test-host", alias: "test-host", isPowered: true,
          isDiscovering: false),
        BlueZAdapter(
          objectPath: "/org/bluez/hci1", address: hci1Address,
          name: "second-host", alias: "second-host", isPowered: false,
          isDiscovering: false),
      ])
    #expect(adapters.map(\.interfaceName) == ["hci0", "hci1"])
  }

  @Test func mapsEveryDeviceProperty() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    try await mock.addDevice(address: budsAddress, name: "Buds")
    try await mock.addDevice(address: "AA:BB:CC:DD:EE:02", name: "Plain")
    let address = budsAddress
    let properties: [(String, BlueZMock.PropertyValue)] = [
      ("Name", .string("Buds Pro")),
      ("Alias", .string("Kitchen's \"Buds\"")),
      (
        "UUIDs",
        .strings([
          "0000110b-0000-1000-8000-00805f9b34fb",
          "0000fe2c-0000-1000-8000-00805f9b34fb",
          "12345678-1234-1234-1234-123456789abc",
        ])
      ),
      (
        "ManufacturerData", .manufacturerData([0x004C: [1, 2, 3], 0x0006: []])
      ),
      (
        "ServiceData",
        .serviceData(["0000fe2c-0000-1000-8000-00805f9b34fb": [9, 8]])
      ),
      ("RSSI", .int16(-42)),
      ("Icon", .string("audio-headphones")),
      ("Paired", .bool(true)),
      ("Connected", .bool(true)),
    ]
    for (name, value) in properties {
      try await mock.setDeviceProperty(address, name, value)
    }

    let devices = try await client.devices()

    let expected = BlueZDevice(
      address: budsAddress,
      name: "Buds Pro",
      alias: "Kitchen's \"Buds\"",
      uuids: [
        "0000110b-0000-1000-8000-00805f9b34fb",
        "0000fe2c-0000-1000-8000-00805f9b34fb",
        "12345678-1234-1234-1234-123456789abc",
      ],
      manufacturerData: [0x004C: Data([1, 2, 3]), 0x0006: Data()],
      serviceData: ["0000fe2c-0000-1000-8000-00805f9b34fb": Data([9, 8])],
      rssi: -42,
      icon: "audio-headphones",
      isPaired: true,
      isConnected: true,
      adapterAddress: hci0Address)
    // The mock gives a new device empty arrays of the wrong type for its
    // advertisement data (aa{qv}, aa{sv}); they read as empty.
    let plain = freshDevice("AA:BB:CC:DD:EE:02", name: "Plain")
    #expect(devices == [expected, plain])
  }

  @Test func readsTheIcon() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    try await mock.addDevice(address: budsAddress, name: "Buds")
    try await mock.setDeviceProperty(
      budsAddress, "Icon", .string("audio-headset"))

    let device = try #require(try await client.devices().first)

    #expect(device.icon == "audio-headset")
  }

  @Test func reportsDevicesAddedChangedAndRemoved() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    var changes = client.changes().makeAsyncIterator()
    let address = budsAddress

    try await mock.addDevice(address: address, name: "Buds")
    var expected = freshDevice(budsAddress, name: "Buds")
    #expect(await nextChange(&changes) == .deviceAdded(expected))

    try await mock.setDeviceProperty(address, "RSSI", .int16(-50))
    expected.rssi = -50
    #expect(await nextChange(&changes) == .deviceChanged(expected))

    try await mock.setDeviceProperty(
      address, "ManufacturerData", .manufacturerData([0x004C: [0x10, 0x05]]))
    expected.manufacturerData = [0x004C: Data([0x10, 0x05])]
    #expect(await nextChange(&changes) == .deviceChanged(expected))

    try await mock.removeDevice(address: address)
    #expect(await nextChange(&changes) == .deviceRemoved(budsAddress))

    #expect(try await client.devices().isEmpty)
  }

  @Test func everySubscriberHearsEveryChange() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    var first = client.changes().makeAsyncIterator()
    var second = client.changes().makeAsyncIterator()

    try await mock.addDevice(address: budsAddress, name: "Buds")

    let added = BlueZChange.deviceAdded(freshDevice(budsAddress, name: "Buds"))
    #expect(await nextChange(&first) == added)
    #expect(await nextChange(&second) == added)
  }

  @Test func startsAndStopsDiscovery() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    var changes = client.changes().makeAsyncIterator()
    let adapter = try #require(try await client.adapters().first)
    var discovering = adapter
    discovering.isDiscovering = true

    try await client.startDiscovery(on: adapter)
    #expect(await nextChange(&changes) == .adapterChanged(discovering))
    #expect(try await client.adapters() == [discovering])

    try await client.stopDiscovery(on: adapter)
    #expect(await nextChange(&changes) == .adapterChanged(adapter))
    #expect(try await client.adapters() == [adapter])
  }

  @Test func reportsAdaptersAddedAndRemovedWithTheirDevices() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    var changes = client.changes().makeAsyncIterator()

    try await mock.addAdapter("hci1", systemName: "second-host")
    let second = BlueZAdapter(
      objectPath: "/org/bluez/hci1", address: hci1Address,
      name: "second-host", alias: "second-host", isPowered: true)
    #expect(await nextChange(&changes) == .adapterAdded(second))

    try await mock.addDevice(
      adapter: "hci1", address: budsAddress, name: "Buds")
    var device = freshDevice(budsAddress, name: "Buds")
    device.adapterAddress = hci1Address
    #expect(await nextChange(&changes) == .deviceAdded(device))

    // The mock reports only the adapter gone; its device goes with it.
    try await mock.removeAdapter("hci1")
    #expect(await nextChange(&changes) == .deviceRemoved(budsAddress))
    #expect(await nextChange(&changes) == .adapterRemoved(second))
    #expect(try await client.adapters().map(\.interfaceName) == ["hci0"])
  }

  @Test func followsBlueZGoingAwayAndComingBack() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer {
      client.close()
      mock.stop()
    }
    try await mock.addDevice(address: budsAddress, name: "Buds")
    let adapter = try #require(try await client.adapters().first)
    var changes = client.changes().makeAsyncIterator()

    try await mock.restartBlueZ()
    #expect(await nextChange(&changes) == .deviceRemoved(budsAddress))
    #expect(await nextChange(&changes) == .adapterRemoved(adapter))

    // The new BlueZ is believed: its signals come from a new unique name.
    try await mock.addAdapter("hci0", systemName: "test-host")
    #expect(await nextChange(&changes) == .adapterAdded(adapter))
    try await mock.addDevice(address: budsAddress, name: "Buds")
    #expect(
      await nextChange(&changes)
        == .deviceAdded(freshDevice(budsAddress, name: "Buds")))
  }

  @Test func namesTheDBusErrorWhenBlueZIsNotRunning() async throws {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let client = try await BlueZClient.connect(busAddress: bus.address)
    defer { client.close() }

    let error = await #expect(throws: BlueZError.self) {
      try await client.adapters()
    }

    #expect(error?.name == .serviceUnknown)
    #expect(
      error?.description
        == "listing BlueZ adapters (org.freedesktop.DBus.ObjectManager."
        + "GetManagedObjects on org.bluez at /) failed: "
        + "org.freedesktop.DBus.Error.ServiceUnknown: The name org.bluez was "
        + "not provided by any .service files")
  }

  @Test func namesTheBusThatCannotBeReached() async throws {
    let address = "unix:path=/nonexistent/accessoryd-test-bus"

    let error = await #expect(throws: BlueZError.self) {
      try await BlueZClient.connect(busAddress: address)
    }

    #expect(
      error?.name == .noServer || error?.name == .fileNotFound,
      "\(String(describing: error))")
    #expect(
      error?.description.hasPrefix(
        "connecting to the D-Bus bus at \(address) failed: "
          + "org.freedesktop.DBus.Error.") == true)
  }

  @Test func refusesAnInvalidObjectPathBeforeLibdbusSeesIt() async throws {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let client = try await BlueZClient.connect(busAddress: bus.address)
    defer { client.close() }
    let adapter = BlueZAdapter(objectPath: "hci0/", address: hci0Address)

    let error = await #expect(throws: BlueZError.self) {
      try await client.startDiscovery(on: adapter)
    }

    #expect(error?.name == .invalidArguments)
    #expect(error?.message == "'hci0/' is not a valid object path")
  }

  @Test func failsACallThatGetsNoReply() async throws {
    let mock = try await BlueZMock.start()
    defer { mock.stop() }
    try await mock.addAdapter("hci0", systemName: "test-host")
    let client = try await BlueZClient.connect(
      busAddress: mock.busAddress, callTimeout: .milliseconds(200))
    defer { client.close() }
    let adapter = try #require(try await client.adapters().first)

    mock.suspendBlueZ()
    let error = await #expect(throws: BlueZError.self) {
      try await client.startDiscovery(on: adapter)
    }
    mock.resumeBlueZ()

    #expect(error?.name == .noReply)
    #expect(
      error?.description
        == "starting discovery on hci0 (org.bluez.Adapter1.StartDiscovery "
        + "on org.bluez at /org/bluez/hci0) failed: "
        + "org.freedesktop.DBus.Error.NoReply: no reply within 0.2 seconds")
    // The connection still works.
    #expect(try await client.adapters().map(\.interfaceName) == ["hci0"])
  }

  @Test func endsTheStreamsWhenTheBusGoesAway() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer { client.close() }
    let changes = client.changes()

    mock.stop()

    // The mock stops before the bus, so BlueZ may be seen leaving first.
    for await change in changes {
      guard case .adapterRemoved(let adapter) = change,
        adapter.interfaceName == "hci0"
      else {
        Issue.record("unexpected change as the bus went away: \(change)")
        continue
      }
    }
    let error = await #expect(throws: BlueZError.self) {
      try await client.adapters()
    }
    #expect(error?.name == .disconnected)
  }

  @Test func closingEndsTheStreamsAndFailsLaterCalls() async throws {
    let (mock, client) = try await startMockAndConnect()
    defer { mock.stop() }
    let changes = client.changes()

    client.close()

    for await change in changes {
      Issue.record("unexpected change after closing: \(change)")
    }
    let error = await #expect(throws: BlueZError.self) {
      try await client.devices()
    }
    #expect(error?.name == .disconnected)
    var late = client.changes().makeAsyncIterator()
    #expect(await nextChange(&late) == nil)
  }
}
