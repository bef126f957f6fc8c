// Which Galaxy Buds a device is, as far as reading them differs: the 2019
// Buds frame their messages differently and report one wear state for
// both buds; from the Buds2 on, the buds say whether each part charges, at
// a place in their full status that depends on the model and its firmware.
//
// Told by what only Samsung's buds carry (read, not copied, from
// GalaxyBudsClient's DeviceSpecHelper, Uuids and the device specifications,
// timschneeb/GalaxyBudsClient on GitHub): the 2019 Buds' own serial-port
// service, the service of the Buds2 and later, and the names Samsung gives
// its buds. Many other headsets (Bose, Shokz, QCY, …) offer the plain
// serial-port service, so that service alone says nothing.

/// What BlueZ tells of a device that says which headphones it is.
public struct DeviceIdentity: Sendable, Hashable {
  /// The services it offers (BlueZ's `UUIDs`), 128-bit or as 16-bit
  /// aliases of the Bluetooth base UUID, in any case.
  public var serviceUUIDs: [String]
  /// The name it gives itself (BlueZ's `Name`, else its `Alias`).
  public var name: String?
  /// Its Device ID (BlueZ's `Modalias`, such as `bluetooth:v0075p0101d0001`).
  public var modalias: String?

  /// Creates an identity.
  ///
  /// - Parameters:
  ///   - serviceUUIDs: The services.
  ///   - name: The device's name.
  ///   - modalias: The Device ID, when BlueZ has one.
  public init(
    serviceUUIDs: [String], name: String? = nil, modalias: String? = nil
  ) {
    self.serviceUUIDs = serviceUUIDs
    self.name = name
    self.modalias = modalias
  }

  /// The services in their 128-bit form, lower case.
  var fullServiceUUIDs: Set<String> {
    Set(
      serviceUUIDs.map { uuid in
        let text = uuid.lowercased()
        guard text.count == 4 || text.count == 8 else { return text }
        return String(repeating: "0", count: 8 - text.count) + text
          + "-0000-1000-8000-00805f9b34fb"
      })
  }

  /// The maker the Device ID names, as the source of the ID numbers it
  /// (`bluetooth:` for the Bluetooth SIG's, `usb:` for the USB-IF's) and
  /// the vendor number; nil without a Device ID or with one not read.
  var vendor: (source: String, id: UInt16)? {
    guard let modalias = modalias?.lowercased(),
      let colon = modalias.firstIndex(of: ":")
    else { return nil }
    let source = String(modalias[..<colon])
    let rest = modalias[modalias.index(after: colon)...]
    guard rest.hasPrefix("v"), rest.count >= 5,
      let id = UInt16(rest.dropFirst().prefix(4), radix: 16)
    else { return nil }
    return (source, id)
  }

  /// Whether the Device ID names Samsung (0x0075 among the Bluetooth
  /// SIG's numbers, 0x04E8 among the USB-IF's), or nil without one.
  var isSamsung: Bool? {
    guard let vendor else { return nil }
    switch vendor.source {
    case "bluetooth": return vendor.id == 0x0075
    case "usb": return vendor.id == 0x04E8
    default: return false
    }
  }
}

/// A model of Galaxy Buds, as far as reading them differs.
public enum GalaxyBudsModel: String, Sendable, Hashable, CaseIterable {
  /// The 2019 Galaxy Buds (SM-R170): frames of their own, one wear state.
  case buds = "Galaxy Buds"
  /// Galaxy Buds+.
  case budsPlus = "Galaxy Buds+"
  /// Galaxy Buds Live.
  case budsLive = "Galaxy Buds Live"
  /// Galaxy Buds Pro.
  case budsPro = "Galaxy Buds Pro"
  /// Galaxy Buds2.
  case buds2 = "Galaxy Buds2"
  /// Galaxy Buds2 Pro.
  case buds2Pro = "Galaxy Buds2 Pro"
  /// Galaxy Buds FE.
  case budsFE = "Galaxy Buds FE"
  /// Galaxy Buds Core.
  case budsCore = "Galaxy Buds Core"
  /// Galaxy Buds3.
  case buds3 = "Galaxy Buds3"
  /// Galaxy Buds3 Pro.
  case buds3Pro = "Galaxy Buds3 Pro"
  /// Galaxy Buds3 FE.
  case buds3FE = "Galaxy Buds3 FE"
  /// Galaxy Buds4.
  case buds4 = "Galaxy Buds4"
  /// Galaxy Buds4 Pro.
  case buds4Pro = "Galaxy Buds4 Pro"
  /// Buds2 or later renamed by their owner: they offer the service of the
  /// Buds2 and later, and their name no longer says which they are. Read
  /// as those, without the charging bits, whose place differs by model.
  case laterRenamed = "Galaxy Buds2 or later"

