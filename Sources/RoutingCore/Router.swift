// The decision core: small named rules that run in a fixed order, read the
// snapshot and the policy, and write candidates, verdicts and actions. It is
// a pure function: no clock, no I/O, no globals.
//
// The rules keep their findings as small values (AccessoryStatus, Basis)
// and turn them into words only when an explanation is asked for, so that
// deciding is cheap on the hot path and explaining is exact: the same
// snapshot and policy always give the same decision.

/// Decides where audio should play.
///
/// Deciding is a pure function of its arguments: calling it again with the
/// same snapshot and policy gives the same decision. The routing service
/// decides without an explanation on its hot path and calls again with
/// `explaining: true` when someone asks why.
///
/// - Parameters:
///   - snapshot: Everything the decision depends on.
///   - policy: The settings that tune the rules.
///   - explaining: Whether to write the explanation; without it the
///     explanation is empty and everything else is identical.
/// - Returns: The target output, the stream moves, any card profile
///   requests, when to decide again, and the explanation.
public func decide(
  _ snapshot: Snapshot, _ policy: Policy, explaining: Bool = true
) -> Decision {
  var run = DecisionRun(
    snapshot: snapshot, policy: policy, explaining: explaining)
  return run.decide()
}

/// What makes an eligible accessory eligible.
enum Basis: Hashable {
  /// It reports that it is worn.
  case worn(Accessory.Placement)
  /// It does not report placement; it is eligible while connected.
  case connected
  /// It reports placement but has not reported one yet.
  case placementUnknown
}

/// Whether, and why, an accessory may take the output.
enum AccessoryStatus: Hashable {
  case eligible(output: Int, since: Instant, basis: Basis)
  case waitingForOutput(until: Instant, since: Instant, basis: Basis)
  case needsProfile(card: String, profile: String, since: Instant, basis: Basis)
  case takenOff(at: Instant)
  /// Just registered, and still waiting for a first report it needs: its
  /// placement, or its audio sources. It takes no output until then.
  case awaitingFirstReport(until: Instant, of: FirstReport)
  /// Not switched to or from automatically: the engine leaves its output
  /// alone.
  case leftAlone(LeftAloneReason)
  /// Must not play here: another host's, or without a usable output.
  case ineligible(IneligibleReason)

  enum FirstReport: Hashable {
    case placement
    case audioSources
  }

  enum LeftAloneReason: Hashable {
    case noAudioSwitching
    case placementRequired
    case placementUnknown
  }

  enum IneligibleReason: Hashable {
    case secondarySourceOnly(primary: String?)
    case otherHosts(String?, String?)
    case outputUnavailable(String)
    case notConnected
  }

  var isEligible: Bool {
    switch self {
    case .eligible, .waitingForOutput, .needsProfile: true
    case .takenOff, .awaitingFirstReport, .leftAlone, .ineligible: false
    }
  }

  /// Whether the accessory's output may stay the default.
  var mayKeepOutput: Bool {
    switch self {
    case .takenOff, .ineligible: false
    default: true
    }
  }
}

/// The state of one decision while its rules run.
///
/// Outputs and accessories are numbered once, sorted by name and address,
/// and the rules work on those numbers: a decision hashes each name once.
struct DecisionRun {
  let snapshot: Snapshot
  let policy: Policy
  let explaining: Bool
  /// The outputs, sorted by name, without duplicates.
  let outputs: [Output]
  /// The position of each output by name.
  let outputIndex: [String: Int]
  /// Whether each output can play.
  let usable: [Bool]
  /// Each output's priority and exclusion under the policy, worked out
  /// when a rule first needs them.
  let facts: PolicyFacts
  /// The position of the registered accessory each output belongs to.
  let owner: [Int?]
  /// The registered accessories, sorted by normalized address.
  let accessories: [(address: String, accessory: Accessory)]
  /// The positions of each accessory's outputs, sorted by name.
  let outputsOfAccessory: [[Int]]
  /// The first card by name of each accessory.
  let cardOfAccessory: [Card?]
  /// This host's addresses, normalized; a handful, so a list.
  let hostAddresses: [String]
  var steps: [Explanation.Step] = []
  var reconsiderAt: Instant?

