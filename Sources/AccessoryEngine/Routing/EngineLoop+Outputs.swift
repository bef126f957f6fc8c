// The person's own choice of output or input, made or forgotten through a
// request (`acctl output NAME`, `acctl output --forget`): the step decides
// which device the words name; the loop carries it out.

import AccessoryControl
import FoundationEssentials
import Logging
import RoutingCore

extension EngineLoop {
  /// Takes an output or an input as the person's own choice, made now,
  /// as choosing it in the desktop's settings would be.
  ///
  /// The step decides which device the words name; the caller then
  /// routes.
  ///
  /// - Parameter device: The device's name, or its description (any
  ///   case).
  /// - Returns: The device chosen.
  /// - Throws: ``DeviceChoiceError`` when the server is away or no single
  ///   device answers to `device`.
  public func choose(
    _ device: String
  ) throws(DeviceChoiceError) -> ChosenDevice {
    let effects = step(
      .choose(device: device),
      EngineView(
        snapshot: lastSnapshot, server: mirror.map { ServerView(mirror: $0) }))
    var chosen: ChosenDevice?
    for case .routing(let notice) in effects {
      switch notice {
      case .choiceRefused(let error): throw error
      case .deviceChosen(let device): chosen = device
      default: continue
      }
    }
    guard let chosen else { throw .noSoundServer }
    logger.info(
      "The person chose a device with acctl",
      metadata: ["route.device": chosen.name])
    carryOut(effects)
    return chosen
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
