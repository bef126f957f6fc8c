// What the media rules, the router's inbox and the muted-stream ledger know
// headphones by: a Bluetooth address, or a sound card's headphone jack.

import AccessorySetupKit
import SoundServerModel

/// What identifies headphones whose output the engine guards: a Bluetooth
/// address (`AA:BB:CC:DD:EE:FF`), or a sound card's headphone jack in use
/// (`jack:` and the card's sink's name).
///
/// It is written as that text, in the ledger and in events, so that a
/// Bluetooth address reads as it always did.
public struct HeadphonesIdentity: Sendable, Hashable, Comparable, Codable,
  CustomStringConvertible
{
  /// The text: a Bluetooth address in upper case, or `jack:` and a name.
  public let description: String

  private init(text: String) { description = text }

  /// The identity of Bluetooth headphones.
  public init(_ address: BluetoothAddress) {
    self.init(text: address.description)
  }

  /// The identity of the headphone jack of a sink.
  public init(jackOf sinkName: String) {
    self.init(text: wiredHeadphonesPrefix + sinkName)
  }

  /// Reads an identity from its text, or returns nil when it is neither a
  /// Bluetooth address nor `jack:` and a name.
  public init?(_ text: String) {
    if let address = BluetoothAddress(text) {
      self.init(address)
    } else if text.hasPrefix(wiredHeadphonesPrefix),
      text.count > wiredHeadphonesPrefix.count
    {
      self.init(text: text)
    } else {
      return nil
    }
  }

  /// Whether this is a headphone jack's: its sink stays when the jack is
  /// pulled.
  public var isJack: Bool { description.hasPrefix(wiredHeadphonesPrefix) }

  /// The Bluetooth address, for Bluetooth headphones.
  public var bluetoothAddress: BluetoothAddress? {
    BluetoothAddress(description)
  }

  /// Decodes an identity from its text.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let identity = Self(text) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "'\(text)' is neither a Bluetooth address nor jack:NAME"))
    }
    self = identity
  }

  /// Encodes the identity as its text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Orders identities by their text.
  public static func < (a: Self, b: Self) -> Bool {
    a.description < b.description
  }
}

/// What identifies the headphones a sink plays on, for the media rules
/// (``headphonesKey(of:)``).
public func headphonesIdentity(of sink: Sink) -> HeadphonesIdentity? {
  headphonesKey(of: sink).flatMap(HeadphonesIdentity.init)
}
