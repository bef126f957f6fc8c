// Rule `outputs`: which outputs can play, and which the policy excludes.

extension DecisionRun {
  /// Rule `outputs`: which outputs can play, and which the policy excludes.
  mutating func explainOutputs() {
    guard explaining else { return }
    var candidates: [Explanation.Candidate] = []
    for (position, output) in outputs.enumerated() {
      if !usable[position] {
        candidates.append(
          .init(
            subject: output.name, verdict: .rejected,
            reason: "unavailable: its port "
              + "'\(output.activePort ?? "")' is unplugged"))
      } else if let rule = facts.exclusion(position) {
        candidates.append(
          .init(
            subject: output.name, verdict: .passedOver,
            reason: "excluded by the policy's rule \(rule + 1) "
              + "(used only when nothing else can play)"))
      } else {
        candidates.append(
          .init(
            subject: output.name, verdict: .passedOver,
            reason: "available, priority \(facts.priority(position))"))
      }
    }
    let count = usable.filter { $0 }.count
    step(
      "outputs", "\(count) of \(outputs.count) outputs can play", candidates)
  }
}
