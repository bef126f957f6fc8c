// Headphones accessoryd reads itself, end to end. Through the kernel's
// Bluetooth stack: this machine's kernel has none, so the host's test boots
// the Bluetooth VM (scripts/run-in-vm) once and runs the suite
// `InsideTheBluetoothVM` there, with this same binary: BlueZ's D-Bus side
// from python3-dbusmock, AirPods emulated on a real L2CAP socket of the
// second controller, a private PulseAudio and accessoryd. On the host
// itself: a kernel without Bluetooth sockets is reported, not a crash.

import AccessoryControl
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Headphones accessoryd reads itself")
struct HeadphonesTests {
  // Not a skip: on the host this boots the VM and fails if it cannot;
  // inside the VM the same binary runs InsideTheBluetoothVM instead.
  @Test(
    "Through the kernel's Bluetooth stack, in a VM: AirPods and Galaxy Buds move the output",
    .enabled(if: !BluetoothVM.isInside), .timeLimit(.minutes(15)))
  func throughTheKernel() async throws {
    // One boot each: the emulated controllers start from a clean state.
    for (function, name) in InsideTheBluetoothVM.tests {
      let failure = try await BluetoothVM.failure(
        ofTest: "InsideTheBluetoothVM/\(function)", named: name)
      #expect(failure == nil, Comment(rawValue: failure ?? ""))
    }
  }

  @Test(
    "A kernel without Bluetooth sockets is reported once, and nothing stops",
    // A limit that finds a hang: with the whole suite on Debian 13's
    // servers, it took 139 s.
    .enabled(if: !BluetoothVM.isInside), .timeLimit(.minutes(5)))
  func noBluetoothSockets() async throws {
    // This machine's kernel has no Bluetooth: the test relies on it.
    let probe = socket(31, Int32(SOCK_SEQPACKET.rawValue), 0)
    if probe >= 0 { close(probe) }
    try #require(probe < 0 && errno == EAFNOSUPPORT)
    let airpods = MockDevice(
      address: budsAddress, name: "AirPods Pro",
      properties: [
        ("UUIDs", .strings(HeadphoneRig.uuids)),
        ("Icon", .string("audio-headphones")),
        ("Paired", .bool(true)), ("Connected", .bool(true)),
      ])
    try await withBlueZRig(devices: [airpods]) { rig, _ in
      try await rig.ok(["pair", budsAddress])
      let status = try await waitFor(
        "the status to say why headphones are not read", within: .seconds(20),
        observing: { try await rig.json(["status"]) },
        until: { $0["headphones"]?["reading"] == false })
      let reason = status["headphones"]?["reason"]?.stringValue ?? ""
      #expect(reason.contains("no Bluetooth sockets"))
      let text = try await rig.ok(["status"]).stdout
      #expect(text.contains("no Bluetooth sockets"), "\(text)")
      // Not registered yet: `acctl list` shows it, `current` refuses.
      let listed = try await rig.json(["list"])
      guard case .array(let accessories)? = listed["accessories"] else {
        throw RigFailure("acctl list --json has no accessories", details: "")
      }
      #expect(accessories.first?["headphones"]?["state"] == "unavailable")
      // Companions still work: the same accessory registers and switches.
      try await rig.ok([
        "register", budsAddress, "--capabilities", "audioSwitching,placement",
        "--placement", "inEar", "--placement-source", "none",
      ])
      try await rig.eventually("the default on the buds") {
        $0.defaultSink == "buds"
      }
      let registered = try await rig.json(["current", budsAddress])
      #expect(registered["placementSourceChoice"] == "none")
      #expect(registered["placementSource"] == "update")
      #expect(registered["headphones"] == .null)
      let log = rig.daemon.logTail(lines: 400)
      #expect(
        log.components(separatedBy: "no Bluetooth sockets").count - 1 == 1,
        "said more than once:\n\(log)")
    }
  }
}

