// The session D-Bus API end to end, through gdbus and busctl --user on a
// private session bus: the objects and their properties, a change shown
// by PropertiesChanged and the route's signal, the methods (register,
// update, choose an output, explain) and their errors.

import Foundation
import TestSupport
import Testing

@Suite("The session D-Bus API", .serialized)
struct SessionBusAPITests {
  static let name = "io.github.accessoryd"
  static let daemonPath = "/io/github/accessoryd"
  static let routePath = "/io/github/accessoryd/route"
  static let budsPath = "/io/github/accessoryd/accessories/AA_BB_CC_DD_EE_01"

  @Test(
    "Objects, properties, signals and methods, through gdbus and busctl",
    arguments: SoundServerKind.allCases)
  func objects(_ kind: SoundServerKind) async throws {
    try await withSessionBus(kind) { bus, server, daemon in
      try await waitUntil("accessoryd owns its name", within: .seconds(30)) {
        try await bus.nameHasOwner(Self.name)
      }
      let monitor = try await bus.monitor(Self.name)

      // busctl sees the tree, the buds' sink in it once the daemon read
      // it, and reads the daemon's properties.
      try await waitUntil("the buds' object in the tree", within: .seconds(30))
      {
        let tree = try await bus.busctl(["tree", Self.name])
        return tree.contains(Self.routePath) && tree.contains(Self.budsPath)
      }
      let version = try await bus.busctl([
        "get-property", Self.name, Self.daemonPath,
        "io.github.accessoryd.Daemon1", "Version",
      ])
      #expect(version.hasPrefix("s \""), "\(version)")
      let serverState = try await bus.busctl([
        "get-property", Self.name, Self.daemonPath,
        "io.github.accessoryd.Daemon1", "SoundServerState",
      ])
      #expect(serverState == "s \"connected\"\n", "\(serverState)")

      // Registered through the API: Register on the accessory's object.
      _ = try await daemon.acctl(["pair", budsAddress])
      _ = try await bus.gdbus([
        "call", "--dest", Self.name, "--object-path", Self.budsPath,
        "--method", "io.github.accessoryd.Accessory1.Register",
        "{'deviceCapabilities': <['audioSwitching', 'placement']>, "
          + "'devicePlacement': <'inEar'>}",
      ])
      try await waitForDefault(server, "buds")
      try await waitUntil("Route1.Output is buds", within: .seconds(30)) {
        try await bus.busctl([
          "get-property", Self.name, Self.routePath,
          "io.github.accessoryd.Route1", "Output",
        ]) == "s \"buds\"\n"
      }
      let buds = try await bus.gdbus([
        "introspect", "--dest", Self.name, "--object-path", Self.budsPath,
      ])
      #expect(buds.contains("readonly b Registered = true;"), "\(buds)")
      #expect(buds.contains("readonly s Placement = 'inEar';"), "\(buds)")
      #expect(buds.contains("readonly s Output = 'buds';"), "\(buds)")
      #expect(
        buds.contains(
          "readonly as Capabilities = ['audioSwitching', 'placement'];"),
        "\(buds)")

      // Taken off through Update: the route moves, and the bus says so.
      _ = try await bus.gdbus([
        "call", "--dest", Self.name, "--object-path", Self.budsPath,
        "--method", "io.github.accessoryd.Accessory1.Update",
        "{'devicePlacement': <'offHead'>}",
      ])
      try await waitForDefault(server, "speaker")
      try await waitUntil(
        "the route's signal and PropertiesChanged", within: .seconds(30)
      ) {
        let text = monitor.text
        return text.contains("io.github.accessoryd.Route1.Changed ('speaker',")
          && text.contains(
            "org.freedesktop.DBus.Properties.PropertiesChanged "
              + "('io.github.accessoryd.Route1', {")
          && text.contains("'Output': <'speaker'>")
          && text.contains("'Placement': <'offHead'>")
      }

      // Explain, as acctl route --explain.
      let explained = try await bus.gdbus([
        "call", "--dest", Self.name, "--object-path", Self.routePath,
        "--method", "io.github.accessoryd.Route1.Explain",
      ])
      #expect(explained.contains("3. fallback: use speaker"), "\(explained)")
      let acctlExplained = try await daemon.acctl(["route", "--explain"])
      #expect(
        acctlExplained.stdout.contains("3. fallback: use speaker"),
        "\(acctlExplained)")

