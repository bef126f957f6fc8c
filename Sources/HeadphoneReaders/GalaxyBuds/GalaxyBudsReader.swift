// Samsung's Galaxy Buds: their frames on RFCOMM. Where the buds serve their
// manager on a plain serial port among several records, accessoryd reads
// their SDP records and connects the manager's channel itself; otherwise
// BlueZ connects the service and hands the socket over (HandedOverLinks).

import AccessoryBackend
import AccessorySetupKit
import ConcurrencyHelpers
import HeadphoneLinks
import HeadphoneProtocols
import Logging

/// Reads Galaxy Buds over RFCOMM.
struct GalaxyBudsReader: HeadphoneReader {
  static let reads = HeadphoneProtocol.galaxyBuds
  static let placementSource = PlacementSource.galaxyBuds

  private let logger: Logger
  /// The RFCOMM links BlueZ opens for the buds and hands over.
  private let handedOver: HandedOverLinks

  init(logger: Logger) {
    self.logger = logger
    handedOver = HandedOverLinks(logger: logger)
  }

  func open(
    _ address: BluetoothAddress, speaking dialect: HeadphoneDialect,
    from adapter: BluetoothAddress?
  ) async throws(LinkError) -> AsyncStream<LinkReport> {
    // HeadphoneSources hands each reader only the dialects of its
    // protocol.
    guard let model = dialect.galaxyBudsModel else {
      preconditionFailure("GalaxyBudsReader opened for \(dialect)")
    }
    if let channel = await managerChannel(of: address, model, from: adapter) {
      let socket = try await BlockingPool.shared.run(
        named: "galaxy-buds.connect"
      ) { () throws(LinkError) in
        try HeadphoneSocket.connectRFCOMM(
          to: address.description, channel: channel,
          from: adapter?.description)
      }
      return GalaxyBudsLink.run(on: socket, model: model)
    }
    let socket = try await handedOver.connect(
      model.connectionUUID, of: address)
    return GalaxyBudsLink.run(on: socket, model: model)
  }

  func close() async {
    await handedOver.close()
  }

  /// The RFCOMM channel of the buds' manager when they offer their
  /// service in several records (``GalaxyBudsModel/managerChannel(among:)``),
  /// read from their SDP server; nil to let BlueZ connect the service, as
  /// when the records cannot be read.
  private func managerChannel(
    of address: BluetoothAddress, _ model: GalaxyBudsModel,
    from adapter: BluetoothAddress?
  ) async -> UInt8? {
    guard model.servesOnPlainSerialPort,
      let service = SDPUUID(model.connectionUUID)?.shortest
    else { return nil }
    do {
      let records = try await BlockingPool.shared.run(named: "sdp.search") {
        () throws(LinkError) in
        try SDPClient.records(
          offering: service, at: address.description,
          from: adapter?.description)
      }
      let channel = model.managerChannel(among: records)
      logger.info(
        "Read the headphones' service records",
        metadata: [
          "accessory": "\(address)", "sdp.records": "\(records.count)",
          "rfcomm.channel": "\(channel.map(String.init) ?? "BlueZ's choice")",
        ])
      return channel
    } catch {
      logger.info(
        "Could not read the headphones' service records; BlueZ picks the "
          + "record",
        metadata: ["accessory": "\(address)", "reason": "\(error)"])
      return nil
    }
  }
}