  init(snapshot: Snapshot, policy: Policy, explaining: Bool) {
    self.snapshot = snapshot
    self.policy = policy
    self.explaining = explaining

    // Sorted by address; of two records with one address, the first given
    // counts (the sort is stable).
    var accessories: [(address: String, accessory: Accessory)] = []
    for entry in snapshot.accessories.map({
      (address: normalizedAddress($0.address), accessory: $0)
    }).sorted(by: { $0.address < $1.address })
    where accessories.last?.address != entry.address {
      accessories.append(entry)
    }
    var accessoryIndex: [String: Int] = [:]
    for (position, entry) in accessories.enumerated() {
      accessoryIndex[entry.address] = position
    }
    self.accessories = accessories

    var outputIndex: [String: Int] = [:]
    var outputs: [Output] = []
    for output in snapshot.outputs.sorted(by: { $0.name < $1.name })
    where outputIndex[output.name] == nil {
      outputIndex[output.name] = outputs.count
      outputs.append(output)
    }
    self.outputs = outputs
    self.outputIndex = outputIndex
    self.usable = outputs.map(\.isAvailable)
    self.facts = PolicyFacts(outputs: outputs, policy: policy)
    var outputsOfAccessory = [[Int]](repeating: [], count: accessories.count)
    self.owner = outputs.enumerated().map { position, output in
      guard let address = output.accessory,
        let index = accessoryIndex[normalizedAddress(address)]
      else { return nil }
      outputsOfAccessory[index].append(position)
      return index
    }
    self.outputsOfAccessory = outputsOfAccessory
    var cards = [Card?](repeating: nil, count: accessories.count)
    for card in snapshot.cards {
      guard let address = card.accessory,
        let index = accessoryIndex[normalizedAddress(address)]
      else { continue }
      if let known = cards[index], known.name <= card.name { continue }
      cards[index] = card
    }
    self.cardOfAccessory = cards
    self.hostAddresses = snapshot.hostAddresses.map(normalizedAddress)
  }

  // MARK: - The rules, in order

