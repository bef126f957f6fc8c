// Cards and the profiles a call switched, as the decision core sees them.

/// A card this engine switched to a headset profile for a call.
public struct CallProfile: Sendable, Hashable, Codable {
  /// The card's name.
  public var card: String
  /// The profile it had before, to give back after the call.
  public var previousProfile: String
  /// The headset profile it was switched to.
  public var callProfile: String

  /// Creates a record.
  public init(card: String, previousProfile: String, callProfile: String) {
    self.card = card
    self.previousProfile = previousProfile
    self.callProfile = callProfile
  }
}

/// A card that can create outputs, with its profiles.
public struct Card: Sendable, Hashable, Codable {
  /// A profile of a card.
  public struct Profile: Sendable, Hashable, Codable {
    /// The profile's name, such as `a2dp-sink`.
    public var name: String
    /// How many outputs the profile creates.
    public var outputCount: Int
    /// How many inputs (microphones) the profile creates.
    public var inputCount: Int
    /// How useful the profile is as a default: higher is better.
    public var priority: Int
    /// Whether the server knows of no reason it would not work.
    public var isAvailable: Bool

    /// Creates a profile.
    public init(
      name: String, outputCount: Int, inputCount: Int = 0, priority: Int = 0,
      isAvailable: Bool = true
    ) {
      self.name = name
      self.outputCount = outputCount
      self.inputCount = inputCount
      self.priority = priority
      self.isAvailable = isAvailable
    }

    /// Whether the profile both plays and records: a headset profile.
    public var isDuplex: Bool { outputCount > 0 && inputCount > 0 }

    private enum CodingKeys: String, CodingKey {
      case name, outputCount, inputCount, priority, isAvailable
    }

    /// Creates a profile by decoding it; the counts of inputs, the
    /// priority and the availability may be left out.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        name: try c.decode(String.self, forKey: .name),
        outputCount: try c.decode(Int.self, forKey: .outputCount),
        inputCount: try c.decodeIfPresent(Int.self, forKey: .inputCount) ?? 0,
        priority: try c.decodeIfPresent(Int.self, forKey: .priority) ?? 0,
        isAvailable: try c.decodeIfPresent(Bool.self, forKey: .isAvailable)
          ?? true)
    }
  }

  /// The card's name.
  public var name: String
  /// The address of the accessory the card belongs to, if any.
  public var accessory: String?
  /// The active profile's name.
  public var activeProfile: String?
  /// The card's profiles.
  public var profiles: [Profile]

  /// Creates a card.
  public init(
    name: String, accessory: String? = nil, activeProfile: String? = nil,
    profiles: [Profile] = []
  ) {
    self.name = name
    self.accessory = accessory
    self.activeProfile = activeProfile
    self.profiles = profiles
  }
}
