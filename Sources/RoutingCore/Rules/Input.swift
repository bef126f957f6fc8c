// Rule `input`: which microphone is the default input. The person's own
// choice first, under the output's rules; then, in a call, the microphone
// of the worn accessory that has the output. Otherwise the input stays as
// it is, unless it is the microphone of a registered accessory nobody
// wears, or the microphone chosen for a call that has ended: then the one
// used before, or the first built-in one. Never the microphone of a
// registered accessory that is not worn; a monitor only by the person's
// choice or where it already is.

extension DecisionRun {
  /// Rule `input`: the input that should be the default, or nil to leave
  /// it; whether it is the person's own choice; whether it is for a call;
  /// and whether the server moves it there by itself, with the default
  /// output (not to be sent).
  ///
  /// - Parameter target: The output the decision gives the default.
  mutating func chooseInput(
    call: CallState, statuses: [AccessoryStatus], target: Int?
  ) -> (
    input: Int, isPersonsChoice: Bool, isForCall: Bool,
    followsTheDefault: Bool
  )? {
    let inCall = call.phase != .none && policy.callsUseHeadset
    /// The registered accessory an input belongs to, unless the engine
    /// leaves it alone: its microphone counts as no accessory's.
    func owner(_ index: Int) -> Int? {
      inputOwner[index].flatMap { Self.isLeftAlone(statuses[$0]) ? nil : $0 }
    }
    /// Whether an input may replace the default: it records, is no
    /// monitor, and belongs to no registered accessory, unless to the one
    /// a call uses.
    func claimable(_ index: Int) -> Bool {
      let input = inputs[index]
      guard input.isAvailable, input.monitorOf == nil else { return false }
      guard let owner = owner(index) else { return true }
      return inCall && owner == call.accessory
    }
    /// Whether the person's choice may stand: it can record (a monitor
    /// included) and is no microphone of a registered accessory that is
    /// not worn.
    func mayBeChosen(_ index: Int) -> Bool {
      guard inputs[index].isAvailable else { return false }
      return owner(index).map { isWorn(statuses[$0]) } ?? true
    }
    /// Whether the current default may stay: anything that can record but
    /// the microphone of a registered accessory that is not worn and,
    /// once no call runs, the microphone the engine chose for one.
    func mayStay(_ index: Int) -> Bool {
      let input = inputs[index]
      if input.monitorOf != nil { return true }
      guard input.isAvailable else { return false }
      guard let owner = owner(index) else { return true }
      guard isWorn(statuses[owner]) else { return false }
      return call.phase != .none || input.name != snapshot.callInput
    }
    var candidates: [Explanation.Candidate] = []
    var choice: (input: Int, why: String)?
    var isForCall = false

    if let manual = snapshot.manualInputChoice {
      var setAside: (() -> String)?
      if let index = inputIndex[manual.output], mayBeChosen(index) {
        let holders = Set([owner(index)].compactMap { $0 })
        setAside = judgeChoiceTime(manual.at, statuses, holders: holders)
        if setAside == nil { choice = (index, Self.personsChoice) }
      } else if let index = inputIndex[manual.output],
        let owner = owner(index), !isWorn(statuses[owner])
      {
        let name = accessories[owner].accessory.name
        setAside = { "\(name) is not worn" }
      } else {
        setAside = { "the input is gone or cannot record" }
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
      isForCall = true
    }
    let current = snapshot.defaultInput.flatMap { inputIndex[$0] }
    // With no input configured, PulseAudio's default input is the default
    // output's monitor, and it moves it to the new output's monitor with
    // the default: the decision says where it goes, and sends nothing.
    var followsTheDefault = false
    if choice == nil, snapshot.monitorFollowsTheDefault,
      snapshot.manualInputChoice == nil, let current,
      let monitored = inputs[current].monitorOf,
      monitored == snapshot.defaultOutput, let target,
      outputs[target].name != monitored,
      let moved = inputs.indices.first(where: {
        inputs[$0].monitorOf == outputs[target].name
      })
    {
      choice = (moved, "the default output's monitor, which follows it")
      followsTheDefault = true
    }
    if choice == nil, let current, mayStay(current) {
      choice = (current, "the current input stays")
    }
    // Only an input that may not stay is replaced; with no default, or one
    // that is gone, the server's own choice stands.
    if choice == nil, current != nil {
      for name in snapshot.inputHistory {
        guard let index = inputIndex[name], owner(index) == nil,
          claimable(index)
        else { continue }
        choice = (index, "back to the input used before")
        break
      }
      if choice == nil,
        let builtIn = inputs.indices.first(where: {
          owner($0) == nil && claimable($0)
        })
      {
        choice = (builtIn, "the first input of no accessory")
      }
    }
    if explaining {
      /// Why an input that was not chosen could not be.
      func whyNot(_ index: Int) -> String {
        let input = inputs[index]
        if let output = input.monitorOf {
          return index == current && followsTheDefault
            ? "the monitor of \(output), which gives up the default"
            : "the monitor of \(output): what plays there"
        }
        if !input.isAvailable { return "it cannot record" }
        guard let owner = owner(index) else {
          return "another input comes first"
        }
        let name = accessories[owner].accessory.name
        if !isWorn(statuses[owner]) { return "\(name) is not worn" }
        if index == current, !mayStay(index) {
          return "chosen for a call that has ended"
        }
        return claimable(index)
          ? "another input comes first"
          : "\(name)'s microphone is used for a call while \(name) has "
            + "the output"
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
        guard owner(index) != nil, input.monitorOf == nil,
          listed.insert(input.name).inserted
        else { continue }
        candidates.append(
          .init(subject: input.name, verdict: .rejected, reason: whyNot(index)))
      }
      step(
        "input",
        choice.map { "use \(inputLabel($0.input))" }
          ?? "leave the input as it is",
        candidates)
    }
    return choice.map {
      ($0.input, $0.why == Self.personsChoice, isForCall, followsTheDefault)
    }
  }

  private static let personsChoice = "the person's own choice"

  /// Whether the engine leaves an accessory alone: registered without
  /// `audioSwitching`, or unable to say where it is when that is needed.
  private static func isLeftAlone(_ status: AccessoryStatus) -> Bool {
    if case .leftAlone = status { true } else { false }
  }
}