  mutating func decide() -> Decision {
    explainOutputs()
    let statuses = checkAccessories()
    let profileRequests = requestProfiles(statuses)
    let target: Int?
    let summary: (DecisionRun) -> String
    if let manual = respectedManualChoice() {
      target = manual
      summary = { "Output \($0.label(manual)): the person's own choice" }
    } else {
      let winner = chooseAccessory(statuses)
      if let hold = holdForGrace(statuses, winnerSince: winner?.since) {
        target = nil
        summary = { _ in "No change: \(hold())" }
      } else if let winner {
        target = winner.output
        let accessory = accessories[winner.accessory].accessory
        summary = {
          "Output \($0.label(winner.output)): \(accessory.name) is "
            + $0.describe(basis: winner.basis, since: winner.since)
        }
      } else {
        target = fallback(statuses)
        summary = { run in
          target.map {
            "Output \(run.label($0)): no accessory wants the output"
          } ?? "No output: nothing can play"
        }
      }
    }
    let moves = planMoves(target: target, statuses: statuses)
    let targetName = target.map { outputs[$0].name }
    let defaultChange = targetName == snapshot.defaultOutput ? nil : targetName
    var explanation = Explanation(summary: "", steps: [])
    if explaining {
      step(
        "default",
        defaultChange.map { _ in "set the default to \(label(target!))" }
          ?? (target.map { "the default is already \(label($0))" }
            ?? "leave the default as it is"))
      var text = summary(self)
      if !moves.isEmpty {
        text += "; \(moves.count) stream\(moves.count == 1 ? "" : "s") move"
      }
      explanation = Explanation(summary: text, steps: steps)
    }
    return Decision(
      target: targetName,
      defaultChange: defaultChange,
      moves: moves,
      profileRequests: profileRequests,
      reconsiderAt: reconsiderAt,
      explanation: explanation)
  }

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
              + "(used only if nothing else exists)"))
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

  /// Rule `accessories.eligibility`: which registered accessories may take
  /// the output now, and since when.
  mutating func checkAccessories() -> [AccessoryStatus] {
    let statuses = accessories.indices.map { eligibility(of: $0) }
    for case .awaitingFirstReport(let until, _) in statuses {
      remind(at: until)
    }
    guard explaining else { return statuses }
    var candidates: [Explanation.Candidate] = []
    for (position, entry) in accessories.enumerated() {
      let status = statuses[position]
      candidates.append(
        .init(
          subject: "\(entry.accessory.name) (\(entry.address))",
          verdict: verdict(of: status), reason: describe(status)))
    }
    let eligible = statuses.filter(\.isEligible).count
    step(
      "accessories.eligibility",
      "\(eligible) of \(accessories.count) registered accessories may take "
        + "the output", candidates)
    return statuses
  }

  func eligibility(of index: Int) -> AccessoryStatus {
    let accessory = accessories[index].accessory
    // An accessory that is off the head must not play, whatever else holds.
    if accessory.reportsPlacement, accessory.placement == .offHead {
      return .takenOff(at: accessory.placementChangedAt)
    }
    guard accessory.audioSwitching else { return .leftAlone(.noAudioSwitching) }
    if policy.requirePlacement, !accessory.reportsPlacement {
      return .leftAlone(.placementRequired)
    }
    if let refusal = multipointRefusal(accessory) {
      return .ineligible(refusal)
    }
    if let awaiting = awaitingFirstReport(accessory) { return awaiting }
    var since = accessory.connectionChangedAt
    let basis: Basis
    if accessory.reportsPlacement {
      if let placement = accessory.placement {
        since = max(since, accessory.placementChangedAt)
        basis = .worn(placement)
      } else {
        guard policy.eligibleWhenPlacementUnknown else {
          return .leftAlone(.placementUnknown)
        }
        basis = .placementUnknown
      }
    } else {
      basis = .connected
    }
    let owned = outputsOfAccessory[index]
    if let output = owned.first(where: { usable[$0] }) {
      return .eligible(output: output, since: since, basis: basis)
    }
    if let first = owned.first {
      return .ineligible(.outputUnavailable(outputs[first].name))
    }
    if let missing = accessory.outputMissingSince,
      snapshot.now - missing < policy.reappearGraceSeconds
    {
      return .waitingForOutput(
        until: missing + policy.reappearGraceSeconds, since: since,
        basis: basis)
    }
    if let card = cardOfAccessory[index], let profile = outputProfile(for: card)
    {
      return .needsProfile(
        card: card.name, profile: profile, since: since, basis: basis)
    }
    return .ineligible(.notConnected)
  }

  /// Returns why multipoint rules keep an accessory from this host, or nil
  /// when it is this host's to use.
  func multipointRefusal(
    _ accessory: Accessory
  ) -> AccessoryStatus.IneligibleReason? {
    let primary = accessory.primarySource.map(normalizedAddress)
    let secondary = accessory.secondarySource.map(normalizedAddress)
    if primary == nil, secondary == nil { return nil }
    if hostAddresses.isEmpty { return nil }
    if let primary, hostAddresses.contains(primary) { return nil }
    if let secondary, hostAddresses.contains(secondary) {
      if policy.takeWhenSecondarySource { return nil }
      return .secondarySourceOnly(primary: primary)
    }
    return .otherHosts(primary, secondary)
  }

  func outputProfile(for card: Card) -> String? {
    guard policy.activateOutputProfile else { return nil }
    let active = card.profiles.first { $0.name == card.activeProfile }
    if let active, active.outputCount > 0 { return nil }
    return card.profiles.filter { $0.isAvailable && $0.outputCount > 0 }
      .min { ($1.priority, $0.name) < ($0.priority, $1.name) }?.name
  }

  /// Rule `profiles`: card profiles to activate for eligible accessories
  /// that have no output.
  mutating func requestProfiles(
    _ statuses: [AccessoryStatus]
  ) -> [ProfileRequest] {
    var requests: [ProfileRequest] = []
    for status in statuses {
      if case .needsProfile(let card, let profile, _, _) = status {
        requests.append(ProfileRequest(card: card, profile: profile))
      }
    }
    if explaining, !requests.isEmpty {
      step(
        "profiles",
        requests.map { "activate '\($0.profile)' on \($0.card)" }
          .joined(separator: "; "))
    }
    return requests
  }

  /// Rule `manual-choice`: whether the person's own choice stands.
  mutating func respectedManualChoice() -> Int? {
    guard let choice = snapshot.manualChoice else { return nil }
    let judgement = judgeManualChoice(choice)
    if explaining {
      let respected = judgement == nil
      step(
        "manual-choice",
        respected
          ? "respect the choice of \(label(outputIndex[choice.output]!))"
          : "set aside the choice of \(choice.output)",
        [
          .init(
            subject: choice.output, verdict: respected ? .chosen : .rejected,
            reason: "chosen \(ago(choice.at))"
              + (judgement.map { "; \($0())" } ?? ""))
        ])
    }
    return judgement == nil ? outputIndex[choice.output] : nil
  }

  /// Returns nil when the choice stands, or why it does not.
  mutating func judgeManualChoice(
    _ choice: ManualChoice
  ) -> (() -> String)? {
    if policy.manualChoiceRespect == .never {
      return { "the policy never keeps manual choices" }
    }
    guard let index = outputIndex[choice.output], usable[index] else {
      return { "the output is gone or unavailable" }
    }
    let end = choice.at + policy.manualChoiceHoldSeconds
    if policy.manualChoiceHoldSeconds > 0, snapshot.now >= end {
      let hold = policy.manualChoiceHoldSeconds
      return { "the policy holds a choice for \(formatSeconds(hold)) s" }
    }
    if policy.manualChoiceRespect == .untilAccessoryChange,
      let change = latestAccessoryChange(), change.at > choice.at
    {
      let name = accessories[change.accessory].accessory.name
      let when = ago(change.at)
      return { "\(name) changed \(change.what) \(when), after the choice" }
    }
    if policy.manualChoiceHoldSeconds > 0 { remind(at: end) }
    return nil
  }

  func latestAccessoryChange() -> (at: Instant, accessory: Int, what: String)? {
    var latest: (at: Instant, accessory: Int, what: String)?
    for (position, entry) in accessories.enumerated() {
      let accessory = entry.accessory
      if accessory.placementChangedAt > (latest?.at ?? -.infinity) {
        latest = (accessory.placementChangedAt, position, "placement")
      }
      if accessory.connectionChangedAt > (latest?.at ?? -.infinity) {
        latest = (accessory.connectionChangedAt, position, "connection")
      }
    }
    return latest
  }

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

  /// Rule `hold`: do nothing while an accessory is within a grace time, so
  /// that quick changes do not flap the output.
  ///
  /// The accessory that has the output keeps it through its off-head grace
  /// time unless another accessory was put on after it was taken off (a
  /// real handover). An accessory whose output is coming back holds only
  /// when no accessory won.
  mutating func holdForGrace(
    _ statuses: [AccessoryStatus], winnerSince: Instant?
  ) -> (() -> String)? {
    var reasons: [() -> String] = []
    let defaultOwner = snapshot.defaultOutput.flatMap { outputIndex[$0] }
      .flatMap { owner[$0] }
    for (position, status) in statuses.enumerated() {
      let name = accessories[position].accessory.name
      switch status {
      case .waitingForOutput(let until, _, _) where winnerSince == nil:
        remind(at: until)
        let remaining = until - snapshot.now
        reasons.append {
          "\(name)'s output is expected back within "
            + "\(formatSeconds(remaining)) s"
        }
      case .takenOff(let at) where defaultOwner == position:
        if let winnerSince, winnerSince > at { continue }
        // Only an accessory that was worn is expected back: one reported
        // off from the start hands the output back at once.
        guard accessories[position].accessory.reportedWorn else { continue }
        let grace = policy.offHeadGraceSeconds
        if snapshot.now < at + grace {
          remind(at: at + grace)
          let when = ago(at)
          reasons.append {
            "\(name) was taken off \(when); the output stays for the "
              + "\(formatSeconds(grace)) s grace time in case it is put back on"
          }
        } else if policy.whenTakenOff == .stay, winnerSince == nil {
          reasons.append {
            "\(name) was taken off, and the policy leaves the output where "
              + "it is"
          }
        }
      default:
        continue
      }
    }
    guard !reasons.isEmpty else { return nil }
    let reason = { reasons.map { $0() }.joined(separator: "; ") }
    if explaining { step("hold", reason()) }
    return reason
  }

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

  /// Rule `streams`: which streams move to the target, or to the output
  /// their role is routed to.
  mutating func planMoves(
    target: Int?, statuses: [AccessoryStatus]
  ) -> [StreamMove] {
    guard let target else {
      if explaining { step("streams", "no stream moves") }
      return []
    }
    let targetName = outputs[target].name
    // Routes by role, worked out once per role; streams share a few roles,
    // so a list compared by equality beats hashing each stream's role.
    var routes: [(role: String, output: String?)] = []
    var moves: [StreamMove] = []
    var candidates: [Explanation.Candidate] = []
    let inOrder = zip(snapshot.streams, snapshot.streams.dropFirst())
      .allSatisfy { $0.id < $1.id }
    let streams =
      inOrder ? snapshot.streams : snapshot.streams.sorted { $0.id < $1.id }
    for stream in streams {
      if let pin = stream.pinnedBy {
        if explaining {
          candidates.append(
            .init(
              subject: subject(of: stream), verdict: .rejected,
              reason: pin.reason(onOutput: stream.output)))
        }
        continue
      }
      var destination: String?
      var routedRole: String?
      if let role = stream.role, !policy.roleRoutes.isEmpty {
        let routed: String?
        if let known = routes.first(where: { $0.role == role }) {
          routed = known.output
        } else {
          routed = routedOutput(role: role, statuses: statuses)
          routes.append((role, routed))
        }
        if let routed {
          destination = routed
          routedRole = role
        }
      }
      if destination == nil, policy.streamsFollow {
        destination = targetName
      }
      guard let destination, destination != stream.output else {
        if explaining {
          candidates.append(
            .init(
              subject: subject(of: stream), verdict: .passedOver,
              reason: destination == nil
                ? "the policy does not move streams"
                : "already on \(stream.output)"))
        }
        continue
      }
      moves.append(
        StreamMove(stream: stream.id, from: stream.output, to: destination))
      if explaining {
        let why =
          routedRole.map { "role '\($0)' is routed to \(destination)" }
          ?? "follows the default"
        candidates.append(
          .init(
            subject: subject(of: stream), verdict: .chosen,
            reason: "moves from \(stream.output) to \(destination): \(why)"))
      }
    }
    if explaining {
      step(
        "streams",
        "\(moves.count) of \(snapshot.streams.count) streams move", candidates)
    }
    return moves
  }

  func routedOutput(role: String, statuses: [AccessoryStatus]) -> String? {
    guard let route = policy.roleRoutes.first(where: { $0.role == role })
    else { return nil }
    for match in route.outputs {
      var best: Int?
      for (position, output) in outputs.enumerated() {
        guard usable[position], match.matches(output) else { continue }
        if let accessory = owner[position], !statuses[accessory].isEligible {
          continue
        }
        if let current = best,
          facts.priority(current) >= facts.priority(position)
        {
          continue
        }
        best = position
      }
      if let best { return outputs[best].name }
    }
    return nil
  }

  // MARK: - Words

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
      "connected since \(ago(since)) (does not report placement)"
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

  // MARK: - Helpers

  mutating func remind(at instant: Instant) {
    guard instant > snapshot.now else { return }
    reconsiderAt = min(reconsiderAt ?? instant, instant)
  }

  func ago(_ instant: Instant) -> String {
    let seconds = snapshot.now - instant
    return seconds >= 0
      ? "\(formatSeconds(seconds)) s ago" : "in \(formatSeconds(-seconds)) s"
  }

  func label(_ index: Int) -> String {
    let output = outputs[index]
    guard output.description != output.name else { return output.name }
    return "\(output.name) (\(output.description))"
  }
}

