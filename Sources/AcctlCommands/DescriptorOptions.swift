// The discovery descriptor on acctl's command line: Apple's
// ASDiscoveryDescriptor fields as options, or a JSON file with Apple's
// property names as keys.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import CoreBluetooth
import FoundationEssentials
import Glibc
import SystemCalls

/// The descriptor options shared by `acctl discover` and `acctl pair`.
enum DescriptorOptions {
  /// Their definitions, for a command's signature.
  static let definitions: [ArgumentDefinition] = [
    .option(
      "service-uuid", valueName: "uuid",
      abstract: "Match devices that advertise this service (16-bit or "
        + "128-bit UUID)."),
    .option(
      "company-id", valueName: "id",
      abstract: "Match devices with manufacturer data of this company "
        + "(decimal or 0x hex)."),
    .option(
      "name-substring", valueName: "text",
      abstract: "Match devices whose advertised name contains this text."),
    .option(
      "manufacturer-data", valueName: "hex",
      abstract: "Manufacturer data to match, under --manufacturer-mask."),
    .option(
      "manufacturer-mask", valueName: "hex",
      abstract: "Which bits of --manufacturer-data must match."),
    .option(
      "service-data", valueName: "hex",
      abstract: "Service data to match, under --service-data-mask."),
    .option(
      "service-data-mask", valueName: "hex",
      abstract: "Which bits of --service-data must match."),
    .option(
      "range", abstract: "'immediate' for nearby devices only.",
      allValues: ["default", "immediate"]),
    .option(
      "descriptor", valueName: "file",
      abstract: "A JSON file with the descriptor, keys as Apple's "
        + "ASDiscoveryDescriptor properties."
    ).completing(.file),
  ]

  /// Reads the descriptor from the options; nil when none is given.
  ///
  /// - Throws: A parse error naming the bad value, or ``InvalidValue`` for
  ///   a `ValidationError` for a descriptor that breaks Apple's rules.
  static func parse(
    _ arguments: ArgumentCursor
  ) throws -> ASDiscoveryDescriptor? {
    let fieldNames = definitions.map(\.name).filter { $0 != "descriptor" }
    let fromFile = try arguments.value("descriptor", readDescriptorFile)
    guard fromFile != nil || fieldNames.contains(where: arguments.contains)
    else { return nil }
    let descriptor = fromFile ?? ASDiscoveryDescriptor()
    if let uuid = try arguments.value("service-uuid", parseUUID) {
      descriptor.bluetoothServiceUUID = uuid
    }
    if let company = try arguments.value("company-id", parseCompany) {
      descriptor.bluetoothCompanyIdentifier = company
    }
    if let name = arguments.value("name-substring") {
      descriptor.bluetoothNameSubstring = name
    }
    if let blob = try arguments.value("manufacturer-data", parseHex) {
      descriptor.bluetoothManufacturerDataBlob = blob
    }
    if let mask = try arguments.value("manufacturer-mask", parseHex) {
      descriptor.bluetoothManufacturerDataMask = mask
    }
    if let blob = try arguments.value("service-data", parseHex) {
      descriptor.bluetoothServiceDataBlob = blob
    }
    if let mask = try arguments.value("service-data-mask", parseHex) {
      descriptor.bluetoothServiceDataMask = mask
    }
    if arguments.value("range") == "immediate" {
      descriptor.bluetoothRange = .immediate
    }
    do {
      try descriptor.validate()
    } catch {
      throw ValidationError("The descriptor is invalid: \(error)")
    }
    return descriptor
  }
}

private func readDescriptorFile(_ path: String) throws -> ASDiscoveryDescriptor
{
  let file = Errno.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
  guard file >= 0 else {
    throw InvalidValue(description: "cannot read it (\(Errno.current))")
  }
  defer { close(file) }
  guard let bytes = WholeTransfers.readToEnd(file) else {
    throw InvalidValue(description: "cannot read it (\(Errno.current))")
  }
  let data = Data(bytes)
  do {
    return try JSONDecoder().decode(ASDiscoveryDescriptor.self, from: data)
  } catch {
    throw InvalidValue(
      description: "expected a JSON object with ASDiscoveryDescriptor's "
        + "property names as keys (\(error))")
  }
}

private func parseUUID(_ text: String) throws -> CBUUID {
  guard let uuid = CBUUID(validating: text) else {
    throw InvalidValue(
      description: "expected a 16-bit, 32-bit or 128-bit UUID such as "
        + "'110B' or '0000110B-0000-1000-8000-00805F9B34FB'")
  }
  return uuid
}

private func parseCompany(_ text: String) throws -> UInt16 {
  let value =
    text.lowercased().hasPrefix("0x")
    ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
  guard let value, value != 0 else {
    throw InvalidValue(
      description: "expected a company identifier from 1 to 65535, such as "
        + "76 or 0x004C")
  }
  return value
}

private func parseHex(_ text: String) throws -> Data {
  let digits = text.filter { $0 != " " && $0 != ":" }
  var bytes: [UInt8] = []
  var index = digits.startIndex
  while index < digits.endIndex {
    let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex)
    guard let next, let byte = UInt8(digits[index..<next], radix: 16) else {
      throw InvalidValue(
        description: "expected hexadecimal bytes such as '01ff' or '01:ff'")
    }
    bytes.append(byte)
    index = next
  }
  guard !bytes.isEmpty else {
    throw InvalidValue(description: "expected at least one byte")
  }
  return Data(bytes)
}
