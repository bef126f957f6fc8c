// Properties of the decision core, checked over thousands of seeded random
// snapshots and policies (see SnapshotGenerator.swift). A failure names the
// property, the seed and the case, and shows the failing snapshot, shrunk,
// as JSON.
//
// ROUTING_PROPERTY_SEED (decimal or 0x-hex) and ROUTING_PROPERTY_CASES
// change the run.

import Foundation
import Testing

@testable import RoutingCore

/// The seed every case derives from.
private let baseSeed: UInt64 = {
  guard let text = ProcessInfo.processInfo.environment["ROUTING_PROPERTY_SEED"]
  else { return 0xACCE_5501_2026_0001 }
  if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? 0 }
  return UInt64(text) ?? 0
}()

/// How many cases each property checks.
private let caseCount =
  ProcessInfo.processInfo.environment["ROUTING_PROPERTY_CASES"].flatMap {
    Int($0)
  } ?? 5000

/// The repository's policies/ folder.
private let policyFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("policies")

/// A generated case with its decision, made once and shared by the
/// properties.
private struct DecidedCase: Sendable {
  let input: PropertyCase
  let decision: Decision
}

/// Every case, made once for the whole suite.
private let corpus: Result<[DecidedCase], any Error> = Result {
  let policies = try SnapshotGenerator.loadPolicies(in: policyFolder)
  return try (0..<caseCount).map { index in
    let input = try SnapshotGenerator.makeCase(
      index: index, seed: PropertyRNG.derive(baseSeed, index),
      basePolicies: policies)
    return DecidedCase(
      input: input, decision: decide(input.snapshot, input.policy))
  }
}

/// Checks a property on every case; reports how many cases fail, and the
/// first failure, shrunk, as JSON.
///
/// - Parameter violation: Returns what is wrong with a decision on a
///   snapshot under a policy, or nil when the property holds. The decision
///   passed is `decide(snapshot, policy)`.
private func check(
  _ property: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ violation: (Snapshot, Policy, Decision) -> String?
) throws {
  let cases = try corpus.get()
  #expect(cases.count == caseCount)
  var failures: [(DecidedCase, String)] = []
  for decided in cases {
    let input = decided.input
    if let problem = violation(input.snapshot, input.policy, decided.decision) {
      failures.append((decided, problem))
    }
  }
  guard let (first, _) = failures.first else { return }
  let input = first.input
  let minimal = SnapshotShrinker.shrink(input.snapshot) { snapshot in
    violation(snapshot, input.policy, decide(snapshot, input.policy)) != nil
  }
  let decision = decide(minimal, input.policy)
  let problem = violation(minimal, input.policy, decision) ?? "?"
  Issue.record(
    """
    Property '\(property)' fails for \(failures.count) of \(cases.count) \
    cases (base seed 0x\(String(baseSeed, radix: 16)); rerun with \
    ROUTING_PROPERTY_SEED=0x\(String(baseSeed, radix: 16))).
    First failure: case \(input.index), case seed \
    0x\(String(input.seed, radix: 16)), policy \(input.policyName).
    Violation (shrunk snapshot): \(problem)
    Minimal failing snapshot:
    \(minimal.propertyReportJSON)
    Policy: \(input.policy)
    Decision on it:
    \(decision.explanation.text)
    """,
    sourceLocation: sourceLocation)
}

// MARK: - Independent readings of the rules

/// Returns a Bluetooth address in upper case with `:` separators.
private func normalized(_ address: String) -> String {
  String(address.uppercased().map { $0 == "-" ? ":" : $0 })
}

/// The person's choice, when the policy says it stands: worked out from the
/// policy's documentation, independently of Decide.swift.
private func standingManualChoice(_ s: Snapshot, _ p: Policy) -> String? {
  guard let choice = s.manualChoice, p.manualChoiceRespect != .never,
    let output = s.outputs.first(where: { $0.name == choice.output }),
    output.isAvailable
  else { return nil }
  if p.manualChoiceHoldSeconds > 0,
    s.now >= choice.at + p.manualChoiceHoldSeconds
  {
    return nil
  }
  // Only a change of the accessory whose output the choice is, or of one
  // that may take the output (the eligibility rule's word), sets it aside.
  let run = DecisionRun(snapshot: s, policy: p, explaining: false)
  let chosenOwner = output.accessory.map(normalized)
  if p.manualChoiceRespect == .untilAccessoryChange,
    run.accessories.indices.contains(where: { position in
      let accessory = run.accessories[position]
      let considered =
        accessory.address == chosenOwner
        || run.wantsOutput(position, run.eligibility(of: position))
      return considered
        && max(
          accessory.accessory.placementChangedAt,
          accessory.accessory.connectionChangedAt) > choice.at
    })
  {
    return nil
  }
  return choice.output
}

/// The normalized addresses of the registered accessories.
private func registeredAddresses(_ s: Snapshot) -> Set<String> {
  Set(s.accessories.map { normalized($0.address) })
}

// MARK: - The properties

