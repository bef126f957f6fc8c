// Asking a device's SDP server which records offer a service, and what
// they say: the ServiceSearchAttribute transaction (Bluetooth Core
// Specification, Vol 3, Part B, 4.7), carried on L2CAP PSM 1. A PDU is its
// id, a transaction id and the parameters' length (big-endian), then the
// parameters; a long answer comes in parts, each ending with a
// continuation state the next request sends back.

/// The PDUs of one ServiceSearchAttribute transaction.
public enum SDPServiceSearch {
  /// SDP's L2CAP PSM.
  public static let psm: UInt16 = 0x0001
  /// The most attribute bytes asked for in one answer.
  public static let maximumAttributeBytes: UInt16 = 0xFFF0

  /// The request for every attribute of the records that offer a service.
  ///
  /// - Parameters:
  ///   - service: The service class, such as the serial port (0x1101).
  ///   - transaction: The transaction id; the answer carries the same.
  ///   - continuation: The continuation state of the previous part of the
  ///     answer; empty for the first request.
  /// - Returns: The PDU.
  public static func request(
    for service: SDPUUID, transaction: UInt16, continuation: [UInt8] = []
  ) -> [UInt8] {
    let pattern = SDPDataElement.sequence([.uuid(service)]).encoded
    let everyAttribute = SDPDataElement.sequence([
      .unsigned(0x0000_FFFF, size: 4)
    ]).encoded
    let parameters =
      pattern
      + [
        UInt8(maximumAttributeBytes >> 8), UInt8(maximumAttributeBytes & 0xFF),
      ]
      + everyAttribute + [UInt8(continuation.count)] + continuation
    return [0x06] + bigEndian(transaction) + bigEndian(UInt16(parameters.count))
      + parameters
  }

  /// One part of the answer.
  public struct AnswerPart: Sendable, Hashable {
    /// The attribute lists' bytes in this part.
    public var attributeBytes: [UInt8]
    /// The continuation state: empty when this part is the last.
    public var continuation: [UInt8]
  }

  /// Reads one answer PDU.
  ///
  /// - Parameters:
  ///   - pdu: The PDU as received.
  ///   - transaction: The transaction id the request had.
  /// - Throws: ``SDPError`` for an error answer, another transaction, or
  ///   bytes that are no answer.
  public static func answer(
    _ pdu: [UInt8], transaction: UInt16
  ) throws(SDPError) -> AnswerPart {
    guard pdu.count >= 5 else { throw .cutShort("an SDP answer") }
    let id = pdu[0]
    let answered = UInt16(pdu[1]) << 8 | UInt16(pdu[2])
    let length = Int(pdu[3]) << 8 | Int(pdu[4])
    guard pdu.count >= 5 + length else { throw .cutShort("an SDP answer") }
    guard answered == transaction else {
      throw .otherTransaction(answered, expected: transaction)
    }
    let parameters = pdu[5..<5 + length]
    switch id {
    case 0x01:
      let code = parameters.prefix(2).reduce(0) { $0 << 8 | UInt16($1) }
      throw .refused(code: code)
    case 0x07:
      guard parameters.count >= 2 else { throw .cutShort("an SDP answer") }
      let count =
        Int(parameters.first!) << 8 | Int(parameters.dropFirst().first!)
      let rest = parameters.dropFirst(2)
      guard rest.count >= count + 1 else { throw .cutShort("an SDP answer") }
      let state = rest.dropFirst(count)
      let stateLength = Int(state.first!)
      guard state.count >= 1 + stateLength, stateLength <= 16 else {
        throw .cutShort("an SDP continuation state")
      }
      return AnswerPart(
        attributeBytes: Array(rest.prefix(count)),
        continuation: Array(state.dropFirst().prefix(stateLength)))
    default:
      throw .notAnAnswer(id)
    }
  }

