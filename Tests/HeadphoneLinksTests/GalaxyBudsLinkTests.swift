// The Galaxy Buds' frames over a Unix SOCK_STREAM pair: the same session
// logic the RFCOMM link runs, with the test playing the buds and cutting
// the stream where it likes.

import AccessoryControl
import HeadphoneLinks
import HeadphoneProtocols
import Testing

@Suite struct GalaxyBudsLinkTests {
  /// A full status: the left bud worn, the right in the case.
  let extendedStatus = GalaxyBudsFrame(
    id: 0x61, payload: [0x01, 0x00, 80, 75, 0x01, 0x00, 0x13, 40]
  ).encoded

  @Test func theLinkReadsFramesCutAnywhereAndSkipsGarbage() async throws {
    let (host, buds) = try HeadphoneSocket.pair(streaming: true)
    var reports = GalaxyBudsLink.run(on: host, model: .budsPlus)
      .makeAsyncIterator()
    // The full status in two pieces, cut inside the header.
    try buds.send(Array(extendedStatus[..<2]))
    try await Task.sleep(for: .milliseconds(20))
    try buds.send(Array(extendedStatus[2...]))
    #expect(await reports.next() == .event(.wear([.inEar, .inCase])))
    #expect(
      await reports.next()
        == .event(
          .battery([
            BatteryLevel(part: .left, percent: 80),
            BatteryLevel(part: .right, percent: 75),
            BatteryLevel(part: .chargingCase, percent: 40),
          ])))
    // Bytes that are no frame, then a frame with a bad checksum: skipped.
    var corrupt = GalaxyBudsFrame(
      id: 0x60, payload: [0x01, 80, 75, 0x01, 0x00, 0x11, 40, 0x00]
    ).encoded
    corrupt[corrupt.count - 2] ^= 0xFF
    try buds.send([0x00, 0x11] + corrupt)
    guard case .skipped = await reports.next() else {
      Issue.record("expected the garbage to be skipped")
      return
    }
    // Both worn now, in one update.
    try buds.send(
      GalaxyBudsFrame(
        id: 0x60, payload: [0x01, 80, 75, 0x01, 0x00, 0x11, 40, 0x00]
      ).encoded)
    var next = await reports.next()
    while case .skipped = next { next = await reports.next() }
    #expect(next == .event(.wear([.inEar, .inEar])))
    buds.shutDown()
    while let report = await reports.next() {
      if case .ended(let error) = report {
        #expect(error == nil)
        break
      }
    }
  }
}
