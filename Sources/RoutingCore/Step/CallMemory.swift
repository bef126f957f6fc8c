// What the call rules remember between decisions: the cards switched to a
// headset profile, when the last call ended, and the input made the
// default for it.

/// What the call rules remember between decisions.
public struct CallMemory: Sendable, Hashable {
  /// The cards switched to a headset profile for a call, with the profile
  /// each gets back after it.
  public var profiles: [CallProfile] = []
  /// When the last call's streams ended, kept until a call runs again.
  public var endedAt: Instant?
  /// Whether a call ran at the last decision: its streams' end starts the
  /// end delay.
  public var running = false
  /// Whether streams that would make a call recorded at the last decision:
  /// the end delay runs from the last one's end.
  public var streamsRecorded = false
  /// The input made the default for a call, to give back; forgotten again
  /// when the server refused to set it, so that the next decision sets it
  /// again.
  public var input: String?

  /// Creates an empty memory.
  public init() {}

  /// Follows the call before a decision: once its streams are all gone,
  /// the end delay runs from now, also when streams that would have made
  /// a call came and went during it; a call that runs again ends it.
  mutating func note(_ snapshot: Snapshot, _ policy: Policy) {
    let streams = callStreams(in: snapshot, policy: policy)
    let delay = policy.callStartDelaySeconds
    if streams.contains(where: { snapshot.now >= $0.recordingSince + delay }) {
      running = true
      endedAt = nil
    } else if streams.isEmpty, running || (endedAt != nil && streamsRecorded) {
      running = false
      endedAt = snapshot.now
    }
    streamsRecorded = !streams.isEmpty
  }

  /// Follows the decision: the records of cards gone, or moved off their
  /// call profile by someone else, end with it; those given back end once
  /// the server took the profile (see ``record(_:)``).
  mutating func follow(_ decision: Decision, defaultInput: String?) {
    let givenBack = Set(
      decision.profileRequests.filter { $0.purpose == .afterCall }.map(\.card))
    let ended = Set(decision.endedCallProfiles).subtracting(givenBack)
    profiles.removeAll { ended.contains($0.card) }
    input = decision.callInput(after: input, defaultInput: defaultInput)
  }

  /// Keeps the records of the cards switched for a call as the server
  /// answered.
  ///
  /// A card switched for a call is remembered with the profile it had; a
  /// card given back is forgotten; a give-back the server refused keeps
  /// its record, to be tried again. A call's input the server refused is
  /// forgotten, so that the next decision sets it again.
  mutating func record(_ answer: RouteAnswer) {
    for (request, switched) in zip(answer.profiles, answer.profilesSwitched)
    where switched {
      if request.purpose == .afterCall {
        profiles.removeAll { $0.card == request.card }
      }
      guard request.purpose == .call, let previous = request.previousProfile
      else { continue }
      profiles.removeAll { $0.card == request.card }
      profiles.append(
        CallProfile(
          card: request.card, previousProfile: previous,
          callProfile: request.profile))
    }
    if let refused = answer.refusedCallInput { input = refused.before }
  }
}

/// What the sound server answered to a route: its card profiles and the
/// call's input for the call rules, its defaults and moves for routing.
public struct RouteAnswer: Sendable, Hashable {
  /// The input the server refused to make the default, when it was the
  /// call's: the call's input remembered before the decision.
  public struct RefusedCallInput: Sendable, Hashable {
    /// The call's input remembered before the decision.
    public var before: String?

    /// Creates a refusal.
    public init(before: String?) { self.before = before }
  }

  /// The profile requests sent, in order.
  public var profiles: [ProfileRequest]
  /// Whether the server switched each, in the same order.
  public var profilesSwitched: [Bool]
  /// The call's input the server refused, if it did.
  public var refusedCallInput: RefusedCallInput?
  /// What the server did with the route's defaults and moves, for
  /// routing's memory; nil when only the profiles and the input matter.
  public var routing: RouteConclusion?

  /// Creates an answer.
  public init(
    profiles: [ProfileRequest], profilesSwitched: [Bool],
    refusedCallInput: RefusedCallInput? = nil,
    routing: RouteConclusion? = nil
  ) {
    self.profiles = profiles
    self.profilesSwitched = profilesSwitched
    self.refusedCallInput = refusedCallInput
    self.routing = routing
  }
}
