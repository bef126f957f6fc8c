// The SDP client over a Unix SOCK_SEQPACKET pair, the test playing the
// device's server: an answer in two parts, the second asked for with the
// first's continuation state.

import HeadphoneLinks
import HeadphoneProtocols
import Testing

@Suite struct SDPClientTests {
  @Test func anAnswerInTwoPartsIsPutTogether() throws {
    let (host, device) = try HeadphoneSocket.pair()
    let record = SDPDataElement.sequence([
      .unsigned(0x0001, size: 2), .sequence([.uuid(SDPUUID(0x1101))]),
      .unsigned(0x0004, size: 2),
      .sequence([
        .sequence([.uuid(SDPUUID(0x0100))]),
        .sequence([.uuid(SDPUUID(0x0003)), .unsigned(5, size: 1)]),
      ]),
    ])
    let lists = SDPDataElement.sequence([record]).encoded
    let cut = lists.count / 2
    // Both parts wait in the socket before the client asks.
    func part(
      _ transaction: UInt16, _ bytes: ArraySlice<UInt8>, _ state: [UInt8]
    )
      -> [UInt8]
    {
      let parameters =
        [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        + [UInt8(state.count)] + state
      return [0x07, 0x00, UInt8(transaction), 0x00, UInt8(parameters.count)]
        + parameters
    }
    try device.send(part(1, lists[..<cut], [0x01, 0x02]))
    try device.send(part(2, lists[cut...], []))
    let records = try SDPClient.records(offering: SDPUUID(0x1101), on: host)
    #expect(records.count == 1)
    #expect(records.first?.rfcommChannel == 5)
    // The second request carried the first part's continuation state.
    let first = try #require(try device.receive(capacity: 256))
    let second = try #require(try device.receive(capacity: 256))
    #expect(
      first == SDPServiceSearch.request(for: SDPUUID(0x1101), transaction: 1))
    #expect(
      second
        == SDPServiceSearch.request(
          for: SDPUUID(0x1101), transaction: 2, continuation: [0x01, 0x02]))
  }

  @Test func aRefusalIsALinkError() throws {
    let (host, device) = try HeadphoneSocket.pair()
    try device.send([0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0x02])
    #expect(
      throws: LinkError.serviceDiscovery("the SDP server answered with error 2")
    ) {
      try SDPClient.records(offering: SDPUUID(0x1101), on: host)
    }
  }
}
