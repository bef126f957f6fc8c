// Apple's accessory protocol (AAP) as AirPods and Beats speak it on L2CAP:
// the packets a host sends to open a session, and where to reach it.
//
// Sources (read, not copied): LibrePods' "AAP Definitions.md" (AirPods Pro 2
// firmware 7A305), kavishdevar/librepods on GitHub.

/// The constants and opening packets of AAP.
public enum AAP {
  /// The BlueZ `Device1.UUIDs` entry of a device that speaks AAP.
  public static let serviceUUID = "74ec2172-0bad-4d01-8f77-997b2be0722a"

  /// Apple's product identifiers of over-ear headphones that speak AAP:
  /// AirPods Max with Lightning (0x200A) and with USB-C (0x201F), as the
  /// model tables of LibrePods and CAPod list them.
  public static let overEarProducts: Set<UInt16> = [0x200A, 0x201F]

  /// The L2CAP PSM the headphones listen on (4097).
  public static let psm: UInt16 = 0x1001

  /// The receive buffer every packet fits in: the longest seen (the
  /// metadata packet) is a few hundred bytes.
  public static let receiveBufferSize = 4096

  /// Every notification and request begins with these four bytes.
  public static let header: [UInt8] = [0x04, 0x00, 0x04, 0x00]
  /// The header of the headphones' answer to the host's connection
  /// packet.
  public static let connectionAnswerHeader: [UInt8] = [0x01, 0x00, 0x04, 0x00]

  /// The first packet of a session; without it the headphones answer
  /// nothing.
  public static let handshake: [UInt8] = [
    0x00, 0x00, 0x04, 0x00, 0x01, 0x00, 0x02, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  ]

  /// Sets the feature flags (opcode 0x4D) a Mac sets.
  public static let setFeatureFlags: [UInt8] =
    header + [0x4D, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

  /// Asks for every notification (opcode 0x0F): ear detection and battery
  /// among them; the headphones then report their state at once.
  public static let requestNotifications: [UInt8] =
    header + [0x0F, 0x00, 0xFF, 0xFF, 0xFF, 0xFF]

  /// What a host sends once connected, in order.
  public static let opening = [
    handshake, setFeatureFlags, requestNotifications,
  ]

  /// The opcodes this module reads.
  public enum Opcode: UInt16, Sendable {
    /// The battery of each part.
    case battery = 0x0004
    /// Where each bud is.
    case earDetection = 0x0006
  }
}
