// One brand of headphones that accessoryd reads itself. A brand is a folder
// here with one type that conforms, and one line in
// HeadphoneSources.brands; HeadphoneSources does the rest for every brand
// alike: which devices to read, the retries, the placement, the link table.

import AccessoryBackend
import AccessorySetupKit
import HeadphoneLinks
import HeadphoneProtocols
import Logging

/// How accessoryd opens the link to one brand of headphones.
package protocol HeadphoneReader: Sendable {
  /// The protocol the brand speaks.
  static var reads: HeadphoneProtocol { get }

  /// What the accessory's placement is said to come from when this reader
  /// reports it.
  static var placementSource: PlacementSource { get }

  /// Creates the reader, which logs to `logger`.
  init(logger: Logger)

  /// Opens a link to the headphones at `address` and starts reading it.
  ///
  /// - Parameters:
  ///   - address: The headphones' Bluetooth address.
  ///   - dialect: How the headphones speak the brand's protocol.
  ///   - adapter: The adapter BlueZ connected them through, if known.
  /// - Returns: The link's reports, ending with ``LinkReport/ended(_:)``.
  /// - Throws: ``LinkError`` when the link cannot be opened.
  func open(
    _ address: BluetoothAddress, speaking dialect: HeadphoneDialect,
    from adapter: BluetoothAddress?
  ) async throws(LinkError) -> AsyncStream<LinkReport>

  /// Lets go of what the reader holds beside its links, when the service
  /// stops.
  func close() async
}

extension HeadphoneReader {
  /// Holds nothing beside its links.
  package func close() async {}
}
