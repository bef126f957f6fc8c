// AirPods and Beats: Apple's accessory protocol (AAP) on L2CAP, opened by
// accessoryd from the adapter BlueZ connected them through.

import AccessoryBackend
import AccessorySetupKit
import ConcurrencyHelpers
import HeadphoneLinks
import HeadphoneProtocols
import Logging

/// Reads AirPods over AAP.
struct AirPodsReader: HeadphoneReader {
  static let reads = HeadphoneProtocol.aap
  static let placementSource = PlacementSource.aap

  init(logger: Logger) {}

  func open(
    _ address: BluetoothAddress, speaking dialect: HeadphoneDialect,
    from adapter: BluetoothAddress?
  ) async throws(LinkError) -> AsyncStream<LinkReport> {
    let socket = try await BlockingPool.shared.run(named: "aap.connect") {
      () throws(LinkError) in
      try HeadphoneSocket.connectL2CAP(
        to: address.description, psm: AAP.psm,
        receiveBuffer: AAP.receiveBufferSize, from: adapter?.description)
    }
    return AAPLink.run(on: socket)
  }
}
