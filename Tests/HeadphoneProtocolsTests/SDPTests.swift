// SDP's ServiceSearchAttribute transaction against bytes written out by
// hand from the Bluetooth Core Specification (Vol 3, Part B): the request,
// an answer with one record, errors, and which of several serial-port
// records is the Galaxy Buds' manager.

import HeadphoneProtocols
import Testing

@Suite struct SDPTests {
  @Test func theRequestAsksForEveryAttributeOfTheService() {
    #expect(
      SDPServiceSearch.request(for: SDPUUID(0x1101), transaction: 1)
        == bytes("06 00 01 00 0F 35 03 19 11 01 FF F0 35 05 0A 00 00 FF FF 00"))
    // A later part sends the continuation state back.
    #expect(
      SDPServiceSearch.request(
        for: SDPUUID(0x1101), transaction: 2, continuation: [0xAB, 0xCD])
        == bytes(
          "06 00 02 00 11 35 03 19 11 01 FF F0 35 05 0A 00 00 FF FF 02 AB CD"))
  }

  /// One record, as a Galaxy Buds Pro's manager: handle 0x00010001, the
  /// serial port, L2CAP then RFCOMM channel 2, named GEARMANAGER.
  static let managerRecord = bytes(
    "35 31"
      + " 09 00 00 0A 00 01 00 01"
      + " 09 00 01 35 03 19 11 01"
      + " 09 00 04 35 0C 35 03 19 01 00 35 05 19 00 03 08 02"
      + " 09 01 00 25 0B 47 45 41 52 4D 41 4E 41 47 45 52")

  @Test func anAnswerWithOneRecordIsRead() throws {
    let lists = bytes("35 33") + Self.managerRecord
    let pdu = bytes("07 00 01 00 38 00 35") + lists + [0x00]
    let part = try SDPServiceSearch.answer(pdu, transaction: 1)
    #expect(part.continuation.isEmpty)
    #expect(part.attributeBytes == lists)
    let records = try SDPServiceSearch.records(in: part.attributeBytes)
    #expect(records.count == 1)
    #expect(records.first?.rfcommChannel == 2)
    #expect(records.first?.name == "GEARMANAGER")
    #expect(records.first?.serviceClasses == [SDPUUID(0x1101)])
    #expect(
      records.first?.serviceClasses.first?.description
        == GalaxyBuds.serialPortUUID)
    // Written again, the record is the same bytes.
    let element = try SDPDataElement.read(Self.managerRecord[...]).element
    #expect(element.encoded == Self.managerRecord)
  }

  @Test func whatIsNoAnswerSaysWhy() {
    #expect(throws: SDPError.refused(code: 3)) {
      try SDPServiceSearch.answer(bytes("01 00 01 00 02 00 03"), transaction: 1)
    }
    #expect(throws: SDPError.otherTransaction(2, expected: 1)) {
      try SDPServiceSearch.answer(
        bytes("07 00 02 00 03 00 00 00"), transaction: 1)
    }
    #expect(throws: SDPError.notAnAnswer(0x05)) {
      try SDPServiceSearch.answer(bytes("05 00 01 00 00"), transaction: 1)
    }
    #expect(throws: SDPError.cutShort("an SDP answer")) {
      try SDPServiceSearch.answer(bytes("07 00 01 00 09 00 33"), transaction: 1)
    }
    // A header of type 9, which the specification does not have.
    #expect(throws: SDPError.badElement(0x48)) {
      try SDPDataElement.read(bytes("48 00")[...])
    }
    #expect(throws: SDPError.notARecordList) {
      try SDPServiceSearch.records(in: bytes("35 02 08 01"))
    }
    // Sequences nested deeper than any record: refused, not recursed into.
    let deep = (0..<40).reduce(SDPDataElement.null) { inner, _ in
      .sequence([inner])
    }
    #expect(throws: SDPError.tooDeep) {
      try SDPDataElement.read(deep.encoded[...])
    }
    // A 4-byte length beyond the bytes.
    #expect(throws: SDPError.cutShort("a data element of 4294967295 bytes")) {
      try SDPDataElement.read(bytes("37 FF FF FF FF 00")[...])
    }
  }

  @Test func aServiceIsAskedForByItsShortestName() {
    let serialPort = SDPUUID(GalaxyBuds.serialPortUUID)
    #expect(serialPort?.bytes.count == 16)
    #expect(serialPort?.shortest == SDPUUID(0x1101))
    let own = SDPUUID(GalaxyBuds.buds2UUID)
    #expect(own?.shortest == own)
  }

  /// A serial-port record on a channel, with a name.
  static func serialPort(_ channel: UInt8, _ name: String) -> SDPServiceRecord {
    SDPServiceRecord(attributes: [
      0x0001: .sequence([.uuid(SDPUUID(0x1101))]),
      0x0004: .sequence([
        .sequence([.uuid(SDPUUID(0x0100))]),
        .sequence([.uuid(SDPUUID(0x0003)), .unsigned(UInt64(channel), size: 1)]
        ),
      ]),
      0x0100: .text(Array(name.utf8) + [0]),
    ])
  }

  @Test func theManagerIsPickedAmongSeveralSerialPorts() {
    let pro = GalaxyBudsModel.budsPro
    #expect(pro.servesOnPlainSerialPort)
    #expect(!GalaxyBudsModel.buds2.servesOnPlainSerialPort)
    // BlueZ would take the first record; the manager is the second.
    #expect(
      pro.managerChannel(among: [
        Self.serialPort(1, "Serial Port"), Self.serialPort(2, "GEARMANAGER"),
        Self.serialPort(20, "FACTORY"),
      ]) == 2)
    #expect(
      pro.managerChannel(among: [
        Self.serialPort(20, "FACTORY"), Self.serialPort(3, "SPP"),
      ]) == 3)
    // One record: BlueZ's choice is the right one.
    #expect(
      pro.managerChannel(among: [Self.serialPort(4, "GEARMANAGER")]) == nil)
    #expect(pro.managerChannel(among: []) == nil)
  }
}
