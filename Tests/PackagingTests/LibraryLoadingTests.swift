// libpulse and libdbus loaded at the first call of one of their functions
// (Sources/LibraryLoading): the daemon calls no function of theirs that the
// module does not define, and the binary as the package ships it
// (scripts/shipped-binary), called as acctl, starts without loading either;
// called as the daemon, it loads them when it connects.

import Foundation
import TestSupport
import Testing

/// The repository's root.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Makes the binary the package ships from the built accessoryd, with a
/// link named acctl beside it, in a new directory.
///
/// - Returns: The shipped binary's path.
private func makeShipped(in directory: String) async throws -> String {
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true)
  let shipped = directory + "/accessoryd"
  let made = try await runProgram(
    root.appendingPathComponent("scripts/shipped-binary").path,
    [try builtProduct("accessoryd").path, shipped],
    environment: ["PATH": "/usr/bin:/bin"])
  try #require(made.status == 0, "\(made)")
  try FileManager.default.createSymbolicLink(
    atPath: directory + "/acctl", withDestinationPath: shipped)
  return shipped
}

@Suite("libpulse and libdbus loaded at their first call")
struct LibraryLoadingTests {
  @Test("accessoryd calls no libpulse or libdbus function it does not define")
  func everyFunctionIsDefined() async throws {
    let symbols = try await runProgram(
      "/usr/bin/nm",
      ["--undefined-only", try builtProduct("accessoryd").path],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(symbols.status == 0, "\(symbols)")
    let undefined = symbols.stdout.split(separator: "\n").filter {
      $0.contains(" pa_") || $0.contains(" dbus_")
    }
    #expect(
      undefined.isEmpty,
      "scripts/generate-library-loading leaves these out: \(undefined)")
  }

  @Test("Shipped and called as acctl, it starts without libpulse or libdbus")
  func acctlLoadsNeither() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-loading-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shipped = try await makeShipped(in: directory)
    let needed = try await runProgram(
      "/usr/bin/readelf", ["-d", shipped],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(!needed.stdout.contains("libpulse"), "\(needed.stdout)")
    #expect(!needed.stdout.contains("libdbus"), "\(needed.stdout)")
    // The loader lists each library it loads.
    let started = try await runProgram(
      directory + "/acctl", ["--version"],
      environment: ["PATH": "/usr/bin:/bin", "LD_DEBUG": "files"])
    #expect(started.status == 0, "\(started)")
    #expect(started.stdout.hasPrefix("accessoryd "), "\(started)")
    #expect(!started.stderr.contains("libpulse"), "\(started.stderr)")
    #expect(!started.stderr.contains("libdbus"), "\(started.stderr)")
    #expect(started.stderr.contains("file=libc.so.6"), "\(started.stderr)")
  }

  @Test("Shipped and called as the daemon, it loads libpulse and switches")
  func daemonLoadsLibpulse() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("accessoryd-loading-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shipped = try await makeShipped(in: directory)
    let server = try await SoundServer.start(
      .pulseAudio,
      sinks: [
        .speaker(name: "speaker", description: "Speaker"),
        .bluetoothHeadphones(
          name: "buds", address: "AA:BB:CC:DD:EE:01",
          description: "Studio Buds"),
      ])
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(
      on: server, binaries: (shipped, directory + "/acctl"))
    defer { daemon.shutDown() }
    try await daemon.pairAndRegister("AA:BB:CC:DD:EE:01", placement: "inEar")
    try await waitUntil("the default on the buds", within: .seconds(10)) {
      try await server.defaultSinkName() == "buds"
    }
    let process = try #require(daemon.processIdentifier)
    // cat reads /proc's file to its end, which has no size to read by.
    let maps = try await runProgram(
      "/bin/cat", ["/proc/\(process)/maps"],
      environment: ["PATH": "/usr/bin:/bin"]
    ).stdout
    let libraries = Set(
      maps.split(separator: "\n").compactMap { line in
        line.split(separator: "/").last.map(String.init)
      })
    #expect(
      libraries.contains { $0.hasPrefix("libpulse.so") },
      "libpulse is not mapped: \(libraries.sorted())")
    #expect(await daemon.stop() == 0, "\(daemon.logTail())")
  }
}
