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
  /// equal to the one kept reuses them, so the cost of a save is one
  /// comparison per record, the changed records' encoding and a copy of
  /// the bytes.
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
      var output = Data()
      output.reserveCapacity(
        accessories.byteCount + registrations.byteCount + 64)
      output.append(contentsOf: #"{"accessories":["#.utf8)
      recordsEncoded += accessories.append(
        registry.accessories, to: &output, encoder: encoder)
      output.append(contentsOf: #"],"registrations":["#.utf8)
      recordsEncoded += registrations.append(
        registry.registrations, to: &output, encoder: encoder)
      output.append(
        contentsOf: #"],"version":\#(StateFile.currentVersion)}"#.utf8)
      output.append(UInt8(ascii: "\n"))
      return output
    }
  }

  /// The encoded records of one kind, by address, and their order.
  private struct RecordCache<Record: Encodable & Hashable & Sendable>:
    Sendable
  {
    private var entries: [BluetoothAddress: (record: Record, bytes: Data)] =
      [:]
    /// The addresses of `entries`, sorted.
    private var order: [BluetoothAddress] = []
    /// The bytes of every entry, for reserving the output.
    private(set) var byteCount = 0

    /// Appends the records, sorted by address, each on a line of its own,
    /// encoding those not kept as they are.
    ///
    /// - Returns: How many records were encoded.
    mutating func append(
      _ records: [BluetoothAddress: Record], to output: inout Data,
      encoder: JSONEncoder
    ) -> Int {
      if order.count != records.count
        || order.contains(where: { records[$0] == nil })
      {
        order = records.keys.sorted()
        entries = entries.filter { records[$0.key] != nil }
        byteCount = entries.values.reduce(0) { $0 + $1.bytes.count }
      }
      var encoded = 0
      for (position, address) in order.enumerated() {
        let record = records[address]!
        let bytes: Data
        if let entry = entries[address], entry.record == record {
          bytes = entry.bytes
        } else {
          // Encoding plain values into JSON cannot fail.
          bytes = try! encoder.encode(record)
          byteCount += bytes.count - (entries[address]?.bytes.count ?? 0)
          entries[address] = (record, bytes)
          encoded += 1
        }
        output.append(contentsOf: position == 0 ? "\n".utf8 : ",\n".utf8)
        output.append(bytes)
      }
      if !order.isEmpty { output.append(UInt8(ascii: "\n")) }
      return encoded
    }
  }
}
