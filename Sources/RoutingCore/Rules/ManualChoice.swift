// Rule `manual-choice`: whether the person's own choice of output stands.

extension DecisionRun {
  /// Rule `manual-choice`: whether the person's own choice stands.
  mutating func respectedManualChoice() -> Int? {
    guard let choice = snapshot.manualChoice else { return nil }
    let judgement = judgeManualChoice(choice)
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
    _ choice: ManualChoice
  ) -> (() -> String)? {
    if policy.manualChoiceRespect == .never {
      return { "the policy never keeps manual choices" }
    }
    guard let index = outputIndex[choice.output], usable[index] else {
      return { "the output is gone or unavailable" }
    }
    return judgeChoiceTime(choice.at)
  }

  /// Returns nil when a choice made at that moment still stands under the
  /// policy's hold and respect, or why it does not; the output's choice
  /// and the input's alike.
  mutating func judgeChoiceTime(_ at: Instant) -> (() -> String)? {
    if policy.manualChoiceRespect == .never {
      return { "the policy never keeps manual choices" }
    }
    let end = at + policy.manualChoiceHoldSeconds
    if policy.manualChoiceHoldSeconds > 0, snapshot.now >= end {
      let hold = policy.manualChoiceHoldSeconds
      return { "the policy holds a choice for \(formatSeconds(hold)) s" }
    }
    if policy.manualChoiceRespect == .untilAccessoryChange,
      let change = latestAccessoryChange(), change.at > at
    {
      let name = accessories[change.accessory].accessory.name
      let when = ago(change.at)
      return { "\(name) changed \(change.what) \(when), after the choice" }
    }
    if policy.manualChoiceHoldSeconds > 0 { remind(at: end) }
    return nil
  }

  func latestAccessoryChange() -> (at: Instant, accessory: Int, what: String)? {
    var latest: (at: Instant, accessory: Int, what: String)?
    for (position, entry) in accessories.enumerated() {
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
