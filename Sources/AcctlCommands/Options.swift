// The options several subcommands share, and the checks of the values they
// take: Bluetooth addresses, placements and capabilities.

import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import FoundationEssentials

extension Acctl {
  /// The argument and options that several subcommands declare.
  enum Shared {
    /// The accessory a command acts on.
    static let accessory = ArgumentDefinition.argument(
      "accessory", abstract: "A Bluetooth address or a display name."
    ).completing(.custom(CompletionSource.accessories))

    /// Where the daemon listens.
    static let socket = ArgumentDefinition.option(
      "socket", valueName: "path",
      abstract: "The daemon's socket, instead of $ACCESSORYD_SOCKET or the "
        + "default."
    ).completing(.file)

    /// Asks for JSON instead of text.
    static func json(_ what: String) -> ArgumentDefinition {
      .flag("json", abstract: "Print \(what) as JSON.")
    }

    /// Every placement name, as Apple spells it.
    static let placements = AccessoryControlDevice.Placement.allCases.map(
      \.rawValue)
  }

  /// The options of a command that asks the daemon one thing and prints
  /// the answer: `--json` and `--socket`.
  struct JSONAndSocket {
    /// Whether to print JSON.
    var json: Bool
    /// The daemon's socket.
    var socket: String

    /// Reads the options.
    init(_ arguments: ArgumentCursor) {
      json = arguments.flag("json")
      socket = Acctl.socketPath(arguments)
    }

    /// The options' definitions.
    ///
    /// - Parameter what: What `--json` prints, such as "the path".
    static func signature(printing what: String) -> [ArgumentDefinition] {
      [Shared.json(what), Shared.socket]
    }
  }

  /// The daemon's socket path, from `--socket` or the environment.
  static func socketPath(_ arguments: ArgumentCursor) -> String {
    arguments.value("socket") ?? ControlSocketPath.resolve()
  }

  /// Returns the accessory selector to send: an address in its canonical
  /// form, or the display name as given.
  static func selector(_ text: String) -> String {
    BluetoothAddress(text)?.description ?? text
  }
}

extension StringProtocol {
  /// The text without the spaces and tabs (Unicode's, not line breaks) at
  /// either end.
  var trimmingSpaces: String {
    let isSpace = { (character: Character) in
      character.isWhitespace && !character.isNewline
    }
    return String(
      self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}

/// A value on the command line that does not have the expected form; its
/// description completes `The value 'x' is invalid for '--option': …`.
struct InvalidValue: Error, CustomStringConvertible {
  var description: String
}

/// Parses a Bluetooth address in any letter case, with `:` or `-`.
func parseAddress(_ text: String) throws -> BluetoothAddress {
  guard let address = BluetoothAddress(text) else {
    throw InvalidValue(
      description:
        "expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF'")
  }
  return address
}

/// Reads an accessory selector: a display name as given, or a Bluetooth
/// address; text that is shaped like an address (three or more groups of
/// one or two letters or digits between `:` or `-`) but is not one is
/// refused here, rather than looked up as a name.
func parseAccessory(_ text: String) throws -> String {
  guard BluetoothAddress(text) == nil else { return text }
  let groups = text.split(
    separator: /[:-]/, omittingEmptySubsequences: false)
  let looksLikeAnAddress =
    groups.count >= 3
    && groups.allSatisfy { group in
      (1...2).contains(group.count)
        && group.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  guard !looksLikeAnAddress else {
    throw InvalidValue(
      description:
        "not a Bluetooth address; expected six hexadecimal bytes such as "
        + "'AA:BB:CC:DD:EE:FF', or a display name")
  }
  return text
}

/// Parses a Bluetooth address, or `none` for nil.
func parseAddressOrNone(_ text: String) throws -> BluetoothAddress? {
  guard text != "none" else { return nil }
  guard let address = BluetoothAddress(text) else {
    throw InvalidValue(
      description:
        "expected six hexadecimal bytes such as 'AA:BB:CC:DD:EE:FF', "
        + "or none")
  }
  return address
}

/// Parses a comma-separated list of capability names, in any letter case,
/// with spaces around the commas allowed.
func parseCapabilities(
  _ text: String
) throws -> AccessoryControlDevice.Capabilities {
  let known = AccessoryControlDevice.Capabilities.names
  let expected =
    "expected a comma-separated list of "
    + known.map(\.name).joined(separator: ", ")
  var capabilities: AccessoryControlDevice.Capabilities = []
  for item in text.split(separator: ",", omittingEmptySubsequences: false) {
    let name = item.trimmingSpaces
    guard
      let entry = known.first(where: {
        $0.name.lowercased() == name.lowercased()
      })
    else {
      throw InvalidValue(
        description: text.trimmingSpaces.isEmpty
          ? expected : "'\(name)' is not a capability; \(expected)")
    }
    capabilities.insert(entry.capability)
  }
  return capabilities
}