/// The suite that runs inside the Bluetooth VM only; the host's
/// ``HeadphonesTests/throughTheKernel()`` runs each of ``tests`` there and
/// requires it to pass.
@Suite("InsideTheBluetoothVM", .enabled(if: BluetoothVM.isInside), .serialized)
struct InsideTheBluetoothVM {
  /// The tests the host runs inside, each in a VM of its own: the
  /// function, and the name it passes under.
  static let tests = [
    (
      "airPods",
      "AirPods over L2CAP: placement, battery, rules, drops, silence, out of range"
    ),
    (
      "galaxyBuds",
      "Galaxy Buds over RFCOMM, handed over by BlueZ: placement, drops, BlueZ restarts"
    ),
    (
      "galaxyBudsPro",
      "Galaxy Buds Pro with three serial-port records: the manager's channel from their SDP server"
    ),
    (
      "batteryToBlueZ",
      "The AirPods' battery to the real BlueZ and upower: the lower bud, kept current, through a BlueZ restart, turned off"
    ),
  ]

  @Test(
    "The AirPods' battery to the real BlueZ and upower: the lower bud, kept current, through a BlueZ restart, turned off"
  )
  func batteryToBlueZ() async throws {
    let bluez = try await RealBlueZ.start(
      headphonesNamed: "AirPods Pro", uuids: HeadphoneRig.uuids)
    defer { bluez.stop() }
    let address = BluetoothVM.headphones
    let devicePath = RealBlueZ.devicePath(address)
    let airpods = try await HeadphoneEmulator.start(
      .airPods, on: bluez.bus, address: address)
    let server = try await SoundServer.start(
      .pulseAudio,
      sinks: [
        .speaker(name: "speaker", description: "Built-in Speaker"),
        .bluetoothHeadphones(
          name: "buds", address: address, description: "AirPods Pro",
          deviceAPI: SoundServerKind.pulseAudio.bluetoothDeviceAPI),
      ])
    defer { server.stop() }
    let policy = try DaemonFixture.policyText()
    let daemon = try await DaemonFixture.start(
      on: server, policy: policy, hostAddresses: [],
      systemBusAddress: bluez.bus.address)
    defer { daemon.shutDown() }
    let rig = Rig(server: server, daemon: daemon)

    /// BlueZ's `org.bluez.Battery1` of the AirPods, as gdbus shows it.
    func battery() async throws -> String {
      try await bluez.bus.gdbus([
        "introspect", "--dest", "org.bluez", "--object-path", devicePath,
      ])
    }
    /// upower's device for the AirPods, its lines.
    func upowerDevice() async throws -> String {
      let dump = try await bluez.upowerDump()
      return dump.components(separatedBy: "\nDevice: ").first {
        $0.contains("native-path:          \(devicePath)")
      } ?? ""
    }

    // Paired with accessoryd, which reads L90 R80 C50 from the AirPods
    // and gives BlueZ the lower bud's.
    try await rig.ok(["pair", address])
    try await airpods.waitFor("notifications")
    try await waitUntil("BlueZ's battery from accessoryd", within: .seconds(30))
    {
      let text = try await battery()
      return text.contains("interface org.bluez.Battery1")
        && text.contains("readonly y Percentage = 0x50;")
        && text.contains("readonly s Source = 'accessoryd';")
    }
    try await waitUntil("upower at 80%", within: .seconds(30)) {
      try await upowerDevice().contains("percentage:          80%")
    }

    // The right bud drains: BlueZ and upower follow.
    try airpods.send("battery 4:90:2 2:35:2 8:50:1")
    try await waitUntil("upower at 35%", within: .seconds(30)) {
      try await upowerDevice().contains("percentage:          35%")
    }

    // The Bluetooth service restarts (an update, `systemctl restart
    // bluetooth`): accessoryd registers its battery with the new
    // bluetoothd, and upower shows it again.
    try await bluez.restartBluetoothd()
    do {
      try await waitUntil(
        "BlueZ's battery after its restart", within: .seconds(30)
      ) {
        let text = try await battery()
        return text.contains("readonly y Percentage = 0x23;")
          && text.contains("readonly s Source = 'accessoryd';")
      }
    } catch {
      let text = (try? await battery()) ?? "no device"
      throw FixtureError(
        "\(error)\n\(text)\n\(daemon.logTail())\n"
          + bluez.bus.logTail())
    }
    try await waitUntil(
      "upower at 35% after BlueZ's restart", within: .seconds(30)
    ) {
      try await upowerDevice().contains("percentage:          35%")
    }

    // Turned off in the policy: the battery goes from BlueZ and upower.
    try daemon.writePolicy(
      policy.replacingOccurrences(
        of: "batteryToBlueZ: true,", with: "batteryToBlueZ: false,"))
    try await rig.ok(["policy", "reload"])
    try await waitUntil("BlueZ's battery gone", within: .seconds(30)) {
      try await !battery().contains("interface org.bluez.Battery1")
    }
    try await waitUntil("upower's device gone", within: .seconds(30)) {
      try await upowerDevice().isEmpty
    }
    #expect(await daemon.stop() == 0, "\(daemon.logTail())")
  }

