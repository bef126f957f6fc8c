// Bytes as people read them in protocol notes: "04 00 04 00".

extension Collection<UInt8> {
  /// The bytes in hexadecimal, two digits each, separated by spaces.
  public var hexDescription: String {
    map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
  }
}
