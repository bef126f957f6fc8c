// accessoryd's own sources of placement. For each paired accessory that
// BlueZ has connected and whose services name a headphone protocol
// accessoryd speaks, one reader opens a link, reads where the buds are and
// how charged they are, and reports the placement on the path a
// companion's update takes. It stops when the accessory disconnects, and
// opens the link again, with a growing pause, while it stays connected.

import AccessoryBackend
import AccessoryControl
import AccessorySetupKit
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import FoundationEssentials
import HeadphoneLinks
import HeadphoneProtocols
import Logging
import RoutingCore

/// The service that reads headphones over Bluetooth and reports their
/// placement, battery and link.
public actor HeadphoneSources: Service {
  /// `headphones`.
  public nonisolated let name = "headphones"

  /// The brands accessoryd reads, one reader each: a new brand is a
  /// folder beside `AirPods/` and one line here.
  package static let brands: [any HeadphoneReader.Type] = [
    AirPodsReader.self,
    GalaxyBudsReader.self,
  ]

  /// The protocols accessoryd reads so far.
  public static let readProtocols = Set(brands.map { $0.reads })

  /// The first pause before a link is opened again; each failure in a
  /// row doubles it, up to ``longestRetryPause``.
  public static let firstRetryPause = Duration.seconds(1)
  /// The longest pause between two attempts.
  public static let longestRetryPause = Duration.seconds(30)

  private let discovery: DeviceDiscovery
  private let methods: any HeadphoneReports
  private let links: HeadphoneLinkTable
  private let events: EventHub
  private let logger: Logger
  /// One reader per brand, by the protocol it reads.
  private let readers: [HeadphoneProtocol: any HeadphoneReader]
  /// The links being read, by accessory.
  private var running: [BluetoothAddress: Reader] = [:]

  private struct Reader {
    var spoken: HeadphoneDialect
    var task: Task<Void, Never>
  }

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - discovery: The devices BlueZ sees, with their services and
  ///     whether they are connected.
  ///   - methods: The control methods, whose update and register paths the
  ///     readers' reports take.
  ///   - links: Where the links' state is kept for the control methods.
  ///   - events: Where link changes are published, and accessory changes
  ///     are heard.
  ///   - logger: Where links are logged.
  public init(
    discovery: DeviceDiscovery, methods: any HeadphoneReports,
    links: HeadphoneLinkTable, events: EventHub, logger: Logger
  ) {
    self.discovery = discovery
    self.methods = methods
    self.links = links
    self.events = events
    self.logger = logger
    readers = Dictionary(
      uniqueKeysWithValues: Self.brands.map {
        ($0.reads, $0.init(logger: logger))
      })
  }

  /// Follows devices and registrations until cancelled, then stops every
  /// reader.
  public func run() async throws {
    let updates = discovery.sourceUpdates()
    let published = events.subscribe()
    await settle()
    await withDiscardingTaskGroup { group in
      group.addTask { [weak self] in
        for await source in updates where source == .bluez {
          await self?.settle()
        }
      }
      group.addTask { [weak self] in
        // Who is paired and registered, and how, decides what is read; a
        // placement update (the readers' own, mostly) changes neither.
        for await published in published {
          guard case .accessory(let event) = published.event,
            event.change != .updated
          else { continue }
          await self?.settle()
        }
      }
    }
    let stopping = running
    running = [:]
    for reader in readers.values { await reader.close() }
    // Not awaited: a reader may wait up to the connect timeout on its
    // thread, longer than a service may take to stop. Cancelled, it ends
    // its link as soon as the connect returns.
    for (address, reader) in stopping {
      reader.task.cancel()
      publish(address, links.change(address) { $0 = nil })
    }
  }

  // MARK: - Which accessories are read

  /// Starts a reader for each accessory that should be read and stops the
  /// others.
  private func settle() async {
    var wanted: [BluetoothAddress: HeadphoneDialect] = [:]
    let registry = methods.engine.registry
    // BlueZ's own word on each device: a sound server's output of the
    // same address does not make it connected.
    let devices = await discovery.devices(seenBy: .bluez)
    for device in devices {
      if let spoken = Self.protocolToRead(device, in: registry) {
        wanted[device.address] = spoken
      }
    }
    for (address, reader) in running where wanted[address] != reader.spoken {
      reader.task.cancel()
      running[address] = nil
      publish(address, links.change(address) { $0 = nil })
      logger.info(
        "Stopped reading the headphones",
        metadata: ["accessory": "\(address)"])
    }
    for (address, spoken) in wanted where running[address] == nil {
      let device = devices.first { $0.address == address }
      let overEar = spoken.protocol.isOverEar(modalias: device?.modalias)
      running[address] = Reader(
        spoken: spoken,
        task: Task { [weak self] in
          await self?.read(address, spoken, overEar: overEar)
        })
      var metadata: Logger.Metadata = [
        "accessory": "\(address)", "protocol": "\(spoken.protocol.rawValue)",
      ]
      if let model = spoken.galaxyBudsModel {
        metadata["model"] = "\(model.rawValue)"
      }
      logger.info("Reading the headphones", metadata: metadata)
    }
  }

  /// How accessoryd reads a device, or nil when it does not read it:
  /// BlueZ must say it is connected; it must be paired with accessoryd,
  /// not registered with `placementSource: none`, and speak a protocol
  /// read here.
  package static func protocolToRead(
    _ device: DiscoveredDevice, in registry: AccessoryRegistry
  ) -> HeadphoneDialect? {
    guard device.isConnected,
      registry.accessories[device.address] != nil,
      registry.registrations[device.address]?.readsHeadphones != false,
      let spoken = HeadphoneDialect(device.headphoneIdentity),
      readProtocols.contains(spoken.protocol)
    else { return nil }
    return spoken
  }

  // MARK: - One reader

  /// Opens the link and reads it until cancelled, opening it again after
  /// each end with a growing pause.
  private func read(
    _ address: BluetoothAddress, _ spoken: HeadphoneDialect, overEar: Bool
  ) async {
    // protocolToRead picks only protocols a brand reads.
    guard let reader = readers[spoken.protocol] else { return }
    var pause = Self.firstRetryPause
    if let reason = links.reading.reason {
      publish(
        address,
        links.change(address) {
          $0 = HeadphoneLink(spoken.protocol)
          $0?.state = .unavailable
          $0?.message = reason
        })
      return
    }
    while !Task.isCancelled {
      publish(
        address, links.change(address) { $0 = HeadphoneLink(spoken.protocol) })
      let ended: LinkError?
      do throws(LinkError) {
        let adapter = await discovery.device(at: address)?.adapter
        let reports = try await reader.open(
          address, speaking: spoken, from: adapter)
        ended = await follow(
          reports, of: address, from: type(of: reader).placementSource,
          overEar: overEar,
          answered: { pause = Self.firstRetryPause })
      } catch {
        ended = error
      }
      guard !Task.isCancelled else { return }
      if ended == .noBluetoothSockets {
        let reason =
          "this kernel has no Bluetooth sockets (AF_BLUETOOTH), so "
          + "accessoryd cannot read headphones itself; companions' updates "
          + "still work"
        if links.markUnavailable(reason) { logger.error("\(reason)") }
        publish(
          address,
          links.change(address) {
            $0?.state = .unavailable
            $0?.message = reason
          })
        return
      }
      let why = ended.map { "\($0)" } ?? "the headphones closed the link"
      publish(
        address,
        links.change(address) {
          $0?.state = .retrying
          $0?.message = "\(why); trying again in \(pause)"
        })
      logger.info(
        "The link to the headphones ended",
        metadata: [
          "accessory": "\(address)", "reason": "\(why)",
          "retry.in": "\(pause)",
        ])
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, Self.longestRetryPause)
    }
  }

  /// Takes a link's reports until it ends or the reader is cancelled.
  ///
  /// - Returns: Why the link ended, nil when the other side closed it.
  private func follow(
    _ reports: AsyncStream<LinkReport>, of address: BluetoothAddress,
    from source: PlacementSource, overEar: Bool,
    answered: () -> Void
  ) async -> LinkError? {
    for await report in reports {
      switch report {
      case .event(let event):
        answered()
        // The route first: the link's record and its event can wait.
        if case .wear(let buds) = event {
          await applyPlacement(
            buds, of: address, from: source, overEar: overEar)
        }
        publish(
          address,
          links.change(address) {
            $0?.state = .connected
            $0?.message = nil
            $0?.take(event)
          })
      case .skipped(let why):
        logger.debug(
          "Skipped a packet from the headphones",
          metadata: ["accessory": "\(address)", "reason": "\(why)"])
      case .noAnswer(let message):
        logger.warning(
          "\(message)", metadata: ["accessory": "\(address)"])
        publish(
          address,
          links.change(address) {
            $0?.state = .noAnswer
            $0?.message = message
          })
      case .ended(let error):
        return error
      }
    }
    return nil
  }

  /// Reports where the buds are as the accessory's placement: registers
  /// it first if it is paired and not registered.
  private func applyPlacement(
    _ buds: [BudPosition], of address: BluetoothAddress,
    from source: PlacementSource, overEar: Bool
  ) async {
    let rule = methods.policies.policy.earbudsWorn
    let placement = AccessoryControlDevice.Placement(
      buds: buds, wornWhen: rule, overEar: overEar)
    do {
      let registration = methods.engine.registry.registrations[address]
      if registration == nil || registration?.isInvalidated == true {
        if try await methods.registerFromHeadphones(
          address, placement: placement, by: source)
        {
          logger.notice(
            "Registered headphones accessoryd reads",
            metadata: [
              "accessory": "\(address)", "placement": "\(placement)",
            ])
        }
        return
      }
      guard
        registration?.configuration.deviceCapabilities.contains(.placement)
          == true
      else { return }
      try await methods.report(placement, of: address, by: source)
      logger.info(
        "The headphones report their placement",
        metadata: [
          "accessory": "\(address)", "placement": "\(placement)",
          "buds": "\(buds.map(\.rawValue).joined(separator: ","))",
        ])
    } catch {
      logger.error(
        "The headphones' placement could not be applied: \(error)",
        metadata: ["accessory": "\(address)"])
    }
  }

  /// Publishes a link's change, if it changed.
  private func publish(_ address: BluetoothAddress, _ change: HeadphoneLink??) {
    guard let link = change else { return }
    events.publish(
      .headphones(HeadphoneLinkEvent(address: address.description, link: link))
    )
  }
}

extension AccessoryControlDevice.Placement {
  /// The placement buds in these positions stand for: worn under the
  /// policy's rule, `inEar` (`onHead` for over-ear headphones); else
  /// `offHead`.
  ///
  /// - Parameters:
  ///   - buds: Where each bud is.
  ///   - rule: `placement.earbudsWorn`.
  ///   - overEar: Whether the headphones are worn over the ears.
  package init(
    buds: [BudPosition], wornWhen rule: Policy.EarbudsWorn, overEar: Bool
  ) {
    let worn: Bool =
      switch rule {
      case .either: WearRule.either.isWorn(buds)
      case .both: WearRule.both.isWorn(buds)
      }
    self = worn ? (overEar ? .onHead : .inEar) : .offHead
  }
}

extension DiscoveredDevice {
  /// What BlueZ tells of the device that says which headphones it is.
  package var headphoneIdentity: DeviceIdentity {
    DeviceIdentity(
      serviceUUIDs: serviceUUIDs.map(\.uuidString), name: name ?? alias,
      modalias: modalias)
  }
}