      // Choose an output by its description with busctl.
      let chose = try await bus.busctl([
        "call", Self.name, Self.daemonPath, "io.github.accessoryd.Daemon1",
        "ChooseOutput", "s", "Studio Buds",
      ])
      #expect(chose.hasPrefix("ss \"buds\" "), "\(chose)")
      try await waitForDefault(server, "buds")
      let outputs = try await bus.busctl([
        "call", Self.name, Self.daemonPath, "io.github.accessoryd.Daemon1",
        "ListOutputs",
      ])
      #expect(
        outputs.contains("\"buds\" \"Studio Buds\" true true true"),
        "\(outputs)")
      let forgot = try await bus.gdbus([
        "call", "--dest", Self.name, "--object-path", Self.daemonPath,
        "--method", "io.github.accessoryd.Daemon1.ForgetOutputChoices",
      ])
      #expect(forgot.contains("'buds'"), "\(forgot)")

      // Bad input: an error named for what it is, naming the value; the
      // daemon keeps serving.
      let unknown = await #expect(throws: FixtureError.self) {
        try await bus.gdbus([
          "call", "--dest", Self.name, "--object-path", Self.daemonPath,
          "--method", "io.github.accessoryd.Daemon1.ChooseOutput",
          "No Such Speaker",
        ])
      }
      #expect(
        unknown?.message.contains("io.github.accessoryd.Error.InvalidRequest")
          == true, "\(String(describing: unknown))")
      #expect(
        unknown?.message.contains("No Such Speaker") == true,
        "\(String(describing: unknown))")
      let badPlacement = await #expect(throws: FixtureError.self) {
        try await bus.gdbus([
          "call", "--dest", Self.name, "--object-path", Self.budsPath,
          "--method", "io.github.accessoryd.Accessory1.Update",
          "{'devicePlacement': <'inPocket'>}",
        ])
      }
      #expect(
        badPlacement?.message.contains(
          "org.freedesktop.DBus.Error.InvalidArgs") == true,
        "\(String(describing: badPlacement))")
      #expect(
        badPlacement?.message.contains("inPocket") == true,
        "\(String(describing: badPlacement))")
      let readOnly = await #expect(throws: FixtureError.self) {
        try await bus.busctl([
          "set-property", Self.name, Self.routePath,
          "io.github.accessoryd.Route1", "Output", "s", "speaker",
        ])
      }
      #expect(
        readOnly?.message.contains("read-only") == true,
        "\(String(describing: readOnly))")
      let managed = try await bus.gdbus([
        "call", "--dest", Self.name, "--object-path", Self.daemonPath,
        "--method", "org.freedesktop.DBus.ObjectManager.GetManagedObjects",
      ])
      #expect(managed.contains("objectpath '\(Self.budsPath)'"), "\(managed)")

      // Unpaired: its registration is invalidated, as Apple's is.
      _ = try await daemon.acctl(["unpair", budsAddress])
      try await waitUntil("the accessory unauthorized", within: .seconds(30)) {
        monitor.text.contains("'State': <'unauthorized'>")
      }

      // Headphones that come and go: their object is added and removed.
      let phonesPath = "/io/github/accessoryd/accessories/AA_BB_CC_DD_EE_02"
      let module = try await server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress,
          description: "Travel Phones", deviceAPI: kind.bluetoothDeviceAPI))
      try await waitUntil("the headphones' object added", within: .seconds(30))
      {
        monitor.text.contains(
          "org.freedesktop.DBus.ObjectManager.InterfacesAdded "
            + "(objectpath '\(phonesPath)'")
      }
      try await server.unloadModule(module)
      try await waitUntil(
        "the headphones' object removed", within: .seconds(30)
      ) {
        monitor.text.contains(
          "org.freedesktop.DBus.ObjectManager.InterfacesRemoved "
            + "(objectpath '\(phonesPath)'")
      }
      // Turned off in the policy: the name goes; on again, it is back.
      try daemon.writePolicy(
        "{ version: 1, desktop: { sessionBusAPI: false } }")
      _ = try await daemon.acctl(["policy", "reload"])
      try await waitUntil("the name released", within: .seconds(30)) {
        try await !bus.nameHasOwner(Self.name)
      }
      try daemon.writePolicy("{ version: 1 }")
      _ = try await daemon.acctl(["policy", "reload"])
      try await waitUntil("the name owned again", within: .seconds(30)) {
        try await bus.nameHasOwner(Self.name)
      }
      #expect(await daemon.stop() == 0, "\(daemon.logTail())")
    }
  }

  @Test("Media paused and resumed are signals, with the players")
  func mediaSignals() async throws {
    try await withMediaRig(.pulseAudio) { rig in
      try await waitUntil("accessoryd owns its name", within: .seconds(30)) {
        try await rig.bus.nameHasOwner(Self.name)
      }
      let monitor = try await rig.bus.monitor(Self.name)
      let players = rig.playing.compactMap { rig.busName(of: $0) }
      #expect(players.count == 2)
      _ = try await rig.acctl(["update", budsAddress, "--placement", "offHead"])
      try await waitUntil("the mediaPaused signal", within: .seconds(30)) {
        let text = monitor.text
        return text.contains(
          "io.github.accessoryd.Daemon1.MediaEvent ('mediaPaused', "
            + "'\(budsAddress)', [")
          && players.allSatisfy { text.contains("'\($0)'") }
      }
      _ = try await rig.acctl(["update", budsAddress, "--placement", "inEar"])
      try await waitUntil("the mediaResumed signal", within: .seconds(30)) {
        monitor.text.contains(
          "io.github.accessoryd.Daemon1.MediaEvent ('mediaResumed', "
            + "'\(budsAddress)', [")
      }
    }
  }

  @Test("The activation file starts accessoryd on the first call of its name")
  func activation() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let services = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-services-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: services, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: services) }
    // The shipped file, with the built binary and the test's server.
    let shipped = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../contrib/dbus/\(Self.name).service")
        .standardized, encoding: .utf8)
    let accessoryd = try builtProduct("accessoryd").path
    try shipped.replacingOccurrences(
      of: "Exec=/usr/bin/accessoryd",
      with: "Exec=\(accessoryd) --server \(server.serverAddress)"
    ).write(
      toFile: "\(services)/\(Self.name).service", atomically: true,
      encoding: .utf8)
    let bus = try await PrivateBus.start(serviceDirectory: services)
    defer { bus.stop() }
    #expect(try await !bus.nameHasOwner(Self.name))

    // The first call starts it, and is answered once it serves.
    let output = try await bus.gdbus([
      "call", "--dest", Self.name, "--object-path", Self.routePath,
      "--method", "org.freedesktop.DBus.Properties.Get",
      "io.github.accessoryd.Route1", "Output",
    ])
    #expect(output.hasPrefix("(<'"), "\(output)")
    #expect(try await bus.nameHasOwner(Self.name))

    let reply = try await bus.gdbus([
      "call", "--dest", "org.freedesktop.DBus", "--object-path",
      "/org/freedesktop/DBus", "--method",
      "org.freedesktop.DBus.GetConnectionUnixProcessID", Self.name,
    ])
    // "(uint32 1234,)"
    let digits = reply.split(separator: " ").last?.filter(\.isNumber) ?? ""
    let processID = try #require(Int32(digits), "\(reply)")
    kill(processID, SIGTERM)
    try await waitUntil("accessoryd stopped", within: .seconds(30)) {
      try await !bus.nameHasOwner(Self.name)
    }
  }
}
