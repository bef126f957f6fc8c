// ASAccessorySession without a daemon: what it refuses before it asks
// accessoryd anything, and what an unreachable accessoryd does to it.

import AccessorySetupKit
import ConcurrencyHelpers
import CoreBluetooth
import Dispatch
import Foundation
import Testing

@Suite("ASAccessorySession, without accessoryd")
struct ASAccessorySessionTests {
  /// A session whose daemon does not exist.
  private static func session(
    declaring configuration: ASAccessorySetupConfiguration? = nil
  ) -> ASAccessorySession {
    ASAccessorySession(
      socketPath: "/nonexistent/accessoryd/control.sock",
      setupConfiguration: configuration)
  }

  private static func item(serviceUUID: String) -> ASPickerDisplayItem {
    let descriptor = ASDiscoveryDescriptor()
    descriptor.bluetoothServiceUUID = CBUUID(string: serviceUUID)
    return ASPickerDisplayItem(
      name: "Buds", productImage: UIImage(named: "buds")!,
      descriptor: descriptor)
  }

  @Test func anUndeclaredServiceIsRefusedByName() async {
    let configuration = ASAccessorySetupConfiguration(
      supports: [.bluetooth], bluetoothServices: [CBUUID(string: "110B")])
    let session = Self.session(declaring: configuration)
    let error = await #expect(throws: ASError.self) {
      try await session.showPicker(for: [Self.item(serviceUUID: "FE2C")])
    }
    #expect(error?.code == .invalidRequest)
    #expect(
      error?.message
        == "picker item 'Buds': bluetoothServiceUUID 'FE2C' is not declared; "
        + "add 'FE2C' to NSAccessorySetupBluetoothServices.")
  }

  @Test func theAppsConfigurationFileIsReadByDefault() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ask-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("AccessorySetup.json")
    let declared =
      #"{"NSAccessorySetupSupports": ["Bluetooth"], "#
      + #""NSAccessorySetupBluetoothServices": ["110B"]}"#
    try Data(declared.utf8).write(to: file)
    let refused = await ASAccessorySession.$defaultSetupConfigurationPath
      .withValue(file.path) { () async -> ASError? in
        let session = ASAccessorySession()
        do {
          try await session.showPicker(for: [Self.item(serviceUUID: "FE2C")])
          return nil
        } catch {
          return error as? ASError
        }
      }
    #expect(refused?.code == .invalidRequest)
    #expect(refused?.message.contains("'FE2C' is not declared") == true)

    // A file that cannot be read fails every picker, naming it.
    let broken = await ASAccessorySession.$defaultSetupConfigurationPath
      .withValue(directory.path + "/missing.json") { () async -> ASError? in
        do {
          try await ASAccessorySession().showPicker(
            for: [Self.item(serviceUUID: "110B")])
          return nil
        } catch {
          return error as? ASError
        }
      }
    #expect(broken?.code == .invalidRequest)
    #expect(broken?.message.contains("missing.json") == true)
  }

  @Test func aPickerBeforeActivationIsAnError() async {
    let error = await #expect(throws: ASError.self) {
      try await Self.session().showPicker(for: [Self.item(serviceUUID: "110B")])
    }
    #expect(error?.code == .invalidRequest)
  }

  @Test(.timeLimit(.minutes(1)))
  func anUnreachableDaemonInvalidatesTheSession() async throws {
    let session = Self.session()
    let events = AsyncStream.makeStream(of: ASAccessoryEvent.self)
    session.activate(on: DispatchQueue(label: "test")) { event in
      events.continuation.yield(event)
    }
    var iterator = events.stream.makeAsyncIterator()
    let event = try #require(await iterator.next())
    #expect(event.eventType == .invalidated)
    #expect((event.error as? ASError)?.code == .activationFailed)
    // An invalidated session cannot be reused.
    let error = await #expect(throws: ASError.self) {
      try await session.showPicker(for: [Self.item(serviceUUID: "110B")])
    }
    #expect(error?.code == .invalidated)
  }

  @Test func eventTypesKeepApplesRawValues() {
    #expect(
      ASAccessoryEventType.allCases.map(\.rawValue) == [
        0, 10, 11, 20, 30, 31, 32, 33, 40, 50, 60, 70, 80, 90,
      ])
    #expect(ASError.Code.userCancelled.rawValue == 700)
    #expect(ASError.Code.pickerAlreadyActive.rawValue == 500)
    #expect(ASPickerDisplayItem.SetupOptions.rename.rawValue == 1)
    #expect(ASPickerDisplayItem.SetupOptions.finishInApp.rawValue == 4)
    #expect(
      ASPickerDisplaySettings.Options.filterDiscoveryResults.rawValue == 1)
  }

  /// `ASError` made, thrown and caught as Apple's bridged error is.
  @Test func errorsAreMadeAndCaughtAsApplesAre() {
    func cancel() throws { throw ASError(.userCancelled) }
    var caught = false
    do {
      try cancel()
    } catch ASError.userCancelled {
      caught = true
    } catch {
      Issue.record("not caught by its code: \(error)")
    }
    #expect(caught)
    let error = ASError(
      .invalidRequest, userInfo: ["NSLocalizedDescription": "no such item"])
    #expect(error.code == .invalidRequest)
    #expect(error.errorCode == 450)
    #expect(error.errorUserInfo["NSLocalizedDescription"] == "no such item")
    #expect(ASError(.unknown).code == .unknown)
    #expect(ASError.errorDomain == "com.apple.accessorysetupkit")
    let codes: Set<ASError.Code> = [.invalidated, .userCancelled]
    #expect(codes.contains(ASError(.userCancelled).code))
  }
}