  @Test(
    "Galaxy Buds over RFCOMM, handed over by BlueZ: placement, drops, BlueZ restarts"
  )
  func galaxyBuds() async throws {
    let policy = try DaemonFixture.policyText(offHeadGraceSeconds: 0)
    let parts = try await HeadphoneRig.start(.galaxyBuds, policy: policy)
    defer { parts.stop() }
    let (address, buds, daemon) = (
      parts.address, parts.emulator, parts.daemon
    )
    let rig = Rig(server: parts.server, daemon: daemon)
    func budsSaid(_ line: String, times: Int = 1) async throws {
      try await said(line, times: times, by: buds, rig)
    }

    // Paired with accessoryd: BlueZ connects the buds' service and hands
    // the socket over; their full status registers them (both in the case).
    try await rig.ok(["pair", address])
    try await budsSaid("connected")
    var current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected" && $0["registration"] != .null
    }
    #expect(placement(current) == "offHead")
    #expect(current["placementSource"] == "galaxyBuds")
    #expect(current["headphones"]?["protocol"] == "galaxyBuds")
    #expect(current["headphones"]?["buds"] == ["inCase", "inCase"])
    #expect(battery(current, 0)?["percent"] == 90)
    // The full status already says which parts charge (the Buds2 at
    // revision 10 carry it in byte 36): both buds, not the case.
    #expect(battery(current, 0)?["charging"] == true)
    #expect(battery(current, 1)?["charging"] == true)
    #expect(battery(current, 2)?["charging"] == false)

