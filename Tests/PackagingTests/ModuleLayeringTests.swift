// The layers the design draws, read from the package manifest itself: the
// Apple-shaped modules and the control protocol do not link the decision
// core and its policy parser, and the command line does not link BlueZ
// (it asks the daemon).

import Foundation
import TestSupport
import Testing

@Suite("Module layering")
struct ModuleLayeringTests {
  /// Each target's direct dependencies, by name, as `swift package
  /// dump-package` reads the manifest.
  static func dependencies() async throws -> [String: [String]] {
    try await manifest().mapValues(\.dependencies)
  }

  /// A target as the manifest declares it.
  struct Target {
    /// Its direct dependencies, by name.
    var dependencies: [String]
    /// Its kind: `regular`, `executable`, `test` or `system`.
    var kind: String
    /// Its sources' folder, from the package's root.
    var path: String
  }

  /// The package's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardized.path

  /// Every target, by name, as `swift package dump-package` reads the
  /// manifest.
  static func manifest() async throws -> [String: Target] {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-layering-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let environment = ProcessInfo.processInfo.environment
    let path = (environment["PATH"] ?? "").split(separator: ":")
    let swift = try #require(
      path.map { "\($0)/swift" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "no swift on PATH")
    let run = try await runProgram(
      swift, ["package", "--scratch-path", scratch, "dump-package"],
      environment: environment, directory: root,
      within: .seconds(120))
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(run.stdout.utf8)) as? [String: Any]
    let targets = manifest?["targets"] as? [[String: Any]] ?? []
    var result: [String: Target] = [:]
    for target in targets {
      guard let name = target["name"] as? String,
        let kind = target["type"] as? String
      else { continue }
      let entries = target["dependencies"] as? [[String: Any]] ?? []
      let dependencies: [String] = entries.compactMap { entry in
        for key in ["byName", "target", "product"] {
          if let value = entry[key] as? [Any], let name = value.first as? String
          {
            return name
          }
        }
        return nil
      }
      let folder = kind == "test" ? "Tests" : "Sources"
      result[name] = Target(
        dependencies: dependencies, kind: kind,
        path: target["path"] as? String ?? "\(folder)/\(name)")
    }
    return result
  }

  /// The package's modules a target's Swift sources import.
  static func imports(
    of target: Target, among modules: Set<String>
  ) throws
    -> Set<String>
  {
    let folder = "\(root)/\(target.path)"
    let files =
      FileManager.default.enumerator(atPath: folder)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    var found: Set<String> = []
    for file in files {
      let text = try String(
        contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
      for line in text.split(separator: "\n") {
        // `import X`, `@testable import X`, `public import X`,
        // `@_exported import X`, `import struct X.Y`.
        var words = line.split(separator: " ").filter {
          !$0.hasPrefix("@") && !["public", "package", "internal"].contains($0)
        }
        guard words.first == "import", words.count >= 2 else { continue }
        words.removeFirst()
        if words.count >= 2,
          ["struct", "class", "enum", "func", "protocol", "typealias"]
            .contains(words[0])
        {
          words.removeFirst()
        }
        let module = String(words[0].split(separator: ".")[0])
        if modules.contains(module) { found.insert(module) }
      }
    }
    return found
  }

  /// Every module a target links, itself left out.
  static func closure(
    of target: String, in graph: [String: [String]]
  )
    -> Set<String>
  {
    var seen: Set<String> = []
    var queue = graph[target] ?? []
    while let next = queue.popLast() {
      guard seen.insert(next).inserted else { continue }
      queue += graph[next] ?? []
    }
    return seen
  }

  @Test(
    "Apple's modules and the protocol link neither the decision core nor BlueZ; acctl does not link BlueZ"
  )
  func layersHold() async throws {
    let graph = try await Self.dependencies()
    #expect(graph["RoutingCore"] != nil, "the manifest was not read: \(graph)")
    for module in [
      "AudioAccessoryKit", "AccessorySetupKit", "AccessoryControl",
    ] {
      let linked = Self.closure(of: module, in: graph)
      #expect(
        !linked.contains("RoutingCore"), "\(module) links \(linked.sorted())")
      #expect(!linked.contains("BlueZ"), "\(module) links \(linked.sorted())")
    }
    for module in ["AcctlCommands", "acctl"] {
      let linked = Self.closure(of: module, in: graph)
      #expect(!linked.contains("BlueZ"), "\(module) links \(linked.sorted())")
    }
  }

  @Test("The daemon's parts link only the parts below them")
  func daemonLayersHold() async throws {
    let graph = try await Self.dependencies()
    // Bottom up: each may link those before it, never those after.
    let layers = [
      "DaemonLifecycle", "DaemonInputs", "AccessoryEngine", "HeadphoneReaders",
      "DaemonControl",
    ]
    for (position, module) in layers.enumerated() {
      #expect(graph[module] != nil, "\(module) is not in the manifest")
      let linked = Self.closure(of: module, in: graph)
      for above in layers[(position + 1)...] {
        #expect(!linked.contains(above), "\(module) links \(above)")
      }
    }
    // The headphone readers report through a protocol, not the engine.
    #expect(
      !Self.closure(of: "HeadphoneReaders", in: graph).contains(
        "AccessoryEngine"))
    // The engine reads and writes the sound server's objects as plain
    // values; only the link to the server speaks libpulse.
    let engineImports = graph["AccessoryEngine"] ?? []
    #expect(engineImports.contains("SoundServerModel"))
    #expect(!engineImports.contains("PulseAudio"))
    #expect(!engineImports.contains("CPulse"))
  }

  @Test(
    "The tray is a client of the session D-Bus API: it links no part of the daemon"
  )
  func trayIsAClient() async throws {
    let graph = try await Self.dependencies()
    let linked = Self.closure(of: "TrayIndicator", in: graph)
    #expect(linked.contains("SessionBusInterfaces"), "\(linked.sorted())")
    for part in [
      "DaemonLifecycle", "DaemonInputs", "AccessoryEngine", "HeadphoneReaders",
      "DaemonControl", "DaemonDesktop", "RoutingCore", "PulseAudio", "BlueZ",
      "MPRIS",
    ] {
      #expect(!linked.contains(part), "TrayIndicator links \(part)")
    }
  }
}

extension ModuleLayeringTests {
  @Test(
    "Each module declares exactly the package's modules it imports, and the C and tool targets it links or runs"
  )
  func declaredIsImported() async throws {
    let manifest = try await Self.manifest()
    #expect(manifest["RoutingCore"] != nil, "the manifest was not read")
    let modules = Set(manifest.keys)
    // Linked without an import: C code that provides symbols, or a tool a
    // test runs and the build must make first.
    let linkedOrRun = Set(
      manifest.filter { name, target in
        target.kind == "system" || target.kind == "executable"
          || name == "LibraryLoading"
      }.keys)
    for (name, target) in manifest.sorted(by: { $0.key < $1.key })
    where target.kind != "system" && name != "LibraryLoading" {
      let imported = try Self.imports(of: target, among: modules)
        .subtracting([name])
      let declared = Set(target.dependencies)
      let unused = declared.subtracting(imported).subtracting(linkedOrRun)
      let undeclared = imported.subtracting(declared)
      #expect(
        unused.isEmpty, "\(name) declares but never imports \(unused.sorted())")
      #expect(
        undeclared.isEmpty,
        "\(name) imports but does not declare \(undeclared.sorted())")
    }
  }
}
