// What the decision core returns: the actions to apply and why.

/// A playback stream to move to another output.
public struct StreamMove: Sendable, Hashable, Codable {
  /// The stream's index.
  public var stream: UInt32
  /// The output it plays on now.
  public var from: String
  /// The output it should play on.
  public var to: String

  /// Creates a move.
  public init(stream: UInt32, from: String, to: String) {
    self.stream = stream
    self.from = from
    self.to = to
  }
}

/// A card profile to activate.
public struct ProfileRequest: Sendable, Hashable, Codable {
  /// Why a profile is activated.
  public enum Purpose: String, Sendable, Hashable, Codable {
    /// So that an accessory that should play gets an output.
    case output
    /// For a call: the headset profile, whose microphone the call uses.
    /// The service remembers the card's profile before it, to give back.
    case call
    /// After a call: the profile the card had before it.
    case afterCall
  }

  /// The card's name.
  public var card: String
  /// The profile to activate.
  public var profile: String
  /// Why.
  public var purpose: Purpose
  /// For a call, the card's profile now, to give back after it.
  public var previousProfile: String?

  /// Creates a request.
  public init(
    card: String, profile: String, purpose: Purpose = .output,
    previousProfile: String? = nil
  ) {
    self.card = card
    self.profile = profile
    self.purpose = purpose
    self.previousProfile = previousProfile
  }

  private enum CodingKeys: String, CodingKey {
    case card, profile, purpose, previousProfile
  }

  /// Creates a request by decoding it; the purpose defaults to `output`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      card: try c.decode(String.self, forKey: .card),
      profile: try c.decode(String.self, forKey: .profile),
      purpose: try c.decodeIfPresent(Purpose.self, forKey: .purpose)
        ?? .output,
      previousProfile: try c.decodeIfPresent(
        String.self, forKey: .previousProfile))
  }
}

/// Where a call stands, as the decision saw it.
public enum CallPhase: String, Sendable, Hashable, Codable {
  /// No stream makes a call.
  case none
  /// A stream that would make a call has not recorded for the start delay
  /// yet.
  case starting
  /// A call: at least one stream has recorded past the start delay.
  case active
  /// The last stream of a call ended; the end delay runs.
  case ending
}

/// The outcome of one decision: what to change and why.
public struct Decision: Sendable, Hashable, Codable {
  /// The output that should be the default, or `nil` when the decision is
  /// to leave the output as it is (holding, or nothing to choose).
  public var target: String?
  /// The new default output, when it differs from the current one.
  public var defaultChange: String?
  /// The streams to move, ordered by stream index.
  public var moves: [StreamMove]
  /// The card profiles to activate.
  public var profileRequests: [ProfileRequest]
  /// The input that should be the default, or `nil` to leave the input as
  /// it is.
  public var inputTarget: String?
  /// The default input to set: one that differs from the current one, or
  /// the microphone chosen for a call, once, even when the server shows
  /// it as the default already.
  public var defaultInputChange: String?
  /// The input chosen for a call, when the decision chose one: the
  /// service remembers it, to give it back once no call runs, and so that
  /// it is not set again while it stays the call's.
  public var callInput: String?
  /// Where a call stands.
  public var callPhase: CallPhase
  /// The capture streams that make the call, or would once they have
  /// recorded for the start delay, by index.
  public var callStreams: [UInt32]
  /// The cards whose call records end with this decision: given back,
  /// gone, or moved off their call profile by someone else.
  public var endedCallProfiles: [String]
  /// Whether to set ``target``, which the server shows as the default
  /// already, again.
  ///
  /// The server still keeps a registered accessory's output that went as
  /// its configured default, and would make it the default again by
  /// itself when it comes back, before this engine decides. Setting the
  /// default replaces the configured one.
  public var reassertsDefault: Bool
  /// When to decide again even if nothing else changes: the end of a grace
  /// time or of a manual choice's hold; `nil` when no timer is needed.
  public var reconsiderAt: Instant?
  /// Each rule that ran, each candidate it considered, and its verdict.
  public var explanation: Explanation

