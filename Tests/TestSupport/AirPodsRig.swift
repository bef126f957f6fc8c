// Everything the headphone tests and benchmark start inside the Bluetooth
// VM: BlueZ's mock with the host's adapter at hci0's address and AirPods
// connected at hci1's, the AirPods emulator listening there, a private
// PulseAudio with a speaker and the AirPods' sink, a session bus for media
// players, and accessoryd.

/// The AirPods, their emulator, a sound server and the daemon, inside the
/// Bluetooth VM.
public struct AirPodsRig: Sendable {
  /// BlueZ's D-Bus API.
  public let mock: BlueZMock
  /// The AirPods, on L2CAP PSM 0x1001 of hci1.
  public let airpods: AirPodsEmulator
  /// PulseAudio with the sinks `speaker` and `buds` (the AirPods' output).
  public let server: SoundServer
  /// The session bus, for media players.
  public let session: PrivateBus
  /// accessoryd, on the system bus of the mock and that session bus.
  public let daemon: DaemonFixture

  /// BlueZ's `UUIDs` of AirPods: A2DP sink and AAP.
  public static let uuids = [
    "0000110b-0000-1000-8000-00805f9b34fb",
    "74ec2172-0bad-4d01-8f77-997b2be0722a",
  ]

  /// The AirPods' address: hci1's.
  public var address: String { BluetoothVM.headphones }

  /// Starts everything; the AirPods are paired and connected in BlueZ,
  /// not yet paired with accessoryd.
  ///
  /// - Parameter policy: The daemon's policy text.
  /// - Throws: ``FixtureError`` if a part does not start; what started is
  ///   stopped.
  public static func start(policy: String) async throws -> AirPodsRig {
    let address = BluetoothVM.headphones
    let mock = try await BlueZMock.start()
    var started: [@Sendable () -> Void] = [{ mock.stop() }]
    do {
      try await mock.addAdapter("hci0", systemName: "laptop")
      try await mock.setAdapterProperty(
        "hci0", "Address", .string(BluetoothVM.hostAdapter))
      try await mock.addDevice(address: address, name: "AirPods Pro")
      for (property, value): (String, BlueZMock.PropertyValue) in [
        ("UUIDs", .strings(uuids)), ("Icon", .string("audio-headphones")),
        ("Paired", .bool(true)), ("Connected", .bool(true)),
      ] {
        try await mock.setDeviceProperty(address, property, value)
      }
      let airpods = try await AirPodsEmulator.start(
        on: mock.bus, address: address)
      let server = try await SoundServer.start(
        .pulseAudio,
        sinks: [
          .speaker(name: "speaker", description: "Built-in Speaker"),
          .bluetoothHeadphones(
            name: "buds", address: address, description: "AirPods Pro",
            deviceAPI: SoundServerKind.pulseAudio.bluetoothDeviceAPI),
        ])
      started.append { server.stop() }
      let session = try await PrivateBus.start()
      started.append { session.stop() }
      let daemon = try await DaemonFixture.start(
        on: server, policy: policy, hostAddresses: [],
        systemBusAddress: mock.busAddress, sessionBusAddress: session.address)
      return AirPodsRig(
        mock: mock, airpods: airpods, server: server, session: session,
        daemon: daemon)
    } catch {
      for stop in started.reversed() { stop() }
      throw error
    }
  }

  /// Stops the daemon, the players' bus, the server and the mock.
  public func stop() {
    daemon.shutDown()
    session.stop()
    server.stop()
    mock.stop()
  }
}
