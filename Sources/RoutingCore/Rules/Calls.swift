// Rule `calls`: whether a call runs, which worn accessory it uses, and the
// card profiles it needs: the headset profile while it runs, the profile
// the card had before once it has ended.

/// Returns the capture streams that make a call under the policy, or
/// will once they have recorded for the start delay.
///
/// A stream counts when it records (it is not corked), is not a peak meter,
/// does not record from the monitor of an output, and has a call role, is
/// from a call application, or the policy counts any capture.
///
/// - Parameters:
///   - snapshot: The inputs and capture streams.
///   - policy: The call roles, applications and `calls.anyCapture`.
/// - Returns: The streams, in the snapshot's order.
public func callStreams(
  in snapshot: Snapshot, policy: Policy
) -> [CaptureStream] {
  let monitors = Set(
    snapshot.inputs.lazy.filter { $0.monitorOf != nil }.map(\.name))
  return snapshot.captureStreams.filter { stream in
    guard !stream.isCorked, !stream.isPeakMeter,
      !monitors.contains(stream.input)
    else { return false }
    if policy.callOnAnyCapture { return true }
    // Roles match without regard to case: PipeWire's own clients say
    // `Communication`, PulseAudio's `phone`.
    if let role = stream.role?.lowercased(),
      policy.callRoles.contains(where: { $0.lowercased() == role })
    {
      return true
    }
    guard let application = stream.application else { return false }
    return policy.callApplications.contains { globMatches($0, application) }
  }
}

/// What the `calls` rule found.
struct CallState {
  /// Where the call stands.
  var phase: CallPhase
  /// The streams that make the call, or will.
  var streams: [CaptureStream]
  /// The worn accessory that has the output, whose microphone a call
  /// uses.
  var accessory: Int?
}

extension DecisionRun {
  /// Rule `calls`: where a call stands and which accessory it uses.
  mutating func assessCall(
    target: Int?, statuses: [AccessoryStatus]
  ) -> CallState {
    let streams = callStreams(in: snapshot, policy: policy)
    let now = snapshot.now
    let delay = policy.callStartDelaySeconds
    let phase: CallPhase
    // A call starts at the very instant its reminder is set for:
    // `since + delay` is compared as it is computed, never as
    // `now - since`, which rounds differently.
    let starts = streams.map { $0.recordingSince + delay }
    if starts.contains(where: { now >= $0 }) {
      phase = .active
    } else if let first = starts.min() {
      phase = .starting
      remind(at: first)
    } else if let ended = snapshot.callEndedAt,
      now < ended + policy.callEndDelaySeconds
    {
      phase = .ending
      remind(at: ended + policy.callEndDelaySeconds)
    } else {
      phase = .none
    }
    // The accessory that has the output: the one the decision chose, or,
    // while it holds (a profile switch), the one that has the default.
    // Only a registered one: the engine knows no card or microphone of
    // headphones nobody registered, and leaves their calls to the server.
    let output = target ?? snapshot.defaultOutput.flatMap { outputIndex[$0] }
    var accessory: Int?
    if let output, let owner = owner[output], isWorn(statuses[owner]),
      accessories[owner].accessory.isRegistered
    {
      accessory = owner
    }
    if explaining { explainCall(phase, streams, accessory, statuses, output) }
    return CallState(phase: phase, streams: streams, accessory: accessory)
  }

  /// Whether a status says the accessory is worn, or eligible without
  /// reporting placement: a headset the person has on.
  func isWorn(_ status: AccessoryStatus) -> Bool {
    let basis: Basis
    switch status {
    case .eligible(_, _, let b), .waitingForOutput(_, _, let b),
      .needsProfile(_, _, _, let b):
      basis = b
    default:
      return false
    }
    switch basis {
    case .worn, .connected: return true
    case .placementUnknown: return false
    }
  }

