// The sound server's Bluetooth outputs as discovered devices: what a
// machine without BlueZ access can still pair.

import AccessorySetupKit
import DaemonLifecycle
import SoundServerModel

/// Discovers the Bluetooth devices that have an output on the sound
/// server: each sink carrying a Bluetooth address is one device, paired and
/// connected (the server has an output only for such a device), with the
/// sink's description as its alias.
public struct SoundServerDevices: DeviceDiscoverySource {
  /// Always ``DiscoveredDevice/Source/soundServer``.
  public let kind = DiscoveredDevice.Source.soundServer
  private let link: SoundServerLink

  /// Creates the source over the daemon's sound-server link.
  public init(link: SoundServerLink) {
    self.link = link
  }

  /// Reports the devices on every change of the server's sinks; none while
  /// the server is away.
  public func follow(
    _ report: @escaping @Sendable ([DiscoveredDevice]) async -> Void
  ) async throws {
    var last: [DiscoveredDevice]?
    for await update in await link.updates() {
      let devices =
        update.mirror.map { Self.devices(in: $0.sinks, cards: $0.cards) } ?? []
      guard devices != last else { continue }
      last = devices
      await report(devices)
    }
  }

  /// The devices behind a list of sinks, one per Bluetooth address, by
  /// address, with the profiles of each sink's card.
  public static func devices(
    in sinks: [Sink], cards: [Card] = []
  ) -> [DiscoveredDevice] {
    var byAddress: [BluetoothAddress: DiscoveredDevice] = [:]
    for sink in sinks {
      guard let text = bluetoothAddress(of: sink),
        let address = BluetoothAddress(text), byAddress[address] == nil
      else { continue }
      var device = DiscoveredDevice(
        address: address,
        alias: sink.description.isEmpty ? nil : sink.description,
        formFactor: sink.properties["device.form_factor"].map(
          AudioFormFactor.init(rawValue:)),
        icon: sink.properties["device.icon_name"],
        isPaired: true, isConnected: true, audioOutput: sink.name,
        sources: [.soundServer])
      if let card = cards.first(where: { $0.index == sink.cardIndex }) {
        let names = card.profiles.map(\.name)
        device.audioProfiles =
          card.activeProfileName.map { active in
            [active] + names.filter { $0 != active }
          } ?? names
      }
      byAddress[address] = device
    }
    return byAddress.values.sorted { $0.address < $1.address }
  }
}
