// AccessoryControlDevice.Error used the way companion code and its tests use
// Apple's: as plain values that are compared, collected, thrown and
// switched over. None of this compiles if a case carries a payload.

import AudioAccessoryKit
import Testing

@Suite("AccessoryControlDevice.Error as Apple declares it")
struct AppleErrorTests {
  typealias Error = AccessoryControlDevice.Error

  @Test func casesAreComparedAndCollected() {
    let retry: Set<Error> = [.unknown, .invalidated]
    #expect(retry.contains(.invalidated))
    #expect(!retry.contains(.invalidRequest))
    #expect(Error.invalidated == .invalidated)
    #expect(Error.unknown != .invalidRequest)
    let every: [Error] = [
      .accessoryNotCapable, .invalidRequest, .invalidated, .unknown,
    ]
    #expect(Set(every).count == 4)
    let counts = Dictionary(every.map { ($0, 1) }, uniquingKeysWith: +)
    #expect(counts[.accessoryNotCapable] == 1)
  }

  @Test func casesAreThrownAndCaught() throws {
    func refuse() throws { throw AccessoryControlDevice.Error.unknown }
    #expect(throws: AccessoryControlDevice.Error.unknown) { try refuse() }
    do {
      try refuse()
    } catch let error as AccessoryControlDevice.Error {
      #expect(error == .unknown)
    }
    var caught = false
    do {
      try refuse()
    } catch AccessoryControlDevice.Error.unknown {
      caught = true
    }
    #expect(caught)
    let error: any Swift.Error = Error.invalidRequest
    #expect(error as? AccessoryControlDevice.Error == .invalidRequest)
  }

  @Test func aSwitchHasRoomForCasesToCome() {
    func advice(_ error: AccessoryControlDevice.Error) -> String {
      switch error {
      case .accessoryNotCapable: "register the capability first"
      case .invalidRequest: "check the request"
      case .invalidated: "register again"
      case .unknown: "try again later"
      @unknown default: "update the app"
      }
    }
    #expect(advice(.invalidated) == "register again")
  }

  @Test func theSystemsRefusalsAreAppleCasesWithTheirReasonsBeside()
    async throws
  {
    let (engine, accessory) = try await makeEngineWithHeadphones()
    let stranger = ASAccessory(
      displayName: "Travel Phones",
      bluetoothAddress: BluetoothAddress("AA:BB:CC:DD:EE:02")!)
    try await AccessoryControlEngines.withEngine(engine) {
      await #expect(throws: AccessoryControlDevice.Error.invalidRequest) {
        try await AccessoryControlDevice.register(stranger, [.audioSwitching])
      }
      let failure = try #require(
        AccessoryControlDevice.lastFailure(for: stranger))
      #expect(failure.code == .invalidRequest)
      #expect(failure.reason.contains("not paired"), "\(failure)")

      try await AccessoryControlDevice.register(accessory, [.audioSwitching])
      let device = try AccessoryControlDevice.current(for: accessory)
      var worn = device.configuration
      worn.devicePlacement = .inEar
      do {
        try await device.update(worn)
        Issue.record("a placement without its capability was accepted")
      } catch {
        #expect(error as? AccessoryControlDevice.Error == .accessoryNotCapable)
      }
      #expect(
        AccessoryControlDevice.lastFailure(for: accessory)?.code
          == .accessoryNotCapable)
      // A later success keeps the reason for whoever reads it.
      try await device.update(device.configuration)
      #expect(
        AccessoryControlDevice.lastFailure(for: accessory)?.code
          == .accessoryNotCapable)
    }
  }
}
