// The decision's vocabulary as the control protocol carries it: the
// explanation, where a call stands, the cards switched for one, and the
// card profiles a change switched. The decision core has its own types
// for these; the daemon converts, so that the protocol (and every client:
// acctl, DaemonAccessoryEngine, ASAccessorySession) does not link the
// core and its policy parser. A value a newer daemon sends that this
// version does not know is kept as it came.

extension RouteReport {
  /// The rule-by-rule account of a decision, as `route.get` with
  /// `explain` carries it.
  public struct Explanation: Sendable, Hashable, Codable {
    /// A verdict on one candidate: `chosen`, `passedOver`, `rejected` or
    /// `waiting`, or one a newer daemon knows; on the wire, its name.
    public struct Verdict: RawRepresentable, Sendable, Hashable, Codable {
      /// The verdict's name on the wire.
      public var rawValue: String
      /// Creates a verdict from its name on the wire.
      public init(rawValue: String) { self.rawValue = rawValue }

      /// The candidate won.
      public static let chosen = Verdict(rawValue: "chosen")
      /// The candidate could have been chosen but another one won.
      public static let passedOver = Verdict(rawValue: "passedOver")
      /// The candidate was ruled out.
      public static let rejected = Verdict(rawValue: "rejected")
      /// The candidate is waiting out a grace time.
      public static let waiting = Verdict(rawValue: "waiting")
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
      public init(
        rule: String, conclusion: String, candidates: [Candidate] = []
      ) {
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
  }

  /// Where a call stands: `none`, `starting`, `active` or `ending`.
  public enum CallPhase: String, Sendable, Hashable, Codable {
    /// No stream makes a call.
    case none
    /// A stream that would make a call has not recorded for the start
    /// delay yet.
    case starting
    /// A call: at least one stream has recorded past the start delay.
    case active
    /// The last stream of a call ended; the end delay runs.
    case ending
  }

  /// A card accessoryd switched for a call, with the profile it gets back.
  public struct CallProfile: Sendable, Hashable, Codable {
    /// The card's name.
    public var card: String
    /// The profile it had before, to give back after the call.
    public var previousProfile: String
    /// The headset profile it was switched to.
    public var callProfile: String

    /// Creates a record.
    public init(card: String, previousProfile: String, callProfile: String) {
      self.card = card
      self.previousProfile = previousProfile
      self.callProfile = callProfile
    }
  }
}

extension RouteEvent {
  /// A card profile a route change switched.
  public struct ProfileSwitch: Sendable, Hashable, Codable {
    /// Why a profile is switched: `output`, `call` or `afterCall`, or one
    /// a newer daemon knows; on the wire, its name.
    public struct Purpose: RawRepresentable, Sendable, Hashable, Codable {
      /// The purpose's name on the wire.
      public var rawValue: String
      /// Creates a purpose from its name on the wire.
      public init(rawValue: String) { self.rawValue = rawValue }

      /// So that an accessory that should play gets an output.
      public static let output = Purpose(rawValue: "output")
      /// For a call: the headset profile, whose microphone the call uses.
      public static let call = Purpose(rawValue: "call")
      /// After a call: the profile the card had before it.
      public static let afterCall = Purpose(rawValue: "afterCall")
    }

    /// The card's name.
    public var card: String
    /// The profile switched to.
    public var profile: String
    /// Why.
    public var purpose: Purpose
    /// For a call, the card's profile before it, to give back after it.
    public var previousProfile: String?

    /// Creates a record of a switch.
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

    /// Reads a switch; the purpose defaults to `output`.
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
}
