// AAP against the byte strings of the public protocol notes (LibrePods'
// "AAP Definitions.md"): the opening, ear detection with its role swap,
// battery, and what is not AAP.

import HeadphoneProtocols
import Testing

/// Bytes from their hexadecimal text, "04 00 04 00".
func bytes(_ hex: String) -> [UInt8] {
  bytes(fromHex: hex)!
}

/// Bytes from hexadecimal digits, spaces or none between the bytes
/// ("04 00", "0400"); nil for anything else.
func bytes(fromHex text: String) -> [UInt8]? {
  let digits = Array(text.filter { !$0.isWhitespace })
  guard digits.count.isMultiple(of: 2) else { return nil }
  var result: [UInt8] = []
  for index in stride(from: 0, to: digits.count, by: 2) {
    guard let byte = UInt8(String(digits[index...index + 1]), radix: 16)
    else { return nil }
    result.append(byte)
  }
  return result
}

@Suite struct AAPTests {
  @Test func theOpeningIsTheDocumentedThreePackets() {
    #expect(
      AAP.opening == [
        bytes("00 00 04 00 01 00 02 00 00 00 00 00 00 00 00 00"),
        bytes("04 00 04 00 4D 00 FF 00 00 00 00 00 00 00"),
        bytes("04 00 04 00 0F 00 FF FF FF FF"),
      ])
    #expect(AAP.psm == 0x1001)
  }

  @Test(arguments: [
    ("04 00 04 00 06 00 00 00", BudPosition.inEar, BudPosition.inEar),
    ("04 00 04 00 06 00 01 00", .outOfEar, .inEar),
    ("04 00 04 00 06 00 02 01", .inCase, .outOfEar),
  ])
  func earDetection(
    _ packet: String, _ primary: BudPosition, _ secondary: BudPosition
  ) throws {
    #expect(
      try AAPMessage(bytes(packet))
        == .earDetection(primary: primary, secondary: secondary))
  }

  @Test func takingOutThePrimarySwapsTheRolesWithoutASecondReport() throws {
    var session = AAPSession()
    #expect(!session.hasAnswered)
    #expect(
      try session.receive(bytes("04 00 04 00 06 00 00 00")).get()
        == [.wear([.inEar, .inEar])])
    // The primary comes out: reported, then the roles swap and the same
    // two positions come again in the other order.
    #expect(
      try session.receive(bytes("04 00 04 00 06 00 01 00")).get()
        == [.wear([.outOfEar, .inEar])])
    #expect(try session.receive(bytes("04 00 04 00 06 00 00 01")).get() == [])
    #expect(session.hasAnswered)
    #expect(WearRule.either.isWorn([.inEar, .outOfEar]))
    #expect(!WearRule.both.isWorn([.inEar, .outOfEar]))
  }

  @Test func theDocumentedBatteryPacket() throws {
    // Right 100 % discharging, left 99 % charging, case 17 % discharging.
    let packet = bytes(
      "04 00 04 00 04 00 03 02 01 64 02 01 04 01 63 01 01 08 01 11 02 01")
    #expect(
      try AAPMessage(packet)
        == .battery([
          BatteryLevel(part: .right, percent: 100, isCharging: false),
          BatteryLevel(part: .left, percent: 99, isCharging: true),
          BatteryLevel(part: .chargingCase, percent: 17, isCharging: false),
        ]))
  }

  @Test func absentPartsAreLeftOutAndChargingInTheCaseCounts() throws {
    // A headphone slot at level FF, a right bud disconnected, a left bud
    // charging in the case (05), a part of an unknown type.
    let packet = bytes(
      "04 00 04 00 04 00 04 01 01 FF 02 01 02 01 50 04 01 "
        + "04 01 2A 05 01 10 01 20 02 01")
    #expect(
      try AAPMessage(packet)
        == .battery([BatteryLevel(part: .left, percent: 42, isCharging: true)]))
  }

  @Test func aBatteryReportComesOutOnlyWhenItChanged() throws {
    var session = AAPSession()
    let packet = bytes("04 00 04 00 04 00 01 08 01 11 02 01")
    #expect((try? session.receive(packet).get())?.count == 1)
    #expect(try session.receive(packet).get() == [])
  }

  @Test(arguments: [
    ("04 00 04", "an AAP packet of 3 bytes (04 00 04); expected at least 6"),
    (
      "01 02 03 04 05 06",
      "an AAP packet that does not begin with 04 00 04 00: 01 02 03 04 05 06"
    ),
    (
      "04 00 04 00 06 00 00",
      "an AAP packet of opcode 6 with 7 bytes (04 00 04 00 06 00 00); "
        + "expected at least 8"
    ),
    (
      "04 00 04 00 04 00 02 08 01 11 02 01",
      "an AAP packet of opcode 4 with 12 bytes (04 00 04 00 04 00 02 08 01 11 "
        + "02 01); expected at least 17"
    ),
    (
      "04 00 04 00 06 00 07 00",
      "an ear detection status 07; expected 00 (in ear), 01 (out of ear), "
        + "02 (in case) or 03 (not connected)"
    ),
  ])
  func badPacketsSayWhatIsWrong(_ packet: String, _ message: String) {
    var session = AAPSession()
    guard case .failure(let error) = session.receive(bytes(packet)) else {
      Issue.record("read \(packet)")
      return
    }
    #expect(error.description == message)
    // Anything that comes is an answer: the AirPods speak.
    #expect(session.hasAnswered)
  }

  @Test func otherOpcodesAreNamedAndLeftAlone() throws {
    #expect(
      try AAPMessage(bytes("04 00 04 00 09 00 0D 02 00 00 00"))
        == .other(opcode: 0x09))
    var session = AAPSession()
    #expect(
      try session.receive(bytes("04 00 04 00 4B 00 02 00 01 03")).get() == [])
  }
}
