// Requests that change what routing reads (a registration, a choice, the
// policy) are made by the engine's loop: routed in the pass that makes
// them, saved after the route, refused without routing, and undone when
// the state file does not take them.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import Foundation
import Logging
import RoutingCore
import Testing

@Suite("Requested changes, made in the engine's loop")
struct RouterRequestedChangesTests {
  typealias Rig = RouterRig

  /// A state file in a directory of its own, removed after `body`.
  private func withStateFile(
    _ body: (StateFile, URL) async throws -> Void
  ) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("router-changes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(
      StateFile(url: directory.appendingPathComponent("state.json")), directory)
  }

  @Test("A registration is routed in the pass that makes it, then saved")
  func registrationRoutedThenSaved() async throws {
    try await withStateFile { file, _ in
      try await Rig.run(stateFile: file) { rig in
        let decisions = await rig.router.decisionCount
        try await rig.register(Rig.budsAddress, placement: .inEar)
        // Routed: the streams on the buds when the answer came.
        #expect(await rig.router.decisionCount > decisions)
        #expect(await rig.server.sinkOf(1) == Rig.buds)
        #expect(rig.router.board.report(explaining: false).output == Rig.buds)
        // Saved before the answer.
        let saved = file.load(logger: Logger(label: "test")).registry
        #expect(
          saved.registrations[BluetoothAddress(Rig.budsAddress)!]?
            .configuration.devicePlacement == .inEar)
      }
    }
  }

  @Test("A registration the state file does not take is undone, and says why")
  func registrationNotSaved() async throws {
    try await withStateFile { file, directory in
      try await Rig.run(stateFile: file) { rig in
        let address = BluetoothAddress(Rig.budsAddress)!
        let engine = rig.engine
        let accessory = try await rig.router.change(because: .accessoryPaired) {
          _ throws(AccessoryControlFailure) in
          let paired = try engine.stagePairing(address, displayName: "Buds")
          return (paired.accessory, paired.generation)
        }.made
        // A file where the state directory was: the next save fails.
        try FileManager.default.removeItem(at: directory)
        try Data().write(to: directory)
        let failure = await #expect(throws: AccessoryControlFailure.self) {
          try await rig.router.change(
            because: .accessoryRegistered, leavingFollowersToTheDefault: true
          ) { _ throws(AccessoryControlFailure) in
            (
              (),
              try engine.stageRegistration(
                accessory,
                .init(
                  devicePlacement: .inEar,
                  deviceCapabilities: [.audioSwitching, .placement]),
                by: .update)
            )
          }
        }
        #expect(failure?.reason.contains("state file") == true)
        // Undone: paired, not registered, and the buds' next update is
        // refused as for any accessory not registered.
        #expect(rig.engine.registry.registrations[address] == nil)
        #expect(rig.engine.registry.accessories[address] != nil)
        await #expect(throws: AccessoryControlFailure.self) {
          try await rig.report(Rig.budsAddress, .offHead)
        }
      }
    }
  }

  @Test(
    "The loop decides at most once a pass, whatever comes; a query decides nothing"
  )
  func oneDecisionAPass() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let before = await rig.router.decisionCount
      // Updates and queries, as fast as they come: a query reads what the
      // loop published, and enters no pass.
      for round in 0..<20 {
        try await rig.report(
          Rig.budsAddress, round.isMultiple(of: 2) ? .offHead : .inEar)
        for _ in 0..<10 {
          _ = rig.router.board.report(explaining: true)
        }
      }
      #expect(await rig.router.decisionCount > before)
      #expect(await rig.router.decisionsBeyondOneAPass == 0)
    }
  }

  @Test("A refused change routes nothing")
  func refusedRoutesNothing() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let decisions = await rig.router.decisionCount
      let failure = await #expect(throws: AccessoryControlFailure.self) {
        try await rig.router.change(because: .deviceChosen) {
          router throws(AccessoryControlFailure) in
          do throws(DeviceChoiceError) {
            return (try router.choose("no-such-output"), nil)
          } catch {
            throw .invalidRequest(reason: error.description)
          }
        }
      }
      #expect(failure?.reason.contains("no-such-output") == true)
      #expect(await rig.router.decisionCount == decisions)
      // A choice it takes is routed in the same pass.
      let chosen = try await rig.router.change(because: .deviceChosen) {
        router throws(AccessoryControlFailure) in
        do throws(DeviceChoiceError) {
          return (try router.choose(Rig.headset), nil)
        } catch {
          throw .invalidRequest(reason: error.description)
        }
      }.made
      #expect(chosen.name == Rig.headset)
      #expect(await rig.router.decisionCount > decisions)
      #expect(rig.router.board.report(explaining: false).output == Rig.headset)
    }
  }
}
