// Linux addition: the kind of audio hardware an accessory is, as the sound
// servers report it in the `device.form_factor` property.

/// The form factor of an audio device, as in the `device.form_factor`
/// property of PulseAudio and PipeWire.
///
/// Unknown values are kept as they are, so a form factor a newer sound
/// server reports survives a round trip.
public struct AudioFormFactor: RawRepresentable, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  /// The property value, for example `"headphone"`.
  public let rawValue: String

  /// Creates a form factor from its property value.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Headphones: worn, output only.
  public static let headphone = AudioFormFactor(rawValue: "headphone")
  /// A headset: worn, with a microphone.
  public static let headset = AudioFormFactor(rawValue: "headset")
  /// A hands-free device: a worn Bluetooth headset in its telephony profile.
  public static let handsFree = AudioFormFactor(rawValue: "hands-free")
  /// A handset held to the ear.
  public static let handset = AudioFormFactor(rawValue: "handset")
  /// A loudspeaker.
  public static let speaker = AudioFormFactor(rawValue: "speaker")
  /// A portable loudspeaker.
  public static let portable = AudioFormFactor(rawValue: "portable")
  /// A car audio system.
  public static let car = AudioFormFactor(rawValue: "car")
  /// A hi-fi system.
  public static let hifi = AudioFormFactor(rawValue: "hifi")
  /// A television or display.
  public static let tv = AudioFormFactor(rawValue: "tv")
  /// The computer's built-in audio.
  public static let `internal` = AudioFormFactor(rawValue: "internal")

  /// Whether a person can wear the device, so that it can report placement.
  ///
  /// Headphones, headsets, hands-free devices and handsets can be worn;
  /// speakers, cars, hi-fi systems, displays and built-in audio cannot. An
  /// unknown form factor is given the benefit of the doubt.
  public var canBeWorn: Bool {
    switch self {
    case .speaker, .portable, .car, .hifi, .tv, .internal: false
    default: true
    }
  }

  /// The property value.
  public var description: String { rawValue }

  /// Creates a form factor by decoding its property value.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the property value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
