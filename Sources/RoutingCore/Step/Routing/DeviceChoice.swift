// Which device a person means by a name or a description (`acctl output
// NAME`): the server's outputs and inputs by name, then by description
// (outputs, inputs, monitors last); refused when none answers, several do,
// or it is unplugged. Part of routing's step: pure.

import SoundServerModel

/// Why a device could not be taken as the person's choice.
public enum DeviceChoiceError: Error, Sendable, Hashable,
  CustomStringConvertible
{
  /// accessoryd has no sound server now.
  case noSoundServer
  /// No output or input has that name or description.
  case unknown(String, known: [String])
  /// More than one device has that description.
  case ambiguous(String, names: [String])
  /// The device cannot play or record: nothing is plugged into it.
  case unavailable(String)

  /// The reason in words, naming the device asked for and what is
  /// expected.
  public var description: String {
    switch self {
    case .noSoundServer:
      "accessoryd has no sound server now (it connects again by itself "
        + "once the server is back); choose the device then"
    case .unknown(let device, let known):
      "'\(device)' is not an output or input of the sound server; expected "
        + "one of: \(known.joined(separator: ", ")) (acctl output lists them)"
    case .ambiguous(let device, let names):
      "'\(device)' describes more than one device: "
        + "\(names.joined(separator: ", ")); give its name"
    case .unavailable(let device):
      "'\(device)' is unavailable: nothing is plugged into it; plug it in "
        + "first, or choose another"
    }
  }
}

/// A device the person chose: its name, and whether it is an input.
public struct ChosenDevice: Sendable, Hashable {
  /// The device's name on the sound server.
  public var name: String
  /// Whether it is an input (a source), not an output.
  public var isInput: Bool

  /// Creates a chosen device.
  public init(name: String, isInput: Bool) {
    self.name = name
    self.isInput = isInput
  }
}

extension RoutingRules {
  /// The device a person's words name, among the outputs and inputs of a
  /// state of the server.
  ///
  /// - Parameters:
  ///   - device: A name, or a description in any case.
  ///   - mirror: The server's state; nil while it is away.
  ///   - snapshot: The last snapshot, for whether the device is plugged
  ///     in.
  /// - Returns: The device, or why none is taken.
  static func device(
    named device: String, on mirror: ServerMirror?, snapshot: Snapshot?
  ) -> Result<ChosenDevice, DeviceChoiceError> {
    guard let mirror else { return .failure(.noSoundServer) }
    let outputs = mirror.sinks.map {
      (
        device: ChosenDevice(name: $0.name, isInput: false),
        description: $0.description
      )
    }
    let inputs = mirror.sources.map {
      (
        device: ChosenDevice(name: $0.name, isInput: true),
        description: $0.description
      )
    }
    let monitors = Set(mirror.sources.filter(\.isMonitor).map(\.name))
    // A name first (a monitor's too, as pavucontrol offers them), then a
    // description among the outputs, then among the inputs (a card's
    // output and input often share one), the monitors last ("Monitor of
    // Speaker", as pavucontrol shows them).
    var matches = (outputs + inputs).filter { $0.device.name == device }
    for kind in [
      outputs, inputs.filter { !monitors.contains($0.device.name) },
      inputs.filter { monitors.contains($0.device.name) },
    ]
    where matches.isEmpty {
      matches = kind.filter {
        $0.description.lowercased() == device.lowercased()
      }
    }
    guard let match = matches.first?.device else {
      return .failure(
        .unknown(
          device,
          known: (outputs + inputs).map(\.device.name).filter {
            !monitors.contains($0)
          }))
    }
    guard matches.count == 1 else {
      return .failure(.ambiguous(device, names: matches.map(\.device.name)))
    }
    let unavailable =
      match.isInput
      ? snapshot?.inputs.first { $0.name == match.name }?.isAvailable
        == false
      : snapshot?.outputs.first { $0.name == match.name }?.isAvailable
        == false
    return unavailable ? .failure(.unavailable(match.name)) : .success(match)
  }
}
