// Rule `manual-choice`: whether the person's own choice of output stands.

extension DecisionRun {
  /// Rule `manual-choice`: whether the person's own choice stands.
  ///
  /// - Parameter statuses: Each accessory's status, by position.
  mutating func respectedManualChoice(_ statuses: [AccessoryStatus]) -> Int? {
    guard let choice = snapshot.manualChoice else { return nil }
    let judgement = judgeManualChoice(choice, statuses)
    if explaining {
      let respected = judgement == nil
      step(
        "manual-choice",
        respected
          ? "respect the choice of \(label(outputIndex[choice.output]!))"
          : "set aside the choice of \(choice.output)",
        [
          .init(
            subject: choice.output, verdict: respected ? .chosen : .rejected,
            reason: "chosen \(ago(choice.at))"
              + (judgement.map { "; \($0())" } ?? ""))
        ])
    }
    return judgement == nil ? outputIndex[choice.output] : nil
  }

  /// Returns nil when the choice stands, or why it does not.
  mutating func judgeManualChoice(
    _ choice: ManualChoice, _ statuses: [AccessoryStatus]
  ) -> (() -> String)? {
    if policy.manualChoiceRespect == .never {
      return { "the policy never keeps manual choices" }
    }
    guard let index = outputIndex[choice.output], usable[index] else {
      return { "the output is gone or unavailable" }
    }
    let holders = Set([owner[index]].compactMap { $0 })
    return judgeChoiceTime(choice.at, statuses, holders: holders)
  }

  /// Returns nil when a choice made at that moment still stands under the
  /// policy's hold and respect, or why it does not; the output's choice
  /// and the input's alike.
  ///
  /// Under `untilAccessoryChange`, only a change of an accessory that
  /// holds the device or wants the output sets the choice aside: headphones
  /// taken off that play nothing leave the person's speakers alone.
  ///
  /// - Parameters:
  ///   - at: When the choice was made.
  ///   - statuses: Each accessory's status, by position.
  ///   - holders: The accessory whose device is the choice, if any. (Not
  ///     the current default's: which device is the default depends on
  ///     the decisions made since, and the choice must stand or not
  ///     whatever they were.)
  mutating func judgeChoiceTime(
    _ at: Instant, _ statuses: [AccessoryStatus], holders: Set<Int>
  ) -> (() -> String)? {
    if policy.manualChoiceRespect == .never {
      return { "the policy never keeps manual choices" }
    }
    let end = at + policy.manualChoiceHoldSeconds
    if policy.manualChoiceHoldSeconds > 0, snapshot.now >= end {
      let hold = policy.manualChoiceHoldSeconds
      return { "the policy holds a choice for \(formatSeconds(hold)) s" }
    }
    if policy.manualChoiceRespect == .untilAccessoryChange,
      let change = latestAccessoryChange(among: {
        holders.contains($0) || wantsOutput($0, statuses[$0])
      }), change.at > at
    {
      let name = accessories[change.accessory].accessory.name
      let when = ago(change.at)
      return { "\(name) changed \(change.what) \(when), after the choice" }
    }
    if policy.manualChoiceHoldSeconds > 0 { remind(at: end) }
    return nil
  }

  /// Whether an accessory wants the output: it may take it, or is
  /// connected (its card is there) and would once its output appears,
  /// which a profile it waits for makes.
  func wantsOutput(_ position: Int, _ status: AccessoryStatus) -> Bool {
    switch status {
    case .eligible, .waitingForOutput, .needsProfile: true
    case .ineligible(.notConnected): cardOfAccessory[position] != nil
    default: false
    }
  }

  /// The latest change of placement or connection among some accessories.
  func latestAccessoryChange(
    among isConsidered: (Int) -> Bool
  ) -> (at: Instant, accessory: Int, what: String)? {
    var latest: (at: Instant, accessory: Int, what: String)?
    for (position, entry) in accessories.enumerated()
    where isConsidered(position) {
      let accessory = entry.accessory
      if accessory.placementChangedAt > (latest?.at ?? -.infinity) {
        latest = (accessory.placementChangedAt, position, "placement")
      }
      if accessory.connectionChangedAt > (latest?.at ?? -.infinity) {
        latest = (accessory.connectionChangedAt, position, "connection")
      }
    }
    return latest
  }
}
