// The words of the rules: how statuses, bases and candidates read in an
// explanation. Only an explanation asks for them.

extension DecisionRun {
  mutating func step(
    _ rule: String, _ conclusion: String,
    _ candidates: [Explanation.Candidate] = []
  ) {
    steps.append(
      Explanation.Step(
        rule: rule, conclusion: conclusion, candidates: candidates))
  }

  func subject(of stream: Stream) -> String {
    "stream #\(stream.id) (\(stream.application ?? "unknown"))"
  }

  func verdict(of status: AccessoryStatus) -> Explanation.Verdict {
    switch status {
    case .eligible: .passedOver
    case .waitingForOutput, .needsProfile, .awaitingFirstReport: .waiting
    case .takenOff, .leftAlone, .ineligible: .rejected
    }
  }

  func describe(basis: Basis, since: Instant) -> String {
    switch basis {
    case .worn(let placement):
      "worn (\(placement.rawValue)) since \(ago(since))"
    case .connected:
      since > 0
        ? "connected since \(ago(since)) (does not report placement)"
        : "connected since before accessoryd looked (does not report "
          + "placement)"
    case .placementUnknown:
      "connected, no placement reported yet"
    }
  }

  func describe(_ status: AccessoryStatus) -> String {
    switch status {
    case .eligible(_, let since, let basis):
      return "eligible: \(describe(basis: basis, since: since))"
    case .waitingForOutput(let until, let since, let basis):
      return "waiting: \(describe(basis: basis, since: since)); its output "
        + "left, waiting \(formatSeconds(until - snapshot.now)) s for it to "
        + "come back"
    case .needsProfile(let card, _, let since, let basis):
      let active = cardOfAccessory.first { $0?.name == card }??.activeProfile
      return "waiting: \(describe(basis: basis, since: since)); its card "
        + "\(card) has no output in profile '\(active ?? "off")'"
    case .takenOff(let at):
      return "offHead since \(ago(at))"
    case .awaitingFirstReport(let until, let report):
      let what =
        switch report {
        case .placement: "its placement"
        case .audioSources: "its audio sources"
        }
      return "waiting: registered just now; it takes no output until it "
        + "reports \(what), or for \(formatSeconds(until - snapshot.now)) s"
    case .leftAlone(let reason):
      switch reason {
      case .noAudioSwitching:
        return "left alone: registered without audioSwitching"
      case .placementRequired:
        return "left alone: does not report placement, and the policy "
          + "requires it"
      case .placementUnknown:
        return "left alone: no placement reported yet, and the policy waits "
          + "for one"
      }
    case .ineligible(let reason):
      switch reason {
      case .secondarySourceOnly(let primary):
        return "this host is only its secondary audio source; "
          + "\(primary ?? "another host") is primary"
      case .otherHosts(let primary, let secondary):
        let others = [primary, secondary].compactMap { $0 }
          .joined(separator: ", ")
        return "its audio sources are other hosts (\(others))"
      case .outputUnavailable(let output):
        return "its output \(output) is unavailable"
      case .notConnected:
        return "not connected: it has no output"
      }
    }
  }
}
