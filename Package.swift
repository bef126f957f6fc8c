// swift-tools-version:6.0
// The accessoryd package: Apple-shaped accessory frameworks for Linux, the
// routing service and its command line. Swift 6 language mode throughout.

import PackageDescription

let package = Package(
  name: "accessoryd",
  products: [
    .library(name: "AudioAccessoryKit", targets: ["AudioAccessoryKit"]),
    .library(name: "AccessorySetupKit", targets: ["AccessorySetupKit"]),
    .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
    .library(name: "Logging", targets: ["Logging"]),
    .library(name: "PulseAudio", targets: ["PulseAudio"]),
    .library(name: "RoutingCore", targets: ["RoutingCore"]),
    .executable(name: "routing-benchmark", targets: ["RoutingBenchmark"]),
    .executable(name: "accessory-demo", targets: ["AccessoryDemo"]),
    .executable(name: "pulse-benchmark", targets: ["PulseBenchmark"]),
  ],
  targets: [
    // MARK: - Apple-shaped frameworks

    .target(name: "CoreBluetooth"),
    .target(name: "Logging"),
    .target(name: "AccessoryControl"),
    .target(
      name: "AccessorySetupKit",
      dependencies: ["CoreBluetooth"]
    ),
    .target(
      name: "AudioAccessoryKit",
      dependencies: ["AccessorySetupKit", "Logging"]
    ),

    // MARK: - Decision core

    .target(name: "RoutingCore"),

    // MARK: - Sound server

    .systemLibrary(
      name: "CPulse",
      pkgConfig: "libpulse",
      providers: [.apt(["libpulse-dev"])]
    ),
    .target(
      name: "PulseAudio",
      dependencies: ["CPulse"]
    ),

    // MARK: - Service

    .target(
      name: "AccessoryService",
      dependencies: ["AudioAccessoryKit", "PulseAudio", "Logging"]
    ),

    // MARK: - Executables

    .executableTarget(
      name: "AccessoryDemo",
      dependencies: ["AudioAccessoryKit", "AccessorySetupKit", "Logging"]
    ),
    .executableTarget(name: "PulseBenchmark", dependencies: ["PulseAudio", "TestSupport"]),

    .executableTarget(
      name: "RoutingBenchmark",
      dependencies: ["RoutingCore"]
    ),

    // MARK: - Test support

    .target(
      name: "TestSupport",
      dependencies: []
    ),
    .executableTarget(
      name: "StateFileWriter",
      dependencies: ["AudioAccessoryKit", "AccessorySetupKit"]
    ),

    // MARK: - Tests

    .testTarget(
      name: "AccessorySetupKitTests",
      dependencies: ["AccessorySetupKit", "CoreBluetooth"]
    ),
    .testTarget(
      name: "AudioAccessoryKitTests",
      dependencies: [
        "AudioAccessoryKit", "AccessorySetupKit", "Logging", "TestSupport",
        "StateFileWriter",
      ]
    ),
    .testTarget(
      name: "AccessoryServiceTests",
      dependencies: ["AccessoryService", "AudioAccessoryKit", "PulseAudio"]
    ),
    .testTarget(
      name: "PulseAudioTests",
      dependencies: ["PulseAudio", "CPulse", "TestSupport"]
    ),
    .testTarget(
      name: "RoutingCoreTests",
      dependencies: ["RoutingCore"],
      exclude: ["Scenarios"]
    ),
    .testTarget(
      name: "SoundServerTests",
      dependencies: ["TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
