// accessoryd: the routing service. Reads its settings, loads the policy
// and the state, then runs the control server, the sound-server link and
// the router until SIGTERM or SIGINT; SIGHUP reloads the policy.
// Called as acctl (the package installs acctl as a link to it), it is the
// command line instead: one binary carries the Swift runtime once, and
// libpulse and libdbus load only when the daemon calls them.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AcctlCommands
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonControl
import DaemonDesktop
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import Glibc
import HeadphoneReaders
import Logging
import PolicyFiles
import PulseAudio
import TrayIndicator

@main
struct Accessoryd {
  static let version = DaemonConfiguration.version

  static func main() async {
    // The daemon under its own name (the unit, the tests); acctl under
    // any other, such as the package's link acctl or a person's own.
    let name = CommandLine.arguments.first?.split(separator: "/").last ?? ""
    if name == "accessoryd-tray" {
      exit(
        await TrayCommand.main(
          arguments: Array(CommandLine.arguments.dropFirst())))
    }
    if !name.hasPrefix("accessoryd") {
      await Acctl.main()
      return
    }
    Heap.useOneArena()
    let request: DaemonConfiguration.Request
    do {
      request = try DaemonConfiguration.parse(
        Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment)
    } catch {
      printError(
        "Error: \(error)\n"
          + (error.source == .commandLine
            ? "Usage: \(DaemonConfiguration.usage)\n"
              + "  See 'accessoryd --help' for more information.\n"
            : ""))
      exit(error.exitStatus.rawValue)
    }
    switch request {
    case .help:
      print(DaemonConfiguration.help, terminator: "")
    case .version:
      print(ProjectVersion.line)
    case .manual:
      print(DaemonConfiguration.manualPage, terminator: "")
    case .policyManual:
      print(PolicyManual.text, terminator: "")
    case .run(let configuration):
      await run(configuration)
    }
  }

