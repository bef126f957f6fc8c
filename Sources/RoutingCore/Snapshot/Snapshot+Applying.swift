// The state a decision produces, for checking decisions against themselves
// (idempotence) and for simulating a sequence of changes.

extension Snapshot {
  /// Returns the snapshot as it is after the decision is applied.
  ///
  /// The default becomes the target (the old default goes to the front of
  /// the history), the streams are moved, the default input changes the
  /// same way, requested card profiles become active, and the call records
  /// are kept as the service keeps them; a default set, or set again,
  /// leaves no gone output configured. Outputs and inputs that a profile
  /// would create are not invented.
  ///
  /// - Parameter decision: A decision made on this snapshot.
  public func applying(_ decision: Decision) -> Snapshot {
    var result = self
    if let change = decision.defaultChange {
      if let old = defaultOutput, old != change {
        result.outputHistory.removeAll { $0 == old || $0 == change }
        result.outputHistory.insert(old, at: 0)
      }
      result.defaultOutput = change
    }
    // Set again, or replaced by a new default.
    if decision.reassertsDefault || decision.defaultChange != nil {
      result.goneConfiguredOutput = nil
    }
    let destinations = Dictionary(
      decision.moves.map { ($0.stream, $0.to) }, uniquingKeysWith: { $1 })
    for index in result.streams.indices {
      if let destination = destinations[result.streams[index].id] {
        result.streams[index].output = destination
      }
    }
    if let change = decision.defaultInputChange {
      if let old = defaultInput, old != change {
        result.inputHistory.removeAll { $0 == old || $0 == change }
        result.inputHistory.insert(old, at: 0)
      }
      result.defaultInput = change
    }
    result.callInput = decision.callInput(
      after: callInput, defaultInput: defaultInput)
    let ended = Set(decision.endedCallProfiles)
    result.callProfiles.removeAll { ended.contains($0.card) }
    for request in decision.profileRequests {
      for index in result.cards.indices
      where result.cards[index].name == request.card {
        result.cards[index].activeProfile = request.profile
      }
      if request.purpose == .call {
        result.callProfiles.append(
          CallProfile(
            card: request.card,
            previousProfile: request.previousProfile ?? "off",
            callProfile: request.profile))
      }
    }
    return result
  }
}
