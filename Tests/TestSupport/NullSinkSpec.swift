/// A description of a null sink for a test sound server to create.
///
/// A null sink discards what it plays, but otherwise looks like any output to
/// clients. Its properties make it imitate real hardware, such as Bluetooth
/// headphones.
public struct NullSinkSpec: Sendable, Hashable {
  /// The sink name (`sink_name`), which clients use to address the sink.
  public var name: String

  /// The human-readable name, stored as the `device.description` property.
  ///
  /// Spaces are allowed; quotes and backslashes are not, because PulseAudio
  /// and PipeWire unescape them differently.
  public var description: String

  /// Further sink properties, such as `device.bus` or `device.form_factor`.
  ///
  /// A `device.description` entry here is ignored in favor of
  /// ``description``.
  public var properties: [String: String]

  /// Creates a description of a null sink.
  ///
  /// - Parameters:
  ///   - name: The sink name (`sink_name`).
  ///   - description: The human-readable name (`device.description`).
  ///   - properties: Further sink properties.
  public init(
    name: String, description: String, properties: [String: String] = [:]
  ) {
    self.name = name
    self.description = description
    self.properties = properties
  }

  /// A plain output with no bus or form factor, like built-in speakers.
  ///
  /// - Parameters:
  ///   - name: The sink name.
  ///   - description: The human-readable name.
  public static func speaker(name: String, description: String) -> Self {
    Self(name: name, description: description)
  }

  /// An output that carries the properties of Bluetooth headphones.
  ///
  /// The sink carries both the PulseAudio-style address (`device.string`)
  /// and the PipeWire-style one (`api.bluez5.address`), plus
  /// `device.bus=bluetooth` and `device.form_factor`, so it looks like a
  /// Bluetooth output on either server.
  ///
  /// - Parameters:
  ///   - name: The sink name.
  ///   - address: The Bluetooth address, such as "AA:BB:CC:DD:EE:FF".
  ///   - description: The human-readable name, such as "Test Buds".
  ///   - formFactor: The `device.form_factor` value.
  ///   - deviceAPI: The `device.api` value: "bluez" as on PulseAudio, or
  ///     "bluez5" as on PipeWire (see ``SoundServerKind/bluetoothDeviceAPI``).
  public static func bluetoothHeadphones(
    name: String,
    address: String,
    description: String,
    formFactor: String = "headphone",
    deviceAPI: String = SoundServerKind.pulseAudio.bluetoothDeviceAPI
  ) -> Self {
    Self(
      name: name,
      description: description,
      properties: [
        "device.bus": "bluetooth",
        "device.api": deviceAPI,
        "device.string": address,
        "api.bluez5.address": address,
        "device.form_factor": formFactor,
      ])
  }

  /// All sink properties, ``description`` included, sorted by key.
  public var allProperties: [(key: String, value: String)] {
    var merged = properties
    merged["device.description"] = description
    return merged.sorted { $0.key < $1.key }
  }

  /// The argument string for `module-null-sink` on either server.
  ///
  /// All properties go into one quoted `sink_properties` argument, each
  /// value in double quotes, so values may contain spaces:
  /// `sink_name=x rate=48000 channels=2 sink_properties='k="v w"'`.
  ///
  /// - Throws: ``FixtureError`` if the name, a key or a value contains
  ///   characters that cannot be quoted portably.
  public func moduleArguments() throws -> String {
    guard Self.isPlainWord(name) else {
      throw FixtureError("invalid null sink name '\(name)'")
    }
    var quotedProperties: [String] = []
    for (key, value) in allProperties {
      guard Self.isPlainWord(key) else {
        throw FixtureError("invalid property key '\(key)' on '\(name)'")
      }
      guard Self.isQuotable(value) else {
        throw FixtureError(
          "property \(key) of '\(name)' has a quote, backslash or control "
            + "character: '\(value)'")
      }
      quotedProperties.append("\(key)=\"\(value)\"")
    }
    let joined = quotedProperties.joined(separator: " ")
    return "sink_name=\(name) rate=48000 channels=2 sink_properties='\(joined)'"
  }

  private static func isPlainWord(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy { scalar in
        scalar.isASCIIAlphanumeric || "._-".unicodeScalars.contains(scalar)
      }
  }

  private static func isQuotable(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      !"\"'\\".unicodeScalars.contains(scalar)
        && !scalar.properties.generalCategory.isControl
    }
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIIAlphanumeric: Bool {
    switch value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    default: false
    }
  }
}

extension Unicode.GeneralCategory {
  fileprivate var isControl: Bool {
    switch self {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