  /// Rule `calls.profiles`: the headset profile for a call, the profile
  /// from before once it has ended, and the call records that end.
  ///
  /// - Parameters:
  ///   - call: What rule `calls` found.
  ///   - otherInputChosen: Whether the person's own choice of another
  ///     microphone stands: the call does not need the headset's then.
  mutating func requestCallProfiles(
    _ call: CallState, otherInputChosen: Bool
  ) -> (requests: [ProfileRequest], ended: [String]) {
    var requests: [ProfileRequest] = []
    var ended: [String] = []
    var conclusions: [String] = []
    let switched = Set(snapshot.callProfiles.map(\.card))
    if call.phase == .active, policy.callsUseHeadset, otherInputChosen {
      conclusions.append(
        "no headset profile: the person's own choice of microphone stands")
    } else if call.phase == .active, policy.callsUseHeadset,
      let accessory = call.accessory,
      let card = cardOfAccessory[accessory], !switched.contains(card.name)
    {
      let active = card.profiles.first { $0.name == card.activeProfile }
      if active?.isDuplex != true, let headset = headsetProfile(of: card) {
        requests.append(
          ProfileRequest(
            card: card.name, profile: headset, purpose: .call,
            previousProfile: card.activeProfile))
        conclusions.append(
          "switch \(card.name) to '\(headset)' for the call (it has "
            + "'\(card.activeProfile ?? "off")', which has no microphone)")
      }
    }
    if call.phase == .none || !policy.callsUseHeadset {
      for record in snapshot.callProfiles {
        ended.append(record.card)
        guard let card = snapshot.cards.first(where: { $0.name == record.card })
        else {
          conclusions.append("\(record.card) is gone; nothing to give back")
          continue
        }
        guard card.activeProfile == record.callProfile else {
          conclusions.append(
            "leave \(card.name) in '\(card.activeProfile ?? "off")': it "
              + "left '\(record.callProfile)' during the call")
          continue
        }
        let back =
          card.profiles.contains {
            $0.name == record.previousProfile && $0.isAvailable
              && $0.outputCount > 0
          } ? record.previousProfile : bestOutputProfile(of: card)
        // A card already back in the profile it had needs no request.
        guard let back, back != card.activeProfile else { continue }
        requests.append(
          ProfileRequest(card: card.name, profile: back, purpose: .afterCall))
        conclusions.append(
          "give \(card.name) back '\(back)' after the call")
      }
    }
    if explaining, !conclusions.isEmpty {
      step("calls.profiles", conclusions.joined(separator: "; "))
    }
    return (requests, ended)
  }

  /// The card's best headset profile: available, plays and records; the
  /// policy's list first, then by the server's priority, then by name.
  func headsetProfile(of card: Card) -> String? {
    let preference = policy.headsetProfiles
    func rank(_ profile: Card.Profile) -> Int {
      preference.firstIndex(of: profile.name) ?? preference.count
    }
    return card.profiles.filter { $0.isAvailable && $0.isDuplex }
      .min { a, b in
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        if a.priority != b.priority { return a.priority > b.priority }
        return a.name < b.name
      }?.name
  }

  private mutating func explainCall(
    _ phase: CallPhase, _ streams: [CaptureStream], _ accessory: Int?,
    _ statuses: [AccessoryStatus], _ output: Int?
  ) {
    let delaySeconds = policy.callStartDelaySeconds
    let delay = formatSeconds(delaySeconds)
    var candidates: [Explanation.Candidate] = []
    for stream in streams {
      let isCall = snapshot.now >= stream.recordingSince + delaySeconds
      let why =
        "records from \(stream.input) since \(ago(stream.recordingSince))"
        + (stream.role.map { ", role \($0)" } ?? "")
      candidates.append(
        .init(
          subject:
            "capture #\(stream.id) (\(stream.application ?? "unknown"))",
          verdict: isCall ? .chosen : .waiting,
          reason: isCall
            ? why : why + "; a call once it has recorded \(delay) s"))
    }
    let conclusion: String
    switch phase {
    case .none: conclusion = "no call"
    case .starting: conclusion = "a call may be starting"
    case .active: conclusion = "a call"
    case .ending:
      let end =
        (snapshot.callEndedAt ?? snapshot.now)
        + policy.callEndDelaySeconds
      conclusion =
        "the call ended \(ago(snapshot.callEndedAt ?? snapshot.now)); its "
        + "profile and input stay \(formatSeconds(end - snapshot.now)) s more"
    }
    var who = ""
    if phase != .none {
      if let accessory {
        who = "; it uses \(accessories[accessory].accessory.name), worn"
      } else if let output, let owner = owner[output] {
        who =
          "; not \(accessories[owner].accessory.name): "
          + describe(statuses[owner])
      } else {
        who = "; no accessory has the output"
      }
    }
    step("calls", conclusion + who, candidates)
  }
}
