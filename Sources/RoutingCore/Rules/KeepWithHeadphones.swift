// Rule `keep-with-headphones`: while worn headphones have the output, a
// device that connects does not take it (connection.keepAudioWithHeadphones).

extension DecisionRun {
  /// Rule `keep-with-headphones`: the headphones that have the output keep
  /// it when another device connects.
  ///
  /// The headphones that have the output are the default (or, when the
  /// sound server gave the default by itself to an output that had just
  /// come, the default before), if they can still play and are worn: a
  /// registered accessory reported worn, or headphones (a Bluetooth
  /// headphone or headset, a wired headphone port) that report no
  /// placement. They keep the output from an accessory that won by
  /// connecting (it reports no placement, or none yet), not by being
  /// worn, after they had the output, and from an output the server made
  /// the default as it came.
  ///
  /// - Parameters:
  ///   - statuses: Each accessory's status, by position.
  ///   - winner: What rule `accessories.choose` chose, if anything.
  /// - Returns: The headphones' output, or nil when the rule does not
  ///   apply.
  mutating func keepWithHeadphones(
    _ statuses: [AccessoryStatus],
    winner: (accessory: Int, output: Int, since: Instant, basis: Basis)?
  ) -> Int? {
    guard policy.keepAudioWithHeadphones else { return nil }
    let takenOnArrival = snapshot.defaultTakenOnArrival.flatMap {
      $0.output == snapshot.defaultOutput ? $0 : nil
    }
    guard
      let holder = (takenOnArrival?.previous ?? snapshot.defaultOutput)
        .flatMap({ outputIndex[$0] }),
      usable[holder], !isForgotten(holder), facts.exclusion(holder) == nil,
      let worn = wornHeadphones(holder, statuses)
    else { return nil }
    let newcomer: String
    let byTheServer: Bool
    if let winner, winner.output != holder {
      guard !wasPutOn(winner) else { return nil }
      // Only one that connected while the headphones had the output: an
      // accessory whose output came back from a dropout takes it back from
      // the server's fallback.
      if takenOnArrival == nil, let since = snapshot.defaultOutputSince,
        winner.since <= since
      {
        return nil
      }
      newcomer = accessories[winner.accessory].accessory.name
      byTheServer = false
    } else if let takenOnArrival {
      // No accessory chose another output (or the headphones' own won):
      // what took the default is the server's switch.
      newcomer = takenOnArrival.output
      byTheServer = true
    } else {
      return nil
    }
    if explaining {
      step(
        "keep-with-headphones",
        "the output stays with the worn headphones \(label(holder)); "
          + "\(newcomer) does not take it",
        [
          .init(
            subject: label(holder), verdict: .chosen,
            reason: "\(worn); connection.keepAudioWithHeadphones is true"),
          .init(
            subject: newcomer, verdict: .passedOver,
            reason: byTheServer
              ? "came, and the sound server made it the default by itself"
              : "connected, and is not reported worn"),
        ])
    }
    return holder
  }

  /// Why an output is worn headphones, or nil when it is not: a
  /// registered accessory reported worn, or headphones whose accessory,
  /// if registered, reports no placement and may keep the output.
  func wornHeadphones(
    _ output: Int, _ statuses: [AccessoryStatus]
  ) -> String? {
    guard let accessory = owner[output] else {
      return outputs[output].isHeadphones
        ? "headphones nobody registered, taken as worn while they have the "
          + "output" : nil
    }
    switch statuses[accessory] {
    case .eligible(_, _, .worn(let placement)):
      return "\(accessories[accessory].accessory.name) is worn "
        + "(\(placement.rawValue))"
    case .eligible(_, _, .connected) where outputs[output].isHeadphones:
      return "\(accessories[accessory].accessory.name), headphones that "
        + "report no placement, taken as worn while they have the output"
    default:
      return nil
    }
  }

  /// Whether an accessory the choice rule chose won by being worn: a
  /// report of being worn is a person putting it on, while one that
  /// reports no placement (or none yet) won only by connecting.
  func wasPutOn(
    _ winner: (accessory: Int, output: Int, since: Instant, basis: Basis)
  ) -> Bool {
    guard case .worn = winner.basis else { return false }
    return true
  }
}
