// CRC-16/XMODEM (the CCITT polynomial 0x1021, no reflection, starting at
// zero), the checksum of Samsung's Galaxy Buds frames.

/// CRC-16 with the CCITT polynomial as XMODEM computes it.
public enum CRC16 {
  /// The checksum of some bytes.
  public static func xmodem(_ bytes: some Sequence<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 {
        crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
      }
    }
    return crc
  }
}
