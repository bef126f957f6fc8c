// Rule `fallback`: without an accessory, the output a person would pick.

extension DecisionRun {
  /// Rule `fallback`: without an accessory, keep a good current output,
  /// else return to the most recent previous one, else take the best by
  /// policy priority; excluded outputs only when nothing else exists.
  mutating func fallback(_ statuses: [AccessoryStatus]) -> Int? {
    /// Whether the output may be used; `keeping` allows the output of an
    /// accessory that is left alone, which may stay but is not switched to.
    func claimable(
      _ index: Int, allowExcluded: Bool, keeping: Bool = false
    ) -> Bool {
      guard usable[index], !isForgotten(index) else { return false }
      if let accessory = owner[index] {
        let status = statuses[accessory]
        if !(keeping ? status.mayKeepOutput : status.isEligible) {
          return false
        }
      }
      return allowExcluded || facts.exclusion(index) == nil
    }
    let current = snapshot.defaultOutput.flatMap { outputIndex[$0] }
    let history = snapshot.outputHistory.compactMap { outputIndex[$0] }
    var choice: (output: Int, why: String)?
    for allowExcluded in [false, true] where choice == nil {
      if let current,
        claimable(current, allowExcluded: allowExcluded, keeping: true)
      {
        choice = (current, "the current output can still play")
      } else if let previous = history.first(where: {
        claimable($0, allowExcluded: allowExcluded)
      }) {
        choice = (previous, "back to the output used before")
      } else if let best = outputs.indices.filter({
        owner[$0] == nil && outputs[$0].accessory == nil
          && claimable($0, allowExcluded: allowExcluded)
      }).min(by: { a, b in
        facts.priority(a) != facts.priority(b)
          ? facts.priority(a) > facts.priority(b) : a < b
      }) {
        choice = (best, "the best output by the policy's priorities")
      }
      if choice != nil, allowExcluded {
        choice!.why += ", although the policy excludes it: nothing else exists"
      }
    }
    if explaining {
      var candidates: [Explanation.Candidate] = []
      if let name = snapshot.defaultOutput, choice?.output != current {
        candidates.append(
          .init(
            subject: name, verdict: .rejected,
            reason: current.map { whyNotKept($0, statuses) } ?? "gone"))
      }
      if let choice {
        candidates.append(
          .init(
            subject: outputs[choice.output].name, verdict: .chosen,
            reason: choice.why))
      }
      step(
        "fallback",
        choice.map { "use \(label($0.output))" } ?? "nothing to use",
        candidates)
    }
    return choice?.output
  }

  /// Whether an output is an accessory's the person unpaired.
  func isForgotten(_ index: Int) -> Bool {
    guard !snapshot.forgottenAccessories.isEmpty,
      let address = outputs[index].accessory.map(normalizedAddress)
    else { return false }
    return snapshot.forgottenAccessories.contains {
      normalizedAddress($0) == address
    }
  }

  /// Why the fallback does not keep the current output, in the person's
  /// words: the real reason, not a list of possible ones.
  func whyNotKept(_ index: Int, _ statuses: [AccessoryStatus]) -> String {
    if !usable[index] {
      return "cannot play: its port '\(outputs[index].activePort ?? "")' "
        + "is unplugged"
    }
    if isForgotten(index) {
      return "its accessory was unpaired"
    }
    if let accessory = owner[index], !statuses[accessory].mayKeepOutput {
      let name = accessories[accessory].accessory.name
      return "it is \(name)'s, which may not play: "
        + describe(statuses[accessory])
    }
    if let rule = facts.exclusion(index) {
      return "the policy's rule \(rule + 1) of outputs.exclude uses such "
        + "outputs (displays, in the shipped policies) only when nothing "
        + "else can play"
    }
    return "cannot play"
  }
}
