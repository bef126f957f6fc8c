// AAP over a Unix SOCK_SEQPACKET pair: the same session logic the L2CAP
// link runs, with the test playing the AirPods.

import AccessoryControl
import ConcurrencyHelpers
import HeadphoneLinks
import HeadphoneProtocols
import Testing

/// Bytes from their hexadecimal text.
private func bytes(_ hex: String) -> [UInt8] {
  hex.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// Reads from a socket on a thread of its own.
private func receive(_ socket: HeadphoneSocket) async throws -> [UInt8]? {
  try await BlockingPool.shared.run(named: "test.airpods") {
    () throws(LinkError) in
    try socket.receive(capacity: 4096)
  }
}

@Suite struct AAPLinkTests {
  @Test func theLinkOpensAndReportsWhatTheAirPodsSay() async throws {
    let (host, airPods) = try HeadphoneSocket.pair()
    var reports = AAPLink.run(on: host, answerTimeout: .seconds(60))
      .makeAsyncIterator()
    // The AirPods' side reads the opening, in order.
    for expected in AAP.opening {
      #expect(try await receive(airPods) == expected)
    }
    try airPods.send(bytes("04 00 04 00 06 00 00 00"))
    try airPods.send(bytes("04 00 04 00 06 00 01 00"))
    try airPods.send(bytes("04 00 04"))
    try airPods.send(bytes("04 00 04 00 04 00 01 08 01 11 02 01"))
    #expect(await reports.next() == .event(.wear([.inEar, .inEar])))
    #expect(await reports.next() == .event(.wear([.outOfEar, .inEar])))
    #expect(
      await reports.next()
        == .skipped("an AAP packet of 3 bytes (04 00 04); expected at least 6"))
    #expect(
      await reports.next()
        == .event(
          .battery([
            BatteryLevel(part: .chargingCase, percent: 17, isCharging: false)
          ])))
    // The AirPods go away: the link ends cleanly.
    airPods.shutDown()
    #expect(await reports.next() == .ended(nil))
    #expect(await reports.next() == nil)
  }

  @Test func silentAirPodsAreReportedOnceWithWhatToSetUp() async throws {
    let (host, airPods) = try HeadphoneSocket.pair()
    var reports = AAPLink.run(on: host, answerTimeout: .milliseconds(1))
      .makeAsyncIterator()
    #expect(await reports.next() == .noAnswer(AAPSession.noAnswerMessage))
    airPods.shutDown()
    #expect(await reports.next() == .ended(nil))
  }

  @Test func aKernelWithoutBluetoothIsSaidSo() {
    // These machines' kernel has no Bluetooth; one that has it answers that
    // nothing listens there.
    do {
      _ = try HeadphoneSocket.connectL2CAP(
        to: "AA:BB:CC:DD:EE:01", psm: AAP.psm, receiveBuffer: 4096)
      Issue.record("connected to nothing")
    } catch .noBluetoothSockets {
      #expect(
        LinkError.noBluetoothSockets.description
          == "this kernel has no Bluetooth sockets (AF_BLUETOOTH is not "
          + "supported)")
    } catch {
      guard case .connect = error else {
        Issue.record("\(error)")
        return
      }
    }
  }

  @Test func aBadAddressIsNamed() {
    #expect(throws: LinkError.badAddress("AA:BB")) {
      try HeadphoneSocket.connectL2CAP(
        to: "AA:BB", psm: AAP.psm, receiveBuffer: 4096)
    }
  }
}
