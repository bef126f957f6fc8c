// swift-tools-version:6.0
// The accessoryd package: Apple-shaped accessory frameworks for Linux, the
// routing service and its command line. Swift 6 language mode throughout.

import PackageDescription

let package = Package(
  name: "accessoryd",
  products: [
    .library(name: "AudioAccessoryKit", targets: ["AudioAccessoryKit"]),
    .library(name: "AccessorySetupKit", targets: ["AccessorySetupKit"]),
    .library(name: "AccessoryBackend", targets: ["AccessoryBackend"]),
    .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
    .library(name: "Logging", targets: ["Logging"]),
    .library(name: "SoundServerModel", targets: ["SoundServerModel"]),
    .library(name: "PulseAudio", targets: ["PulseAudio"]),
    .library(name: "BlueZ", targets: ["BlueZ"]),
    .library(name: "MPRIS", targets: ["MPRIS"]),
    .library(name: "HeadphoneProtocols", targets: ["HeadphoneProtocols"]),
    .library(name: "RoutingCore", targets: ["RoutingCore"]),
    .library(name: "PolicyFiles", targets: ["PolicyFiles"]),
    .executable(name: "routing-benchmark", targets: ["RoutingBenchmark"]),
    .executable(name: "accessory-demo", targets: ["AccessoryDemo"]),
    .executable(name: "accessoryd", targets: ["accessoryd"]),
    .executable(name: "pulse-benchmark", targets: ["PulseBenchmark"]),
    .executable(name: "acctl", targets: ["acctl"]),
    .executable(name: "accessoryd-benchmark", targets: ["AccessorydBenchmark"]),
    .executable(name: "headphones-benchmark", targets: ["HeadphonesBenchmark"]),
    .executable(name: "calls-benchmark", targets: ["CallsBenchmark"]),
    .executable(name: "jack-benchmark", targets: ["JackBenchmark"]),
    .executable(name: "state-benchmark", targets: ["StateBenchmark"]),
    .executable(name: "startup-benchmark", targets: ["StartupBenchmark"]),
  ],
  targets: [
    // MARK: - Apple-shaped frameworks

    // The lock every module uses, one ThreadSanitizer can follow.
    .target(name: "ConcurrencyHelpers"),

    // errno as a typed error, and Unix socket addresses built in one place.
    .target(name: "SystemCalls"),

    .target(name: "CommandLineKit", dependencies: ["Logging"]),
    .target(name: "CoreBluetooth"),
    .target(name: "Logging", dependencies: ["ConcurrencyHelpers", "SystemCalls"]),
    .target(name: "AccessoryControl", dependencies: ["ConcurrencyHelpers", "SystemCalls"]),
    .target(
      name: "AccessorySetupKit",
      dependencies: ["ConcurrencyHelpers", "CoreBluetooth", "AccessoryControl"]
    ),
    .target(
      name: "AudioAccessoryKit",
      dependencies: ["ConcurrencyHelpers", "AccessorySetupKit", "AccessoryControl"]
    ),

    // MARK: - Backend: the registry and its state file, kept in the process

    .target(
      name: "AccessoryBackend",
      dependencies: [
        "SystemCalls",
        "ConcurrencyHelpers", "AudioAccessoryKit", "AccessorySetupKit", "AccessoryControl", "Logging",
      ]
    ),

    // MARK: - Decision core

    .target(name: "RoutingCore", dependencies: ["SoundServerModel"]),

    // The policy files: the JSON5 reader, the schema and loader, the
    // manual they generate, and the daemon's store of the policy in use.
    .target(
      name: "PolicyFiles",
      dependencies: [
        "RoutingCore", "SystemCalls", "ConcurrencyHelpers", "AccessoryBackend", "AccessoryControl",
        "CommandLineKit", "Logging",
      ]
    ),

    // MARK: - Sound server

    // What the sound server has (its defaults, outputs, inputs, streams
    // and cards) and the batches of commands sent to it, as plain values:
    // the engine reads and writes these, never libpulse.
    .target(name: "SoundServerModel"),
    .systemLibrary(
      name: "CPulse",
      pkgConfig: "libpulse",
      providers: [.apt(["libpulse-dev"])]
    ),
    .target(
      name: "PulseAudio",
      dependencies: ["CPulse", "ConcurrencyHelpers", "LibraryLoading", "SoundServerModel"]
    ),

    // MARK: - Bluetooth discovery

    .systemLibrary(
      name: "CDBus",
      pkgConfig: "dbus-1",
      providers: [.apt(["libdbus-1-dev"])]
    ),
    .target(
      name: "DBus",
      dependencies: ["SystemCalls", "ConcurrencyHelpers", "CDBus", "LibraryLoading"]
    ),
    // libpulse and libdbus loaded at the first call of one of their
    // functions (scripts/generate-library-loading writes them): acctl, the
    // same binary as accessoryd, starts without them.
    .target(name: "LibraryLoading", dependencies: ["CPulse", "CDBus"]),
    .target(
      name: "BlueZ",
      dependencies: ["ConcurrencyHelpers", "DBus"]
    ),
    .target(
      name: "MPRIS",
      dependencies: ["ConcurrencyHelpers", "DBus"]
    ),
    .target(name: "HeadphoneProtocols"),
    // The session D-Bus API's names and interfaces: the daemon serves
    // them, the tray reads them.
    .target(name: "SessionBusInterfaces", dependencies: ["DBus"]),
    .target(
      name: "HeadphoneLinks",
      dependencies: ["SystemCalls", "ConcurrencyHelpers", "HeadphoneProtocols", "AccessoryControl"]
    ),

    // MARK: - Service
    // The daemon's parts, one module each, bottom up: what every service
    // shares (lifecycle, configuration, events); its inputs (the sound
    // server, media players, discovery); the engine (one loop that
    // decides routing, media and calls); the headphone readers; the
    // control server.
    .target(
      name: "DaemonLifecycle",
      dependencies: [
        "PolicyFiles",
        "SystemCalls", "ConcurrencyHelpers", "AccessoryControl", "AccessoryBackend",
        "AudioAccessoryKit", "CommandLineKit", "Logging", "RoutingCore",
      ]
    ),
    // What the daemon tells its clients: the hub that carries each event,
    // typed, to the socket, the session bus and the headphone readers.
    .target(
      name: "DaemonEvents",
      dependencies: ["AccessoryControl", "AudioAccessoryKit", "ConcurrencyHelpers"]
    ),
    .target(
      name: "DaemonInputs",
      dependencies: [
        "DaemonLifecycle", "SystemCalls", "ConcurrencyHelpers", "AccessoryControl",
        "AccessorySetupKit", "CoreBluetooth", "PulseAudio", "SoundServerModel", "BlueZ", "MPRIS",
        "Logging",
      ]
    ),
    .target(
      name: "AccessoryEngine",
      dependencies: [
        "DaemonEvents", "PolicyFiles",
        "DaemonLifecycle", "DaemonInputs", "ConcurrencyHelpers", "AccessoryControl",
        "AccessoryBackend", "AccessorySetupKit", "AudioAccessoryKit", "SoundServerModel", "MPRIS",
        "Logging", "RoutingCore",
      ]
    ),
    .target(
      name: "HeadphoneReaders",
      dependencies: [
        "DaemonEvents", "PolicyFiles",
        "DaemonLifecycle", "DaemonInputs", "ConcurrencyHelpers",
        "AccessoryControl", "AccessoryBackend", "AccessorySetupKit", "AudioAccessoryKit", "BlueZ",
        "Logging",
        "HeadphoneProtocols", "HeadphoneLinks", "RoutingCore",
      ]
    ),
    .target(
      name: "DaemonControl",
      dependencies: [
        "DaemonEvents", "PolicyFiles",
        "DaemonLifecycle", "DaemonInputs", "AccessoryEngine", "HeadphoneReaders", "SystemCalls",
        "ConcurrencyHelpers", "AccessoryControl", "AccessoryBackend", "AccessorySetupKit",
        "AudioAccessoryKit", "CoreBluetooth", "MPRIS", "Logging", "RoutingCore",
      ]
    ),

    // What the daemon shows the desktop: the session D-Bus API.
    .target(
      name: "DaemonDesktop",
      dependencies: [
        "DaemonEvents", "PolicyFiles",
        "DaemonLifecycle", "DaemonInputs", "AccessoryEngine", "DaemonControl", "SessionBusInterfaces",
        "DBus", "BlueZ", "RoutingCore",
        "ConcurrencyHelpers", "AccessoryControl", "AudioAccessoryKit", "Logging",
      ]
    ),

    // The tray indicator, accessoryd-tray: a StatusNotifierItem and its
    // dbusmenu, reading the session D-Bus API only.
    .target(
      name: "TrayIndicator",
      dependencies: [
        "DBus", "SessionBusInterfaces", "ConcurrencyHelpers", "CommandLineKit",
        "Logging", "AccessoryControl",
      ]
    ),

    // MARK: - Executables

    // The command line talks to the daemon over the control socket only:
    // never to BlueZ, which the daemon asks for it (`bluetooth.status`).
    .target(
      name: "AcctlCommands",
      dependencies: [
        "PolicyFiles",
        "ConcurrencyHelpers", "CommandLineKit", "AccessoryControl", "AccessorySetupKit",
        "AudioAccessoryKit", "CoreBluetooth", "RoutingCore", "HeadphoneProtocols", "SystemCalls",
      ]
    ),
    .executableTarget(
      name: "acctl",
      dependencies: ["AcctlCommands"]
    ),
    .systemLibrary(name: "CMalloc"),
    .executableTarget(
      name: "accessoryd",
      dependencies: [
        "ConcurrencyHelpers", "DaemonEvents", "PolicyFiles",
        "DaemonLifecycle", "DaemonInputs", "AccessoryEngine", "HeadphoneReaders",
        "DaemonControl", "DaemonDesktop", "AccessoryControl", "AudioAccessoryKit",
        "AccessoryBackend", "PulseAudio", "Logging", "CMalloc", "TrayIndicator",
        // Installed as acctl too (a link to accessoryd): one binary carries
        // the Swift runtime once.
        "AcctlCommands",
      ]
    ),
    .executableTarget(
      name: "AccessoryDemo",
      dependencies: ["AudioAccessoryKit", "AccessoryBackend", "Logging"],
      path: "Examples/AccessoryDemo"
    ),
    .executableTarget(
      name: "PulseBenchmark",
      dependencies: ["BenchmarkSupport", "PulseAudio", "SoundServerModel", "TestSupport"],
      path: "Benchmarks/PulseBenchmark"
    ),
    .executableTarget(
      name: "AccessorydBenchmark",
      dependencies: [
        "ConcurrencyHelpers", "AudioAccessoryKit", "AccessoryControl", "AccessoryBackend",
        "AccessorySetupKit", "BenchmarkSupport", "PulseAudio", "SoundServerModel", "SystemCalls", "TestSupport", "MPRIS",
      ],
      path: "Benchmarks/AccessorydBenchmark"
    ),

    .executableTarget(
      name: "HeadphonesBenchmark",
      dependencies: [
        "AccessoryControl", "BenchmarkSupport", "HeadphoneLinks", "HeadphoneProtocols",
        "PulseAudio", "SoundServerModel", "TestSupport",
      ],
      path: "Benchmarks/HeadphonesBenchmark"
    ),
    .executableTarget(
      name: "CallsBenchmark",
      dependencies: ["AccessoryControl", "BenchmarkSupport", "PulseAudio", "SoundServerModel", "TestSupport"],
      path: "Benchmarks/CallsBenchmark"
    ),
    .executableTarget(
      name: "JackBenchmark",
      dependencies: ["BenchmarkSupport", "MPRIS", "PulseAudio", "SoundServerModel", "TestSupport"],
      path: "Benchmarks/JackBenchmark"
    ),
    .executableTarget(
      name: "StartupBenchmark",
      dependencies: ["BenchmarkSupport", "SystemCalls"],
      path: "Benchmarks/StartupBenchmark"
    ),
    .executableTarget(
      name: "StateBenchmark",
      dependencies: ["AccessoryBackend", "AccessorySetupKit", "AudioAccessoryKit"],
      path: "Benchmarks/StateBenchmark"
    ),
    .executableTarget(
      name: "RoutingBenchmark",
      dependencies: ["PolicyFiles", "RoutingCore"],
      path: "Benchmarks/RoutingBenchmark"
    ),

    // MARK: - Fuzzing: the targets, and the libFuzzer binary scripts/fuzz
    // builds from them with -sanitize=fuzzer,address

    .target(
      name: "FuzzTargets",
      dependencies: [
        "PolicyFiles",
        "AccessoryControl", "AccessorySetupKit", "AudioAccessoryKit", "DaemonLifecycle",
        "DaemonInputs", "AccessoryEngine", "HeadphoneReaders", "DaemonControl", "AcctlCommands",
        "BlueZ", "CommandLineKit",
        "DBus", "HeadphoneProtocols", "RoutingCore",
      ],
      path: "Fuzz/FuzzTargets"
    ),
    .executableTarget(
      name: "accessoryd-fuzz",
      dependencies: ["FuzzTargets"],
      path: "Fuzz/accessoryd-fuzz"
    ),

    // MARK: - Examples, benchmarks and test support, outside Sources/

    .target(
      name: "TestSupport",
      dependencies: ["SystemCalls", "ConcurrencyHelpers"],
      path: "Tests/TestSupport"
    ),
    .target(
      name: "BenchmarkSupport",
      dependencies: ["ConcurrencyHelpers", "MPRIS", "PulseAudio", "SoundServerModel", "TestSupport"],
      path: "Benchmarks/BenchmarkSupport"
    ),
    .executableTarget(
      name: "StateFileWriter",
      dependencies: ["AudioAccessoryKit", "AccessoryBackend", "AccessoryControl"],
      path: "Tests/StateFileWriter"
    ),

    // MARK: - Tests

    .testTarget(
      name: "FuzzRegressionTests",
      dependencies: ["FuzzTargets", "BlueZ", "DBus"]
    ),
    .testTarget(
      name: "DesktopTests",
      dependencies: [
        "DaemonDesktop", "AccessoryControl", "AudioAccessoryKit", "RoutingCore",
      ]
    ),
    .testTarget(
      name: "TrayIndicatorTests",
      dependencies: ["TrayIndicator", "SessionBusInterfaces", "DBus"]
    ),
    .testTarget(
      name: "DBusTests",
      dependencies: ["DBus"]
    ),
    .testTarget(
      name: "HeadphoneProtocolsTests",
      dependencies: ["HeadphoneProtocols"]
    ),
    .testTarget(
      name: "HeadphoneLinksTests",
      dependencies: ["HeadphoneLinks", "HeadphoneProtocols", "AccessoryControl", "ConcurrencyHelpers"]
    ),
    .testTarget(
      name: "PackagingTests",
      dependencies: [
        "PolicyFiles",
        "ConcurrencyHelpers", "RoutingCore", "TestSupport", "SessionBusInterfaces", "DBus",
        "TrayIndicator",
      ]
    ),
    .testTarget(
      name: "AcctlTests",
      dependencies: [
        "SystemCalls",
        "AcctlCommands", "ConcurrencyHelpers", "CommandLineKit", "AccessoryControl", "AudioAccessoryKit", "RoutingCore",
        "TestSupport",
      ]
    ),
    .testTarget(
      name: "AccessorySetupKitTests",
      dependencies: ["ConcurrencyHelpers", "AccessorySetupKit", "CoreBluetooth"]
    ),
    .testTarget(
      name: "AudioAccessoryKitTests",
      dependencies: [
        "ConcurrencyHelpers", "AudioAccessoryKit", "AccessoryBackend", "AccessoryControl",
        "AccessorySetupKit", "Logging", "TestSupport", "StateFileWriter", "CoreBluetooth",
      ]
    ),
    .testTarget(
      name: "ConcurrencyHelpersTests",
      dependencies: ["ConcurrencyHelpers"]
    ),
    .testTarget(
      name: "SystemCallsTests",
      dependencies: ["SystemCalls"]
    ),
    .testTarget(
      name: "AccessoryControlTests",
      dependencies: ["AccessoryControl"]
    ),
    .testTarget(
      name: "DaemonLifecycleTests",
      dependencies: [
        "DaemonLifecycle", "DaemonEvents", "DaemonControl", "ConcurrencyHelpers",
        "AccessoryControl", "Logging", "TestSupport",
      ]
    ),
    .testTarget(
      name: "DaemonInputsTests",
      dependencies: [
        "DaemonInputs", "DaemonLifecycle", "ConcurrencyHelpers", "AccessorySetupKit", "BlueZ",
        "CoreBluetooth", "PulseAudio", "SoundServerModel", "MPRIS", "Logging", "TestSupport",
      ]
    ),
    .testTarget(
      name: "AccessoryEngineTests",
      dependencies: [
        "AccessoryEngine", "DaemonInputs", "DaemonLifecycle", "DaemonEvents", "ConcurrencyHelpers",
        "AccessoryBackend", "AccessoryControl", "AudioAccessoryKit", "PolicyFiles", "SoundServerModel",
        "MPRIS", "Logging", "RoutingCore",
      ]
    ),
    .testTarget(
      name: "HeadphoneReadersTests",
      dependencies: [
        "HeadphoneReaders", "DaemonInputs", "DaemonLifecycle", "AccessoryBackend",
        "AccessorySetupKit", "AudioAccessoryKit", "CoreBluetooth", "HeadphoneProtocols",
        "RoutingCore",
      ]
    ),
    .testTarget(
      name: "PulseAudioTests",
      dependencies: ["ConcurrencyHelpers", "PulseAudio", "SoundServerModel", "CPulse", "TestSupport"]
    ),
    .testTarget(
      name: "PolicyFilesTests",
      dependencies: ["PolicyFiles", "RoutingCore"]
    ),
    .testTarget(
      name: "RoutingCoreTests",
      dependencies: ["PolicyFiles", "RoutingCore", "AccessoryControl", "SoundServerModel"],
      exclude: ["Scenarios", "MediaScenarios"]
    ),
    .testTarget(
      name: "BlueZTests",
      dependencies: [
        "BlueZ", "TestSupport",
      ]
    ),
    .testTarget(
      name: "MPRISTests",
      dependencies: ["MPRIS", "TestSupport"]
    ),
    .testTarget(
      name: "SoundServerTests",
      dependencies: ["TestSupport"]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "ConcurrencyHelpers", "TestSupport", "AccessoryControl", "AccessorySetupKit",
        "AudioAccessoryKit", "AccessoryBackend", "CoreBluetooth", "PulseAudio", "SoundServerModel", "MPRIS",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