  /// The records in the attribute lists of a whole answer (every part's
  /// bytes, joined): a sequence of records, each a sequence of attribute
  /// ids and values.
  ///
  /// - Throws: ``SDPError`` when the bytes are not such a sequence.
  public static func records(
    in attributeLists: [UInt8]
  ) throws(SDPError) -> [SDPServiceRecord] {
    let (element, _) = try SDPDataElement.read(attributeLists[...])
    guard case .sequence(let lists) = element else {
      throw .notARecordList
    }
    return try lists.map { list throws(SDPError) in
      guard case .sequence(let items) = list, items.count.isMultiple(of: 2)
      else { throw .notARecordList }
      var attributes: [UInt16: SDPDataElement] = [:]
      for index in stride(from: 0, to: items.count, by: 2) {
        guard let id = items[index].unsignedValue, id <= 0xFFFF else {
          throw .notARecordList
        }
        attributes[UInt16(id)] = items[index + 1]
      }
      return SDPServiceRecord(attributes: attributes)
    }
  }

  private static func bigEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(value >> 8), UInt8(value & 0xFF)]
  }
}

/// One service record of a device's SDP server.
public struct SDPServiceRecord: Sendable, Hashable {
  /// Its attributes, by id.
  public var attributes: [UInt16: SDPDataElement]

  /// Creates a record.
  public init(attributes: [UInt16: SDPDataElement]) {
    self.attributes = attributes
  }

  /// The service classes it names (attribute 0x0001).
  public var serviceClasses: [SDPUUID] {
    (attributes[0x0001]?.elements ?? []).compactMap {
      if case .uuid(let uuid) = $0 { uuid } else { nil }
    }
  }

  /// The RFCOMM channel of its protocol descriptor list (attribute
  /// 0x0004: L2CAP, then RFCOMM 0x0003 with the channel); nil when the
  /// service is not on RFCOMM.
  public var rfcommChannel: UInt8? {
    for layer in attributes[0x0004]?.elements ?? [] {
      guard let parts = layer.elements, case .uuid(let uuid)? = parts.first,
        uuid.isSame(as: SDPUUID(0x0003)),
        let channel = parts.dropFirst().first?.unsignedValue,
        (1...30).contains(channel)
      else { continue }
      return UInt8(channel)
    }
    return nil
  }

  /// Its name in the primary language (attribute 0x0100), as text.
  public var name: String? {
    guard case .text(let bytes)? = attributes[0x0100] else { return nil }
    // Names are often written with a terminating zero.
    let text = bytes.prefix { $0 != 0 }
    return String(decoding: text, as: UTF8.self)
  }
}

/// Why an SDP exchange could not be read.
public enum SDPError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bytes ended inside something.
  case cutShort(String)
  /// A data element header not in the specification.
  case badElement(UInt8)
  /// An answer to another transaction.
  case otherTransaction(UInt16, expected: UInt16)
  /// The server answered with an error.
  case refused(code: UInt16)
  /// A PDU that is no ServiceSearchAttribute answer.
  case notAnAnswer(UInt8)
  /// Attribute lists that are not a sequence of records.
  case notARecordList
  /// Sequences nested deeper than ``SDPDataElement/maximumDepth``.
  case tooDeep

  /// What is wrong.
  public var description: String {
    switch self {
    case .cutShort(let what): "the bytes end inside \(what)"
    case .badElement(let header):
      "an SDP data element header \([header].hexDescription), which is not "
        + "in the specification"
    case .otherTransaction(let found, let expected):
      "an SDP answer to transaction \(found); expected \(expected)"
    case .refused(let code):
      "the SDP server answered with error \(code)"
    case .notAnAnswer(let id):
      "an SDP PDU \([id].hexDescription); expected 07 (a service search "
        + "attribute answer) or 01 (an error)"
    case .notARecordList:
      "SDP attribute lists that are not a sequence of records of id and "
        + "value pairs"
    case .tooDeep:
      "SDP data elements nested deeper than \(SDPDataElement.maximumDepth) "
        + "sequences"
    }
  }
}
