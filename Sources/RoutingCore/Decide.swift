// The decision core: small named rules that run in a fixed order, read the
// snapshot and the policy, and write candidates, verdicts and actions. It is
// a pure function: no clock, no I/O, no globals. This file holds the run and
// its order; each rule lives in its own file in Rules/, and the words of the
// explanations in Rules/Wording.swift.
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
  /// The inputs, sorted by name, without duplicates.
  let inputs: [Input]
  /// The position of each input by name.
  let inputIndex: [String: Int]
  /// The position of the registered accessory each input belongs to.
  let inputOwner: [Int?]
  var steps: [Explanation.Step] = []
  var reconsiderAt: Instant?

  init(snapshot: Snapshot, policy: Policy, explaining: Bool) {
    self.snapshot = snapshot
    self.policy = policy
    self.explaining = explaining

    // Sorted by address; of two records with one address, the first given
    // counts (the sort is stable). The routing service gives them sorted
    // already, and then they are only checked.
    // Headphones nobody registered take part only while the policy lets
    // them, and never where placement is required (they report none);
    // else their outputs are plain outputs.
    let follows =
      policy.followUnregisteredHeadphones && !policy.requirePlacement
    let leftToTheServer: Set<String> =
      follows
      ? []
      : Set(
        snapshot.accessories.lazy.filter { !$0.isRegistered }.map(\.address))
    var accessories: [(address: String, accessory: Accessory)] =
      snapshot.accessories.compactMap {
        follows || $0.isRegistered
          ? (address: normalizedAddress($0.address), accessory: $0) : nil
      }
    let isSortedOnce = accessories.indices.dropFirst().allSatisfy {
      accessories[$0 - 1].address < accessories[$0].address
    }
    if !isSortedOnce {
      let given = accessories.sorted { $0.address < $1.address }
      accessories = []
      for entry in given where accessories.last?.address != entry.address {
        accessories.append(entry)
      }
    }
    var accessoryIndex: [String: Int] = [:]
    accessoryIndex.reserveCapacity(accessories.count)
    for (position, entry) in accessories.enumerated() {
      accessoryIndex[entry.address] = position
    }
    self.accessories = accessories

    var outputIndex: [String: Int] = [:]
    var outputs: [Output] = []
    for var output in snapshot.outputs.sorted(by: { $0.name < $1.name })
    where outputIndex[output.name] == nil {
      if let address = output.accessory, leftToTheServer.contains(address) {
        output.accessory = nil
      }
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

    var inputIndex: [String: Int] = [:]
    var inputs: [Input] = []
    for input in snapshot.inputs.sorted(by: { $0.name < $1.name })
    where inputIndex[input.name] == nil {
      inputIndex[input.name] = inputs.count
      inputs.append(input)
    }
    self.inputs = inputs
    self.inputIndex = inputIndex
    self.inputOwner = inputs.map { input in
      input.accessory.flatMap { accessoryIndex[normalizedAddress($0)] }
    }
  }

  // MARK: - The rules, in order (each in Rules/)

  mutating func decide() -> Decision {
    explainOutputs()
    let statuses = checkAccessories()
    let profileRequests = requestProfiles(statuses)
    let target: Int?
    let summary: (DecisionRun) -> String
    if let manual = respectedManualChoice(statuses) {
      target = manual
      summary = { "Output \($0.label(manual)): the person's own choice" }
    } else {
      let winner = chooseAccessory(statuses)
      if let kept = keepWithHeadphones(statuses, winner: winner) {
        target = kept
        summary = {
          "Output \($0.label(kept)): worn headphones keep the output when "
            + "another device connects"
        }
      } else if let hold = holdForGrace(statuses, winnerSince: winner?.since) {
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
    let reassertsDefault = forgetGoneOutput(target: target)
    let targetName = target.map { outputs[$0].name }
    let defaultChange = targetName == snapshot.defaultOutput ? nil : targetName
    let call = assessCall(target: target, statuses: statuses)
    let chosenInput = chooseInput(
      call: call, statuses: statuses, target: target)
    let input = chosenInput?.input
    let callProfiles = requestCallProfiles(
      call,
      otherInputChosen: chosenInput.map {
        $0.isPersonsChoice && inputOwner[$0.input] != call.accessory
      } ?? false)
    let calledCards = Set(callProfiles.requests.map(\.card))
    let allProfileRequests =
      profileRequests.filter { !calledCards.contains($0.card) }
      + callProfiles.requests
    let inputName = input.map { inputs[$0].name }
    // The call's microphone is set even when the server shows it as the
    // default already: it may be the default only as the server's own
    // fallback (WirePlumber keeps the configured one apart), or in a
    // connection's stale view (pipewire-pulse's). Once: the service
    // remembers it as the call's input (unless the server refused it), and
    // an input remembered so is not set again.
    let claimsForCall =
      chosenInput?.isForCall == true && inputName != snapshot.callInput
    let serverMovesInput = chosenInput?.followsTheDefault == true
    let defaultInputChange =
      (inputName == snapshot.defaultInput && !claimsForCall)
        || serverMovesInput
      ? nil : inputName
    var explanation = Explanation(summary: "", steps: [])
    if explaining {
      step(
        "default",
        defaultChange.map { _ in "set the default to \(label(target!))" }
          ?? (target.map { "the default is already \(label($0))" }
            ?? "leave the default as it is"))
      step(
        "default-input",
        defaultInputChange.map { _ in
          inputName == snapshot.defaultInput
            ? "set the default input to \(inputLabel(input!)) for the call; "
              + "the server shows it already, and setting it keeps it"
            : "set the default input to \(inputLabel(input!))"
        }
          ?? (input.map {
            serverMovesInput
              ? "the server moves the default input to \(inputLabel($0)) "
                + "with the default output"
              : "the default input is already \(inputLabel($0))"
          }
            ?? "leave the default input as it is"))
      var text = summary(self)
      if !moves.isEmpty {
        text += "; \(moves.count) stream\(moves.count == 1 ? "" : "s") move"
      }
      if let defaultInputChange {
        text += "; input \(defaultInputChange)"
      }
      explanation = Explanation(summary: text, steps: steps)
    }
    return Decision(
      target: targetName,
      defaultChange: defaultChange,
      moves: moves,
      profileRequests: allProfileRequests,
      inputTarget: inputName,
      defaultInputChange: defaultInputChange,
      callInput: chosenInput?.isForCall == true ? inputName : nil,
      callPhase: call.phase,
      callStreams: call.streams.map(\.id),
      endedCallProfiles: callProfiles.ended,
      reassertsDefault: reassertsDefault,
      reconsiderAt: reconsiderAt,
      explanation: explanation)
  }

  // MARK: - Helpers

  mutating func remind(at instant: Instant) {
    guard instant > snapshot.now else { return }
    reconsiderAt = min(reconsiderAt ?? instant, instant)
  }

  func ago(_ instant: Instant) -> String {
    ElapsedTime.ago(snapshot.now - instant)
  }

  func label(_ index: Int) -> String {
    let output = outputs[index]
    guard output.description != output.name else { return output.name }
    return "\(output.name) (\(output.description))"
  }

  func inputLabel(_ index: Int) -> String {
    let input = inputs[index]
    guard input.description != input.name else { return input.name }
    return "\(input.name) (\(input.description))"
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

/// Returns a number as a person writes it: a whole number without a
/// needless `.0`.
package func formatNumber(_ number: Double) -> String {
  number == number.rounded() && abs(number) < 1e15
    ? String(Int64(number)) : String(number)
}

/// Returns seconds rounded to a tenth, without a needless `.0`.
func formatSeconds(_ seconds: Double) -> String {
  formatNumber((seconds * 10).rounded() / 10)
}

/// Returns a Bluetooth address in upper case with `:` separators; any
/// other identity (wired headphones' `jack:` and a name) as it is.
func normalizedAddress(_ address: String) -> String {
  let bytes = Array(address.utf8)
  guard bytes.count == 17,
    [2, 5, 8, 11, 14].allSatisfy({
      bytes[$0] == UInt8(ascii: ":") || bytes[$0] == UInt8(ascii: "-")
    })
  else { return address }
  let isNormal = address.utf8.allSatisfy { byte in
    byte != UInt8(ascii: "-")
      && !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
  }
  if isNormal { return address }
  return String(address.uppercased().map { $0 == "-" ? ":" : $0 })
}
