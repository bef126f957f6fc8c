// The Galaxy Buds frames and status messages against the public notes
// (GalaxyBudsClient): the checksum, frames cut anywhere in the stream,
// garbage, bad sizes, ends and checksums, fragments, and both status
// messages.

import HeadphoneProtocols
import Testing

@Suite struct GalaxyBudsTests {
  @Test func theChecksumIsXmodems() {
    #expect(CRC16.xmodem(Array("123456789".utf8)) == 0x31C3)
    // GalaxyBudsClient's example: message 0x61 and its payload, checksum
    // bytes 0F F3 on the wire.
    #expect(
      CRC16.xmodem(bytes("61 02 00 4B 5F 01 00 00 00 01 05 00 02 00 13"))
        == 0xF30F)
  }

  @Test func aFrameIsWrittenAsDocumented() {
    let frame = GalaxyBudsFrame(
      id: 0x61, payload: bytes("02 00 4B 5F 01 00 00 00 01 05 00 02 00 13"))
    #expect(
      frame.encoded
        == bytes(
          "FD 11 00 61 02 00 4B 5F 01 00 00 00 01 05 00 02 00 13 0F F3 DD"))
    let flagged = GalaxyBudsFrame(id: 0x60, payload: [], typeBit: true)
    #expect(flagged.encoded[2] == 0x10)
  }

  @Test func framesCutAnywhereInTheStreamAreReadWhole() {
    let first = GalaxyBudsFrame(id: 0x60, payload: [1, 2, 3, 4, 5, 0x11, 7])
    let second = GalaxyBudsFrame(id: 0x42, payload: [9])
    let stream = first.encoded + second.encoded
    for cut in 0...stream.count {
      var reader = GalaxyBudsFrameReader()
      let results =
        reader.append(stream[..<cut]) + reader.append(stream[cut...])
      #expect(
        results.compactMap { try? $0.get() } == [first, second],
        "cut at \(cut)")
      #expect(results.count == 2, "cut at \(cut)")
    }
  }

  @Test func whatIsNotAFrameIsSkippedAndSaid() {
    let good = GalaxyBudsFrame(id: 0x60, payload: [1, 2, 3, 4, 5, 0x11, 7])
    var badChecksum = good.encoded
    badChecksum[badChecksum.count - 2] ^= 0xFF
    var badEnd = good.encoded
    badEnd[badEnd.count - 1] = 0x00
    let fragment = GalaxyBudsFrame(id: 0x7A, payload: [0], isFragment: true)
    var reader = GalaxyBudsFrameReader()
    let results = reader.append(
      [0x01, 0x02] + badChecksum + [0xFD, 0x01, 0x00] + fragment.encoded
        + good.encoded)
    let skipped = results.compactMap { result -> String? in
      if case .failure(let error) = result { return error.description }
      return nil
    }
    #expect(skipped.first == "2 bytes before the start of a frame: 01 02")
    #expect(skipped.contains { $0.hasPrefix("a frame checksum of") })
    #expect(skipped.contains("a frame size of 1; expected 3 to 1023"))
    #expect(
      skipped.contains("a fragment of message 122; fragments are not read"))
    #expect(results.compactMap { try? $0.get() } == [good])

    var ends = GalaxyBudsFrameReader()
    let endResults = ends.append(badEnd + good.encoded)
    #expect(
      endResults.contains {
        if case .failure(.badEnd(0x00, expected: 0xDD)) = $0 {
          true
        } else {
          false
        }
      })
    #expect(endResults.compactMap { try? $0.get() } == [good])
  }

  @Test func theExtendedStatusSaysWhereEachBudIs() throws {
    // Revision, ear type, left 80 %, right 75 %, coupled, main connection,
    // left wearing and right idle (0x12), case 50 %.
    let frame = GalaxyBudsFrame(
      id: 0x61, payload: bytes("0C 00 50 4B 01 00 12 32 00 00"))
    let status = try #require(try GalaxyBudsStatus(frame, model: .budsPlus))
    #expect(status.left == .inEar)
    #expect(status.right == .outOfEar)
    #expect(
      status.battery == [
        BatteryLevel(part: .left, percent: 80),
        BatteryLevel(part: .right, percent: 75),
        BatteryLevel(part: .chargingCase, percent: 50),
      ])
  }

  @Test func aStatusUpdateWithChargingBits() throws {
    // Both in the case (3, and 4: the case closed), all three charging.
    let frame = GalaxyBudsFrame(
      id: 0x60, payload: bytes("0C 5A 55 01 00 34 28 15"))
    let status = try #require(
      try GalaxyBudsStatus(frame, model: .buds2, fullStatusRevision: 10))
    #expect(status.left == .inCase && status.right == .inCase)
    #expect(status.battery.allSatisfy { $0.isCharging == true })
    #expect(status.battery.map(\.percent) == [90, 85, 40])
    // Byte 7 is something else before the Buds2's revision 10, on the
    // Buds+, and on buds whose model is not known; and unknown before the
    // first full status.
    for (model, revision) in [
      (GalaxyBudsModel.buds2, 9), (.budsPlus, 13), (.laterRenamed, 20),
      (.buds2, nil),
    ] {
      let read = try #require(
        try GalaxyBudsStatus(
          frame, model: model, fullStatusRevision: revision))
      #expect(
        read.battery.allSatisfy { $0.isCharging == nil },
        "\(model), revision \(revision.map(String.init) ?? "none")")
    }
  }

  @Test func theSessionReportsChangesAndSkipsWhatItCannotRead() {
    var session = GalaxyBudsSession(model: .budsPlus)
    let worn = GalaxyBudsFrame(
      id: 0x61, payload: bytes("0C 00 50 4B 01 00 11 32"))
    let first = session.receive(worn.encoded)
    #expect(
      first.events == [
        .wear([.inEar, .inEar]),
        .battery([
          BatteryLevel(part: .left, percent: 80),
          BatteryLevel(part: .right, percent: 75),
          BatteryLevel(part: .chargingCase, percent: 50),
        ]),
      ])
    // The same status again: nothing new.
    #expect(session.receive(worn.encoded).events == [])
    // A placement not in the protocol, and a status cut short.
    let unknown = GalaxyBudsFrame(
      id: 0x60, payload: bytes("0C 50 4B 01 00 51 32"))
    let short = GalaxyBudsFrame(id: 0x61, payload: bytes("0C 00 50"))
    let skipped = session.receive(unknown.encoded + short.encoded)
    #expect(skipped.events == [])
    #expect(
      skipped.skipped == [
        "a bud placement of 5; expected 0 (disconnected), 1 (wearing), 2 "
          + "(idle), 3 (in the case) or 4 (case closed)",
        "a status message 61 of 3 bytes; expected at least 8",
      ])
    // Both out: one wear event.
    let out = GalaxyBudsFrame(id: 0x60, payload: bytes("0C 50 4B 01 00 22 32"))
    #expect(
      session.receive(out.encoded).events == [.wear([.outOfEar, .outOfEar])])
    #expect(!WearRule.either.isWorn([.outOfEar, .outOfEar]))
    #expect(!WearRule.either.isWorn([.disconnected, .disconnected]))
    #expect(WearRule.both.isWorn([.inEar, .disconnected]))
  }
}
