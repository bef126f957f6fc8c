// An accessory, as the decision core sees it: a registered one, or
// headphones nobody registered that the sound server shows.

/// An accessory, as the decision core sees it.
///
/// Most are registered: a companion (or accessoryd's own AirPods and
/// Galaxy Buds readers) tells their capabilities, placement and sources.
/// Headphones nobody registered (a Bluetooth headphone or headset, a
/// sound card's headphone jack in use) take part too, as an accessory
/// that switches audio and reports no placement (``isRegistered`` false).
public struct Accessory: Sendable, Hashable, Codable {
  /// Where an accessory is relative to the person, as AudioAccessoryKit
  /// reports it.
  public enum Placement: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the ear.
    case inEar
    /// On the head.
    case onHead
    /// Over the ear.
    case overTheEar
    /// Not worn.
    case offHead

    /// Whether the accessory is being worn.
    public var isWorn: Bool { self != .offHead }
  }

  /// The accessory's Bluetooth address, `AA:BB:CC:DD:EE:FF`; for wired
  /// headphones, `jack:` and the sound card's output.
  public var address: String
  /// The accessory's display name.
  public var name: String
  /// Whether it was registered with `.audioSwitching`.
  public var audioSwitching: Bool
  /// Whether it was registered with `.placement`.
  public var reportsPlacement: Bool
  /// The placement it last reported, if any.
  public var placement: Placement?
  /// The primary audio source's address, if set.
  public var primarySource: String?
  /// The secondary audio source's address, if set.
  public var secondarySource: String?
  /// When the placement last changed (or the accessory was registered).
  public var placementChangedAt: Instant
  /// When the accessory last connected, disconnected or changed sources.
  public var connectionChangedAt: Instant
  /// When its output disappeared, if it has none now but had one.
  public var outputMissingSince: Instant?
  /// When it was registered, or nil for long ago.
  public var registeredAt: Instant?
  /// Whether it was reported worn since it was registered; one taken off
  /// has the off-head grace time only then.
  public var reportedWorn: Bool
  /// Whether someone registered it; `false` for headphones known only
  /// from the sound server, which take part while
  /// `connection.followUnregisteredHeadphones` is true.
  public var isRegistered: Bool

  /// Creates an accessory.
  public init(
    address: String,
    name: String,
    audioSwitching: Bool = true,
    reportsPlacement: Bool = true,
    placement: Placement? = nil,
    primarySource: String? = nil,
    secondarySource: String? = nil,
    placementChangedAt: Instant = 0,
    connectionChangedAt: Instant = 0,
    outputMissingSince: Instant? = nil,
    registeredAt: Instant? = nil,
    reportedWorn: Bool = true,
    isRegistered: Bool = true
  ) {
    self.address = address
    self.name = name
    self.audioSwitching = audioSwitching
    self.reportsPlacement = reportsPlacement
    self.placement = placement
    self.primarySource = primarySource
    self.secondarySource = secondarySource
    self.placementChangedAt = placementChangedAt
    self.connectionChangedAt = connectionChangedAt
    self.outputMissingSince = outputMissingSince
    self.registeredAt = registeredAt
    self.reportedWorn = reportedWorn
    self.isRegistered = isRegistered
  }

  private enum CodingKeys: String, CodingKey {
    case address, name, audioSwitching, reportsPlacement, placement
    case primarySource, secondarySource, placementChangedAt
    case connectionChangedAt, outputMissingSince, registeredAt, reportedWorn
    case isRegistered
  }

  /// Creates an accessory by decoding it; flags and times may be left out.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      address: try c.decode(String.self, forKey: .address),
      name: try c.decode(String.self, forKey: .name),
      audioSwitching: try c.decodeIfPresent(Bool.self, forKey: .audioSwitching)
        ?? true,
      reportsPlacement: try c.decodeIfPresent(
        Bool.self, forKey: .reportsPlacement) ?? true,
      placement: try c.decodeIfPresent(Placement.self, forKey: .placement),
      primarySource: try c.decodeIfPresent(String.self, forKey: .primarySource),
      secondarySource: try c.decodeIfPresent(
        String.self, forKey: .secondarySource),
      placementChangedAt: try c.decodeIfPresent(
        Instant.self, forKey: .placementChangedAt) ?? 0,
      connectionChangedAt: try c.decodeIfPresent(
        Instant.self, forKey: .connectionChangedAt) ?? 0,
      outputMissingSince: try c.decodeIfPresent(
        Instant.self, forKey: .outputMissingSince),
      registeredAt: try c.decodeIfPresent(Instant.self, forKey: .registeredAt),
      reportedWorn: try c.decodeIfPresent(Bool.self, forKey: .reportedWorn)
        ?? true,
      isRegistered: try c.decodeIfPresent(Bool.self, forKey: .isRegistered)
        ?? true
    )
  }
}
