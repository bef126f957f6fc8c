// Rule `accessories.choose`: which eligible accessory takes the output.

extension DecisionRun {
  /// Rule `accessories.choose`: the most recently put on (or connected)
  /// eligible accessory wins; ties go to the output priority, then the name.
  mutating func chooseAccessory(
    _ statuses: [AccessoryStatus]
  ) -> (accessory: Int, output: Int, since: Instant, basis: Basis)? {
    var eligible:
      [(accessory: Int, output: Int, since: Instant, basis: Basis)] =
        []
    var newestWaiting = -Instant.infinity
    for (position, status) in statuses.enumerated() {
      switch status {
      case .eligible(let output, let since, let basis):
        eligible.append((position, output, since, basis))
      case .waitingForOutput(_, let since, _):
        newestWaiting = max(newestWaiting, since)
      default:
        continue
      }
    }
    // Outputs are numbered in name order, so the number breaks the last tie.
    eligible.sort { a, b in
      if a.since != b.since { return a.since > b.since }
      if facts.priority(a.output) != facts.priority(b.output) {
        return facts.priority(a.output) > facts.priority(b.output)
      }
      return a.output < b.output
    }
    guard let best = eligible.first else { return nil }
    // An eligible accessory whose output is coming back (a profile switch)
    // wins over an older one: hold rather than switch to the older one.
    if newestWaiting > best.since { return nil }
    if explaining {
      let bestName = accessories[best.accessory].accessory.name
      var candidates: [Explanation.Candidate] = []
      for (position, entry) in eligible.enumerated() {
        let accessory = accessories[entry.accessory].accessory
        let basis = describe(basis: entry.basis, since: entry.since)
        candidates.append(
          .init(
            subject: "\(accessory.name) → \(outputs[entry.output].name)",
            verdict: position == 0 ? .chosen : .passedOver,
            reason: position == 0
              ? "\(basis); the most recent"
              : "\(basis); \(bestName) is more recent or has a higher "
                + "priority"))
      }
      step("accessories.choose", "\(bestName) takes the output", candidates)
    }
    return best
  }

  /// Part of rule `accessories.eligibility`: an accessory registered a
  /// moment ago without a report it needs (its placement, when it reports
  /// placement; else its audio sources) waits for it up to
  /// `connection.firstReportWaitSeconds`, so that a companion that registers
  /// and then reports `offHead`, or "this host is only secondary", never
  /// makes the output jump there and back.
  func awaitingFirstReport(_ accessory: Accessory) -> AccessoryStatus? {
    guard let registeredAt = accessory.registeredAt else { return nil }
    let until = registeredAt + policy.firstReportWaitSeconds
    guard snapshot.now < until else { return nil }
    if accessory.reportsPlacement {
      // A placement is the first report of one that reports placement.
      return accessory.placement == nil
        ? .awaitingFirstReport(until: until, of: .placement) : nil
    }
    if accessory.primarySource == nil, accessory.secondarySource == nil {
      return .awaitingFirstReport(until: until, of: .audioSources)
    }
    return nil
  }
}
