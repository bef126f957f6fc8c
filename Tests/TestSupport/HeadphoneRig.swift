// Everything the headphone tests and benchmark start inside the Bluetooth
// VM: BlueZ's mock with the host's adapter at hci0's address and the
// headphones (AirPods or Galaxy Buds) connected at hci1's, their emulator
// listening there, a private PulseAudio with a speaker and the headphones'
// sink, a session bus for media players, and accessoryd.

/// The headphones, their emulator, a sound server and the daemon, inside
/// the Bluetooth VM.
public struct HeadphoneRig: Sendable {
  /// AirPods or Galaxy Buds.
  public let kind: HeadphoneEmulator.Kind
  /// BlueZ's D-Bus API.
  public let mock: BlueZMock
  /// The headphones: AirPods on L2CAP PSM 0x1001 of hci1, or Galaxy Buds
  /// on its RFCOMM channel 1.
  public let emulator: HeadphoneEmulator
  /// PulseAudio with the sinks `speaker` and `buds` (the headphones'
  /// output).
  public let server: SoundServer
  /// The session bus, for media players.
  public let session: PrivateBus
  /// accessoryd, on the system bus of the mock and that session bus.
  public let daemon: DaemonFixture
  /// Lets the emulated controllers pair again after their link went.
  let janitor: LinkKeyJanitor

  /// BlueZ's `UUIDs` of AirPods: A2DP sink and AAP.
  public static let uuids = [
    "0000110b-0000-1000-8000-00805f9b34fb",
    "74ec2172-0bad-4d01-8f77-997b2be0722a",
  ]

  /// BlueZ's `UUIDs` of Galaxy Buds2: A2DP sink and their own service.
  public static let galaxyBudsUUIDs = [
    "0000110b-0000-1000-8000-00805f9b34fb",
    "2e73a4ad-332d-41fc-90e2-16bef06523f2",
  ]

  /// BlueZ's `UUIDs` of Galaxy Buds Pro: A2DP sink and the serial port.
  public static let galaxyBudsProUUIDs = [
    "0000110b-0000-1000-8000-00805f9b34fb",
    "00001101-0000-1000-8000-00805f9b34fb",
  ]

  /// The name and `UUIDs` BlueZ lists for the headphones.
  static func identity(
    of kind: HeadphoneEmulator.Kind
  ) -> (name: String, uuids: [String]) {
    switch kind {
    case .airPods: ("AirPods Pro", uuids)
    case .galaxyBuds: ("Galaxy Buds2 (4E2A)", galaxyBudsUUIDs)
    case .galaxyBudsPro: ("Galaxy Buds Pro (3F09)", galaxyBudsProUUIDs)
    }
  }

  /// The headphones' address: hci1's.
  public var address: String { BluetoothVM.headphones }

  /// Starts everything; the headphones are paired and connected in
  /// BlueZ, not yet paired with accessoryd.
  ///
  /// - Parameters:
  ///   - kind: AirPods or Galaxy Buds; for Galaxy Buds the mock hands the
  ///     daemon a real RFCOMM socket to channel 1 when it asks BlueZ.
  ///   - policy: The daemon's policy text.
  /// - Throws: ``FixtureError`` if a part does not start; what started is
  ///   stopped.
  public static func start(
    _ kind: HeadphoneEmulator.Kind = .airPods, policy: String
  ) async throws -> HeadphoneRig {
    let address = BluetoothVM.headphones
    let mock = try await BlueZMock.start()
    var started: [@Sendable () -> Void] = [{ mock.stop() }]
    do {
      try await populate(mock, with: kind)
      let emulator = try await HeadphoneEmulator.start(
        kind, on: mock.bus, address: address)
      let server = try await SoundServer.start(
        .pulseAudio,
        sinks: [
          .speaker(name: "speaker", description: "Built-in Speaker"),
          .bluetoothHeadphones(
            name: "buds", address: address,
            description: identity(of: kind).name,
            deviceAPI: SoundServerKind.pulseAudio.bluetoothDeviceAPI),
        ])
      started.append { server.stop() }
      let session = try await PrivateBus.start()
      started.append { session.stop() }
      let daemon = try await DaemonFixture.start(
        on: server, policy: policy, hostAddresses: [],
        systemBusAddress: mock.busAddress, sessionBusAddress: session.address)
      return HeadphoneRig(
        kind: kind, mock: mock, emulator: emulator, server: server,
        session: session, daemon: daemon, janitor: LinkKeyJanitor.start())
    } catch {
      for stop in started.reversed() { stop() }
      throw error
    }
  }

  /// BlueZ exits and starts again: the devices go, then the adapter and
  /// the headphones, connected, come back.
  public func restartBlueZ() async throws {
    try await mock.restartBlueZ()
    try await Self.populate(mock, with: kind)
  }

  /// Gives the mock the host's adapter (at hci0's address) and the
  /// headphones, paired and connected; for Galaxy Buds, the mock hands
  /// the daemon a real RFCOMM socket to the emulator.
  private static func populate(
    _ mock: BlueZMock, with kind: HeadphoneEmulator.Kind
  ) async throws {
    let address = BluetoothVM.headphones
    let (name, uuids) = identity(of: kind)
    try await mock.addAdapter("hci0", systemName: "laptop")
    try await mock.setAdapterProperty(
      "hci0", "Address", .string(BluetoothVM.hostAdapter))
    try await mock.addDevice(address: address, name: name)
    for (property, value): (String, BlueZMock.PropertyValue) in [
      ("UUIDs", .strings(uuids)), ("Icon", .string("audio-headphones")),
      ("Paired", .bool(true)), ("Connected", .bool(true)),
    ] {
      try await mock.setDeviceProperty(address, property, value)
    }
    // BlueZ's ConnectProfile connects the first record that offers the
    // service: for the Buds Pro, channel 1, where their manager is not.
    if kind != .airPods {
      try await mock.handOverRFCOMM(
        of: address, channel: 1, from: BluetoothVM.hostAdapter)
    }
  }

  /// Stops the daemon, the players' bus, the server and the mock.
  public func stop() {
    janitor.stop()
    daemon.shutDown()
    session.stop()
    server.stop()
    mock.stop()
  }
}
