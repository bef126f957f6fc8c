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
    .executable(name: "accessory-demo", targets: ["AccessoryDemo"]),
  ],
  targets: [
    // MARK: - Apple-shaped frameworks

    .target(name: "CoreBluetooth"),
    .target(name: "Logging"),
    .target(
      name: "AccessorySetupKit",
      dependencies: ["CoreBluetooth"]
    ),
    .target(
      name: "AudioAccessoryKit",
      dependencies: ["AccessorySetupKit", "Logging"]
    ),

    // MARK: - Executables

    .executableTarget(
      name: "AccessoryDemo",
      dependencies: ["AudioAccessoryKit", "AccessorySetupKit", "Logging"]
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
      name: "SoundServerTests",
      dependencies: ["TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