@Suite("Decision-core properties over generated snapshots")
struct PropertyTests {
  @Test("Deciding twice gives the same decision, explanation included")
  func determinism() throws {
    try check("determinism") { snapshot, policy, decision in
      let again = decide(snapshot, policy)
      return again == decision
        ? nil
        : "two decisions differ:\n\(decision)\n---\n\(again)"
    }
  }

  @Test("Deciding without the explanation decides the same")
  func explainingChangesOnlyTheExplanation() throws {
    try check("explaining is only words") { snapshot, policy, decision in
      var quiet = decide(snapshot, policy, explaining: false)
      guard quiet.explanation == Explanation(summary: "", steps: []) else {
        return "a decision without explaining has an explanation"
      }
      quiet.explanation = decision.explanation
      return quiet == decision
        ? nil
        : "the decisions differ:\n\(decision)\n---\n\(quiet)"
    }
  }

  @Test("The order of accessories, outputs, cards, streams, hosts is moot")
  func orderIndependence() throws {
    try check("independence from the order of inputs") {
      snapshot, policy, decision in
      var rng = PropertyRNG(seed: 0x5_4FF1E)
      var shuffled = snapshot
      shuffled.accessories.shuffle(using: &rng)
      shuffled.outputs.shuffle(using: &rng)
      shuffled.cards.shuffle(using: &rng)
      shuffled.streams.shuffle(using: &rng)
      shuffled.hostAddresses.shuffle(using: &rng)
      let other = decide(shuffled, policy)
      var differences: [String] = []
      if other.target != decision.target { differences.append("target") }
      if other.defaultChange != decision.defaultChange {
        differences.append("defaultChange")
      }
      if other.moves != decision.moves { differences.append("moves") }
      if other.profileRequests != decision.profileRequests {
        differences.append("profileRequests")
      }
      if other.reconsiderAt != decision.reconsiderAt {
        differences.append("reconsiderAt")
      }
      if other.explanation != decision.explanation {
        differences.append("explanation")
      }
      guard !differences.isEmpty else { return nil }
      return "shuffling the inputs changes "
        + differences.joined(separator: ", ")
        + ":\n\(decision.explanation.text)\n--- shuffled:\n"
        + other.explanation.text
    }
  }

  @Test("Deciding again after applying a decision changes nothing")
  func idempotence() throws {
    try check("idempotence") { snapshot, policy, decision in
      let next = decide(snapshot.applying(decision), policy)
      guard next.hasActions else { return nil }
      return "after applying \(decision.explanation.summary), the next "
        + "decision still acts: defaultChange \(next.defaultChange ?? "nil")"
        + ", \(next.moves.count) moves, profileRequests "
        + "\(next.profileRequests)\n--- next decision:\n"
        + next.explanation.text
    }
  }

  @Test("The target exists and can play; a default change is the target")
  func targetIsAvailable() throws {
    try check("target present and available") { snapshot, _, decision in
      if let change = decision.defaultChange {
        if change != decision.target {
          return "defaultChange \(change) is not the target"
        }
        if change == snapshot.defaultOutput {
          return "defaultChange \(change) is already the default"
        }
      }
      guard let target = decision.target else { return nil }
      guard let output = snapshot.outputs.first(where: { $0.name == target })
      else { return "target \(target) is not among the outputs" }
      return output.isAvailable ? nil : "target \(target) is unavailable"
    }
  }

  // An excluded output may be the target only when
  // (a) it is the person's own choice and the policy says that stands, or
  // (b) it belongs to a registered accessory (the accessory rule, and the
  //     fallback's current/previous outputs of eligible accessories, do not
  //     look at exclusions; only the owner's eligibility counts), or
  // (c) nothing avoidable exists: no output that can play, is not excluded,
  //     and is claimable without knowing any accessory's eligibility, that
  //     is, one that belongs to no accessory, or belongs to an unregistered
  //     one and is the current default or in the history (fallback looks
  //     for claimable outputs among the current one, the history and the
  //     accessory-less outputs, non-excluded ones first).
  @Test("An excluded output is the target only when it is unavoidable")
  func excludedOnlyWhenUnavoidable() throws {
    try check("excluded only when unavoidable") { snapshot, policy, decision in
      guard let target = decision.target,
        let output = snapshot.outputs.first(where: { $0.name == target }),
        policy.excludes(output)
      else { return nil }
      if target == standingManualChoice(snapshot, policy) { return nil }
      let registered = registeredAddresses(snapshot)
      if let owner = output.accessory.map(normalized),
        registered.contains(owner)
      {
        return nil
      }
      let recent = Set(
        [snapshot.defaultOutput].compactMap { $0 } + snapshot.outputHistory)
      let avoidable = snapshot.outputs.filter { candidate in
        guard candidate.isAvailable, !policy.excludes(candidate) else {
          return false
        }
        guard let owner = candidate.accessory.map(normalized) else {
          return true
        }
        return !registered.contains(owner) && recent.contains(candidate.name)
      }
      guard !avoidable.isEmpty else { return nil }
      return "target \(target) is excluded, although "
        + avoidable.map(\.name).joined(separator: ", ")
        + " can play, are not excluded and belong to no registered accessory"
    }
  }