  /// The Galaxy Buds a device is, or nil for a device that is none.
  ///
  /// - The 2019 Buds' own serial-port service makes them those.
  /// - The service of the Buds2 and later makes them Galaxy Buds; their
  ///   name says which, or they were renamed (``laterRenamed``).
  /// - The plain serial-port service counts only with a name Samsung
  ///   gives its buds, the model and a code (`Galaxy Buds+ (7808)`): the
  ///   Buds+, Live and Pro cannot be renamed, and many other headsets
  ///   offer that service.
  ///
  /// A Device ID of another maker than Samsung rules a device out, so that
  /// a headset named after the buds is not read as them.
  ///
  /// - Parameter device: What BlueZ tells of the device.
  public init?(_ device: DeviceIdentity) {
    if device.isSamsung == false { return nil }
    let offered = device.fullServiceUUIDs
    let named = Self.named(device.name)
    if offered.contains(GalaxyBuds.legacySerialPortUUID) {
      self = .buds
    } else if offered.contains(GalaxyBuds.buds2UUID) {
      self = named.flatMap { $0.hasOwnService ? $0 : nil } ?? .laterRenamed
    } else if offered.contains(GalaxyBuds.serialPortUUID),
      let named, let name = device.name, name.hasPrefix("Galaxy Buds"),
      name.contains(" (")
    {
      self = named
    } else {
      return nil
    }
  }

  /// The model whose name a device's name carries, as Samsung names its
  /// buds (`Galaxy Buds2 Pro (DAC1)`), or nil.
  ///
  /// The longest name that fits wins, so that `Buds2 Pro` is not read as
  /// `Buds2`.
  static func named(_ name: String?) -> Self? {
    guard let name else { return nil }
    return allCases.compactMap { model in
      model.nameMark.map { (model, $0) }
    }
    .filter { name.contains($0.1) }
    .max { $0.1.count < $1.1.count }?.0
  }

  /// What a name carries for this model: the text GalaxyBudsClient looks
  /// for, so that both read the same devices alike.
  private var nameMark: String? {
    switch self {
    case .buds: "Galaxy Buds ("
    case .budsPlus: "Galaxy Buds+ ("
    case .budsLive: "Buds Live"
    case .budsPro: "Buds Pro"
    case .buds2: "Buds2"
    case .buds2Pro: "Buds2 Pro"
    case .budsFE: "Buds FE"
    case .budsCore: "Buds Core"
    case .buds3: "Buds3"
    case .buds3Pro: "Buds3 Pro"
    case .buds3FE: "Buds3 FE"
    case .buds4: "Buds4"
    case .buds4Pro: "Buds4 Pro"
    case .laterRenamed: nil
    }
  }

  /// Whether the model offers the service of the Buds2 and later.
  var hasOwnService: Bool {
    switch self {
    case .buds, .budsPlus, .budsLive, .budsPro: false
    default: true
    }
  }

  /// The service the host connects to: the 2019 Buds' own serial port,
  /// the service of the Buds2 and later, or the plain serial port.
  public var connectionUUID: String {
    switch self {
    case .buds: GalaxyBuds.legacySerialPortUUID
    case .budsPlus, .budsLive, .budsPro: GalaxyBuds.serialPortUUID
    default: GalaxyBuds.buds2UUID
    }
  }

  /// Whether the buds offer their manager on the plain serial port, which
  /// they may offer in several records (the Buds+, Live and Pro): the
  /// host then reads their records to pick the manager's.
  public var servesOnPlainSerialPort: Bool {
    connectionUUID == GalaxyBuds.serialPortUUID
  }

  /// The RFCOMM channel of the buds' manager among several records.
  ///
  /// When their SDP records offer the model's service in more than one
  /// record, the manager's is the one Samsung names so (`GEARMANAGER`,
  /// `GEARMANAGER3`), else the first not named `FACTORY`. Nil when one
  /// record offers it, or none says which: then BlueZ's choice, the first,
  /// stands.
  ///
  /// - Parameter records: The records that offer the model's service.
  public func managerChannel(among records: [SDPServiceRecord]) -> UInt8? {
    let service = SDPUUID(connectionUUID)
    let offering = records.filter { record in
      record.rfcommChannel != nil
        && record.serviceClasses.contains { uuid in
          service.map(uuid.isSame(as:)) ?? false
        }
    }
    guard offering.count > 1 else { return nil }
    let manager =
      offering.first { $0.name?.uppercased().hasPrefix("GEARMANAGER") == true }
      ?? offering.first { $0.name?.uppercased().hasPrefix("FACTORY") != true }
    return manager?.rfcommChannel
  }

  /// How the model frames its messages.
  public var framing: GalaxyBudsFraming {
    self == .buds ? .legacy : .standard
  }

  /// Where the full status (EXTENDED_STATUS_UPDATED) carries the charging
  /// bits, and from which revision of it on; nil for the models without
  /// them, and for buds whose model is not known.
  ///
  /// The same revision decides whether byte 7 of a status update is the
  /// charging bits.
  var chargingInFullStatus: (index: Int, fromRevision: Int)? {
    switch self {
    case .buds2: (36, 10)
    case .buds2Pro: (43, 11)
    case .budsFE, .budsCore, .buds3FE: (43, 0)
    case .buds3, .buds3Pro, .buds4, .buds4Pro: (42, 0)
    case .buds, .budsPlus, .budsLive, .budsPro, .laterRenamed: nil
    }
  }
}
