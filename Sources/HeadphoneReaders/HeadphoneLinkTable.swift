// What accessoryd's links to headphones know now: one record per accessory
// it reads, and whether this host can read headphones at all. Written by
// the headphone sources, read by the control methods.

import AccessoryControl
import AccessorySetupKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import HeadphoneProtocols

/// The links accessoryd has to headphones, by accessory address.
public final class HeadphoneLinkTable: Sendable {
  private struct State {
    var links: [BluetoothAddress: HeadphoneLink] = [:]
    var unavailable: String?
  }

  private let state = Mutex(State())

  /// Creates an empty table.
  public init() {}

  /// The link to an accessory, while accessoryd reads it.
  public func link(at address: BluetoothAddress) -> HeadphoneLink? {
    state.withLock { $0.links[address] }
  }

  /// Whether this host can read headphones, and if not, why.
  public var reading: HeadphoneReading {
    state.withLock { state in
      HeadphoneReading(
        reading: state.unavailable == nil, reason: state.unavailable)
    }
  }

  /// Changes the link to an accessory.
  ///
  /// - Returns: The link as it is now, or nil when it did not change.
  func change(
    _ address: BluetoothAddress, _ body: (inout HeadphoneLink?) -> Void
  ) -> HeadphoneLink?? {
    state.withLock { state in
      var link = state.links[address]
      body(&link)
      guard link != state.links[address] else { return nil }
      state.links[address] = link
      return .some(link)
    }
  }

  /// Records that this host cannot read headphones, and why.
  ///
  /// - Returns: Whether this is news.
  func markUnavailable(_ reason: String) -> Bool {
    state.withLock { state in
      defer { state.unavailable = reason }
      return state.unavailable == nil
    }
  }
}

extension HeadphoneLink {
  /// A new link record for a protocol, connecting.
  init(_ spoken: HeadphoneProtocol) {
    self.init(protocolName: spoken.rawValue, state: .connecting)
  }

  /// Takes in what the headphones said.
  mutating func take(_ event: HeadphoneEvent) {
    switch event {
    case .wear(let buds):
      self.buds = buds.map(\.rawValue)
    case .battery(let levels):
      battery = levels.map {
        Battery(
          part: $0.part.rawValue, percent: $0.percent, charging: $0.isCharging)
      }
    }
  }
}
