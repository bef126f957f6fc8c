// Rule `input`: which microphone is the default input. The person's own
// choice first, under the output's rules; then, in a call, the microphone
// of the worn accessory that has the output; else a good current input,
// the one used before, or the first built-in one. Never the microphone of
// a registered accessory that is not worn, and never a monitor.

extension DecisionRun {
  /// Rule `input`: the input that should be the default, or nil to leave
  /// it, and whether it is the person's own choice.
  mutating func chooseInput(
    call: CallState, statuses: [AccessoryStatus]
  ) -> (input: Int, isPersonsChoice: Bool)? {
    let inCall = call.phase != .none && policy.callsUseHeadset
    /// Whether an input may be the default: it records, is no monitor,
    /// and belongs to no registered accessory, unless to the one a call
    /// uses or, for the person's own choice, to one that is worn.
    func claimable(_ index: Int, chosen: Bool = false) -> Bool {
      let input = inputs[index]
      guard input.isAvailable, input.monitorOf == nil else { return false }
      // The microphone of an accessory the engine leaves alone counts as
      // no accessory's.
      guard let owner = inputOwner[index],
        !Self.isLeftAlone(statuses[owner])
      else { return true }
      if chosen { return isWorn(statuses[owner]) }
      return inCall && owner == call.accessory
    }
    var candidates: [Explanation.Candidate] = []
    var choice: (input: Int, why: String)?

    if let manual = snapshot.manualInputChoice {
      var setAside: (() -> String)?
      if let index = inputIndex[manual.output], claimable(index, chosen: true) {
        setAside = judgeChoiceTime(manual.at)
        if setAside == nil { choice = (index, Self.personsChoice) }
      } else if let index = inputIndex[manual.output],
        let owner = inputOwner[index], !isWorn(statuses[owner])
      {
        let name = accessories[owner].accessory.name
        setAside = { "\(name) is not worn" }
      } else {
        setAside = { "the input is gone, unavailable or a monitor" }
      }
      if explaining, let setAside {
        candidates.append(
          .init(
            subject: manual.output, verdict: .rejected,
            reason: "chosen \(ago(manual.at)); \(setAside())"))
      }
    }
    if choice == nil, call.phase == .active, policy.callsUseHeadset,
      let accessory = call.accessory,
      let microphone = inputs.indices.first(where: {
        inputOwner[$0] == accessory && claimable($0)
      })
    {
      let name = accessories[accessory].accessory.name
      choice = (microphone, "the microphone of \(name), worn, for the call")
    }
    let current = snapshot.defaultInput.flatMap { inputIndex[$0] }
    if choice == nil, let current, claimable(current) {
      choice = (current, "the current input can still record")
    }
    if choice == nil {
      for name in snapshot.inputHistory {
        guard let index = inputIndex[name], inputs[index].accessory == nil,
          claimable(index)
        else { continue }
        choice = (index, "back to the input used before")
        break
      }
    }
    if choice == nil,
      let builtIn = inputs.indices.first(where: {
        inputs[$0].accessory == nil && claimable($0)
      })
    {
      choice = (builtIn, "the first input of no accessory")
    }
    if explaining {
      /// Why an input that was not chosen could not be.
      func whyNot(_ index: Int) -> String {
        let input = inputs[index]
        if let output = input.monitorOf {
          return "the monitor of \(output): what plays there"
        }
        if !input.isAvailable { return "it cannot record" }
        guard let owner = inputOwner[index] else {
          return "another input comes first"
        }
        let name = accessories[owner].accessory.name
        if !isWorn(statuses[owner]) { return "\(name) is not worn" }
        return claimable(index)
          ? "another input comes first"
          : "\(name)'s microphone is used only for a call while \(name) "
            + "has the output"
      }
      if let name = snapshot.defaultInput, choice?.input != current {
        candidates.append(
          .init(
            subject: name, verdict: .rejected,
            reason: current.map(whyNot) ?? "gone"))
      }
      if let choice {
        candidates.append(
          .init(
            subject: inputs[choice.input].name, verdict: .chosen,
            reason: choice.why))
      }
      // Every accessory's microphone that was not chosen, and why.
      var listed = Set(candidates.map(\.subject))
      for index in inputs.indices where index != choice?.input {
        let input = inputs[index]
        guard let owner = inputOwner[index], input.monitorOf == nil,
          !Self.isLeftAlone(statuses[owner]), listed.insert(input.name).inserted
        else { continue }
        candidates.append(
          .init(subject: input.name, verdict: .rejected, reason: whyNot(index)))
      }
      step(
        "input",
        choice.map { "use \(inputLabel($0.input))" } ?? "nothing to use",
        candidates)
    }
    return choice.map { ($0.input, $0.why == Self.personsChoice) }
  }

  private static let personsChoice = "the person's own choice"

  /// Whether the engine leaves an accessory alone: registered without
  /// `audioSwitching`, or unable to say where it is when that is needed.
  private static func isLeftAlone(_ status: AccessoryStatus) -> Bool {
    if case .leftAlone = status { true } else { false }
  }
}
