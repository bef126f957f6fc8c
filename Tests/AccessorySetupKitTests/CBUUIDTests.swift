// CBUUID: parsing, the shortest form, equality with Bluetooth base UUID
// expansions, and Codable.

import CoreBluetooth
import Foundation
import Testing

@Suite("CBUUID")
struct CBUUIDTests {
  @Test("A 16-bit alias keeps its short form")
  func sixteenBitAlias() {
    let uuid = CBUUID(string: "180D")
    #expect(uuid.uuidString == "180D")
    #expect(uuid.data == Data([0x18, 0x0D]))
    #expect(uuid.description == "180D")
  }

  @Test("Lower-case digits are accepted and printed in upper case")
  func lowerCase() {
    #expect(CBUUID(string: "180d").uuidString == "180D")
    #expect(
      CBUUID(string: "12345678-1234-1234-1234-123456789abc").uuidString
        == "12345678-1234-1234-1234-123456789ABC"
    )
  }

  @Test("A 128-bit UUID keeps all sixteen bytes")
  func fullUUID() {
    let uuid = CBUUID(string: "12345678-1234-1234-1234-123456789ABC")
    #expect(uuid.uuidString == "12345678-1234-1234-1234-123456789ABC")
    #expect(
      uuid.data
        == Data([
          0x12, 0x34, 0x56, 0x78, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12,
          0x34, 0x56, 0x78, 0x9A, 0xBC,
        ])
    )
  }

  @Test("A 16-bit alias equals its Bluetooth base UUID expansion")
  func sixteenBitEqualsExpansion() {
    let short = CBUUID(string: "180D")
    let long = CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")
    #expect(short == long)
    #expect(short.hashValue == long.hashValue)
    #expect(Set([short, long]).count == 1)
    #expect(long.uuidString == "180D")
    #expect(long.data == Data([0x18, 0x0D]))
  }

  @Test("A 32-bit alias equals its expansion; a zero upper half shrinks")
  func thirtyTwoBitAlias() {
    let alias = CBUUID(string: "12345678")
    #expect(alias.uuidString == "12345678")
    #expect(alias == CBUUID(string: "12345678-0000-1000-8000-00805F9B34FB"))
    #expect(CBUUID(string: "0000180D") == CBUUID(string: "180D"))
    #expect(CBUUID(string: "0000180D").uuidString == "180D")
  }

  @Test("Different UUIDs are not equal")
  func inequality() {
    #expect(CBUUID(string: "180D") != CBUUID(string: "180F"))
    #expect(
      CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FC")
        != CBUUID(string: "180D")
    )
  }

  @Test(
    "The non-trapping initializer rejects malformed text",
    arguments: [
      "", "180", "180D0", "18 D", "GGGG", "0x180D", "1234567",
      "12345678-1234-1234-1234-123456789AB",
      "12345678-1234-1234-1234-123456789ABCD",
      "123456781-234-1234-1234-123456789ABC",
      "12345678-1234-1234-1234_123456789ABC",
      "1234567G-1234-1234-1234-123456789ABC",
      "{12345678-1234-1234-1234-123456789ABC}",
    ]
  )
  func rejectsMalformedText(text: String) {
    #expect(CBUUID(validating: text) == nil)
  }

  @Test(
    "The non-trapping initializer accepts what init(string:) accepts",
    arguments: [
      "180D", "FEAA", "12345678", "12345678-1234-1234-1234-123456789ABC",
    ]
  )
  func acceptsWellFormedText(text: String) {
    #expect(CBUUID(validating: text) == CBUUID(string: text))
  }

  @Test("Data of 2, 4 or 16 bytes makes a UUID; other lengths do not")
  func fromData() {
    #expect(CBUUID(data: Data([0x18, 0x0D])) == CBUUID(string: "180D"))
    #expect(
      CBUUID(data: Data([0x12, 0x34, 0x56, 0x78]))
        == CBUUID(string: "12345678")
    )
    let base: [UInt8] = [
      0x00, 0x00, 0x18, 0x0D, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80,
      0x5F, 0x9B, 0x34, 0xFB,
    ]
    #expect(CBUUID(data: Data(base)) == CBUUID(string: "180D"))
    for count in [0, 1, 3, 5, 15, 17] {
      #expect(CBUUID(validating: Data(repeating: 0, count: count)) == nil)
    }
  }

  @Test("A Foundation UUID converts, base expansions included")
  func fromFoundationUUID() throws {
    let text = "12345678-1234-1234-1234-123456789ABC"
    let uuid = try #require(UUID(uuidString: text))
    #expect(CBUUID(nsuuid: uuid) == CBUUID(string: text))
    let base = try #require(
      UUID(uuidString: "0000180D-0000-1000-8000-00805F9B34FB")
    )
    #expect(CBUUID(nsuuid: base).uuidString == "180D")
  }

  @Test("Codable writes the uuidString and reads it back")
  func codableRoundTrip() throws {
    let uuids = [
      CBUUID(string: "180D"),
      CBUUID(string: "12345678-1234-1234-1234-123456789ABC"),
    ]
    let json = try JSONEncoder().encode(uuids)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"["180D","12345678-1234-1234-1234-123456789ABC"]"#
    )
    #expect(try JSONDecoder().decode([CBUUID].self, from: json) == uuids)
  }

  @Test("Decoding malformed text throws instead of trapping")
  func decodingMalformedText() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([CBUUID].self, from: Data(#"["18"]"#.utf8))
    }
  }
}