    // The left bud in: worn, and the output moves to them.
    try buds.send("wear 1 3")
    try await rig.eventually("the default on the buds") {
      $0.defaultSink == "buds"
    }
    // A frame cut across two reads, then garbage: read, then skipped.
    try buds.send("split")
    try buds.send("wear 1 1")
    current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["buds"] == ["inEar", "inEar"]
    }
    #expect(placement(current) == "inEar")
    try buds.send("raw fd0500600000dd 00 11 22")
    try buds.send("battery 70 60 40")
    current = try await eventuallyCurrent(rig, address) {
      battery($0, 0)?["percent"] == 70
    }
    #expect(daemon.logTail(lines: 2000).contains("Skipped a packet"))

    // Both in the case: off the head.
    try buds.send("wear 3 3")
    try await rig.eventually("in the case: the speaker") {
      $0.defaultSink == "speaker"
    }

    // The link drops: accessoryd asks BlueZ again and reads on.
    try buds.send("drop")
    try await budsSaid("closed")
    try await budsSaid("connected", times: 2)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
    }
    try buds.send("wear 1 2")
    try await rig.eventually("the buds again") { $0.defaultSink == "buds" }

    // BlueZ exits and starts again: the devices go, and the link with
    // them; back, the profile is registered again and the buds read.
    try await parts.restartBlueZ()
    try await budsSaid("closed", times: 2)
    try await budsSaid("connected", times: 3)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
    }
    try buds.send("wear 3 3")
    try await rig.eventually("after BlueZ's restart: the speaker") {
      $0.defaultSink == "speaker"
    }

    // BlueZ says they disconnected: the link closes and stops.
    try await parts.mock.setDeviceProperty(
      address, "Connected", .bool(false))
    try await budsSaid("closed", times: 3)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"] == .null
    }
    await #expect(
      daemon.stop() == 0,
      "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
  }

  @Test(
    "Galaxy Buds Pro with three serial-port records: the manager's channel from their SDP server"
  )
  func galaxyBudsPro() async throws {
    let policy = try DaemonFixture.policyText(offHeadGraceSeconds: 0)
    let parts = try await HeadphoneRig.start(.galaxyBudsPro, policy: policy)
    defer { parts.stop() }
    let (address, buds, daemon) = (
      parts.address, parts.emulator, parts.daemon
    )
    let rig = Rig(server: parts.server, daemon: daemon)

    // BlueZ would connect the first serial-port record, channel 1, where
    // nothing answers; accessoryd reads the buds' records over SDP and
    // connects the manager's, channel 2, itself.
    try await rig.ok(["pair", address])
    try await said("sdp asked", times: 1, by: buds, rig)
    try await said("connected", times: 1, by: buds, rig)
    var current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected" && $0["registration"] != .null
    }
    #expect(current["headphones"]?["buds"] == ["inCase", "inCase"])
    let log = daemon.logTail(lines: 2000)
    #expect(log.contains("Read the headphones' service records"), "\(log)")
    #expect(log.contains("rfcomm.channel=2"), "\(log)")
    #expect(log.contains("model=Galaxy Buds Pro"), "\(log)")
    // The Buds Pro say nothing of charging: none is claimed.
    #expect(battery(current, 0)?["percent"] == 90)
    let charging = battery(current, 0)?["charging"]
    #expect(charging == nil || charging == .null)

    // Worn: the output moves to them.
    try buds.send("wear 1 1")
    try await rig.eventually("the default on the buds") {
      $0.defaultSink == "buds"
    }
    current = try await eventuallyCurrent(rig, address) {
      placement($0) == "inEar"
    }
    #expect(current["placementSource"] == "galaxyBuds")
    await #expect(
      daemon.stop() == 0,
      "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
  }

  @Test(
    "AirPods over L2CAP: placement, battery, rules, drops, silence, out of range"
  )
  func airPods() async throws {
    let policy = try DaemonFixture.policyText(offHeadGraceSeconds: 0)
    let parts = try await HeadphoneRig.start(policy: policy)
    defer { parts.stop() }
    let (address, mock, airpods, daemon) = (
      parts.address, parts.mock, parts.emulator, parts.daemon
    )
    let (server, session) = (parts.server, parts.session)
    let rig = Rig(server: server, daemon: daemon)
    let events = try daemon.startAcctl(["events", "--json"])
    defer { events.stop() }
    func airpodsSaid(_ line: String, times: Int = 1) async throws {
      try await said(line, times: times, by: airpods, rig)
    }

    // Paired with accessoryd: it connects, asks for notifications, and
    // registers the AirPods with what they say (both in the case).
    try await rig.ok(["pair", address])
    try await airpodsSaid("notifications")
    var current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
        && $0["registration"] != .null
    }
    #expect(
      current["registration"]?["configuration"]?["deviceCapabilities"]
        == ["audioSwitching", "placement"])
    #expect(placement(current) == "offHead")
    #expect(current["placementSource"] == "aap")
    #expect(current["headphones"]?["buds"] == ["inCase", "inCase"])
    #expect(battery(current, 2)?["part"] == "case")

    // One bud in: worn ("either"), and the output moves to them.
    try airpods.send("ear 00 01")
    try await rig.eventually("the default on the AirPods") {
      $0.defaultSink == "buds"
    }
    current = try await eventuallyCurrent(rig, address) {
      placement($0) == "inEar"
    }
    #expect(current["headphones"]?["buds"] == ["inEar", "outOfEar"])

    // A role swap resends the same buds in the other order: nothing
    // changed. The battery report after it shows the swap was read first.
    try airpods.send("ear 01 00")
    try airpods.send("battery 4:70:2 2:60:1 8:40:2")
    current = try await eventuallyCurrent(rig, address) {
      battery($0, 0)?["percent"] == 70
    }
    #expect(placement(current) == "inEar")
    #expect(current["headphones"]?["buds"] == ["inEar", "outOfEar"])
    #expect(try await rig.observe().defaultSink == "buds")
    let listed = try await rig.ok(["list"]).stdout
    #expect(listed.contains("L70% R60% C40%"), "\(listed)")
    let shown = try await rig.ok(["current", address]).stdout
    #expect(
      shown.contains("left 70%, right 60% charging, case 40%"), "\(shown)")
    #expect(shown.contains("the AirPods themselves"), "\(shown)")

    // A companion's report is the newest, and wins until the next one.
    try await rig.place(address, "offHead")
    try await rig.eventually("the default back on the speaker") {
      $0.defaultSink == "speaker"
    }
    #expect(
      try await rig.json(["current", address])["placementSource"] == "update")
    try airpods.send("ear 00 00")
    try await rig.eventually("the default on the AirPods again") {
      $0.defaultSink == "buds"
    }
    #expect(
      try await rig.json(["current", address])["placementSource"] == "aap")

    // "both": one bud out is off the head.
    try daemon.writePolicy(
      policy.replacingOccurrences(
        of: "earbudsWorn: \"either\"", with: "earbudsWorn: \"both\""))
    daemon.signal(SIGHUP)
    try await waitUntil("the policy to say both", within: .seconds(20)) {
      try await rig.ok(["policy", "show"]).stdout.contains(
        "earbudsWorn: \"both\"")
    }
    try airpods.send("ear 00 01")
    try await rig.eventually("the default on the speaker: one bud is out") {
      $0.defaultSink == "speaker"
    }
    try airpods.send("ear 00 00")
    try await rig.eventually("both in: the AirPods") {
      $0.defaultSink == "buds"
    }
    // A player plays on them; both in the case: off the head, and it is
    // paused before the output moves.
    let player = try await MediaPlayerProcess.start(on: session, server: server)
    try await eventuallyPlayer(rig, "Playing", on: "buds")
    try airpods.send("ear 02 02")
    try await rig.eventually("in the case: the speaker") {
      $0.defaultSink == "speaker"
    }
    try await eventuallyPlayer(rig, "Paused", on: "speaker")

    // Garbage from the air is skipped, and the link goes on.
    for packet in ["raw 0400", "raw 04000400ff00", "raw 040004000600 07 07"] {
      try airpods.send(packet)
    }
    try airpods.send("ear 00 00")
    try await rig.eventually("the AirPods after the garbage") {
      $0.defaultSink == "buds"
    }
    // Back in: what accessoryd paused plays again, on them.
    try await eventuallyPlayer(rig, "Playing", on: "buds")
    await player.stop()
    let log = daemon.logTail(lines: 2000)
    #expect(log.contains("Skipped a packet"), "\(log)")

    // The link drops: accessoryd connects again and reads the state.
    try airpods.send("drop")
    try await airpodsSaid("closed")
    try await airpodsSaid("notifications", times: 2)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
    }

    // AirPods that never answer (BlueZ without Apple's DeviceID): the
    // status says what to set.
    try airpods.send("silent on")
    try await airpodsSaid("silent on")
    try airpods.send("drop")
    try await airpodsSaid("notifications", times: 3)
    current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "noAnswer"
    }
    let message = current["headphones"]?["message"]?.stringValue ?? ""
    #expect(
      message.contains("DeviceID = bluetooth:004C:0000:0000"), "\(message)")
    try airpods.send("silent off")
    try await airpodsSaid("silent off")
    try airpods.send("drop")
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
    }

    // BlueZ says the AirPods disconnected: the link closes and stops.
    try await mock.setDeviceProperty(address, "Connected", .bool(false))
    try await airpodsSaid("closed", times: 4)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"] == .null
    }
    // And connected again: read again.
    try await mock.setDeviceProperty(address, "Connected", .bool(true))
    try await airpodsSaid("notifications", times: 5)
    _ = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "connected"
    }

    // Out of range while BlueZ still says connected: the link ends, and
    // each new try fails; acctl says why, and when it tries again.
    airpods.vanish()
    current = try await eventuallyCurrent(rig, address) {
      $0["headphones"]?["state"] == "retrying"
        && ($0["headphones"]?["message"]?.stringValue ?? "").contains(
          "cannot connect")
    }
    // Each retry shows "connecting" until it fails again: the text is read
    // until it shows a failed try too, not once.
    let shownAway = try await waitFor(
      "acctl current \(address) to say why it retries", within: .seconds(30),
      observing: { try await rig.ok(["current", address]).stdout },
      until: { $0.contains("retrying: cannot connect") })
    #expect(shownAway.contains("retrying: cannot connect"), "\(shownAway)")

    // The events told each change of the link and battery.
    let told = events.outputSoFar
    #expect(told.contains("\"kind\":\"headphones\""), "\(told)")
    #expect(told.contains("\"noAnswer\""), "\(told)")
    await #expect(
      daemon.stop() == 0,
      "accessoryd did not exit cleanly on SIGTERM\n\(daemon.logTail())")
  }

  /// Waits until `acctl players --json` shows the one player with this
  /// status, its stream on this output.
  private func eventuallyPlayer(
    _ rig: Rig, _ status: String, on output: String
  ) async throws {
    do {
      try await waitFor(
        "the player \(status) on \(output)", within: .seconds(30),
        observing: { try await rig.json(["players"]) },
        until: { list in
          guard case .array(let players)? = list["players"],
            let player = players.first,
            case .array(let streams)? = player["streams"]
          else { return false }
          return player["playbackStatus"] == .string(status)
            && streams.first?["output"] == .string(output)
        })
    } catch {
      throw RigFailure("\(error)", details: await rig.diagnostics())
    }
  }

  /// One battery part in an `acctl current --json` answer.
  private func battery(_ current: JSONValue, _ index: Int) -> JSONValue? {
    guard case .array(let parts)? = current["headphones"]?["battery"],
      parts.indices.contains(index)
    else { return nil }
    return parts[index]
  }

  /// Waits for an emulator's line, and names what the daemon did if it
  /// does not come.
  private func said(
    _ line: String, times: Int, by emulator: HeadphoneEmulator, _ rig: Rig
  ) async throws {
    do {
      try await emulator.waitFor(line, times: times)
    } catch {
      throw RigFailure("\(error)", details: await rig.diagnostics())
    }
  }

  /// The placement in an `acctl current --json` answer.
  private func placement(_ current: JSONValue) -> String? {
    current["registration"]?["configuration"]?["devicePlacement"]?.stringValue
  }

  /// Polls `acctl current --json` until a condition holds.
  private func eventuallyCurrent(
    _ rig: Rig, _ address: String, within limit: Duration = .seconds(30),
    _ condition: @escaping (JSONValue) -> Bool
  ) async throws -> JSONValue {
    do {
      return try await waitFor(
        "acctl current \(address) to change", within: limit,
        observing: { try await rig.json(["current", address]) },
        until: condition)
    } catch {
      throw RigFailure("\(error)", details: await rig.diagnostics())
    }
  }
}
