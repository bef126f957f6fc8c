// Which of the protocols here a device speaks, told by the services it
// offers (BlueZ's `Device1.UUIDs`), and for Galaxy Buds by their name and
// Device ID too.

/// A protocol headphones speak to tell where they are.
public enum HeadphoneProtocol: String, Sendable, Hashable, CaseIterable {
  /// Apple's accessory protocol: AirPods and Beats, on L2CAP.
  case aap
  /// Samsung's Galaxy Buds protocol, on RFCOMM.
  case galaxyBuds

  /// The protocol a device speaks, or nil for none of them.
  ///
  /// AAP comes first: AirPods also offer the serial-port service. Galaxy
  /// Buds are told by what only they carry (``GalaxyBudsModel/init(_:)``),
  /// not by the serial-port service many headsets offer.
  ///
  /// - Parameter device: What BlueZ tells of the device.
  public init?(_ device: DeviceIdentity) {
    if device.fullServiceUUIDs.contains(AAP.serviceUUID) {
      self = .aap
    } else if GalaxyBudsModel(device) != nil {
      self = .galaxyBuds
    } else {
      return nil
    }
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

/// How to read one pair of headphones: the protocol, and for Galaxy Buds
/// the model, whose framing and layouts differ.
public enum HeadphoneDialect: Sendable, Hashable {
  /// Apple's accessory protocol.
  case aap
  /// The Galaxy Buds protocol, as this model speaks it.
  case galaxyBuds(GalaxyBudsModel)

  /// How a device is read, or nil for a device accessoryd does not read
  /// (``HeadphoneProtocol/init(_:)``).
  ///
  /// - Parameter device: What BlueZ tells of the device.
  public init?(_ device: DeviceIdentity) {
    switch HeadphoneProtocol(device) {
    case .aap?: self = .aap
    case .galaxyBuds?:
      guard let model = GalaxyBudsModel(device) else { return nil }
      self = .galaxyBuds(model)
    case nil: return nil
    }
  }

  /// The protocol.
  public var `protocol`: HeadphoneProtocol {
    switch self {
    case .aap: .aap
    case .galaxyBuds: .galaxyBuds
    }
  }

  /// The Galaxy Buds' model, or nil for AAP.
  public var galaxyBudsModel: GalaxyBudsModel? {
    if case .galaxyBuds(let model) = self { model } else { nil }
  }
}