  /// Creates a decision.
  public init(
    target: String?, defaultChange: String?, moves: [StreamMove],
    profileRequests: [ProfileRequest], inputTarget: String? = nil,
    defaultInputChange: String? = nil, callInput: String? = nil,
    callPhase: CallPhase = .none,
    callStreams: [UInt32] = [], endedCallProfiles: [String] = [],
    reassertsDefault: Bool = false,
    reconsiderAt: Instant?,
    explanation: Explanation
  ) {
    self.target = target
    self.defaultChange = defaultChange
    self.moves = moves
    self.profileRequests = profileRequests
    self.inputTarget = inputTarget
    self.defaultInputChange = defaultInputChange
    self.callInput = callInput
    self.callPhase = callPhase
    self.callStreams = callStreams
    self.endedCallProfiles = endedCallProfiles
    self.reassertsDefault = reassertsDefault
    self.reconsiderAt = reconsiderAt
    self.explanation = explanation
  }

  /// The call's input to remember after this decision: the one it chose
  /// for a call; none once no call runs and the default is not, or no
  /// longer stays, the remembered one; otherwise the one remembered.
  ///
  /// - Parameters:
  ///   - remembered: The input remembered before, chosen for a call.
  ///   - defaultInput: The default input the decision was made on.
  public func callInput(
    after remembered: String?, defaultInput: String?
  ) -> String? {
    if let callInput { return callInput }
    guard callPhase == .none else { return remembered }
    let forgotten = defaultInput != remembered || defaultInputChange != nil
    return forgotten ? nil : remembered
  }

  /// Whether applying the decision changes anything, the service's
  /// records of cards switched for a call included.
  public var hasActions: Bool {
    defaultChange != nil || !moves.isEmpty || !profileRequests.isEmpty
      || defaultInputChange != nil || !endedCallProfiles.isEmpty
      || reassertsDefault
  }
}

/// The ordered account of a decision.
public struct Explanation: Sendable, Hashable, Codable {
  /// A verdict on one candidate.
  public enum Verdict: String, Sendable, Hashable, Codable {
    /// The candidate won.
    case chosen
    /// The candidate could have been chosen but another one won.
    case passedOver
    /// The candidate was ruled out.
    case rejected
    /// The candidate is waiting out a grace time.
    case waiting

    /// The verdict as the explanation's text says it.
    public var words: String {
      switch self {
      case .chosen: "chosen"
      case .passedOver: "passed over"
      case .rejected: "rejected"
      case .waiting: "waiting"
      }
    }
  }

  /// One candidate of a rule: an output, an accessory or a stream.
  public struct Candidate: Sendable, Hashable, Codable {
    /// What the candidate is, such as an output's name.
    public var subject: String
    /// The verdict.
    public var verdict: Verdict
    /// Why, in words.
    public var reason: String

    /// Creates a candidate.
    public init(subject: String, verdict: Verdict, reason: String) {
      self.subject = subject
      self.verdict = verdict
      self.reason = reason
    }
  }

  /// One rule that ran.
  public struct Step: Sendable, Hashable, Codable {
    /// The rule's name, such as `accessories.eligibility`.
    public var rule: String
    /// What the rule concluded.
    public var conclusion: String
    /// The candidates it considered, in a fixed order.
    public var candidates: [Candidate]

    /// Creates a step.
    public init(rule: String, conclusion: String, candidates: [Candidate] = [])
    {
      self.rule = rule
      self.conclusion = conclusion
      self.candidates = candidates
    }
  }

  /// A one-line summary of the decision.
  public var summary: String
  /// The rules in the order they ran.
  public var steps: [Step]

  /// Creates an explanation.
  public init(summary: String, steps: [Step]) {
    self.summary = summary
    self.steps = steps
  }

  /// The explanation as indented text, one line per rule and candidate.
  public var text: String {
    var lines = [summary]
    for (number, step) in steps.enumerated() {
      lines.append("\(number + 1). \(step.rule): \(step.conclusion)")
      for candidate in step.candidates {
        lines.append(
          "   - \(candidate.subject): \(candidate.verdict.words), "
            + candidate.reason)
      }
    }
    return lines.joined(separator: "\n")
  }
}
