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

/// A card profile to activate, so that an accessory gets an output.
public struct ProfileRequest: Sendable, Hashable, Codable {
  /// The card's name.
  public var card: String
  /// The profile to activate.
  public var profile: String

  /// Creates a request.
  public init(card: String, profile: String) {
    self.card = card
    self.profile = profile
  }
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
  /// When to decide again even if nothing else changes: the end of a grace
  /// time or of a manual choice's hold; `nil` when no timer is needed.
  public var reconsiderAt: Instant?
  /// Each rule that ran, each candidate it considered, and its verdict.
  public var explanation: Explanation

  /// Creates a decision.
  public init(
    target: String?, defaultChange: String?, moves: [StreamMove],
    profileRequests: [ProfileRequest], reconsiderAt: Instant?,
    explanation: Explanation
  ) {
    self.target = target
    self.defaultChange = defaultChange
    self.moves = moves
    self.profileRequests = profileRequests
    self.reconsiderAt = reconsiderAt
    self.explanation = explanation
  }

  /// Whether applying the decision changes anything.
  public var hasActions: Bool {
    defaultChange != nil || !moves.isEmpty || !profileRequests.isEmpty
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
          "   - \(candidate.subject): \(candidate.verdict.rawValue), "
            + candidate.reason)
      }
    }
    return lines.joined(separator: "\n")
  }
}
