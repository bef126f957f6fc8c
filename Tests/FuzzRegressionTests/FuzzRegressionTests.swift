// Every fuzz target over its checked-in seed corpus and over the inputs
// the fuzzer once broke it with (Fuzz/regressions/TARGET), which must no
// longer break it.

import BlueZ
import DBus
import Foundation
import FuzzTargets
import Testing

@Suite("Fuzz targets on their corpus and past findings")
struct FuzzRegressionTests {
  /// `Fuzz/`, beside `Tests/`.
  static let fuzzDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz")

  /// The files of one folder of one target's inputs.
  static func inputs(_ folder: String, of target: FuzzTarget) -> [URL] {
    let directory = fuzzDirectory.appendingPathComponent(folder)
      .appendingPathComponent(target.name)
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: directory.path))
      ?? []
    return names.sorted().filter { !$0.hasPrefix(".") }.map {
      directory.appendingPathComponent($0)
    }
  }

  @Test(
    "Each target has a seed corpus and takes every input of it",
    arguments: FuzzTarget.all.map(\.name))
  func seedCorpus(_ name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    let seeds = Self.inputs("corpus", of: target)
    #expect(!seeds.isEmpty, "Fuzz/corpus/\(name) holds no seeds")
    for seed in seeds {
      let bytes = try [UInt8](Data(contentsOf: seed))
      #expect(target.run(bytes) == nil, "\(seed.lastPathComponent)")
    }
  }

  @Test(
    "Inputs the fuzzer found no longer break their target",
    arguments: FuzzTarget.all.map(\.name))
  func pastFindings(_ name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    for finding in Self.inputs("regressions", of: target) {
      let bytes = try [UInt8](Data(contentsOf: finding))
      #expect(target.run(bytes) == nil, "\(finding.lastPathComponent)")
    }
  }

  @Test(
    "The BlueZ seeds are messages the tracker takes in, as BlueZ sends them")
  func bluezSeedsReachTheTracker() throws {
    let seed = Self.fuzzDirectory.appendingPathComponent(
      "corpus/bluez-messages/signals")
    let messages = DBusWireMessage.messages(
      in: try [UInt8](Data(contentsOf: seed)))
    #expect(
      messages.map(\.kind) == [
        .signal, .methodReturn, .signal, .signal, .signal,
      ])
    let tracker = BlueZObjectTracker()
    for wire in messages {
      if wire.kind == .methodReturn,
        let objects = BlueZObjectTracker.parseManagedObjects(
          wire.message.arguments)
      {
        tracker.replaceAll(with: objects, owner: wire.message.sender)
      } else {
        _ = tracker.handle(wire.message)
      }
      if wire.message.member == "PropertiesChanged" {
        let devices = tracker.devices()
        #expect(
          devices.map(\.address) == ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"])
        #expect(devices.first?.isConnected == false)
        #expect(devices.first?.modalias == "bluetooth:v004Cp200Ed0100")
        #expect(tracker.adapters().map(\.address) == ["00:AA:01:00:00:01"])
      }
    }
    // The adapter went, and the devices below it with it.
    #expect(tracker.adapters().isEmpty)
    #expect(tracker.devices().isEmpty)
  }
}
