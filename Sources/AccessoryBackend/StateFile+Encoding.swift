// Linux addition: the state file's encoding, kept from one save to the
// next, so that a change to one accessory re-encodes that accessory, not
// the thousand beside it.

import AccessorySetupKit
import FoundationEssentials

extension StateFile {
  /// Encodes registries into the state file's contents, re-encoding only
  /// the records that changed since its last use.
  ///
  /// The contents are compact JSON with sorted keys, one record a line,
  /// records sorted by address: version 1, read by every accessoryd that
  /// reads version 1. Each record is kept with its encoded bytes; a record
  /// equal to the one kept reuses them. Given the records of the addresses
  /// that changed, it compares and encodes only those, and copies the
  /// bytes of the others; given a whole registry, it compares every
  /// record.
  ///
  /// - Important: An encoder is not shared: the engine keeps one under the
  ///   lock its saves take.
  public struct IncrementalEncoder: Sendable {
    /// How many records this encoder has encoded since it was created;
    /// records reused from the last use are not counted.
    public private(set) var recordsEncoded = 0

    private var accessories = RecordCache<AccessoryRegistry.PairedAccessory>()
    private var registrations = RecordCache<AccessoryRegistry.Registration>()

    /// Creates an encoder that has encoded nothing yet.
    public init() {}

    /// Returns the file's contents for a registry.
    ///
    /// - Parameter registry: The registry to encode.
    /// - Returns: The contents, ending with a newline.
    public mutating func encode(_ registry: AccessoryRegistry) -> Data {
      let encoder = StateFile.makeRecordEncoder()
      recordsEncoded += accessories.replace(
        with: registry.accessories, encoder: encoder)
      recordsEncoded += registrations.replace(
        with: registry.registrations, encoder: encoder)
      return contents()
    }

    /// Returns the file's contents for the registry this encoder last
    /// encoded, changed at some addresses: only their records are compared
    /// and encoded.
    ///
    /// - Parameter changes: The records of each changed address as they
    ///   now are; an address whose records are the ones kept may be among
    ///   them.
    /// - Returns: The contents, ending with a newline.
    public mutating func encode(
      changing changes: [BluetoothAddress: AccessoryRegistry.Records]
    ) -> Data {
      let encoder = StateFile.makeRecordEncoder()
      for (address, records) in changes {
        recordsEncoded += accessories.set(
          records.accessory, at: address, encoder: encoder)
        recordsEncoded += registrations.set(
          records.registration, at: address, encoder: encoder)
      }
      return contents()
    }

    /// The file's contents for the records kept.
    ///
    /// Assembled in an array, each record's bytes one copy, and made
    /// `Data` once: appending to `Data` piece by piece costs more than
    /// the copy.
    private func contents() -> Data {
      var output: [UInt8] = []
      output.reserveCapacity(
        accessories.byteCount + registrations.byteCount
          + 2 * (accessories.count + registrations.count) + 64)
      output.append(contentsOf: #"{"accessories":["#.utf8)
      accessories.append(to: &output)
      output.append(contentsOf: #"],"registrations":["#.utf8)
      registrations.append(to: &output)
      output.append(
        contentsOf: #"],"version":\#(StateFile.currentVersion)}"#.utf8)
      output.append(UInt8(ascii: "\n"))
      return Data(output)
    }
  }

  /// The encoded records of one kind, sorted by address.
  private struct RecordCache<Record: Encodable & Hashable & Sendable>:
    Sendable
  {
    /// A record and its encoding.
    private struct Entry: Sendable {
      var address: BluetoothAddress
      var record: Record
      var bytes: [UInt8]
    }

    /// The records and their encoding, sorted by address.
    private var entries: [Entry] = []
    /// The position of each address in `entries`.
    private var positions: [BluetoothAddress: Int] = [:]
    /// The bytes of every entry, for reserving the output.
    private(set) var byteCount = 0
    /// How many records are kept.
    var count: Int { entries.count }

    /// Encodes a record; encoding plain values into JSON cannot fail.
    private static func encode(
      _ record: Record, _ encoder: JSONEncoder
    ) -> [UInt8] {
      [UInt8](try! encoder.encode(record))
    }

    /// Keeps exactly `records`, encoding those not kept as they are.
    ///
    /// - Returns: How many records were encoded.
    mutating func replace(
      with records: [BluetoothAddress: Record], encoder: JSONEncoder
    ) -> Int {
      var encoded = 0
      let kept = positions
      let old = entries
      entries = records.keys.sorted().map { address in
        let record = records[address]!
        if let position = kept[address], old[position].record == record {
          return old[position]
        }
        encoded += 1
        return Entry(
          address: address, record: record,
          bytes: Self.encode(record, encoder))
      }
      reindex()
      return encoded
    }

    /// Keeps `record` for `address`, or none if it is nil.
    ///
    /// - Returns: How many records were encoded: 0 or 1.
    mutating func set(
      _ record: Record?, at address: BluetoothAddress, encoder: JSONEncoder
    ) -> Int {
      switch (record, positions[address]) {
      case (nil, nil):
        return 0
      case (nil, let position?):
        entries.remove(at: position)
        reindex()
        return 0
      case (let record?, let position?):
        guard entries[position].record != record else { return 0 }
        let bytes = Self.encode(record, encoder)
        byteCount += bytes.count - entries[position].bytes.count
        entries[position].record = record
        entries[position].bytes = bytes
        return 1
      case (let record?, nil):
        let position =
          entries.firstIndex { $0.address > address } ?? entries.endIndex
        entries.insert(
          Entry(
            address: address, record: record,
            bytes: Self.encode(record, encoder)),
          at: position)
        reindex()
        return 1
      }
    }

    /// Works out `positions` and `byteCount` again after entries came or
    /// went.
    private mutating func reindex() {
      positions = Dictionary(
        uniqueKeysWithValues: entries.enumerated().map {
          ($0.element.address, $0.offset)
        })
      byteCount = entries.reduce(0) { $0 + $1.bytes.count }
    }

    /// Appends the records, each on a line of its own.
    func append(to output: inout [UInt8]) {
      for (position, entry) in entries.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: entry.bytes)
      }
      if !entries.isEmpty { output.append(UInt8(ascii: "\n")) }
    }
  }
}
