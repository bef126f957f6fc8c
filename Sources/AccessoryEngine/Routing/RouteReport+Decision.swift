// The decision core's explanation, call phase, call records and profile
// requests in the control protocol's words: the protocol has types of its
// own, so that its clients do not link the core.

import AccessoryControl
import DaemonInputs
import DaemonLifecycle
import RoutingCore

extension RouteReport.Explanation {
  /// The protocol's form of a decision's explanation.
  init(_ explanation: RoutingCore.Explanation) {
    self.init(
      summary: explanation.summary,
      steps: explanation.steps.map { step in
        Step(
          rule: step.rule, conclusion: step.conclusion,
          candidates: step.candidates.map {
            Candidate(
              subject: $0.subject,
              verdict: Verdict(rawValue: $0.verdict.rawValue),
              reason: $0.reason)
          })
      })
  }
}

extension RouteReport.CallPhase {
  /// The protocol's form of where a call stands.
  init(_ phase: RoutingCore.CallPhase) {
    switch phase {
    case .none: self = .none
    case .starting: self = .starting
    case .active: self = .active
    case .ending: self = .ending
    }
  }
}

extension RouteReport.CallProfile {
  /// The protocol's form of a card switched for a call.
  init(_ record: RoutingCore.CallProfile) {
    self.init(
      card: record.card, previousProfile: record.previousProfile,
      callProfile: record.callProfile)
  }
}

extension RouteEvent.ProfileSwitch {
  /// The protocol's form of a card profile a decision requested.
  init(_ request: ProfileRequest) {
    self.init(
      card: request.card, profile: request.profile,
      purpose: Purpose(rawValue: request.purpose.rawValue),
      previousProfile: request.previousProfile)
  }
}
