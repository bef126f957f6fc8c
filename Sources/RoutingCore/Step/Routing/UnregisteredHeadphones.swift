// Headphones nobody registered, as the router remembers them: a Bluetooth
// headphone or headset, or a sound card's headphone jack in use. They take
// part in routing as accessories that switch audio and report no
// placement, from the moment they connect while accessoryd watches.

import SoundServerModel

/// The headphones nobody registered that the router has seen, by identity
/// (a Bluetooth address, or `jack:` and the sink's name).
///
/// Pure bookkeeping, fed the sound server's outputs and the clock.
public struct UnregisteredHeadphones: Sendable, Hashable {
  /// One pair of headphones.
  public struct Entry: Sendable, Hashable {
    /// What the sound server calls their output.
    public var name: String
    /// When they last connected after an absence longer than the reappear
    /// grace time; 0 when they were there before accessoryd looked.
    public var connectedAt: Instant
    /// When their output went, while it is gone.
    public var missingSince: Instant?
    /// Whether they take part in routing.
    ///
    /// They do when they connected while accessoryd watched, or had the
    /// output when it first looked. Headphones that were there before accessoryd started, beside
    /// another default, do not take the output from it; made the default
    /// later (by the person, or the server's fallback), they are a plain
    /// output until they connect again.
    public var takesPart: Bool
  }

  /// The headphones seen, by identity; those gone for longer than the
  /// reappear grace time are forgotten.
  public private(set) var entries: [String: Entry] = [:]
  /// The registered accessories at the last look: one that is no longer
  /// registered did not just connect.
  private var lastRegistered: Set<String> = []
  /// The Bluetooth addresses of every output at the last look, headphones
  /// or not: one newly known as headphones (BlueZ's class came) did not
  /// just connect.
  private var lastBluetooth: Set<String> = []

  /// Creates empty bookkeeping.
  public init() {}

  /// Learns which headphones nobody registered are there.
  ///
  /// - Parameters:
  ///   - sinks: The outputs.
  ///   - registered: The registered accessories' normalized addresses,
  ///     which are not among these.
  ///   - byBlueZ: The Bluetooth devices BlueZ's class calls headphones.
  ///   - defaultOutput: The default output's name.
  ///   - isFirstLook: Whether this is the first state of a connection to
  ///     the sound server: what is there already did not just connect.
  ///   - reappearGrace: How long an output may be gone without it
  ///     counting as a disconnect.
  ///   - now: The time of the observation.
  public mutating func note(
    sinks: [Sink], registered: Set<String>, byBlueZ: Set<String> = [],
    defaultOutput: String?, isFirstLook: Bool, reappearGrace: Double,
    now: Instant
  ) {
    var present: [String: (name: String, isDefault: Bool)] = [:]
    let bluetooth = Set(sinks.lazy.compactMap(bluetoothAddress(of:)))
    defer { lastBluetooth = bluetooth }
    for sink in sinks where isHeadphones(sink, byBlueZ: byBlueZ) {
      guard let identity = headphonesKey(of: sink),
        !registered.contains(identity)
      else { continue }
      let isDefault = sink.name == defaultOutput
      if let seen = present[identity] {
        if isDefault { present[identity] = (seen.name, true) }
      } else {
        present[identity] = (sink.description, isDefault)
      }
    }
    defer { lastRegistered = registered }
    if present.isEmpty, entries.isEmpty { return }
    for (identity, seen) in present {
      guard var entry = entries[identity] else {
        // Unregistered while connected is not connecting, nor is
        // becoming known as headphones.
        let wasThere =
          isFirstLook || lastRegistered.contains(identity)
          || lastBluetooth.contains(identity)
        entries[identity] = Entry(
          name: seen.name, connectedAt: wasThere ? 0 : now,
          takesPart: !wasThere || seen.isDefault)
        continue
      }
      if let missing = entry.missingSince {
        if now - missing >= reappearGrace {
          entry.connectedAt = now
          entry.takesPart = true
        }
        entry.missingSince = nil
      }
      entry.name = seen.name
      entries[identity] = entry
    }
    for (identity, entry) in entries where present[identity] == nil {
      if registered.contains(identity) {
        entries[identity] = nil
      } else if let missing = entry.missingSince {
        if now - missing >= reappearGrace { entries[identity] = nil }
      } else {
        entries[identity]?.missingSince = now
      }
    }
  }

  /// The decision core's accessories for the headphones that take part,
  /// sorted by identity.
  public var accessories: [Accessory] {
    entries.lazy.filter(\.value.takesPart).sorted { $0.key < $1.key }.map {
      identity, entry in
      Accessory(
        address: identity, name: entry.name, audioSwitching: true,
        reportsPlacement: false, connectionChangedAt: entry.connectedAt,
        outputMissingSince: entry.missingSince, reportedWorn: false,
        isRegistered: false)
    }
  }

  /// Whether headphones of this identity take part in routing.
  public func takesPart(_ identity: String) -> Bool {
    entries[identity]?.takesPart ?? false
  }
}
