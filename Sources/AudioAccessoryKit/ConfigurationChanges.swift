// Linux addition: a partial update of a configuration, the `changes` of the
// control socket's `accessory.update`, with its one codec. acctl writes it
// and the daemon reads it.

import AccessoryControl
import FoundationEssentials

/// Changes to some fields of an ``AccessoryControlDevice/Configuration``;
/// the others keep their values.
public struct AccessoryConfigurationChanges: Sendable, Hashable {
  /// The change to ``AccessoryControlDevice/Configuration/devicePlacement``.
  public var placement: FieldChange<AccessoryControlDevice.Placement>
  /// The change to the primary audio source's 6-byte address.
  public var primaryAudioSource: FieldChange<Data>
  /// The change to the secondary audio source's 6-byte address.
  public var secondaryAudioSource: FieldChange<Data>

  /// The wire names of the fields, in order.
  public static let fieldNames = [
    "devicePlacement", "primaryAudioSourceDeviceIdentifier",
    "secondaryAudioSourceDeviceIdentifier",
  ]

  /// Creates changes; every field is unchanged unless given.
  public init(
    placement: FieldChange<AccessoryControlDevice.Placement> = .unchanged,
    primaryAudioSource: FieldChange<Data> = .unchanged,
    secondaryAudioSource: FieldChange<Data> = .unchanged
  ) {
    self.placement = placement
    self.primaryAudioSource = primaryAudioSource
    self.secondaryAudioSource = secondaryAudioSource
  }

  /// Whether nothing changes.
  public var isEmpty: Bool {
    placement.isUnchanged && primaryAudioSource.isUnchanged
      && secondaryAudioSource.isUnchanged
  }

  /// Applies the changes to a configuration.
  public func apply(
    to configuration: inout AccessoryControlDevice.Configuration
  ) {
    placement.apply(to: &configuration.devicePlacement)
    primaryAudioSource.apply(
      to: &configuration.primaryAudioSourceDeviceIdentifier)
    secondaryAudioSource.apply(
      to: &configuration.secondaryAudioSourceDeviceIdentifier)
  }

  /// The changes as the control socket carries them: only the changed
  /// fields, null for a cleared one, addresses as `AA:BB:CC:DD:EE:FF`.
  public var json: JSONValue {
    var object: [String: JSONValue] = [:]
    placement.write(into: &object, key: Self.fieldNames[0]) {
      .string($0.rawValue)
    }
    primaryAudioSource.write(into: &object, key: Self.fieldNames[1]) {
      .string(hexBytes($0))
    }
    secondaryAudioSource.write(into: &object, key: Self.fieldNames[2]) {
      .string(hexBytes($0))
    }
    return .object(object)
  }

  /// Reads changes as the control socket carries them.
  ///
  /// - Throws: ``DecodingFailure`` naming the unknown field or the bad
  ///   value and what is expected.
  public init(json object: [String: JSONValue]) throws(DecodingFailure) {
    for name in object.keys.sorted() where !Self.fieldNames.contains(name) {
      throw DecodingFailure(
        "unknown change '\(name)'; expected "
          + Self.fieldNames.map { "'\($0)'" }.joined(separator: ", "))
    }
    placement = try FieldChange.read(object, key: Self.fieldNames[0]) {
      value throws(DecodingFailure) in
      guard case .string(let text) = value else {
        throw DecodingFailure("'devicePlacement' must be a string or null")
      }
      guard let placement = AccessoryControlDevice.Placement(rawValue: text)
      else {
        throw DecodingFailure(
          "'devicePlacement' is '\(text)'; expected one of "
            + AccessoryControlDevice.Placement.quotedNames + " or null")
      }
      return placement
    }
    primaryAudioSource = try Self.readAddress(object, Self.fieldNames[1])
    secondaryAudioSource = try Self.readAddress(object, Self.fieldNames[2])
  }

  private static func readAddress(
    _ object: [String: JSONValue], _ name: String
  ) throws(DecodingFailure) -> FieldChange<Data> {
    try FieldChange.read(object, key: name) { value throws(DecodingFailure) in
      guard case .string(let text) = value else {
        throw DecodingFailure("'\(name)' must be a string or null")
      }
      guard let data = Data(hexBytes: text) else {
        throw DecodingFailure(
          "'\(name)' is '\(text)'; expected hexadecimal bytes such as "
            + "'AA:BB:CC:DD:EE:FF' or null")
      }
      return data
    }
  }

  /// Why changes could not be read.
  public struct DecodingFailure: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the field.
    public var description: String

    init(_ description: String) { self.description = description }
  }
}
