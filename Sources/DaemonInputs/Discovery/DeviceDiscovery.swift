// The devices accessoryd can see, joined from its discovery sources: BlueZ
// (advertisements, adapters, pairing state) and the sound server's
// Bluetooth outputs.

import AccessorySetupKit
import ConcurrencyHelpers
import DaemonLifecycle
import FoundationEssentials
import Logging

/// A change to the set of discovered devices.
public enum DiscoveredDeviceChange: Sendable, Hashable {
  /// A device was seen for the first time.
  case added(DiscoveredDevice)
  /// Something about a known device changed: its signal, its name, its
  /// advertisement or its output.
  case changed(DiscoveredDevice)
  /// No source sees the device any more.
  case removed(BluetoothAddress)
}

/// A source of discovered devices: each produces the same record, so the
/// daemon can join them.
public protocol DeviceDiscoverySource: Sendable {
  /// The source's kind, which its records carry in
  /// ``DiscoveredDevice/sources``.
  var kind: DiscoveredDevice.Source { get }

  /// Follows the source until cancelled, reporting every device it sees:
  /// first the whole set, then each change.
  ///
  /// - Parameter report: Receives the source's whole current set of devices
  ///   each time it changes.
  func follow(
    _ report: @escaping @Sendable (_ devices: [DiscoveredDevice]) async -> Void
  ) async throws
}

/// The devices every discovery source sees, joined by address, with a
/// stream of changes for each subscriber.
public actor DeviceDiscovery {
  private var bySource:
    [DiscoveredDevice.Source: [BluetoothAddress: DiscoveredDevice]] =
      [:]
  private var joined: [BluetoothAddress: DiscoveredDevice] = [:]
  private let subscribers: Broadcast<DiscoveredDeviceChange>
  private let sourceWatchers = Broadcast<DiscoveredDevice.Source>(
    bufferingPolicy: .bufferingNewest(16))
  private let logger: Logger
  /// Whether someone follows the changes now (a picker, `acctl pair`, an
  /// app that filters discovery), each time that changes: sources that
  /// must scan to find devices, such as BlueZ, scan only then.
  public nonisolated let scanDemand: AsyncStream<Bool>
  private let scanDemandContinuation: AsyncStream<Bool>.Continuation

  /// Creates an empty table.
  public init(logger: Logger) {
    self.logger = logger
    let (demand, continuation) = AsyncStream.makeStream(
      of: Bool.self, bufferingPolicy: .bufferingNewest(1))
    (scanDemand, scanDemandContinuation) = (demand, continuation)
    subscribers = Broadcast(
      bufferingPolicy: .bufferingNewest(1000),
      demandChanged: { continuation.yield($0) })
  }

  /// Every device some source sees, by address.
  public var devices: [DiscoveredDevice] {
    joined.values.sorted { $0.address < $1.address }
  }

  /// The devices one source sees, as it reports them (not joined with
  /// what the other sources say), by address order.
  public func devices(
    seenBy source: DiscoveredDevice.Source
  ) -> [DiscoveredDevice] {
    (bySource[source] ?? [:]).values.sorted { $0.address < $1.address }
  }

  /// Returns each source whose devices change from now on.
  ///
  /// ``devices(seenBy:)`` tells what the source sees then. Unlike
  /// ``changes()`` it does not make the sources scan, and it tells changes
  /// the joined records hide (BlueZ says a device disconnected while the
  /// sound server still has its output). The stream ends when dropped.
  public nonisolated func sourceUpdates() -> AsyncStream<
    DiscoveredDevice.Source
  > {
    sourceWatchers.subscribe()
  }

  /// The device with this address, if a source sees it.
  public func device(at address: BluetoothAddress) -> DiscoveredDevice? {
    joined[address]
  }

  /// Returns the changes from now on; the stream ends when dropped.
  public nonisolated func changes() -> AsyncStream<DiscoveredDeviceChange> {
    subscribers.subscribe()
  }

  /// Replaces what one source sees, and tells subscribers what changed in
  /// the joined set.
  public func replace(
    _ devices: [DiscoveredDevice], from source: DiscoveredDevice.Source
  ) {
    var table: [BluetoothAddress: DiscoveredDevice] = [:]
    for var device in devices {
      device.sources = [source]
      table[device.address] = device
    }
    let touched = Set(table.keys).union(bySource[source, default: [:]].keys)
    let sourceChanged = bySource[source] != table
    bySource[source] = table
    if sourceChanged {
      sourceWatchers.publish(source)
    }
    var changes: [DiscoveredDeviceChange] = []
    for address in touched.sorted() {
      let records = DiscoveredDevice.Source.allCases.compactMap {
        bySource[$0]?[address]
      }
      let before = joined[address]
      guard let first = records.first else {
        joined[address] = nil
        if before != nil { changes.append(.removed(address)) }
        continue
      }
      let after = records.dropFirst().reduce(first) { $0.merging($1) }
      guard after != before else { continue }
      joined[address] = after
      changes.append(before == nil ? .added(after) : .changed(after))
    }
    guard !changes.isEmpty else { return }
    for change in changes { subscribers.publish(change) }
  }
}

/// The service that runs the discovery sources and keeps a
/// ``DeviceDiscovery`` up to date; a source that fails is logged and
/// leaves the others running.
public struct DiscoveryService: Service {
  /// The service's name.
  public let name = "discovery"
  private let discovery: DeviceDiscovery
  private let sources: [any DeviceDiscoverySource]
  private let logger: Logger

  /// Creates the service.
  public init(
    discovery: DeviceDiscovery, sources: [any DeviceDiscoverySource],
    logger: Logger
  ) {
    self.discovery = discovery
    self.sources = sources
    self.logger = logger
  }

  /// Follows every source until cancelled.
  public func run() async throws {
    await withDiscardingTaskGroup { group in
      for source in sources {
        group.addTask {
          do {
            try await source.follow { devices in
              await discovery.replace(devices, from: source.kind)
            }
          } catch is CancellationError {
          } catch {
            // One line for the system bus: the battery's own attempts
            // log below this level.
            logger.notice(
              source.kind == .bluez
                ? "BlueZ cannot be asked: discovery lists only the sound "
                  + "server's outputs, and the headphones' battery is not "
                  + "given to BlueZ while the system bus does not answer"
                : "A discovery source is unavailable",
              metadata: [
                "discovery.source": source.kind.rawValue,
                "discovery.error": "\(error)",
              ])
          }
          await discovery.replace([], from: source.kind)
        }
      }
    }
  }
}
