// Which of the protocols here a device speaks, told by the services it
// offers (BlueZ's `Device1.UUIDs`).

/// A protocol headphones speak to tell where they are.
public enum HeadphoneProtocol: String, Sendable, Hashable, CaseIterable {
  /// Apple's accessory protocol: AirPods and Beats, on L2CAP.
  case aap
  /// Samsung's Galaxy Buds protocol, on RFCOMM.
  case galaxyBuds

  /// The protocol a device with these service UUIDs speaks, or nil for
  /// none of them.
  ///
  /// AAP comes first: AirPods also offer the serial port service that the
  /// older Galaxy Buds use.
  ///
  /// - Parameter uuids: The services, 128-bit or as 16-bit aliases of
  ///   the Bluetooth base UUID (`1101`), in any case.
  public init?(serviceUUIDs uuids: some Sequence<String>) {
    let offered = Self.fullUUIDs(uuids)
    if offered.contains(AAP.serviceUUID) {
      self = .aap
    } else if offered.contains(GalaxyBuds.buds2UUID)
      || offered.contains(GalaxyBuds.serialPortUUID)
    {
      self = .galaxyBuds
    } else {
      return nil
    }
  }

  /// The service UUID the host connects to: for Galaxy Buds, the newer
  /// models' own service when offered, else the serial port.
  ///
  /// - Parameter uuids: The device's services.
  public func connectionUUID(among uuids: some Sequence<String>) -> String {
    switch self {
    case .aap: return AAP.serviceUUID
    case .galaxyBuds:
      let offered = Self.fullUUIDs(uuids)
      return offered.contains(GalaxyBuds.buds2UUID)
        ? GalaxyBuds.buds2UUID : GalaxyBuds.serialPortUUID
    }
  }

  /// UUIDs in their 128-bit form, lower case.
  private static func fullUUIDs(_ uuids: some Sequence<String>) -> Set<String> {
    Set(
      uuids.map { uuid in
        let text = uuid.lowercased()
        guard text.count == 4 || text.count == 8 else { return text }
        return String(repeating: "0", count: 8 - text.count) + text
          + "-0000-1000-8000-00805f9b34fb"
      })
  }

  /// Whether headphones with this Device ID (BlueZ's `Modalias`, such as
  /// `bluetooth:v004Cp200Ad0001`) are worn over the ears rather than in
  /// them: AirPods Max (Apple's products 0x200A and 0x201F).
  ///
  /// - Parameter modalias: The Device ID, if known.
  public func isOverEar(modalias: String?) -> Bool {
    guard self == .aap, let modalias = modalias?.lowercased(),
      modalias.hasPrefix("bluetooth:v004cp")
    else { return false }
    let product = modalias.dropFirst("bluetooth:v004cp".count).prefix(4)
    return UInt16(product, radix: 16).map(AAP.overEarProducts.contains)
      ?? false
  }
}