/// The policy's verdicts on each output, worked out on first use: matching
/// every output against every rule is the costliest part of a decision, and
/// most decisions need few of them.
final class PolicyFacts {
  private let outputs: [Output]
  private let policy: Policy
  private var priorities: [Int?]
  private var exclusions: [Int??]

  init(outputs: [Output], policy: Policy) {
    self.outputs = outputs
    self.policy = policy
    self.priorities = Array(repeating: nil, count: outputs.count)
    self.exclusions = Array(repeating: nil, count: outputs.count)
  }

  /// The output's priority under the policy.
  func priority(_ index: Int) -> Int {
    if let known = priorities[index] { return known }
    let value = policy.priority(of: outputs[index])
    priorities[index] = value
    return value
  }

  /// The position of the policy rule that excludes the output, if any.
  func exclusion(_ index: Int) -> Int? {
    if let known = exclusions[index] { return known }
    let output = outputs[index]
    let value = policy.excludedOutputs.firstIndex { $0.matches(output) }
    exclusions[index] = .some(value)
    return value
  }
}

/// Returns seconds rounded to a tenth, without a needless `.0`.
func formatSeconds(_ seconds: Double) -> String {
  formatNumber((seconds * 10).rounded() / 10)
}

/// Returns a Bluetooth address in upper case with `:` separators.
func normalizedAddress(_ address: String) -> String {
  let isNormal = address.utf8.allSatisfy { byte in
    byte != UInt8(ascii: "-")
      && !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
  }
  if isNormal { return address }
  return String(address.uppercased().map { $0 == "-" ? ":" : $0 })
}