  @Test("No new target and no move onto a taken-off accessory's output")
  func neverToTakenOffAccessory() throws {
    try check("never onto an offHead accessory's output") {
      snapshot, policy, decision in
      let offHead = Set(
        snapshot.accessories.filter {
          $0.reportsPlacement && $0.placement == .offHead
        }.map { normalized($0.address) })
      let offHeadOutputs = Set(
        snapshot.outputs.filter {
          $0.accessory.map(normalized).map(offHead.contains) ?? false
        }.map(\.name))
      // The person may choose a taken-off accessory's output themselves.
      let standing = standingManualChoice(snapshot, policy)
      if let change = decision.defaultChange, offHeadOutputs.contains(change),
        change != standing
      {
        return "the default changes to \(change), whose accessory is offHead"
      }
      for move in decision.moves
      where offHeadOutputs.contains(move.to) && move.to != standing {
        return "stream \(move.stream) moves to \(move.to), whose accessory "
          + "is offHead"
      }
      return nil
    }
  }

  @Test("Moves: unpinned streams, onto outputs that can play, never no-ops")
  func movesAreValid() throws {
    try check("valid moves") { snapshot, _, decision in
      var moved = Set<UInt32>()
      var previous: UInt32?
      for move in decision.moves {
        guard moved.insert(move.stream).inserted else {
          return "stream \(move.stream) moves twice"
        }
        if let previous, previous > move.stream {
          return "moves are not ordered by stream index"
        }
        previous = move.stream
        guard
          let stream = snapshot.streams.first(where: { $0.id == move.stream })
        else { return "stream \(move.stream) does not exist" }
        if let pin = stream.pinnedBy {
          return "stream \(move.stream), pinned by the \(pin), moves"
        }
        if move.from != stream.output {
          return "stream \(move.stream) is on \(stream.output), the move says "
            + "\(move.from)"
        }
        if move.from == move.to {
          return "stream \(move.stream) moves from \(move.from) to itself"
        }
        guard let output = snapshot.outputs.first(where: { $0.name == move.to })
        else { return "stream \(move.stream) moves to absent \(move.to)" }
        if !output.isAvailable {
          return "stream \(move.stream) moves to unavailable \(move.to)"
        }
      }
      return nil
    }
  }

  @Test("A time to decide again is after now")
  func reconsiderAtIsLater() throws {
    try check("reconsiderAt after now") { snapshot, _, decision in
      guard let at = decision.reconsiderAt, at <= snapshot.now else {
        return nil
      }
      return "reconsiderAt \(at) is not after now \(snapshot.now)"
    }
  }

  @Test("A manual choice that the policy says stands is the target")
  func standingManualChoiceIsTarget() throws {
    try check("a standing manual choice is the target") {
      snapshot, policy, decision in
      guard let standing = standingManualChoice(snapshot, policy),
        decision.target != standing
      else { return nil }
      return "the choice of \(standing) stands, but the target is "
        + "\(decision.target ?? "nil")"
    }
  }
}

extension PropertyTests {
  /// Counts the cases that reach each rule and situation, so that a change
  /// of the generator cannot make the properties hold vacuously.
  @Test("The generated cases reach every rule, so the properties have teeth")
  func generatorCoverage() throws {
    let cases = try corpus.get()
    var counts: [String: Int] = [:]
    func count(_ situation: String, _ reached: Bool) {
      counts[situation, default: 0] += reached ? 1 : 0
    }
    for decided in cases {
      let snapshot = decided.input.snapshot
      let policy = decided.input.policy
      let decision = decided.decision
      let rules = Set(decision.explanation.steps.map(\.rule))
      let target = decision.target.flatMap { name in
        snapshot.outputs.first { $0.name == name }
      }
      let offHead = Set(
        snapshot.accessories.filter { $0.placement == .offHead }
          .map { normalized($0.address) })
      let offHeadDefault = snapshot.outputs.contains {
        $0.name == snapshot.defaultOutput
          && ($0.accessory.map(normalized).map(offHead.contains) ?? false)
      }
      count("hold", rules.contains("hold"))
      count("accessory chosen", rules.contains("accessories.choose"))
      count("fallback", rules.contains("fallback"))
      count(
        "no target without a hold", target == nil && !rules.contains("hold"))
      count(
        "standing manual choice", standingManualChoice(snapshot, policy) != nil)
      count(
        "manual choice set aside",
        snapshot.manualChoice != nil
          && standingManualChoice(snapshot, policy) == nil)
      count("default changes", decision.defaultChange != nil)
      count("streams move", !decision.moves.isEmpty)
      count(
        "role-routed move",
        decision.explanation.steps.contains { step in
          step.candidates.contains { $0.reason.contains("is routed to") }
        })
      count("profile requests", !decision.profileRequests.isEmpty)
      count("reconsiderAt", decision.reconsiderAt != nil)
      count("excluded target", target.map(policy.excludes) ?? false)
      count("offHead accessory's output is the default", offHeadDefault)
    }
    let minimum = max(1, cases.count / 100)
    for (situation, reached) in counts.sorted(by: { $0.key < $1.key }) {
      #expect(
        reached >= minimum,
        "only \(reached) of \(cases.count) cases reach '\(situation)'")
    }
  }
}
