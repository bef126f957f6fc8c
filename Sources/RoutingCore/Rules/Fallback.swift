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
      guard usable[index] else { return false }
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
            reason: current == nil
              ? "gone"
              : "cannot play, or belongs to an accessory that may not play"))
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
}
