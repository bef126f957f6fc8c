// A real sound card as a Bluetooth headset, for calls: inside the Bluetooth
// VM (scripts/run-in-vm with snd-dummy and snd-aloop), a private PulseAudio
// loads the dummy card with module-alsa-card and an accessory's Bluetooth
// properties, so it has a real output-only profile (as A2DP) and a real
// duplex one (as the headset profile); the loopback card's capture side is
// the built-in microphone.

import Foundation

/// The dummy card loaded as an accessory's headset, and the loopback card
/// as the laptop's microphone.
public enum ALSAHeadset {
  /// The kernel modules the VM must load for it.
  public static let modules = ["snd-dummy", "snd-aloop"]
  /// The headset's card.
  public static let card = "alsa_card.buds"
  /// The headset's sink, in both profiles.
  public static let sink = "alsa_output.buds.stereo-fallback"
  /// The headset's microphone, in the duplex profile only.
  public static let microphone = "alsa_input.buds.stereo-fallback"
  /// The profile that only plays, as A2DP.
  public static let outputOnly = "output:stereo-fallback"
  /// The profile that plays and records, as the headset profile.
  public static let duplex = "output:stereo-fallback+input:stereo-fallback"
  /// The loopback card's capture side, the built-in microphone.
  public static let laptopMicrophone = "laptopmic"

  /// Loads both cards into a PulseAudio, with the headset in its
  /// output-only profile and the laptop's microphone the default input,
  /// and waits until the server shows it.
  ///
  /// - Parameters:
  ///   - server: A private PulseAudio inside the VM.
  ///   - address: The accessory's Bluetooth address.
  public static func load(
    into server: SoundServer, address: String
  ) async throws {
    let bluetooth =
      "device.bus=bluetooth device.api=bluez device.string=\(address) "
      + "device.form_factor=headset"
    // Values with spaces are quoted for PulseAudio's module arguments.
    _ = try await server.pactl([
      "load-module", "module-alsa-card", "device_id=0", "name=buds",
      "card_properties=\"\(bluetooth) device.description=Buds\"",
      "sink_properties=\"\(bluetooth)\"", "source_properties=\"\(bluetooth)\"",
    ])
    _ = try await server.pactl([
      "load-module", "module-alsa-source", "device=hw:1,1",
      "source_name=\(laptopMicrophone)",
      "source_properties=\"device.description=Laptop_Mic device.bus=pci "
        + "device.form_factor=internal\"",
    ])
    _ = try await server.pactl(["set-card-profile", card, outputOnly])
    _ = try await server.pactl(["set-default-source", laptopMicrophone])
    try await waitUntil(server, "the headset in its music profile") {
      $0.profile == outputOnly && $0.input == laptopMicrophone
    }
  }

  /// The headset card's profile and the default input, as the server
  /// shows them.
  public struct Observed: Sendable, CustomStringConvertible {
    /// The headset card's active profile.
    public var profile: String?
    /// The default input.
    public var input: String?

    /// Both, for failure messages.
    public var description: String {
      "profile \(profile ?? "none"), input \(input ?? "none")"
    }
  }

  /// Reads the headset card's profile and the default input.
  public static func observe(_ server: SoundServer) async throws -> Observed {
    let cards = try await server.pactl(["list", "cards"])
    let prefix = "Active Profile: "
    let profile = cards.split(separator: "\n").lazy.compactMap { line in
      let text = line.trimmingCharacters(in: .whitespaces)
      return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }.first
    return Observed(
      profile: profile, input: try await server.defaultSourceName())
  }

  /// Polls every 50 ms until a condition holds, for 20 s at most.
  ///
  /// - Throws: ``FixtureError`` with the last observation after 20 s.
  public static func waitUntil(
    _ server: SoundServer, _ what: String,
    _ condition: (Observed) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    var last = try await observe(server)
    while !condition(last) {
      guard ContinuousClock.now < deadline else {
        throw FixtureError("timed out waiting for \(what); last: \(last)")
      }
      try await Task.sleep(for: .milliseconds(50))
      last = try await observe(server)
    }
  }
}
