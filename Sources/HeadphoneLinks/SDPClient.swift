// Asking a device's SDP server which records offer a service: a
// ServiceSearchAttribute transaction on L2CAP PSM 1, part after part until
// the server says the answer is whole. BlueZ's `ConnectProfile` connects
// the first record that offers a UUID; when a device offers the service in
// several records, this tells which is which. Every call blocks: run it on
// a thread of its own.

import HeadphoneProtocols

/// A client of a device's SDP server.
public enum SDPClient {
  /// The most parts an answer may come in before the client gives up.
  public static let maximumParts = 64
  /// How long the server may take to answer one request, in seconds.
  public static let answerTimeoutSeconds = 5

  /// The records of a device that offer a service, with every attribute.
  ///
  /// - Parameters:
  ///   - service: The service class, such as the serial port (0x1101).
  ///   - address: The device's address.
  ///   - adapter: The adapter's address to connect from, or nil.
  /// - Throws: ``LinkError`` when the server cannot be reached, refuses,
  ///   or answers with bytes that are no answer.
  public static func records(
    offering service: SDPUUID, at address: String, from adapter: String? = nil
  ) throws(LinkError) -> [SDPServiceRecord] {
    let socket = try HeadphoneSocket.connectL2CAP(
      to: address, psm: SDPServiceSearch.psm, receiveBuffer: 1 << 16,
      from: adapter, receiveTimeoutSeconds: answerTimeoutSeconds)
    defer { socket.shutDown() }
    return try records(offering: service, on: socket)
  }

  /// The records that offer a service, asked on a connected socket (one
  /// PDU a packet), such as one end of ``HeadphoneSocket/pair(streaming:)``
  /// in a test.
  ///
  /// - Throws: ``LinkError`` when the server refuses or its answer is not
  ///   read.
  public static func records(
    offering service: SDPUUID, on socket: HeadphoneSocket
  ) throws(LinkError) -> [SDPServiceRecord] {
    var attributeLists: [UInt8] = []
    var continuation: [UInt8] = []
    for transaction in 1...UInt16(maximumParts) {
      try socket.send(
        SDPServiceSearch.request(
          for: service, transaction: transaction, continuation: continuation))
      guard let pdu = try socket.receive(capacity: 1 << 16) else {
        throw .serviceDiscovery("the server closed the connection")
      }
      let part: SDPServiceSearch.AnswerPart
      do {
        part = try SDPServiceSearch.answer(pdu, transaction: transaction)
      } catch {
        throw .serviceDiscovery(error.description)
      }
      attributeLists += part.attributeBytes
      continuation = part.continuation
      guard !continuation.isEmpty else {
        do {
          return try SDPServiceSearch.records(in: attributeLists)
        } catch {
          throw .serviceDiscovery(error.description)
        }
      }
    }
    throw .serviceDiscovery(
      "the answer did not end within \(maximumParts) parts")
  }
}
