// The outputs and inputs as the person sees them (`acctl output`): each
// with why it is the default or what it is, the streams and where they
// play, and the person's own choice, made or forgotten.

import AccessoryControl
import FoundationEssentials
import Logging
import RoutingCore

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

extension EngineLoop {
  /// The outputs and inputs with the default and why, and the playback
  /// streams, as the router last saw them.
  public func audioDevices() -> AudioDevices {
    guard mirror != nil, let latest = lastSnapshot else {
      return AudioDevices(
        soundServer: mirror == nil ? .disconnected : .connected, outputs: [],
        inputs: [], streams: [])
    }
    // The route the loop published: the output's "default" note says why
    // as `acctl route` does.
    let route = board.report(explaining: false)
    let now = clock.now().timeIntervalSince1970
    let names = Dictionary(
      latest.accessories.map { ($0.address, $0) },
      uniquingKeysWith: { a, _ in a })
    func device(
      name: String, description: String, accessory: String?,
      isAvailable: Bool, isDefault: Bool, choice: ManualChoice?,
      defaultWhy: String
    ) -> AudioDevices.Device {
      let owner = accessory.flatMap { names[$0] }
      let isChoice = choice?.output == name
      var notes: [String] = []
      if isDefault { notes.append(defaultWhy) }
      if let choice, isChoice {
        notes.append(
          "your choice \(ElapsedTime.ago(now - choice.at))"
            + (isDefault
              ? "" : ", set aside now (acctl route --explain says why)"))
      }
      if let owner {
        notes.append(
          "belongs to \(owner.name)"
            + (owner.isRegistered ? "" : " (headphones nobody registered)"))
      }
      if !isAvailable { notes.append("unavailable: nothing is plugged in") }
      return AudioDevices.Device(
        name: name, description: description, isDefault: isDefault,
        isPersonsChoice: isChoice, isAvailable: isAvailable,
        accessory: accessory, accessoryName: owner?.name,
        why: notes.joined(separator: "; "))
    }
    let outputs = latest.outputs.map {
      device(
        name: $0.name, description: $0.description, accessory: $0.accessory,
        isAvailable: $0.isAvailable, isDefault: $0.name == route.output,
        choice: latest.manualChoice, defaultWhy: "default: " + route.summary)
    }
    let inputs = latest.inputs.filter {
      $0.monitorOf == nil || $0.name == route.input
        || $0.name == latest.manualInputChoice?.output
    }.map {
      device(
        name: $0.name, description: $0.description, accessory: $0.accessory,
        isAvailable: $0.isAvailable, isDefault: $0.name == route.input,
        choice: latest.manualInputChoice, defaultWhy: "default")
    }
    let muted = Set(
      (mirror?.sinkInputs ?? []).filter(\.isMuted).map(\.index))
    let streams = latest.streams.map {
      AudioDevices.Stream(
        index: $0.id, application: $0.application, output: $0.output,
        isPinned: $0.pinnedBy != nil, isMuted: muted.contains($0.id))
    }
    return AudioDevices(
      soundServer: .connected, outputs: outputs, inputs: inputs,
      streams: streams)
  }

  /// Takes an output or an input as the person's own choice, made now,
  /// as choosing it in the desktop's settings would be; the caller then
  /// routes.
  ///
  /// - Parameter device: The device's name, or its description (any
  ///   case).
  /// - Returns: The device's name, and whether it is an input.
  /// - Throws: ``DeviceChoiceError`` when the server is away or no single
  ///   device answers to `device`.
  public func choose(
    _ device: String
  ) throws(DeviceChoiceError) -> (name: String, isInput: Bool) {
    guard let mirror else { throw .noSoundServer }
    typealias Candidate = (name: String, description: String, isInput: Bool)
    let outputs: [Candidate] = mirror.sinks.map {
      ($0.name, $0.description, false)
    }
    let inputs: [Candidate] = mirror.sources.map {
      ($0.name, $0.description, true)
    }
    let monitors = Set(mirror.sources.filter(\.isMonitor).map(\.name))
    // A name first (a monitor's too, as pavucontrol offers them), then a
    // description among the outputs, then among the inputs (a card's
    // output and input often share one), the monitors last ("Monitor of
    // Speaker", as pavucontrol shows them).
    var matches = (outputs + inputs).filter { $0.name == device }
    for kind in [
      outputs, inputs.filter { !monitors.contains($0.name) },
      inputs.filter { monitors.contains($0.name) },
    ]
    where matches.isEmpty {
      matches = kind.filter {
        $0.description.lowercased() == device.lowercased()
      }
    }
    guard let match = matches.first else {
      throw .unknown(
        device,
        known: (outputs + inputs).map(\.name).filter {
          !monitors.contains($0)
        })
    }
    guard matches.count == 1 else {
      throw .ambiguous(device, names: matches.map(\.name))
    }
    let unavailable =
      match.isInput
      ? lastSnapshot?.inputs.first { $0.name == match.name }?.isAvailable
        == false
      : lastSnapshot?.outputs.first { $0.name == match.name }?.isAvailable
        == false
    if unavailable { throw .unavailable(match.name) }
    let effects = step(.choose(device: match.name, isInput: match.isInput))
    logger.info(
      "The person chose a device with acctl",
      metadata: ["route.device": match.name])
    carryOut(effects)
    return (match.name, match.isInput)
  }

  /// Forgets the person's choices of output and input; the caller then
  /// routes.
  ///
  /// - Returns: The devices that were chosen.
  public func forgetChoices() -> [String] {
    let effects = step(.forgetChoices)
    carryOut(effects)
    for case .routing(.choicesForgotten(let devices)) in effects {
      return devices
    }
    return []
  }

}