  static func run(_ configuration: DaemonConfiguration) async {
    let logger = Logger(
      label: "accessoryd",
      handler: StandardErrorLogHandler(
        timestamps: StandardErrorLogHandler.standardErrorWantsTimes),
      logLevel: configuration.logLevel)
    let stateFile = StateFile(
      url: URL(fileURLWithPath: configuration.stateFilePath))
    let stateWarning: StateFile.StartWarning?
    do {
      stateWarning = try stateFile.checkBeforeStart()
    } catch {
      printError("Error: \(error)\n")
      exit(error.exitStatus.rawValue)
    }
    let notifier: ServiceManagerNotifier
    do {
      notifier = try ServiceManagerNotifier(
        environment: ProcessInfo.processInfo.environment)
    } catch {
      printError("Error: \(error)\n")
      exit(ProcessExitCode.configuration.rawValue)
    }
    let lock: StateDirectoryLock
    do {
      lock = try StateDirectoryLock.acquire(
        configuration.stateDirectory, socketPath: configuration.socketPath)
    } catch {
      printError("Error: \(error)\n")
      switch error {
      case .held: exit(StateDirectoryLock.exitStatusWhenHeld.rawValue)
      case .unusable: exit(ProcessExitCode.cannotCreate.rawValue)
      }
    }
    defer { withExtendedLifetime(lock) {} }
    let policies: PolicyStore
    do {
      policies = try PolicyStore(
        path: configuration.policyPath,
        searchPath: configuration.policySearchPath,
        settingsPath: configuration.settingsFilePath)
    } catch {
      printError("Error: \(error)\n")
      exit(ProcessExitCode.configuration.rawValue)
    }
    // Last of the checks, so that no earlier refusal leaves a socket.
    // Without XDG_RUNTIME_DIR, the socket's place is the login session's
    // runtime directory, which only the session makes.
    if let runtime = configuration.fallbackRuntimeDirectory,
      access(runtime, F_OK) != 0
    {
      printError(
        "Error: XDG_RUNTIME_DIR is not set, and '\(runtime)', where the "
          + "control socket goes without it, does not exist (a login session "
          + "makes it; su, ssh without one and containers do not): set "
          + "XDG_RUNTIME_DIR to a directory of your own (mode 0700), or give "
          + "--socket a path\n")
      exit(ProcessExitCode.cannotCreate.rawValue)
    }
    let socket: ControlSocket
    do {
      socket = try ControlSocket.listen(at: configuration.socketPath)
    } catch {
      printError("Error: \(error)\n")
      exit(error.exitStatus.rawValue)
    }
    if let problem = policies.settingsProblem {
      logger.error("The settings changed earlier are not used: \(problem)")
    }
    if let stateWarning {
      logger.error("Changes cannot be saved: \(stateWarning)")
    }
    // One clock for the link's waits, the engine's decisions and the
    // times the registry records, which the decisions compare with them.
    let clock = SystemEngineClock()
    let engine = RegistryStore(
      stateFile: stateFile, logger: logger, clock: { clock.now() })
    let events = EventHub()
    let link = SoundServerLink(
      options: PulseConnection.Options(
        server: configuration.server, applicationName: "accessoryd",
        operationTimeout: configuration.serverTimeout),
      logger: logger, clock: clock)
    let media = MediaPlayers(logger: logger)
    let router = EngineLoop(
      engine: engine, link: link, policies: policies,
      hostAddresses: configuration.hostAddresses, events: events,
      logger: logger, clock: clock, players: media,
      mutedLedger: MutedStreamLedger(
        stateDirectory: configuration.stateDirectory))
    let discovery = DeviceDiscovery(logger: logger)
    let bluez = BlueZStatus()
    let discoveryService = DiscoveryService(
      discovery: discovery,
      sources: [
        SoundServerDevices(link: link),
        BlueZDevices(scanDemand: discovery.scanDemand, status: bluez) {
          adapters in
          await router.useAdapterAddresses(
            adapters.compactMap { BluetoothAddress($0.address) })
        },
      ],
      logger: logger)
    let status: @Sendable () -> DaemonStatus = {
      DaemonStatus(
        version: version, soundServer: .init(state: .disconnected),
        policyPath: configuration.policyPath ?? "built-in default",
        statePath: configuration.stateFilePath,
        socketPath: configuration.socketPath, hostAddresses: [])
    }
    let headphoneLinks = HeadphoneLinkTable()
    let methods = DaemonMethods(
      engine: engine, router: router, discovery: discovery,
      policies: policies, events: events, media: media,
      headphoneLinks: headphoneLinks,
      bluez: bluez, status: status, logger: logger)
    let control = ControlServer(
      socket: socket, handler: methods, events: events,
      logger: logger,
      onListening: {
        notify(
          [.ready, .status("Listening on \(configuration.socketPath)")],
          through: notifier, logger: logger)
      })
    let headphones = HeadphoneSources(
      discovery: discovery, methods: methods, links: headphoneLinks,
      events: events, logger: logger)
    logger.notice(
      "Starting",
      metadata: [
        "state.path": configuration.stateFilePath,
        "policy.path": configuration.policyPath ?? "built-in default",
        "control.socket": configuration.socketPath,
        "log.level": configuration.logLevel.rawValue,
      ])
    // Once for every part that needs the session bus.
    if DesktopFeed.sessionBusAddress == nil {
      logger.notice(
        "No session bus (DBUS_SESSION_BUS_ADDRESS is not set): media players "
          + "are not followed, so pausing is off; no session D-Bus API; no "
          + "desktop notifications")
    }
    // What the desktop parts (the session D-Bus API, notifications) read.
    let desktop = DesktopFeed(
      methods: methods, events: events, router: router, policies: policies,
      logger: logger,
      busAddress: DesktopFeed.sessionBusAddress)
    let signals = UnixSignal.stream([.sigterm, .sigint, .sighup])
    // Their default action ends the process: a stray kill -USR1 or an
    // alarm must not take the daemon down.
    for ignored in [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE] {
      signal(ignored, SIG_IGN)
    }
    let exit = DaemonExit(logger: logger)
    let (stops, stopRequested) = AsyncStream.makeStream(of: UnixSignal.self)
    let signalHandling = Task {
      await DaemonSignals.follow(
        signals,
        reload: {
          notify([.reloading], through: notifier, logger: logger)
          // Not awaited: a stop signal must not wait for the route.
          Task {
            let outcome: String
            do {
              let loaded = try await methods.reloadPolicy(because: "SIGHUP")
              outcome =
                "Policy reloaded from \(loaded.path ?? "the built-in default")"
            } catch {
              outcome = "The new policy is refused; the old one stays"
            }
            notify(
              [.ready, .status(outcome)], through: notifier, logger: logger)
          }
        },
        stop: { signal in
          notify([.stopping], through: notifier, logger: logger)
          stopRequested.yield(signal)
        },
        abort: { signal in
          exit.exit(
            status: .signal(signal.rawValue),
            reason: "a second \(signal) while stopping")
        })
    }
    let group = ServiceGroup(
      services: [
        control, link, discoveryService, media, router, headphones,
        BlueZHeadphoneFeed(discovery: discovery, router: router),
        desktop, SessionBusAPI(feed: desktop),
        DesktopNotifications(feed: desktop), BatteryToBlueZ(feed: desktop),
      ],
      logger: logger,
      stopDeadline: configuration.stopTimeout,
      onStopDeadline: { name in
        exit.exit(
          status: .failure,
          reason:
            "the \(name) service did not stop within \(configuration.stopTimeout)"
        )
      })
    do {
      try await group.run {
        for await signal in stops {
          logger.notice("Stopping", metadata: ["signal": "\(signal)"])
          return
        }
      }
    } catch {
      logger.critical("\(error)")
      exit.exit(status: .failure, reason: "\(error)")
    }
    signalHandling.cancel()
    exit.exit(status: .success, reason: "stopped")
  }

  /// Tells the service manager, and logs a failure to.
  static func notify(
    _ notifications: [ServiceManagerNotifier.Notification],
    through notifier: ServiceManagerNotifier, logger: Logger
  ) {
    guard let failure = notifier.send(notifications) else { return }
    logger.warning(
      "The service manager cannot be told: \(failure)",
      metadata: [
        "notify.message": notifications.map(\.assignment).joined(
          separator: " ")
      ])
  }

  static func printError(_ text: String) {
    StandardErrorLogHandler.write(text)
  }
}
